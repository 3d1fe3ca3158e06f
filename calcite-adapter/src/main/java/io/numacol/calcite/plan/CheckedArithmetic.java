package io.numacol.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Integer arithmetic that Calcite's generated code runs is checked for overflow: numacol's own
 * operators fail a statement whose TINYINT, SMALLINT, INTEGER or BIGINT result leaves its type's
 * range (as DuckDB and PostgreSQL do), but Calcite's Enumerable code adds Java ints and shorts
 * and wrapped silently (2000000000 + 2000000000 gave -294967296 above a window function).
 * Calcite checks only under conformances numacol does not use, and its checked operators are
 * unknown to numacol's operators; so only the nodes Calcite runs are rewritten, after planning.
 */
public final class CheckedArithmetic {
    private CheckedArithmetic() {
    }

    /** {@code plan} with the integer arithmetic of its Enumerable nodes checked. */
    public static RelNode apply(RelNode plan) {
        RexShuttle checked = new Checked(plan.getCluster().getRexBuilder());
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode node = super.visit(other);
                return node instanceof EnumerableRel ? node.accept(checked) : node;
            }
        });
    }

    private static final class Checked extends RexShuttle {
        private final RexBuilder builder;

        Checked(RexBuilder builder) {
            this.builder = builder;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            SqlOperator checked = switch (visited.getKind()) {
                case PLUS -> SqlStdOperatorTable.CHECKED_PLUS;
                case MINUS -> SqlStdOperatorTable.CHECKED_MINUS;
                case TIMES -> SqlStdOperatorTable.CHECKED_MULTIPLY;
                case DIVIDE -> SqlStdOperatorTable.CHECKED_DIVIDE;
                case MINUS_PREFIX -> SqlStdOperatorTable.CHECKED_UNARY_MINUS;
                default -> null;
            };
            if (checked == null || !integer(visited) || !visited.getOperands().stream().allMatch(CheckedArithmetic::integer)) {
                return visited;
            }
            return builder.makeCall(visited.getType(), checked, visited.getOperands());
        }
    }

    private static boolean integer(RexNode e) {
        return switch (e.getType().getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
            default -> false;
        };
    }
}
