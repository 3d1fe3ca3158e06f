package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.util.mapping.Mappings;

import java.util.function.Supplier;

/**
 * <b>Decorrelation and field trimming that fail.</b> Both are rewrites the answer does not need.
 * Calcite's field trimmer fails on some correlated subqueries over joins (a correlated field it
 * maps to -1), and Calcite's decorrelator, which numacol's {@code Decorrelator} replaced, failed
 * on others, or changed the types and so the order of the columns. Where either throws, {@code
 * NumacolPrepare} and {@code JoinPlanning} go on without that rewrite: untrimmed, or correlated
 * (run by Calcite's correlate operator).
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 28 of the first group, "a set operation over a correlated subquery that
 * Calcite's decorrelator gave branches of different columns", and case 34, "the decorrelator failing
 * (NullPointerException) on a NOT IN inside a correlated scalar subquery"). Upstream issue: not
 * filed.
 */
public final class OptionalRewrites {
    private OptionalRewrites() {
    }

    /**
     * {@code rewrite}'s plan, or {@code rel} where the rewrite throws or changes the types (and so
     * the order) of the columns: decorrelation and field trimming are rewrites the
     * answer does not need, and without -ea Calcite does not check the types they leave.
     */
    public static RelNode unlessItFails(RelNode rel, Supplier<RelNode> rewrite) {
        try {
            RelNode result = rewrite.get();
            return RelOptUtil.areRowTypesEqual(rel.getRowType(), result.getRowType(), false) ? result : rel;
        } catch (IndexOutOfBoundsException | IllegalArgumentException | NullPointerException | Mappings.NoElementException
                | AssertionError e) {
            return rel;
        }
    }
}
