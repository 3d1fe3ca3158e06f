package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.ProjectMergeRule;

/**
 * <b>Merged projections of another type.</b> Calcite's ProjectMergeRule substitutes the lower
 * projection's expressions into the upper one's and simplifies them, and {@code CAST($1 AS BIGINT
 * NOT NULL)} (an aggregate's argument, read only where its filter {@code $1 IS NOT NULL} holds)
 * over a constant NULL became a nullable NULL: the planner refused the merged projection as not
 * equivalent and failed the statement ({@code MIN(COALESCE(a3.k, CAST(NULL AS INTEGER)))} over a
 * LEFT JOIN on a false condition). numacol's copy ({@link FixedRules}) does not make such merges.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 25 of the second group, "a merged projection typed otherwise than the
 * projections it merges"). Upstream issue: not filed.
 */
public final class SameTypeProjectMergeRule {
    private SameTypeProjectMergeRule() {
    }

    /**
     * Calcite's ProjectMergeRule, but a merge that changes a column's type is no equivalent and is
     * not made. The planner checks the type before it registers anything, so the
     * refused merge leaves the planner as it was.
     */
    static final RelOptRule PROJECT_MERGE = new ProjectMergeRule(
            (ProjectMergeRule.Config) CoreRules.PROJECT_MERGE.config.withDescription("ProjectMergeRule:sameType")) {
        @Override
        public void onMatch(RelOptRuleCall call) {
            try {
                super.onMatch(call);
            } catch (RuntimeException e) {
                if (!(e.getCause() instanceof IllegalArgumentException mismatch && mismatch.getMessage() != null
                        && mismatch.getMessage().startsWith("Type mismatch"))) {
                    throw e;
                }
            }
        }
    };
}
