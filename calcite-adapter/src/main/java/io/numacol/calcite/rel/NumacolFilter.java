package io.numacol.calcite.rel;

import io.numacol.exec.ColumnFilter;
import io.numacol.exec.PlanNode;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

import java.util.List;

/**
 * A condition numacol evaluates: as vid predicates per part ({@link Predicates}) directly on a
 * scan, or, when {@link #isResidual}, on values in the pipeline executor ({@link RowConditions}):
 * a comparison of two columns, or a condition over a join's rows.
 */
public final class NumacolFilter extends Filter implements NumacolRel {
    private final boolean residual;

    public NumacolFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition) {
        this(cluster, traits, input, condition, false);
    }

    public NumacolFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition, boolean residual) {
        super(cluster, traits, input, condition);
        this.residual = residual;
    }

    /** Whether the pipeline executor evaluates this filter on values rather than the scan on vids. */
    public boolean isResidual() {
        return residual;
    }

    /**
     * Calcite's own rules match any Filter and copy it with conditions rewritten (pushed through
     * a projection, merged): a condition on values the pipeline executor cannot evaluate comes
     * back as a logical filter, which numacol's rules then take or leave.
     */
    @Override
    public Filter copy(RelTraitSet traitSet, RelNode input, RexNode condition) {
        if (residual && !condition.equals(getCondition())) {
            RexNode expanded = RexUtil.expandSearch(getCluster().getRexBuilder(), null, condition);
            if (!RowConditions.supports(expanded, RowConditions.types(input))) {
                return LogicalFilter.create(input, condition);
            }
            condition = expanded;
        }
        return new NumacolFilter(getCluster(), traitSet, input, condition, residual);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).itemIf("on", "values", residual);
    }

    @Override
    public void implement(OneTableImplementor implementor) {
        implementor.visit(getInput());
        implementor.filter(getCondition());
    }

    /** A residual filter over its input's rows; else the scan below with this condition on vids added. */
    @Override
    public PlanNode implement(PipelineImplementor implementor) {
        if (residual) {
            return new PlanNode.Filter(implementor.visit(getInput()),
                    RowConditions.bind(getCondition(), RowConditions.types(getInput()), implementor.root()));
        }
        PlanNode.Scan scan = (PlanNode.Scan) implementor.visit(getInput());
        List<ColumnType> types = NumacolQuery.columnTypes(scan.table());
        ColumnFilter bound = Predicates.bind(getCondition(), types, implementor.root());
        return new PlanNode.Scan(scan.table(), scan.filter() == null ? bound
                : new ColumnFilter.And(List.of(scan.filter(), bound)), scan.columns());
    }
}
