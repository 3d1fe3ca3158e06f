package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.rules.SemiJoinRule;

/**
 * <b>Grand totals taken for keys.</b> Calcite's {@code SemiJoinRule}s turn {@code R JOIN (SELECT
 * COUNT(*) FROM S)} into {@code R SEMI JOIN S} when the aggregate has no group keys: their "join
 * keys equal group keys" check holds for two empty sets. A grand total has one row even over an
 * empty S, the semi-join none: {@code x > 5 OR y IN (empty subquery)} returned no rows. numacol's
 * copies of the three rules ({@link FixedRules}) leave joins to aggregates without keys alone.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 4, "a join with a grand total over an empty input taken for a semi-join",
 * also without the cost-based search). Upstream issue: not filed.
 */
public final class KeyedSemiJoinRules {
    private KeyedSemiJoinRules() {
    }

    static final RelOptRule PROJECT_TO_SEMI_JOIN = new SemiJoinRule.ProjectToSemiJoinRule(
            SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.DEFAULT.withDescription("SemiJoinRule:project:keyed")
                    .as(SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            return hasKeys(call.rel(3));
        }
    };

    static final RelOptRule JOIN_TO_SEMI_JOIN = new SemiJoinRule.JoinToSemiJoinRule(
            SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.DEFAULT.withDescription("SemiJoinRule:join:keyed")
                    .as(SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            return hasKeys(call.rel(2));
        }
    };

    static final RelOptRule AGGREGATE_TO_SEMI_JOIN = new SemiJoinRule.AggregateToSemiJoinRule(
            SemiJoinRule.AggregateToSemiJoinRule.AggregateToSemiJoinRuleConfig.DEFAULT.withDescription("SemiJoinRule:aggregate:keyed")
                    .as(SemiJoinRule.AggregateToSemiJoinRule.AggregateToSemiJoinRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            return hasKeys(call.rel(3));
        }
    };

    private static boolean hasKeys(RelNode aggregate) {
        return ((Aggregate) aggregate).getGroupCount() > 0;
    }
}
