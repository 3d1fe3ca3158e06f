package io.numacol.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;

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
        return CalciteDefects.bottomUp(plan, node -> node instanceof EnumerableRel ? node.accept(checked) : node);
    }

    /** The shuttle that checks integer arithmetic, for constant expressions the planner reduces. */
    static RexShuttle checked(RexBuilder builder) {
        return new Checked(builder);
    }

    /**
     * {@code plan} with window sums of TINYINT, SMALLINT and INTEGER values summed as BIGINTs and
     * cast back (a checked cast): Calcite's window code adds in the result's Java type and
     * wrapped ({@code SUM(i) OVER ()} of two 2000000000s gave -294967296); numacol has no
     * window operator of its own. Run on the plan as converted, before planning.
     */
    public static RelNode wideWindowSums(RelNode plan) {
        RexShuttle wide = new WideWindowSums(plan.getCluster().getRexBuilder());
        return CalciteDefects.bottomUp(plan, node -> node.accept(wide));
    }

    private static final class WideWindowSums extends RexShuttle {
        private final RexBuilder builder;

        WideWindowSums(RexBuilder builder) {
            this.builder = builder;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            return visited.clone(wideWindowSums(visited.rel));
        }

        @Override
        public RexNode visitOver(RexOver over) {
            RexOver visited = (RexOver) super.visitOver(over);
            boolean sum = visited.getKind() == SqlKind.SUM || visited.getKind() == SqlKind.SUM0;
            SqlTypeName type = visited.getType().getSqlTypeName();
            if (!sum || !(type == SqlTypeName.TINYINT || type == SqlTypeName.SMALLINT || type == SqlTypeName.INTEGER)) {
                return visited;
            }
            List<RexNode> arguments = visited.getOperands().stream().map(a -> builder.makeCast(bigint(a), a)).toList();
            RexWindow window = visited.getWindow();
            RexNode wide = builder.makeOver(bigint(visited), visited.getAggOperator(), arguments, window.partitionKeys,
                    window.orderKeys, window.getLowerBound(), window.getUpperBound(), window.getExclude(), window.isRows(),
                    true, false, visited.isDistinct(), visited.ignoreNulls());
            return builder.makeCast(visited.getType(), wide);
        }

        /** BIGINT, nullable where {@code e} is. */
        private RelDataType bigint(RexNode e) {
            RelDataTypeFactory types = builder.getTypeFactory();
            return types.createTypeWithNullability(types.createSqlType(SqlTypeName.BIGINT), e.getType().isNullable());
        }
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
