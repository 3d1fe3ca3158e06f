package io.numacol.calcite.rel;

import io.numacol.exec.AggregateKind;
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
        List<io.numacol.exec.AggregateCall> calls = getAggCallList().stream().map(NumacolAggregate::engineCall).toList();
        return new PlanNode.Aggregate(implementor.visit(getInput()), getGroupSet().toArray(), calls,
                RowExpressions.chunkTypes(this));
    }

    /** A Calcite aggregate call as the engine's: the one translation both engine paths read. */
    static io.numacol.exec.AggregateCall engineCall(AggregateCall call) {
        int arg = call.getArgList().isEmpty() ? -1 : call.getArgList().getFirst();
        AggregateKind kind = switch (call.getAggregation().getKind()) {
            case COUNT -> arg < 0 ? AggregateKind.COUNT_STAR : AggregateKind.COUNT;
            case SUM -> AggregateKind.SUM;
            case SUM0 -> AggregateKind.SUM0;
            case MIN -> AggregateKind.MIN;
            case MAX -> AggregateKind.MAX;
            default -> throw new IllegalStateException("not a numacol aggregate: " + call);
        };
        return new io.numacol.exec.AggregateCall(kind, arg, call.filterArg, call.isDistinct());
    }
}
