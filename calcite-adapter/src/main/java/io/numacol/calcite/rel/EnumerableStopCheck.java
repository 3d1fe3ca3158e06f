package io.numacol.calcite.rel;

import io.numacol.calcite.QueryCancel;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a leaf that Calcite runs (VALUES, a system table, a table function), each asking the
 * statement's stop first ({@link QueryCancel#checking}). Calcite's nested loops over such leaves
 * ask nothing: a cross join of three 3,000-row VALUES ran for minutes past its timeout and its
 * cancel(). A nested loop enumerates its inner leaf again for every outer row, so the stop is
 * asked every few thousand steps of the loop. numacol's own rows ask already ({@link NumacolQuery}).
 */
public final class EnumerableStopCheck extends SingleRel implements EnumerableRel {
    private static final Method CHECKING = Types.lookupMethod(QueryCancel.class, "checking", Enumerable.class, DataContext.class);

    EnumerableStopCheck(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
        super(cluster, traits, input);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new EnumerableStopCheck(getCluster(), traitSet, sole(inputs));
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
        BlockBuilder block = new BlockBuilder();
        Expression rows = block.append("rows", input.block);
        block.add(Expressions.return_(null, Expressions.call(CHECKING, rows, DataContext.ROOT)));
        return implementor.result(input.physType, block.toBlock());
    }

    /**
     * {@code plan} (a physical plan, the optimizer's last step) with each Enumerable leaf under a
     * stop check; numacol's converter asks by itself and stays as it is.
     */
    public static RelNode atLeaves(RelNode plan) {
        if (plan instanceof NumacolToEnumerableConverter || plan instanceof EnumerableStopCheck) {
            return plan;
        }
        List<RelNode> inputs = plan.getInputs();
        if (inputs.isEmpty()) {
            return plan.getConvention() == EnumerableConvention.INSTANCE
                    ? new EnumerableStopCheck(plan.getCluster(), plan.getTraitSet(), plan) : plan;
        }
        List<RelNode> checked = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (RelNode input : inputs) {
            RelNode c = atLeaves(input);
            changed |= c != input;
            checked.add(c);
        }
        return changed ? plan.copy(plan.getTraitSet(), checked) : plan;
    }
}
