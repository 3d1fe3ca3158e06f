package io.numacol.calcite.rel;

import io.numacol.calcite.SqlTypes;
import io.numacol.exec.ChunkExpr;
import io.numacol.exec.ColumnFilter;
import io.numacol.exec.LikePattern;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.DataContext;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.BitString;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Calcite conditions on a scan's columns as {@link ColumnFilter}s: comparisons with literals or
 * dynamic parameters (value ranges, so vid ranges), IS [NOT] NULL, LIKE (tested per dictionary
 * entry), NOT of those, AND, OR (equalities on one column merge into one IN). SEARCH must be
 * expanded first. Anything else (expressions, column-to-column) is not translatable.
 */
final class Predicates {
    private Predicates() {
    }

    /** A comparison with NULL: unknown, so false, and NOT keeps it false. */
    @SuppressWarnings("UnnecessaryLambda") // a sentinel, recognized by identity where filters combine
    private static final Predicate<Object> UNKNOWN = v -> false;
    /** Parses a TIMESTAMP given as a String, as a column does. */
    private static final ColumnType MILLISECONDS = ColumnType.timestamp(ColumnType.MAX_TIMESTAMP_PRECISION);
    private static final ColumnType TIME_MILLISECONDS = ColumnType.time(ColumnType.MAX_TIMESTAMP_PRECISION);
    /** Parses a UUID given as a String, as a column does. */
    private static final ColumnType UUIDS = ColumnType.uuid();

    private static ColumnFilter unknown(int column) {
        return new ColumnFilter.Matching(column, UNKNOWN, "unknown (NULL operand)");
    }

    /** Whether numacol can evaluate {@code condition} on a table with {@code types}. */
    static boolean supports(RexNode condition, List<ColumnType> types) {
        return translate(condition, types, null) != null;
    }

    /** {@code condition} with the values of this execution's dynamic parameters. */
    static ColumnFilter bind(RexNode condition, List<ColumnType> types, DataContext root) {
        ColumnFilter f = translate(condition, types, root);
        if (f == null) {
            throw new IllegalStateException("not a numacol predicate: " + condition);
        }
        return f;
    }

    /** The filter, or null when not translatable; {@code root} null only checks (values are left out). */
    private static ColumnFilter translate(RexNode node, List<ColumnType> types, DataContext root) {
        if (!(node instanceof RexCall call)) {
            return null;
        }
        List<RexNode> ops = call.getOperands();
        switch (call.getKind()) {
            case AND, OR -> {
                List<ColumnFilter> parts = new ArrayList<>();
                for (RexNode op : ops) {
                    ColumnFilter f = translate(op, types, root);
                    if (f == null) {
                        return null;
                    }
                    parts.add(f);
                }
                return call.getKind() == SqlKind.AND ? new ColumnFilter.And(parts) : new ColumnFilter.Or(mergeIns(parts));
            }
            case NOT -> {
                ColumnFilter f = translate(ops.getFirst(), types, root);
                if (f instanceof ColumnFilter.Matching m && m.test() == UNKNOWN) {
                    return f;
                }
                if (f instanceof ColumnFilter.Not not) {
                    return not.leaf(); // NOT (x <> 1): both are false for NULL, so NOT NOT is the leaf
                }
                return f instanceof ColumnFilter.Range || f instanceof ColumnFilter.In || f instanceof ColumnFilter.Matching
                        || f instanceof ColumnFilter.Prefix
                        ? new ColumnFilter.Not(f) : null;
            }
            case IS_NULL, IS_NOT_NULL -> {
                return ops.getFirst() instanceof RexInputRef ref
                        ? new ColumnFilter.IsNull(ref.getIndex(), call.getKind() == SqlKind.IS_NOT_NULL) : null;
            }
            case LIKE -> {
                boolean negated = call.getOperator() == SqlStdOperatorTable.NOT_LIKE;
                if (call.getOperator() != SqlStdOperatorTable.LIKE && !negated) {
                    return null; // ILIKE, RLIKE...
                }
                if (!(ops.getFirst() instanceof RexInputRef ref) || !isValue(ops.get(1))
                        || (ops.size() > 2 && !isValue(ops.get(2)))
                        || !text(types.get(ref.getIndex()))) {
                    return null;
                }
                ColumnFilter like = like(ref.getIndex(), ops, root);
                return negated ? new ColumnFilter.Not(like) : like;
            }
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                SqlKind kind = call.getKind();
                ColumnFilter substring = substringEquals(call, types, root);
                if (substring != null || RowExpressions.substring(ops.get(0)) != null || RowExpressions.substring(ops.get(1)) != null) {
                    return substring;
                }
                RexNode column = ops.get(0);
                RexNode value = ops.get(1);
                if (!(column(column) instanceof RexInputRef)) {
                    kind = kind.reverse();
                    column = ops.get(1);
                    value = ops.get(0);
                }
                column = column(column);
                if (!(column instanceof RexInputRef ref) || !isValue(value) || !comparable(column, value)) {
                    return null;
                }
                return comparison(kind, ref.getIndex(), types.get(ref.getIndex()), root == null ? null : value(value, root),
                        root == null);
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * {@code SUBSTRING(column, start, length) = value} (or {@code <>}), tested once per dictionary
     * value: Q22's country codes ({@code SUBSTRING(c_phone, 1, 2) IN ('13', '31', ...)}).
     */
    private static ColumnFilter substringEquals(RexCall call, List<ColumnType> types, DataContext root) {
        if (call.getKind() != SqlKind.EQUALS && call.getKind() != SqlKind.NOT_EQUALS) {
            return null;
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        int[] sub = RowExpressions.substring(a);
        if (sub == null) {
            RexNode t = a;
            a = b;
            b = t;
            sub = RowExpressions.substring(a);
        }
        if (sub == null || !isValue(b) || !text(types.get(sub[0]))) {
            return null;
        }
        if (root == null) {
            return new ColumnFilter.Matching(sub[0], v -> false, "SUBSTRING");
        }
        Object value = value(b, root);
        if (value == null) {
            return unknown(sub[0]);
        }
        String expected = string(value);
        int start = sub[1];
        int length = sub[2];
        boolean equal = call.getKind() == SqlKind.EQUALS;
        if (start == 1 && length == expected.length() && !hasSurrogates(expected)) {
            ColumnFilter prefix = new ColumnFilter.Prefix(sub[0], expected); // a vid range: no value decoded
            return equal ? prefix : new ColumnFilter.Not(prefix);
        }
        return new ColumnFilter.Matching(sub[0], v -> ChunkExpr.Substring.of((String) v, start, length).equals(expected) == equal,
                "SUBSTRING(" + start + ", " + length + ") " + (equal ? "= '" : "<> '") + expected + "'");
    }

    private static ColumnFilter like(int column, List<RexNode> ops, DataContext root) {
        if (root == null) {
            return new ColumnFilter.Matching(column, v -> false, "LIKE");
        }
        Object pattern = value(ops.get(1), root);
        Object escape = ops.size() > 2 ? value(ops.get(2), root) : null;
        if (pattern == null || (ops.size() > 2 && escape == null)) {
            return unknown(column);
        }
        String p = string(pattern);
        String e = escape == null ? null : string(escape);
        String head = p.endsWith("%") ? p.substring(0, p.length() - 1) : null;
        if (head != null && head.indexOf('%') < 0 && head.indexOf('_') < 0 && !hasSurrogates(head)
                && (e == null || (e.length() == 1 && p.indexOf(e.charAt(0)) < 0))) {
            return new ColumnFilter.Prefix(column, head); // 'abc%': a vid range of the sorted dictionary
        }
        // string searches rather than Calcite's regular expressions: Q13 tests 1.5 M distinct comments
        Predicate<String> like = LikePattern.compile(p, e);
        return new ColumnFilter.Matching(column, v -> like.test((String) v), "LIKE '" + p + "'", LikePattern.utf8(p, e));
    }

    /** Whether a column holds text (CHAR, VARCHAR), not bytes or UUIDs kept as strings. */
    static boolean text(ColumnType type) {
        return type != null && (type.kind() == ColumnType.Kind.CHAR || type.kind() == ColumnType.Kind.VARCHAR);
    }

    /**
     * Whether a value compares with a column as the value it is: of the column's type family, a
     * binary value for a binary column, and an instant for an instant column (Calcite's TIMESTAMP
     * WITH LOCAL TIME ZONE) at every CAST down to the literal, and for a wall-clock column at
     * none: {@link #value} skips CASTs, and a CAST between the two shifts by the session's zone.
     */
    static boolean comparable(RexNode column, RexNode value) {
        if (!sameFamily(column, value) || (SqlTypeUtil.isBinary(column.getType()) && !binaryValue(value))) {
            return false;
        }
        boolean instant = instant(column);
        for (RexNode v = value; ; v = ((RexCall) v).getOperands().getFirst()) {
            if (instant(v) != instant) {
                return false;
            }
            if (v.getKind() != SqlKind.CAST) {
                return true;
            }
            if (!keepsDatetime(((RexCall) v).getOperands().getFirst().getType().getSqlTypeName(), v.getType().getSqlTypeName())) {
                return false;
            }
        }
    }

    /**
     * Whether a CAST between {@code from} and {@code to} keeps a date or time as it is: between
     * one type, or a DATE as its midnight. A TIMESTAMP cast to a DATE or TIME loses part of it,
     * which {@link #value}, skipping the CAST, would not.
     */
    private static boolean keepsDatetime(SqlTypeName from, SqlTypeName to) {
        boolean datetimes = SqlTypeName.DATETIME_TYPES.contains(from) && SqlTypeName.DATETIME_TYPES.contains(to);
        return !datetimes || from == to || (from == SqlTypeName.DATE && to == SqlTypeName.TIMESTAMP);
    }

    private static boolean instant(RexNode node) {
        return node.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /** A binary value, not text cast to bytes (whose bytes Calcite's cast decides). */
    static boolean binaryValue(RexNode value) {
        return SqlTypeUtil.isBinary(value.getType())
                && (value.getKind() != SqlKind.CAST || binaryValue(((RexCall) value).getOperands().getFirst()));
    }

    private static boolean hasSurrogates(String s) {
        return s.chars().anyMatch(c -> Character.isSurrogate((char) c));
    }

    /** A comparison of a column with a value, whose bounds round inward when the value falls between stored values. */
    private static ColumnFilter comparison(SqlKind kind, int column, ColumnType type, Object value, boolean checkOnly) {
        if (checkOnly) {
            return new ColumnFilter.Range(column, null, true, null, true);
        }
        if (value == null) {
            return unknown(column);
        }
        return switch (kind) {
            case EQUALS, NOT_EQUALS -> {
                Stored s = stored(type, value, RoundingMode.FLOOR);
                ColumnFilter eq = new ColumnFilter.In(column, s.exact() ? List.of(s.value()) : List.of());
                yield kind == SqlKind.EQUALS ? eq : new ColumnFilter.Not(eq);
            }
            // x > 2.5 on integers is x > 2; x >= 2.5 is x >= 3; x < 2.5 is x < 3; x <= 2.5 is x <= 2
            case GREATER_THAN -> new ColumnFilter.Range(column, stored(type, value, RoundingMode.FLOOR).value(), false, null, true);
            case GREATER_THAN_OR_EQUAL -> new ColumnFilter.Range(column, stored(type, value, RoundingMode.CEILING).value(), true, null, true);
            case LESS_THAN -> new ColumnFilter.Range(column, null, true, stored(type, value, RoundingMode.CEILING).value(), false);
            case LESS_THAN_OR_EQUAL -> new ColumnFilter.Range(column, null, true, stored(type, value, RoundingMode.FLOOR).value(), true);
            default -> throw new IllegalArgumentException(kind.toString());
        };
    }

    /** {@code x = a OR x = b} as {@code x IN (a, b)}: one scan of x instead of two. */
    private static List<ColumnFilter> mergeIns(List<ColumnFilter> parts) {
        Map<Integer, List<Object>> ins = new LinkedHashMap<>();
        List<ColumnFilter> out = new ArrayList<>();
        for (ColumnFilter f : parts) {
            if (f instanceof ColumnFilter.In in) {
                ins.computeIfAbsent(in.column(), c -> new ArrayList<>()).addAll(in.values());
            } else {
                out.add(f);
            }
        }
        ins.forEach((column, values) -> out.add(new ColumnFilter.In(column, values)));
        return out;
    }

    /** A column, also under a cast that keeps every value and the order (CAST(l_discount AS DECIMAL(4,3)) < 0.055). */
    private static RexNode column(RexNode node) {
        if (node.getKind() == SqlKind.CAST && node instanceof RexCall c && c.getOperands().getFirst() instanceof RexInputRef ref
                && RowExpressions.widening(ref.getType(), c.getType()) && SqlTypeUtil.isExactNumeric(c.getType())) {
            return ref;
        }
        return node;
    }

    static boolean isValue(RexNode node) {
        return node instanceof RexLiteral || node instanceof RexDynamicParam
                || (node.getKind() == SqlKind.CAST && isValue(((RexCall) node).getOperands().getFirst())
                && (!SqlTypeUtil.isNumeric(node.getType()) // a numeric CAST must not round: its value is its operand's
                || RowExpressions.widening(((RexCall) node).getOperands().getFirst().getType(), node.getType())))
                || (node instanceof RexCall c && (c.getKind() == SqlKind.PLUS || c.getKind() == SqlKind.MINUS
                || c.getKind() == SqlKind.TIMES) && SqlTypeUtil.isExactNumeric(c.getType())
                && c.getOperands().stream().allMatch(Predicates::isValue));
    }

    private static boolean sameFamily(RexNode a, RexNode b) {
        SqlTypeFamily fa = a.getType().getSqlTypeName().getFamily();
        SqlTypeFamily fb = b.getType().getSqlTypeName().getFamily();
        return fa != null && fa == fb;
    }

    /**
     * A literal's or parameter's value (CAST only changes the SQL type: the value converts by the
     * column type), or exact arithmetic of those (Q19's {@code 1 + 10}, which Calcite leaves).
     */
    static Object value(RexNode node, DataContext root) {
        return switch (node) {
            case RexLiteral l -> l.isNull() ? null : l.getValue();
            case RexDynamicParam p -> root.get("?" + p.getIndex());
            case RexCall c when c.getKind() != SqlKind.CAST -> {
                Object a = value(c.getOperands().get(0), root);
                Object b = value(c.getOperands().get(1), root);
                if (a == null || b == null) {
                    yield null;
                }
                yield switch (c.getKind()) {
                    case PLUS -> decimal(a).add(decimal(b));
                    case MINUS -> decimal(a).subtract(decimal(b));
                    default -> decimal(a).multiply(decimal(b));
                };
            }
            case RexCall c -> value(c.getOperands().getFirst(), root);
            default -> throw new IllegalArgumentException("not a value: " + node);
        };
    }

    record Stored(Object value, boolean exact) {
    }

    /** A value as the column stores it: Long (decimals unscaled, rounded by {@code mode}), Double or String. */
    static Stored stored(ColumnType type, Object value, RoundingMode mode) {
        return switch (type.kind()) {
            case BOOLEAN -> new Stored((Boolean) value ? 1L : 0L, true);
            case DATE -> new Stored(epochDay(value), true);
            // the value's own milliseconds, not cut to the column's precision: TIMESTAMP(0) values never equal 10:00:00.5
            case TIMESTAMP -> new Stored(epochMilli(value), true);
            // Calcite keeps an instant as epoch milliseconds too; its literal's TimestampString is in UTC
            case TIMESTAMP_TZ -> new Stored(instantMilli(value), true);
            case TIME -> new Stored(milliOfDay(value), true);
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> {
                BigDecimal exact = decimal(value).movePointRight(type.scale());
                BigDecimal rounded = exact.setScale(0, mode);
                // beyond a long no stored value is reached: clamp, the bound then covers all or none
                BigDecimal clamped = rounded.max(BigDecimal.valueOf(Long.MIN_VALUE)).min(BigDecimal.valueOf(Long.MAX_VALUE));
                yield new Stored(clamped.longValue(), rounded.compareTo(exact) == 0 && clamped.compareTo(rounded) == 0);
            }
            case DOUBLE -> new Stored(((Number) numeric(value)).doubleValue(), true);
            // compared as REALs: the value rounds to a float as Calcite's cast of it does
            case REAL -> new Stored((double) ((Number) numeric(value)).floatValue(), true);
            case CHAR -> new Stored(string(value).replaceFirst(" +$", ""), true);
            case VARCHAR -> new Stored(string(value), true);
            case VARBINARY -> new Stored(SqlTypes.toKept(value instanceof BitString b ? b.getAsByteArray() : value), true);
            case UUID -> new Stored(UUIDS.toStringValue(value instanceof NlsString n ? n.getValue() : value), true);
        };
    }

    private static Object numeric(Object value) {
        return value instanceof String s ? new BigDecimal(s) : value;
    }

    private static BigDecimal decimal(Object value) {
        return switch (value) {
            case BigDecimal b -> b;
            case Double d -> new BigDecimal(d);
            case Float f -> new BigDecimal(f);
            case Number n -> BigDecimal.valueOf(n.longValue());
            case String s -> new BigDecimal(s.trim());
            default -> throw new IllegalArgumentException("not a number: " + value);
        };
    }

    private static String string(Object value) {
        return value instanceof NlsString n ? n.getValue() : value.toString();
    }

    /** Wall-clock milliseconds, as Calcite and numacol keep a TIMESTAMP. */
    private static long epochMilli(Object value) {
        return switch (value) {
            case TimestampString t -> t.getMillisSinceEpoch();
            case Long millis -> millis;
            case Calendar c -> TimestampString.fromCalendarFields(c).getMillisSinceEpoch();
            case DateString d -> d.getMillisSinceEpoch();
            case Integer days -> days * 86_400_000L; // a DATE parameter (the plan cache's stand-in for a DATE literal) cast to TIMESTAMP
            case Timestamp t -> t.toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli();
            case LocalDateTime t -> t.toInstant(ZoneOffset.UTC).toEpochMilli();
            case String s -> MILLISECONDS.toLong(s);
            default -> throw new IllegalArgumentException("not a timestamp: " + value + " (" + value.getClass().getName() + ")");
        };
    }

    private static long instantMilli(Object value) {
        return switch (value) {
            case TimestampString t -> t.getMillisSinceEpoch();
            case Long millis -> millis;
            case Timestamp t -> t.getTime();
            default -> throw new IllegalArgumentException("not an instant: " + value + " (" + value.getClass().getName() + ")");
        };
    }

    private static long milliOfDay(Object value) {
        return switch (value) {
            case TimeString t -> t.getMillisOfDay();
            case Integer millis -> millis;
            case Calendar c -> TimeString.fromCalendarFields(c).getMillisOfDay();
            case Time t -> TIME_MILLISECONDS.toLong(t);
            case LocalTime t -> TIME_MILLISECONDS.toLong(t);
            case String s -> TIME_MILLISECONDS.toLong(s);
            default -> throw new IllegalArgumentException("not a time: " + value + " (" + value.getClass().getName() + ")");
        };
    }

    private static long epochDay(Object value) {
        return switch (value) {
            case DateString d -> d.getDaysSinceEpoch();
            case Integer days -> days;
            case Date d -> d.toLocalDate().toEpochDay();
            case LocalDate d -> d.toEpochDay();
            case String s -> LocalDate.parse(s.trim()).toEpochDay();
            case Calendar c -> DateString.fromCalendarFields(c).getDaysSinceEpoch();
            default -> throw new IllegalArgumentException("not a date: " + value + " (" + value.getClass().getName() + ")");
        };
    }
}
