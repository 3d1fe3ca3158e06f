package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.DateRangeRules;

import java.util.List;

/**
 * The table of Calcite rules numacol replaces by copies without a defect, for the Volcano planner
 * ({@link #replaceRules}) and for the rewrite programs outside it ({@link #fixed}). Each copy's
 * class says what Calcite's rule does wrong: {@link KeyedSemiJoinRules}, {@link ValidDateRangeRule},
 * {@link DistinctRowsJoinRule}, {@link InjectiveSortProjectTransposeRule}, {@link
 * SameTypeProjectMergeRule}, {@link NumericCoalesceProjectAggregateMergeRule} and {@link
 * SelfKeepingAggregateCaseToFilterRule}.
 *
 * <p>Two entries are Calcite's own rules put to other use, and are documented here:
 * <ul>
 *   <li><b>A grand total beside a DISTINCT aggregate over no rows</b>: Calcite's
 *       AggregateExpandDistinctAggregatesRule rewrites {@code SUM(DISTINCT x) ... HAVING COUNT(*) <= 2}
 *       with GROUPING SETS ((x), ()) and reads COUNT(*) from the () row, which its aggregate does
 *       not give over an empty input: the count was NULL, not 0, and the HAVING dropped the row.
 *       numacol uses Calcite's rewrite without grouping sets (partial aggregates, then joins),
 *       {@code AGGREGATE_EXPAND_DISTINCT_AGGREGATES_TO_JOIN}, instead. Tested by {@code
 *       WrongResultsTest#agreesWithDuckDb} (case 8, "a DISTINCT aggregate beside a grand total's COUNT(*) over no
 *       rows"). Upstream issue: not filed.</li>
 *   <li><b>A constant pulled out of group keys typed NOT NULL</b>: Calcite's
 *       AggregateProjectPullUpConstantsRule failed on a join to a NULL constant (typing a nullable
 *       column NOT NULL); it is removed, and {@link LiteralKeyPullUp} pulls literal keys up where
 *       numacol needs them. Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 13, "a join to a NULL constant
 *       under a grouping"). Upstream issue: not filed.</li>
 * </ul>
 */
public final class FixedRules {
    private FixedRules() {
    }

    /** Swaps the planner's rules of the table below for numacol's copies, and removes the constant pull-up rules. */
    public static void replaceRules(RelOptPlanner planner) {
        for (RelOptRule rule : List.copyOf(planner.getRules())) {
            RelOptRule replacement = replacement(rule);
            if (replacement != null) {
                planner.removeRule(rule);
                planner.addRule(replacement);
            } else if (rule == CoreRules.AGGREGATE_PROJECT_PULL_UP_CONSTANTS || rule == CoreRules.AGGREGATE_ANY_PULL_UP_CONSTANTS) {
                planner.removeRule(rule); // typed a nullable column NOT NULL, see above
            }
        }
    }

    /** {@code rule}, or its copy without its defect: for the rewrite programs outside Volcano. */
    public static RelOptRule fixed(RelOptRule rule) {
        RelOptRule replacement = replacement(rule);
        return replacement != null ? replacement : rule;
    }

    private static RelOptRule replacement(RelOptRule rule) {
        if (rule == CoreRules.PROJECT_TO_SEMI_JOIN) {
            return KeyedSemiJoinRules.PROJECT_TO_SEMI_JOIN;
        } else if (rule == CoreRules.JOIN_TO_SEMI_JOIN) {
            return KeyedSemiJoinRules.JOIN_TO_SEMI_JOIN;
        } else if (rule == CoreRules.AGGREGATE_TO_SEMI_JOIN) {
            return KeyedSemiJoinRules.AGGREGATE_TO_SEMI_JOIN;
        } else if (rule == DateRangeRules.FILTER_INSTANCE) {
            return ValidDateRangeRule.FILTER_DATE_RANGE;
        } else if (rule == EnumerableRules.ENUMERABLE_JOIN_RULE) {
            return DistinctRowsJoinRule.JOIN;
        } else if (rule == CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES) {
            return CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES_TO_JOIN;
        } else if (rule == CoreRules.SORT_PROJECT_TRANSPOSE) {
            return InjectiveSortProjectTransposeRule.SORT_PROJECT_TRANSPOSE;
        } else if (rule == CoreRules.PROJECT_MERGE) {
            return SameTypeProjectMergeRule.PROJECT_MERGE;
        } else if (rule == CoreRules.AGGREGATE_CASE_TO_FILTER) {
            return SelfKeepingAggregateCaseToFilterRule.AGGREGATE_CASE_TO_FILTER;
        } else if (rule == CoreRules.PROJECT_AGGREGATE_MERGE) {
            return NumericCoalesceProjectAggregateMergeRule.PROJECT_AGGREGATE_MERGE;
        }
        return null;
    }
}
