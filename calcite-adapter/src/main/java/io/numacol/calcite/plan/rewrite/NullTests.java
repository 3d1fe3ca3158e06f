package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.List;

/**
 * <b>Tests for NULL of a logic with NULL that do not compile.</b> Calcite's simplification leaves
 * {@code (a + b NOT IN (1, NULL)) IS NOT NULL} as {@code (a + b = 1 OR NULL) IS NOT NULL}, and the
 * Java it generates for such a condition returns a Boolean object where its join predicate or filter
 * must return a boolean: the statement failed to compile. In the conditions of Calcite's operators
 * numacol makes such tests IS TRUE / IS FALSE tests of the other operands.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 27 of the second group, "a test for NULL of an OR or AND with NULL:
 * Calcite's generated predicate did not compile"). Upstream issue: not filed.
 */
public final class NullTests {
    private NullTests() {
    }

    /**
     * In the conditions of Calcite's operators, {@code (a OR NULL) IS NOT NULL} as
     * {@code a IS TRUE}, {@code (a OR NULL) IS NULL} as {@code a IS NOT TRUE}, and the same of AND
     * with IS FALSE and IS NOT FALSE: what Calcite generates for the first forms does not compile.
     */
    public static RelNode nullTests(RelNode plan) {
        return Rewrites.bottomUp(plan, rel -> Rewrites.rewriteCondition(rel, new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexNode visited = super.visitCall(call);
                if (!(visited instanceof RexCall test) || !(test.isA(SqlKind.IS_NULL) || test.isA(SqlKind.IS_NOT_NULL))
                        || !(test.getOperands().getFirst() instanceof RexCall logic) || !(logic.isA(SqlKind.OR) || logic.isA(SqlKind.AND))
                        || logic.getOperands().stream().noneMatch(o -> RexUtil.isNullLiteral(o, true))) {
                    return visited;
                }
                RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
                List<RexNode> known = logic.getOperands().stream().filter(o -> !RexUtil.isNullLiteral(o, true)).toList();
                boolean or = logic.isA(SqlKind.OR);
                if (known.isEmpty()) { // NULL OR NULL is NULL
                    return rexBuilder.makeLiteral(test.isA(SqlKind.IS_NULL));
                }
                // a OR NULL is TRUE where a is, NULL elsewhere; a AND NULL is FALSE where a is, NULL elsewhere
                RexNode rest = or ? RexUtil.composeDisjunction(rexBuilder, known) : RexUtil.composeConjunction(rexBuilder, known);
                SqlOperator is = test.isA(SqlKind.IS_NOT_NULL)
                        ? (or ? SqlStdOperatorTable.IS_TRUE : SqlStdOperatorTable.IS_FALSE)
                        : (or ? SqlStdOperatorTable.IS_NOT_TRUE : SqlStdOperatorTable.IS_NOT_FALSE);
                return rexBuilder.makeCall(is, rest);
            }
        }, true)); // keys are = calls, which this leaves as they are
    }
}
