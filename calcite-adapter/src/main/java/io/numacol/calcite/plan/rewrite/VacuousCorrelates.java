package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;

import com.google.common.collect.ImmutableSet;

import java.util.List;
import java.util.Set;

/**
 * <b>A Correlate whose variable vanishes only inside the decorrelator.</b> A correlated condition
 * that is FALSE once simplified ({@code s.dm = a.fd AND DATE 'x' BETWEEN DATE 'y' AND DATE 'z'},
 * kept until then by the cast of the comparison) loses its variable while Calcite's decorrelator
 * rewrites it; the decorrelator then gives up on that Correlate and every one above it, and the query
 * ran row by row (a random query past its 60 s timeout). In numacol's plans conditions that lose
 * their variables when simplified are simplified first, and a Correlate whose right side reads no
 * variable of it is a join on TRUE before decorrelation.
 *
 * <p>Tested by {@code WrongResultsTest#decorrelatesAroundAConditionThatIsFalse}
 * and {@code WrongResultsTest#agreesWithDuckDb} (cases 35 and 39). Upstream issue: not filed.
 */
public final class VacuousCorrelates {
    private VacuousCorrelates() {
    }

    /**
     * The plan with each filter condition that reads a correlation variable simplified
     * where simplifying removes every variable it reads ({@code s.dm = a.fd AND 1 = 2} is FALSE),
     * and then each Correlate whose right side reads no variable of it a join on TRUE of the same
     * type: the right side is the same for every left row, which is what the join pairs.
     */
    public static RelNode vacuousCorrelates(RelNode plan) {
        return Rewrites.bottomUp(plan, rel -> {
            if (rel instanceof LogicalFilter f && RexUtil.containsCorrelation(f.getCondition())
                    && RexUtil.SubQueryFinder.find(List.of(f.getCondition())) == null) {
                RexNode simplified = simplifiedFilterCondition(f);
                if (simplified != null && !RexUtil.containsCorrelation(simplified)) {
                    return LogicalFilter.create(f.getInput(), simplified, ImmutableSet.copyOf(f.getVariablesSet()));
                }
            }
            if (rel instanceof Correlate c && !RelOptUtil.getVariablesUsed(c.getRight()).contains(c.getCorrelationId())) {
                return LogicalJoin.create(c.getLeft(), c.getRight(), c.getHints(), c.getCluster().getRexBuilder().makeLiteral(true),
                        Set.of(), c.getJoinType());
            }
            return rel;
        });
    }

    /** The filter's condition as RexSimplify makes it (unknown as false), or null where RexSimplify fails (see {@link NullComparisons}). */
    private static RexNode simplifiedFilterCondition(LogicalFilter filter) {
        RexSimplify simplify = new RexSimplify(filter.getCluster().getRexBuilder(), RelOptPredicateList.EMPTY, RexUtil.EXECUTOR);
        try {
            return simplify.simplifyUnknownAsFalse(filter.getCondition());
        } catch (RuntimeException | AssertionError e) {
            return null;
        }
    }
}
