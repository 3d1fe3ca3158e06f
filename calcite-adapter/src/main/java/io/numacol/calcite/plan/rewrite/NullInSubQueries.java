package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.List;

/**
 * <b>A NULL IN a correlated subquery.</b> Calcite's SubQueryRemoveRule makes {@code NULL IN
 * (correlated subquery)} UNKNOWN also where the subquery is empty, where it is FALSE (it checks for
 * an empty subquery only when it is uncorrelated): {@code NOT (CAST(NULL AS BOOLEAN) IN (..))}
 * dropped every row. Before subqueries are removed numacol makes such an IN {@code CASE WHEN EXISTS
 * (..) THEN NULL ELSE FALSE END}.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 20, "NULL IN a correlated subquery is FALSE where the subquery is empty").
 * Upstream issue: not filed.
 */
public final class NullInSubQueries {
    private NullInSubQueries() {
    }

    /** {@code NULL IN (subquery)} as {@code CASE WHEN EXISTS (subquery) THEN NULL ELSE FALSE END}. */
    public static RelNode nullInSubQueries(RelNode plan) {
        return Rewrites.bottomUp(plan, rel -> rel.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RelNode inner = nullInSubQueries(subQuery.rel);
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(inner == subQuery.rel ? subQuery : subQuery.clone(inner));
                if (visited.getKind() != SqlKind.IN || visited.getOperands().size() != 1
                        || !RexUtil.isNullLiteral(visited.getOperands().getFirst(), true)) {
                    return visited;
                }
                RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
                return rexBuilder.makeCall(visited.getType(), SqlStdOperatorTable.CASE, List.of(RexSubQuery.exists(visited.rel),
                        rexBuilder.makeNullLiteral(visited.getType()), rexBuilder.makeLiteral(false)));
            }
        }));
    }
}
