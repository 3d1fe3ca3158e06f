package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Integer arithmetic that Calcite's generated code runs is checked for overflow (ABS of the
 * smallest value too), and its date and time arithmetic for leaving the years 1 to 9999: numacol's own
 * operators fail a statement whose TINYINT, SMALLINT, INTEGER or BIGINT result leaves its type's
 * range (as DuckDB and PostgreSQL do), but Calcite's Enumerable code adds Java ints and shorts
 * and wrapped silently (2000000000 + 2000000000 gave -294967296 above a window function).
 * Calcite checks only under conformances numacol does not use, and its checked operators are
 * unknown to numacol's operators; so only the nodes Calcite runs are rewritten, after planning.
 *
 * <p>Tested by {@code SmallIntegerTypesTest#integerArithmeticThatCalciteRunsFailsOnOverflowAsNumacolsDoes}
 * (calcite-adapter). Upstream issue: not filed.
 */
public final class CheckedArithmetic {
    private CheckedArithmetic() {
    }

    /**
     * {@code plan} with the integer arithmetic of its Enumerable nodes checked, and their sums of
     * integers into DECIMALs ({@link #wideSums}) given DECIMAL arguments.
     */
    public static RelNode apply(RelNode plan) {
        RexShuttle checked = new Checked(plan.getCluster().getRexBuilder());
        return Rewrites.bottomUp(plan, node -> node instanceof EnumerableRel
                ? (node instanceof Aggregate aggregate ? wideSums(aggregate) : node).accept(checked) : node);
    }

    /**
     * {@code aggregate} with the arguments of its SUMs of integers whose result is a DECIMAL (a
     * BIGINT's sum is a DECIMAL(38, 0), see NumacolTypeSystem) cast to that DECIMAL in a
     * projection below: Calcite's aggregate code adds each value to its BigDecimal accumulator as
     * it comes and has no add of a long (it fails to compile the statement). numacol's own
     * aggregates sum the integers themselves; only the nodes Calcite runs are rewritten.
     */
    private static RelNode wideSums(Aggregate aggregate) {
        RelNode input = aggregate.getInput();
        RexBuilder builder = aggregate.getCluster().getRexBuilder();
        RelDataTypeFactory types = builder.getTypeFactory();
        List<RexNode> projects = new ArrayList<>();
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        for (int i = 0; i < names.size(); i++) {
            projects.add(builder.makeInputRef(input, i));
        }
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            boolean sum = call.getAggregation().getKind() == SqlKind.SUM || call.getAggregation().getKind() == SqlKind.SUM0;
            if (sum && call.getArgList().size() == 1 && call.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
                RexNode argument = builder.makeInputRef(input, call.getArgList().getFirst());
                if (integer(argument)) {
                    projects.add(builder.makeCast(types.createTypeWithNullability(call.getType(), argument.getType().isNullable()), argument));
                    names.add("$wide" + names.size());
                    call = call.withArgList(List.of(projects.size() - 1));
                }
            }
            calls.add(call);
        }
        if (projects.size() == input.getRowType().getFieldCount()) {
            return aggregate;
        }
        RelNode wide = EnumerableCalc.create(input, RexProgram.create(input.getRowType(), projects, null, names, builder));
        return aggregate.copy(aggregate.getTraitSet(), wide, aggregate.getGroupSet(), aggregate.getGroupSets(), calls);
    }

    /** The shuttle that checks integer arithmetic, for constant expressions the planner reduces. */
    static RexShuttle checked(RexBuilder builder) {
        return new Checked(builder);
    }

    /**
     * {@code plan} with the arguments of window sums of integers cast to the sum's type (a BIGINT,
     * or a BIGINT's DECIMAL(38, 0)): Calcite's window code adds each value in the argument's Java
     * type and wrapped ({@code SUM(i) OVER ()} of two 2000000000s gave -294967296), and has no
     * add of a long to a BigDecimal; numacol has no window operator of its own. Run on the plan
     * as converted, before planning.
     */
    public static RelNode wideWindowSums(RelNode plan) {
        RexShuttle wide = new WideWindowSums(plan.getCluster().getRexBuilder());
        return Rewrites.bottomUp(plan, node -> node.accept(wide));
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
            RelDataType result = visited.getType();
            boolean wider = result.getSqlTypeName() == SqlTypeName.BIGINT || result.getSqlTypeName() == SqlTypeName.DECIMAL;
            if (!sum || !wider || visited.getOperands().stream()
                    .allMatch(a -> !integer(a) || a.getType().getSqlTypeName() == result.getSqlTypeName())) {
                return visited;
            }
            RelDataTypeFactory types = builder.getTypeFactory();
            List<RexNode> arguments = visited.getOperands().stream()
                    .map(a -> builder.makeCast(types.createTypeWithNullability(result, a.getType().isNullable()), a)).toList();
            RexWindow window = visited.getWindow();
            return builder.makeOver(result, visited.getAggOperator(), arguments, window.partitionKeys,
                    window.orderKeys, window.getLowerBound(), window.getUpperBound(), window.getExclude(), window.isRows(),
                    true, false, visited.isDistinct(), visited.ignoreNulls());
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
            if (visited.getOperator() == SqlStdOperatorTable.ABS && integer(visited)) {
                // ABS of the smallest value of an integer type is out of its range, not that value again
                RexNode x = visited.getOperands().getFirst();
                RexNode negative = builder.makeCall(SqlStdOperatorTable.LESS_THAN, x, builder.makeZeroLiteral(x.getType()));
                return builder.makeCall(visited.getType(), SqlStdOperatorTable.CASE,
                        List.of(negative, builder.makeCall(visited.getType(), SqlStdOperatorTable.CHECKED_UNARY_MINUS, List.of(x)), x));
            }
            if ((visited.getKind() == SqlKind.PLUS || visited.getKind() == SqlKind.MINUS || visited.getKind() == SqlKind.TIMESTAMP_ADD)
                    && SqlTypeUtil.isDatetime(visited.getType())) {
                return PlanFunctions.inRange(builder, visited);
            }
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
