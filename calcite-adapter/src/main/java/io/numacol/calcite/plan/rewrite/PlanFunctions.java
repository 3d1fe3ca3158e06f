package io.numacol.calcite.plan.rewrite;

import io.numacol.storage.CodePoints;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Functions numacol puts into the plans Calcite runs, in place of Calcite's own where those fail:
 * DECIMALs set to their type's scale and EXTRACTs that compile ({@link CanonicalValues}), string
 * lengths and positions counted in characters where Calcite counts UTF-16 units ({@link
 * #characters(RelNode)}), and dates and timestamps checked to stay in the years 1 to 9999 ({@link
 * CheckedArithmetic}). Calcite's generated code calls the public static methods.
 */
public final class PlanFunctions {
    private static final SqlUserDefinedFunction SCALE = function("scale");
    private static final SqlUserDefinedFunction YEAR = function("year");
    private static final SqlUserDefinedFunction MONTH = function("month");
    private static final SqlUserDefinedFunction DAY = function("day");

    private static final SqlUserDefinedFunction CHAR_LENGTH = function("charLength");
    private static final SqlUserDefinedFunction SUBSTRING_FROM = function("substringFrom");
    private static final SqlUserDefinedFunction SUBSTRING_FOR = function("substringFor");
    private static final SqlUserDefinedFunction POSITION_IN = function("positionIn");
    private static final SqlUserDefinedFunction POSITION_FROM = function("positionFrom");

    private static final SqlUserDefinedFunction DATE_IN_RANGE = function("dateInRange");
    private static final SqlUserDefinedFunction TIMESTAMP_IN_RANGE = function("timestampInRange");

    private PlanFunctions() {
    }

    /** A DATE that date arithmetic computed (epoch days), failing outside the years 1 to 9999. */
    public static Integer dateInRange(Integer days) {
        return days == null ? null : (int) ColumnType.dateInRange(days);
    }

    /** A TIMESTAMP that arithmetic computed (epoch milliseconds), failing outside the years 1 to 9999. */
    public static Long timestampInRange(Long millis) {
        return millis == null ? null : ColumnType.timestampInRange(millis);
    }

    /**
     * {@code call}, date or time arithmetic whose result is a DATE, TIMESTAMP or TIMESTAMP WITH
     * LOCAL TIME ZONE, checked to stay in the years 1 to 9999: Calcite's code wrapped
     * {@code TIMESTAMP '9999-12-31 23:59:59' + INTERVAL '1' DAY} to year 1, or gave year 10000.
     */
    static RexNode inRange(RexBuilder rexBuilder, RexCall call) {
        return switch (call.getType().getSqlTypeName()) {
            case DATE -> rexBuilder.makeCall(call.getType(), DATE_IN_RANGE, List.of(call));
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> rexBuilder.makeCall(call.getType(), TIMESTAMP_IN_RANGE, List.of(call));
            default -> call;
        };
    }

    /** CHAR_LENGTH in characters ({@link CodePoints}), not UTF-16 units. */
    public static Integer charLength(String s) {
        return s == null ? null : CodePoints.length(s);
    }

    /** SUBSTRING(s FROM start) in characters. */
    public static String substringFrom(String s, Long start) {
        return s == null || start == null ? null : CodePoints.substring(s, start);
    }

    /** SUBSTRING(s FROM start FOR length) in characters. */
    public static String substringFor(String s, Long start, Long length) {
        return s == null || start == null || length == null ? null : CodePoints.substring(s, start, length);
    }

    /** POSITION(sub IN s) in characters. */
    public static Integer positionIn(String sub, String s) {
        return sub == null || s == null ? null : CodePoints.position(sub, s, 1);
    }

    /** POSITION(sub IN s FROM from) in characters. */
    public static Integer positionFrom(String sub, String s, Long from) {
        return sub == null || s == null || from == null ? null : CodePoints.position(sub, s, from);
    }

    /**
     * {@code plan}'s CHAR_LENGTH, SUBSTRING and POSITION of character strings, in the nodes
     * Calcite runs and in constants it folds, as numacol's functions that count characters:
     * Calcite's count UTF-16 units (CHAR_LENGTH of three emoji was 6, SUBSTRING cut one in half).
     */
    public static RelNode characters(RelNode plan) {
        RexShuttle characters = characters(plan.getCluster().getRexBuilder());
        return Rewrites.bottomUp(plan, node -> node instanceof EnumerableRel ? node.accept(characters) : node);
    }

    /** The shuttle of {@link #characters(RelNode)}, for constant expressions the planner reduces. */
    static RexShuttle characters(RexBuilder rexBuilder) {
        return new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                List<RexNode> operands = visited.getOperands();
                SqlOperator op = visited.getOperator();
                // of character strings only: the same operators take binary strings, counted in bytes
                if (operands.isEmpty() || !SqlTypeUtil.isCharacter(operands.getFirst().getType())) {
                    return visited;
                }
                SqlUserDefinedFunction function;
                if (op == SqlStdOperatorTable.CHAR_LENGTH || op == SqlStdOperatorTable.CHARACTER_LENGTH) {
                    function = CHAR_LENGTH;
                } else if (op == SqlStdOperatorTable.SUBSTRING) {
                    function = operands.size() == 2 ? SUBSTRING_FROM : SUBSTRING_FOR;
                } else if (op == SqlStdOperatorTable.POSITION && SqlTypeUtil.isCharacter(operands.get(1).getType())) {
                    function = operands.size() == 2 ? POSITION_IN : POSITION_FROM;
                } else {
                    return visited;
                }
                RelDataType bigint = rexBuilder.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
                List<RexNode> args = new ArrayList<>();
                for (RexNode o : operands) {
                    args.add(SqlTypeUtil.isCharacter(o.getType()) ? o
                            : rexBuilder.makeCast(rexBuilder.getTypeFactory().createTypeWithNullability(bigint, o.getType().isNullable()), o));
                }
                return rexBuilder.makeCall(visited.getType(), function, args);
            }
        };
    }

    private static SqlUserDefinedFunction function(String method) {
        return new SqlUserDefinedFunction(new SqlIdentifier("$NUMACOL_" + method.toUpperCase(Locale.ROOT), SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, InferTypes.RETURN_TYPE, null,
                ScalarFunctionImpl.create(PlanFunctions.class, method));
    }

    /** {@code value} at {@code scale}: more fraction digits (a quotient's) truncated, as numacol's quotients are. */
    public static BigDecimal scale(BigDecimal value, int scale) {
        return value == null ? null : value.setScale(scale, RoundingMode.DOWN);
    }

    /** EXTRACT(YEAR FROM a DATE), the DATE as Calcite's generated code holds it: days since 1970-01-01. */
    public static Long year(Integer days) {
        return days == null ? null : (long) LocalDate.ofEpochDay(days).getYear();
    }

    /** EXTRACT(MONTH FROM a DATE). */
    public static Long month(Integer days) {
        return days == null ? null : (long) LocalDate.ofEpochDay(days).getMonthValue();
    }

    /** EXTRACT(DAY FROM a DATE). */
    public static Long day(Integer days) {
        return days == null ? null : (long) LocalDate.ofEpochDay(days).getDayOfMonth();
    }

    /**
     * {@code e}, a DECIMAL, at its type's scale (defect 16): Calcite's ROUND(x, 1) of a
     * DECIMAL(5, 2) gives 39.0 and its quotients carry 16 digits, and its hash operators compare
     * BigDecimals with {@code equals}, which tells 39.0 from 39.00.
     */
    static RexNode scaled(RexBuilder rexBuilder, RexNode e) {
        RexNode scale = rexBuilder.makeExactLiteral(BigDecimal.valueOf(e.getType().getScale()),
                rexBuilder.getTypeFactory().createSqlType(SqlTypeName.INTEGER));
        return rexBuilder.makeCall(e.getType(), SCALE, List.of(e, scale));
    }

    /**
     * Calcite's DECIMALs at their type's scale where it compares them by {@code equals} inside an
     * expression (defect 16): ROUND's results anywhere, and the computed operands of IS [NOT]
     * DISTINCT FROM ({@code c IS NOT DISTINCT FROM ROUND(c, 1)} was false for 12.30).
     */
    static RexShuttle decimals(RexBuilder rexBuilder) {
        return new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                if (visited.getKind() == SqlKind.IS_DISTINCT_FROM || visited.getKind() == SqlKind.IS_NOT_DISTINCT_FROM) {
                    List<RexNode> operands = visited.getOperands().stream()
                            .map(o -> o instanceof RexCall c && decimal(c) && c.getOperator() != SCALE ? scaled(rexBuilder, o) : o).toList();
                    return operands.equals(visited.getOperands()) ? visited : visited.clone(visited.getType(), operands);
                }
                return visited.getOperator() == SqlStdOperatorTable.ROUND && decimal(visited) ? scaled(rexBuilder, visited) : visited;
            }
        };
    }

    private static boolean decimal(RexNode e) {
        return e.getType().getSqlTypeName() == SqlTypeName.DECIMAL;
    }

    /**
     * EXTRACTs of YEAR, MONTH and DAY from DATEs as calls of numacol's functions (defect 18):
     * Calcite's code generation needs the unit as a constant, and in a Calc whose EXTRACTs share
     * the unit's literal (or whose operand is a constant too) it finds a variable and fails.
     */
    static RexShuttle extracts(RexBuilder rexBuilder) {
        return new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                if (visited.getKind() != SqlKind.EXTRACT || !(visited.getOperands().get(0) instanceof RexLiteral unit)
                        || visited.getOperands().get(1).getType().getSqlTypeName() != SqlTypeName.DATE) {
                    return visited;
                }
                SqlUserDefinedFunction function = switch (unit.getValueAs(TimeUnitRange.class)) {
                    case YEAR -> YEAR;
                    case MONTH -> MONTH;
                    case DAY -> DAY;
                    case null, default -> null;
                };
                RelDataType type = visited.getType();
                return function == null ? visited : rexBuilder.makeCall(type, function, List.of(visited.getOperands().get(1)));
            }
        };
    }
}
