package io.numacol.calcite.rel;

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
}
