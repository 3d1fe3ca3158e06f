package io.numacol.calcite.rel;

import io.numacol.exec.PlanNode;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.IntStream;

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

    @Override
    public void implement(OneTableImplementor implementor) {
        implementor.visit(getInput());
        implementor.project(getProjects());
    }

    /** Columns of a scan narrow the scan; anything else is computed over its input's rows. */
    @Override
    public PlanNode implement(PipelineImplementor implementor) {
        PlanNode input = implementor.visit(getInput());
        if (input instanceof PlanNode.Scan scan && getProjects().stream().allMatch(e -> e instanceof RexInputRef)) {
            // decode only the columns used
            int[] refs = getProjects().stream().mapToInt(e -> ((RexInputRef) e).getIndex()).toArray();
            return new PlanNode.Scan(scan.table(), scan.filter(), IntStream.of(refs).map(r -> scan.columns()[r]).toArray());
        }
        List<ColumnType> types = input.types();
        return new PlanNode.Project(input, getProjects().stream()
                .map(e -> Objects.requireNonNull(RowExpressions.chunkExpr(e, types, implementor.root()), e::toString)).toList());
    }
}
