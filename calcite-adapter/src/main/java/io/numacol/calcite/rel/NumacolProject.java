package io.numacol.calcite.rel;

import io.numacol.storage.ColumnType;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Set;

/** Columns and arithmetic ({@link RowExpressions}) over a scan's rows, evaluated in numacol's tasks. */
public final class NumacolProject extends Project implements NumacolRel {

    public NumacolProject(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<? extends RexNode> projects,
                          RelDataType rowType) {
        super(cluster, traits, List.of(), input, projects, rowType, Set.of());
    }

    @Override
    public Project copy(RelTraitSet traitSet, RelNode input, List<RexNode> projects, RelDataType rowType) {
        if (!projects.equals(getProjects())) { // Calcite's rules rewrite projections: keep only what numacol evaluates
            List<ColumnType> types = RowExpressions.chunkTypes(input);
            if (!projects.stream().allMatch(e -> RowExpressions.supports(e) || RowExpressions.chunkExpr(e, types) != null)) {
                return LogicalProject.create(input, List.of(), projects, rowType, Set.of());
            }
        }
        return new NumacolProject(getCluster(), traitSet, input, projects, rowType);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }
}
