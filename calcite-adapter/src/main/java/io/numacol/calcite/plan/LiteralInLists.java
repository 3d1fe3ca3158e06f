package io.numacol.calcite.plan;

import com.google.common.collect.ImmutableRangeSet;
import com.google.common.collect.Range;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.function.Function;

/**
 * A long IN list of literals ({@code id IN (1, 2, ..., 100000)}, as ORMs and hand-built SQL
 * write them) converted straight into one SEARCH over the list's values. Calcite converts each
 * element as a comparison of its own ({@code id = 1 OR id = 2 ...}), looking the column up
 * again for each, and simplifies the OR back into a SEARCH: a 100,000-element list took seconds
 * to plan. After validation, such an IN becomes a call of {@link #OPERATOR}, which the converter
 * turns into the SEARCH at once ({@link #convert}).
 *
 * <p>Only lists whose meaning as a set of points is plain are taken: integer literals against an
 * integer column, and string literals the validator cast to the VARCHAR column's type (compared
 * as VARCHARs, exactly; a CHAR comparison pads, which a point set would not). A value no column value can equal (past the
 * column's range or length) is left out, which is right for IN and NOT IN alike. A list with a
 * NULL, or shorter than {@link #MIN_ELEMENTS}, keeps Calcite's conversion.
 */
public final class LiteralInLists {
    private LiteralInLists() {
    }

    /** Fewest elements a list has before it is converted here; shorter ones cost little either way. */
    static final int MIN_ELEMENTS = 100;

    /** {@code operand IN list} (or NOT IN) as validated, marked for {@link #convert}. */
    static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("NUMACOL_IN_LIST", SqlKind.OTHER_FUNCTION);

    /**
     * Marks the long literal IN lists of {@code query}'s WHERE and ON conditions (in place: the
     * validator's types stay with the nodes around them).
     */
    static void mark(SqlNode query, SqlValidator validator) {
        new Marker(validator).query(query);
    }

    private record Marker(SqlValidator validator) {
        void query(SqlNode node) {
            switch (node) {
                case SqlSelect select -> {
                    if (select.getFrom() != null) {
                        query(select.getFrom());
                    }
                    if (select.getWhere() != null) {
                        select.setWhere(condition(select.getWhere(), validator.getWhereScope(select)));
                    }
                }
                case SqlJoin join -> {
                    query(join.getLeft());
                    query(join.getRight());
                    // the ON condition keeps Calcite's conversion: its scope is the join's, not at hand here
                }
                case SqlOrderBy orderBy -> query(orderBy.query);
                case SqlWith with -> {
                    for (SqlNode item : with.withList) {
                        query(((SqlWithItem) item).query);
                    }
                    query(with.body);
                }
                case SqlCall call when call.getKind() == SqlKind.AS || call.getKind().belongsTo(SqlKind.SET_QUERY) -> {
                    for (SqlNode operand : call.getOperandList()) {
                        if (operand != null && (operand.isA(SqlKind.QUERY) || operand.getKind() == SqlKind.AS)) {
                            query(operand);
                        }
                    }
                }
                default -> {
                }
            }
        }

        private static boolean widens(RelDataType from, RelDataType to) {
            SqlTypeName f = from.getSqlTypeName();
            SqlTypeName t = to.getSqlTypeName();
            if (f == SqlTypeName.VARCHAR && t == SqlTypeName.VARCHAR) {
                return from.getPrecision() <= to.getPrecision();
            }
            return SqlTypeName.INT_TYPES.contains(f) && SqlTypeName.INT_TYPES.contains(t) && rank(f) <= rank(t);
        }

        /** An integer type's width, in bytes. */
        private static int rank(SqlTypeName integer) {
            return switch (integer) {
                case TINYINT -> 1;
                case SMALLINT -> 2;
                case INTEGER -> 4;
                default -> 8;
            };
        }

        private RelDataType type(SqlNode node, SqlValidatorScope scope) {
            RelDataType type = validator.getValidatedNodeTypeIfKnown(node);
            return type != null ? type : validator.deriveType(scope, node);
        }

        /** {@code condition} with its long literal IN lists marked, through AND, OR and NOT. */
        SqlNode condition(SqlNode condition, SqlValidatorScope scope) {
            if (!(condition instanceof SqlBasicCall call)) {
                return condition;
            }
            switch (call.getKind()) {
                case AND, OR, NOT -> {
                    for (int i = 0; i < call.operandCount(); i++) {
                        SqlNode operand = call.operand(i);
                        SqlNode marked = condition(operand, scope);
                        if (marked != operand) {
                            call.setOperand(i, marked);
                        }
                    }
                    return call;
                }
                case IN, NOT_IN -> {
                    return marked(call, scope);
                }
                default -> {
                    return call;
                }
            }
        }

        private SqlNode marked(SqlBasicCall in, SqlValidatorScope scope) {
            if (!(in.operand(1) instanceof SqlNodeList list) || list.size() < MIN_ELEMENTS || in.operand(0) instanceof SqlNodeList) {
                return in;
            }
            SqlNode operand = in.operand(0);
            RelDataType type = type(operand, scope);
            if (operand instanceof SqlBasicCall cast && cast.getKind() == SqlKind.CAST) {
                // the validator widens the column to the longest literal's length (or to BIGINT for
                // a literal past INTEGER): the column's own values are the same, and a literal it
                // cannot hold equals none of them
                RelDataType inner = type(cast.operand(0), scope);
                if (widens(inner, type)) {
                    operand = cast.operand(0);
                    type = inner;
                }
            }
            if (points(list, type) == null) {
                return in;
            }
            RelDataType result = validator.getValidatedNodeType(in);
            SqlCall marked = OPERATOR.createCall(in.getParserPosition(), operand, list,
                    SqlLiteral.createBoolean(in.getKind() == SqlKind.NOT_IN, in.getParserPosition()));
            validator.setValidatedNodeType(marked, result);
            return marked;
        }
    }

    /**
     * The values of {@code list} as points of a column of {@code type}, or null where the list is
     * not one this class converts (see the class comment). Values no column value can equal are
     * left out.
     */
    static List<Comparable<?>> points(SqlNodeList list, RelDataType type) {
        SqlTypeName name = type.getSqlTypeName();
        Function<SqlNode, Object> point = switch (name) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> node -> integer(node, name);
            case VARCHAR -> node -> string(node, type.getPrecision());
            default -> null;
        };
        if (point == null) {
            return null;
        }
        List<Comparable<?>> points = new ArrayList<>(list.size());
        for (SqlNode node : list) {
            Object p = point.apply(node);
            if (p == NOT_TAKEN) {
                return null;
            }
            if (p != NEVER_EQUAL) {
                points.add((Comparable<?>) p);
            }
        }
        return points;
    }

    /** What a value is when the list cannot be converted here. */
    private static final Object NOT_TAKEN = new Object();
    /** What a value is that no column value can equal. */
    private static final Object NEVER_EQUAL = new Object();

    private static Object integer(SqlNode node, SqlTypeName type) {
        if (node instanceof SqlBasicCall cast && cast.getKind() == SqlKind.CAST && cast.operand(0) instanceof SqlNumericLiteral
                && cast.operand(1) instanceof SqlDataTypeSpec spec && INTEGER_NAMES.contains(spec.getTypeName().getSimple().toUpperCase(Locale.ROOT))) {
            // the validator casts each INTEGER literal to a BIGINT operand's type: its value is the literal's,
            // which the range check below holds to the operand's type
            node = cast.operand(0);
        }
        if (!(node instanceof SqlNumericLiteral n) || !n.isExact() || n.getValue() == null) {
            return NOT_TAKEN;
        }
        BigDecimal value = n.getValueAs(BigDecimal.class);
        if (value.stripTrailingZeros().scale() > 0) {
            return NEVER_EQUAL; // 1.5 equals no integer
        }
        long min = switch (type) {
            case TINYINT -> Byte.MIN_VALUE;
            case SMALLINT -> Short.MIN_VALUE;
            case INTEGER -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
        };
        long max = -(min + 1);
        if (value.compareTo(BigDecimal.valueOf(min)) < 0 || value.compareTo(BigDecimal.valueOf(max)) > 0) {
            return NEVER_EQUAL;
        }
        return value.setScale(0);
    }

    /** The integer types' names as a CAST's type spells them. */
    private static final Set<String> INTEGER_NAMES = Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT");

    private static Object string(SqlNode node, int precision) {
        boolean varchar = false;
        if (node instanceof SqlBasicCall cast && cast.getKind() == SqlKind.CAST && cast.operand(0) instanceof SqlCharStringLiteral
                && cast.operand(1) instanceof SqlDataTypeSpec spec && spec.getTypeName().getSimple().equalsIgnoreCase("VARCHAR")) {
            // the validator casts each literal to the column's VARCHAR type, so that the comparison
            // is of VARCHARs: exact, trailing spaces and all; a longer literal equals no value of the column
            node = cast.operand(0);
            varchar = true;
        }
        if (!(node instanceof SqlCharStringLiteral s) || s.getValue() == null) {
            return NOT_TAKEN;
        }
        String value = s.getValueAs(String.class);
        if (!varchar && value.endsWith(" ")) {
            return NOT_TAKEN; // compared as CHAR, which pads: Calcite's conversion decides
        }
        if (precision != RelDataType.PRECISION_NOT_SPECIFIED && value.codePointCount(0, value.length()) > precision) {
            return NEVER_EQUAL;
        }
        return value;
    }

    private static String charset(RelDataType type) {
        return type.getCharset() == null ? null : type.getCharset().name();
    }

    /**
     * The SEARCH (or its negation) that a call of {@link #OPERATOR} stands for, its operand
     * converted by {@code operand}; null for any other node.
     */
    static RexNode convert(SqlNode node, Function<SqlNode, RexNode> operand, RexBuilder rexBuilder) {
        if (!(node instanceof SqlCall call) || call.getOperator() != OPERATOR) {
            return null;
        }
        RexNode arg = operand.apply(call.operand(0));
        RelDataType type = rexBuilder.getTypeFactory().createTypeWithNullability(arg.getType(), false);
        SqlNodeList list = call.operand(1);
        List<Comparable<?>> points = points(list, type);
        if (points == null) {
            throw new IllegalStateException("an IN list marked for conversion no longer converts: " + list.size() + " values");
        }
        boolean negated = ((SqlLiteral) call.operand(2)).booleanValue();
        if (points.isEmpty()) {
            // nothing can match: NULL for a NULL operand, as IN over values it never equals gives
            RelDataType unknown = rexBuilder.getTypeFactory().createTypeWithNullability(
                    rexBuilder.getTypeFactory().createSqlType(SqlTypeName.BOOLEAN), true);
            return rexBuilder.makeCall(SqlStdOperatorTable.CASE, rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, arg),
                    rexBuilder.makeNullLiteral(unknown), rexBuilder.makeLiteral(negated));
        }
        // the Sarg built at once from sorted points: RexBuilder.makeIn types and compares each
        // literal again, a third of the planning time of 100,000 values
        RexNode in = points.getFirst() instanceof String
                ? search(rexBuilder, arg, type, points.stream().map(p -> new NlsString((String) p, charset(type), type.getCollation())).toList())
                : search(rexBuilder, arg, type, points.stream().map(BigDecimal.class::cast).toList());
        return negated ? rexBuilder.makeCall(SqlStdOperatorTable.NOT, in) : in;
    }

    /** {@code arg} SEARCH {@code points} (of {@code type}): IN with UNKNOWN for a NULL {@code arg}. */
    private static <C extends Comparable<C>> RexNode search(RexBuilder rexBuilder, RexNode arg, RelDataType type, List<C> points) {
        ImmutableRangeSet.Builder<C> ranges = ImmutableRangeSet.builder();
        points.stream().distinct().forEach(p -> ranges.add(Range.singleton(p)));
        return rexBuilder.makeCall(SqlStdOperatorTable.SEARCH, arg,
                rexBuilder.makeSearchArgumentLiteral(Sarg.of(RexUnknownAs.UNKNOWN, ranges.build()), type));
    }
}
