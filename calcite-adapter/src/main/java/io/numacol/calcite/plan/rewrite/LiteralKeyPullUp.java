package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * <b>Constants pulled out of group keys in another order.</b> In a correlated query, Calcite's
 * decorrelator also rewrites the uncorrelated aggregates, and put a DISTINCT's literal columns back
 * in another order beside a computed one (a UNION ALL beside a scalar subquery gave DATE
 * '2022-02-09' where DATE '2022-02-11' was selected). Before decorrelation numacol pulls literal keys
 * above such aggregates, each in its place; {@link ConstantGroupKeys} covers aggregates with only
 * literal keys. Calcite's own AggregateProjectPullUpConstantsRule is removed ({@link FixedRules}).
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 12, "literal group keys beside others, in a correlated query, came back in
 * another order"). Upstream issue: not filed.
 */
public final class LiteralKeyPullUp {
    private LiteralKeyPullUp() {
    }

    /**
     * The plan with the literal group keys of aggregates that also have other keys projected
     * above the aggregate, in their places (Calcite's decorrelator put them back in another
     * order).
     */
    public static RelNode pullUpLiteralKeys(RelNode rel) {
        return rel.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalAggregate aggregate) {
                RelNode visited = super.visit(aggregate);
                return visited instanceof Aggregate a ? withoutLiteralKeys(a) : visited;
            }
        });
    }

    private static RelNode withoutLiteralKeys(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getGroupCount() < 2) {
            // nothing to pull up (a literal key alone stays, see below): skip pulling up the input's predicates, which costs
            return aggregate;
        }
        Map<Integer, RexLiteral> literals = ConstantGroupKeys.literalKeys(aggregate);
        List<Integer> keys = aggregate.getGroupSet().asList();
        List<Integer> kept = keys.stream().filter(k -> !literals.containsKey(k)).toList();
        if (kept.size() == keys.size() || kept.isEmpty()) {
            return aggregate; // only literal keys: a grand total's row over no rows differs (ConstantGroupKeys)
        }
        Aggregate inner = aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), ImmutableBitSet.of(kept), null,
                aggregate.getAggCallList());
        RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
        List<RexNode> out = new ArrayList<>();
        int next = 0;
        for (int key : keys) {
            out.add(literals.containsKey(key) ? literals.get(key) : rexBuilder.makeInputRef(inner, next++));
        }
        for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
            out.add(rexBuilder.makeInputRef(inner, kept.size() + i));
        }
        return LogicalProject.create(inner, List.of(), out, aggregate.getRowType().getFieldNames(), Set.of());
    }
}
