package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.SortProjectTransposeRule;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * <b>A sort moved below a CAST that merges values.</b> Calcite's SortProjectTransposeRule takes a
 * CAST for its operand, so {@code ORDER BY CAST(x AS DECIMAL(16, 1)) DESC, x ASC LIMIT 6} became a
 * sort on x DESC (the second key, on the same column, dropped): ties of the rounded value were
 * broken the wrong way. numacol's copy ({@link FixedRules}) moves sorts only below CASTs that keep
 * distinct values distinct.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 31, "a sort moved below a CAST that merges values"). Upstream issue: not
 * filed.
 */
public final class InjectiveSortProjectTransposeRule {
    private InjectiveSortProjectTransposeRule() {
    }

    /** Calcite's SortProjectTransposeRule, not over a CAST that maps two values to one. */
    static final RelOptRule SORT_PROJECT_TRANSPOSE = new SortProjectTransposeRule(
            (SortProjectTransposeRule.Config) CoreRules.SORT_PROJECT_TRANSPOSE.config.withDescription("SortProjectTransposeRule:injective")) {
        @Override
        public void onMatch(RelOptRuleCall call) {
            Sort sort = call.rel(0);
            Project project = call.rel(1);
            for (RelFieldCollation key : sort.getCollation().getFieldCollations()) {
                if (project.getProjects().get(key.getFieldIndex()) instanceof RexCall cast && cast.getKind() == SqlKind.CAST
                        && !injective(cast.getOperands().getFirst().getType(), cast.getType())) {
                    return;
                }
            }
            super.onMatch(call);
        }
    };

    /** Whether a CAST from {@code from} to {@code to} keeps distinct values distinct. */
    private static boolean injective(RelDataType from, RelDataType to) {
        if (SqlTypeUtil.equalSansNullability(from, to)) {
            return true;
        }
        if (SqlTypeUtil.isExactNumeric(from) && SqlTypeUtil.isExactNumeric(to)) {
            return Math.max(0, to.getScale()) >= Math.max(0, from.getScale()); // more digits fail, they do not collide
        }
        return SqlTypeUtil.isApproximateNumeric(to) && (from.getSqlTypeName() == SqlTypeName.INTEGER
                || from.getSqlTypeName() == SqlTypeName.SMALLINT || from.getSqlTypeName() == SqlTypeName.TINYINT);
    }
}
