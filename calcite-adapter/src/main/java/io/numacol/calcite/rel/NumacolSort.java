package io.numacol.calcite.rel;

import io.numacol.exec.Ordering;
import io.numacol.exec.PlanNode;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;

/** ORDER BY with literal OFFSET/FETCH: a bounded heap per task for top-N, merged at the end. */
public final class NumacolSort extends Sort implements NumacolRel {

    public NumacolSort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation,
                       RexNode offset, RexNode fetch) {
        super(cluster, traits, input, collation, offset, fetch);
    }

    @Override
    public Sort copy(RelTraitSet traitSet, RelNode input, RelCollation collation, RexNode offset, RexNode fetch) {
        return new NumacolSort(getCluster(), traitSet, input, collation, offset, fetch);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public void implement(OneTableImplementor implementor) {
        implementor.visit(getInput());
        implementor.sort(ordering());
    }

    /** The sort of a one-table aggregate of few groups on vids; else a sort of its input's rows. */
    @Override
    public PlanNode implement(PipelineImplementor implementor) {
        if (getInput() instanceof NumacolAggregate agg && NumacolQuery.oneTable(this) && PipelineImplementor.fewGroups(agg)) {
            return implementor.oneTableRows(this);
        }
        return new PlanNode.Sort(implementor.visit(getInput()), ordering());
    }

    /** The keys, OFFSET and FETCH as the engine's ordering. */
    private Ordering ordering() {
        List<Ordering.Key> keys = new ArrayList<>();
        for (RelFieldCollation c : getCollation().getFieldCollations()) {
            RelFieldCollation.NullDirection nulls = c.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
                    ? c.direction.defaultNullDirection() : c.nullDirection;
            keys.add(new Ordering.Key(c.getFieldIndex(), c.direction.isDescending(),
                    nulls == RelFieldCollation.NullDirection.FIRST));
        }
        return new Ordering(keys, offset == null ? 0 : longValue(offset), fetch == null ? -1 : longValue(fetch));
    }

    private static long longValue(RexNode literal) {
        Long v = ((RexLiteral) literal).getValueAs(Long.class);
        return v == null ? 0 : v;
    }
}
