package io.numacol.calcite.rel;

import io.numacol.exec.PlanNode;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * GROUP BY columns with COUNT, COUNT(DISTINCT), SUM, MIN, MAX (AVG reaches numacol as SUM and
 * COUNT): task-local hash tables on vids, merged on values.
 */
public final class NumacolAggregate extends Aggregate implements NumacolRel {

    public NumacolAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet groupSet,
                            List<AggregateCall> aggCalls) {
        super(cluster, traits, List.of(), input, groupSet, null, aggCalls);
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
                         List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        return new NumacolAggregate(getCluster(), traitSet, input, groupSet, aggCalls);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public void implement(OneTableImplementor implementor) {
        implementor.visit(getInput());
        implementor.aggregate(getGroupSet(), getAggCallList());
    }

    /** A one-table aggregate of few groups on vids; else the hash aggregate over its input's rows. */
    @Override
    public PlanNode implement(PipelineImplementor implementor) {
        if (NumacolQuery.oneTable(this) && PipelineImplementor.fewGroups(this)) {
            return implementor.oneTableRows(this);
        }
        List<PlanNode.AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : getAggCallList()) {
            int arg = call.getArgList().isEmpty() ? -1 : call.getArgList().getFirst();
            PlanNode.AggregateKind kind = switch (call.getAggregation().getKind()) {
                case COUNT -> arg < 0 ? PlanNode.AggregateKind.COUNT_STAR : PlanNode.AggregateKind.COUNT;
                case SUM -> PlanNode.AggregateKind.SUM;
                case SUM0 -> PlanNode.AggregateKind.SUM0;
                case MIN -> PlanNode.AggregateKind.MIN;
                case MAX -> PlanNode.AggregateKind.MAX;
                default -> throw new IllegalStateException("not a numacol aggregate: " + call);
            };
            calls.add(new PlanNode.AggregateCall(kind, arg, call.filterArg, call.isDistinct()));
        }
        return new PlanNode.Aggregate(implementor.visit(getInput()), getGroupSet().toArray(), calls,
                RowExpressions.chunkTypes(this));
    }
}
