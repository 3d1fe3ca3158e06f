package io.numacol.calcite.rel;

import io.numacol.calcite.SqlTypes;
import io.numacol.exec.ChunkExpr;
import io.numacol.exec.NumericExpr;
import io.numacol.exec.Projection;
import io.numacol.exec.RowPredicate;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Projections numacol evaluates in its tasks: columns, literals, and +, -, *, / and CASTs on
 * numbers, with NULL in, NULL out. Exact values stay exact: a quotient truncates toward zero at
 * its type's scale (Calcite's own division keeps 16 significant digits whatever the type says),
 * a CAST to fewer fraction digits rounds half away from zero (the rounding mode of {@code
 * NumacolTypeSystem}, which Calcite's CAST uses). Anything else stays in a Calcite Project.
 */
final class RowExpressions {
    private RowExpressions() {
    }

    static boolean supports(RexNode e) {
        return switch (e) {
            case RexInputRef ref -> true;
            case RexLiteral l -> l.isNull() || switch (l.getType().getSqlTypeName().getFamily()) {
                case NUMERIC, CHARACTER, BOOLEAN, DATE, TIMESTAMP, TIME -> true;
                case null, default -> false;
            };
            // REAL arithmetic rounds each step to a float: Calcite's code does that, numacol's keeps doubles
            case RexCall c when c.getType().getSqlTypeName() == SqlTypeName.REAL && c.getKind() != SqlKind.CAST -> false;
            case RexCall c -> switch (c.getKind()) {
                case PLUS, MINUS, TIMES, DIVIDE -> SqlTypeUtil.isNumeric(c.getType())
                        && c.getOperands().stream().allMatch(RowExpressions::supports);
                case MINUS_PREFIX -> SqlTypeUtil.isNumeric(c.getType()) && supports(c.getOperands().getFirst());
                case CAST -> numericCast(c.getOperands().getFirst().getType(), c.getType()) && supports(c.getOperands().getFirst());
                default -> false;
            };
            default -> false;
        };
    }

    /**
     * The type a pipeline's intermediate column of {@code type} has, or null when it cannot hold
     * one. A DECIMAL wider than a stored column (Calcite types sums as DECIMAL(19, s)) keeps its
     * scale, which is all a stored long needs; a value beyond a long fails where it is computed.
     */
    static ColumnType chunkType(RelDataType type) {
        if (type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getPrecision() > ColumnType.MAX_DECIMAL_PRECISION) {
            return type.getScale() <= ColumnType.MAX_DECIMAL_PRECISION
                    ? ColumnType.decimal(ColumnType.MAX_DECIMAL_PRECISION, Math.max(0, type.getScale())) : null;
        }
        return SqlTypes.toColumnType(type);
    }

    /** Whether {@code e} is NULL whatever the row: a NULL literal, or arithmetic or a CAST of one (NULL in, NULL out). */
    private static boolean alwaysNull(RexNode e) {
        return switch (e) {
            case RexLiteral l -> l.isNull();
            case RexCall c -> switch (c.getKind()) {
                case PLUS, MINUS, TIMES, DIVIDE, MINUS_PREFIX, CAST -> c.getOperands().stream().anyMatch(RowExpressions::alwaysNull);
                default -> false;
            };
            default -> false;
        };
    }

    /** The intermediate types of a relation's columns (null where one cannot be held). */
    static List<ColumnType> chunkTypes(RelNode rel) {
        return rel.getRowType().getFieldList().stream().map(f -> chunkType(f.getType())).toList();
    }

    /**
     * {@code e} as the pipeline executor computes it over columns of {@code types}: a column, a
     * literal, or exact or approximate arithmetic ({@link #numeric}); null for anything else.
     */
    static ChunkExpr chunkExpr(RexNode e, List<ColumnType> types) {
        return chunkExpr(e, types, null);
    }

    /** {@link #chunkExpr(RexNode, List)} with the conditions of CASEs bound to {@code root}'s parameters (null: only checks). */
    static ChunkExpr chunkExpr(RexNode e, List<ColumnType> types, DataContext root) {
        ColumnType type = chunkType(e.getType());
        if (type == null) {
            return null;
        }
        if (alwaysNull(e)) { // NULL * -3, which Calcite leaves where a column of an outer join's side is always NULL
            return new ChunkExpr.Constant(null, type);
        }
        switch (e) {
            case RexInputRef ref -> {
                ColumnType in = types.get(ref.getIndex());
                return in != null && in.storageKind() == type.storageKind() && in.scale() == type.scale()
                        ? new ChunkExpr.Column(ref.getIndex(), in) : null;
            }
            case RexLiteral l -> {
                if (l.isNull()) {
                    return new ChunkExpr.Constant(null, type);
                }
                Predicates.Stored stored = Predicates.stored(type, Predicates.value(l, null), RoundingMode.FLOOR);
                return stored.exact() ? new ChunkExpr.Constant(stored.value(), type) : null;
            }
            case RexCall c when type.kind() == ColumnType.Kind.BOOLEAN -> {
                RowPredicate p = RowConditions.translate(c, types, root);
                return p == null ? null : new ChunkExpr.Condition(p, type);
            }
            case RexCall c when c.getKind() == SqlKind.CASE -> {
                List<RexNode> ops = c.getOperands();
                List<RowPredicate> conditions = new ArrayList<>();
                List<ChunkExpr> values = new ArrayList<>();
                for (int i = 0; i + 1 < ops.size(); i += 2) {
                    RowPredicate when = RowConditions.translate(ops.get(i), types, root);
                    ChunkExpr then = branch(ops.get(i + 1), type, c.getType(), types, root);
                    if (when == null || then == null) {
                        return null;
                    }
                    conditions.add(when);
                    values.add(then);
                }
                ChunkExpr otherwise = branch(ops.getLast(), type, c.getType(), types, root);
                return otherwise == null ? null : new ChunkExpr.Case(conditions, values, otherwise, type);
            }
            case RexCall c when substring(c) != null -> {
                int[] sub = substring(c);
                ColumnType in = types.get(sub[0]);
                return !Predicates.text(in) || !Predicates.text(type) ? null
                        : new ChunkExpr.Substring(sub[0], sub[1], sub[2], type);
            }
            case RexCall c when type.kind() == ColumnType.Kind.DATE && dateShift(c) != null -> {
                long[] shift = dateShift(c);
                ColumnType in = types.get((int) shift[0]);
                return in == null || in.kind() != ColumnType.Kind.DATE ? null
                        : new ChunkExpr.DateShift((int) shift[0], shift[1], shift[2], type);
            }
            case RexCall c when c.getKind() == SqlKind.EXTRACT -> {
                if (!(c.getOperands().get(0) instanceof RexLiteral unit) || !(c.getOperands().get(1) instanceof RexInputRef ref)
                        || types.get(ref.getIndex()) == null || types.get(ref.getIndex()).kind() != ColumnType.Kind.DATE
                        || type.storageKind() != StorageKind.LONG || type.scale() != 0) {
                    return null;
                }
                ChunkExpr.DateField field = switch (unit.getValueAs(TimeUnitRange.class)) {
                    case YEAR -> ChunkExpr.DateField.YEAR;
                    case MONTH -> ChunkExpr.DateField.MONTH;
                    case DAY -> ChunkExpr.DateField.DAY;
                    case null, default -> null;
                };
                return field == null ? null : new ChunkExpr.Extract(field, ref.getIndex(), type);
            }
            default -> {
                return numericChunk(numeric(e), type, types);
            }
        }
    }

    private static final long MILLIS_PER_DAY = 86_400_000L;

    /**
     * A DATE expression as {column, months, days} (months added first, then days): a DATE column,
     * plus or minus one interval literal of months, then of whole days, through casts to DATE;
     * null for anything else (months added after days or after months, which need not give the
     * same date as the sum, a computed interval).
     */
    private static long[] dateShift(RexNode e) {
        if (e.getType().getSqlTypeName() != SqlTypeName.DATE) {
            return null;
        }
        return switch (e) {
            case RexInputRef ref -> new long[]{ref.getIndex(), 0, 0};
            case RexCall c when c.getKind() == SqlKind.CAST -> dateShift(c.getOperands().getFirst());
            case RexCall c when c.getKind() == SqlKind.PLUS || c.getKind() == SqlKind.MINUS -> {
                RexNode a = c.getOperands().get(0);
                RexNode b = c.getOperands().get(1);
                boolean dateFirst = a.getType().getSqlTypeName() == SqlTypeName.DATE;
                if (!dateFirst && c.getKind() == SqlKind.MINUS) {
                    yield null; // an interval minus a date is no SQL
                }
                long[] date = dateShift(dateFirst ? a : b);
                RexNode interval = dateFirst ? b : a;
                Long days = wholeDays(interval);
                Long months = days == null ? months(interval) : null;
                if (date == null || (days == null && (months == null || date[1] != 0 || date[2] != 0))) {
                    yield null; // months after months do not add up: Oct 31 + 4 - 18 months is Aug 28, Oct 31 - 14 is Aug 31
                }
                int at = days != null ? 2 : 1;
                long by = days != null ? days : months;
                long[] shifted = date.clone();
                shifted[at] = c.getKind() == SqlKind.PLUS ? Math.addExact(date[at], by) : Math.subtractExact(date[at], by);
                yield shifted;
            }
            default -> null;
        };
    }

    /** A year-month interval literal as its months, else null. */
    private static Long months(RexNode e) {
        if (!(e instanceof RexLiteral l) || l.isNull() || !SqlTypeName.YEAR_INTERVAL_TYPES.contains(l.getType().getSqlTypeName())) {
            return null;
        }
        BigDecimal months = l.getValueAs(BigDecimal.class);
        return months == null || months.abs().compareTo(BigDecimal.valueOf(1_000_000L)) > 0 ? null : months.longValueExact();
    }

    /** A day-time interval literal of whole days as its days, else null. */
    private static Long wholeDays(RexNode e) {
        if (!(e instanceof RexLiteral l) || l.isNull() || !SqlTypeName.DAY_INTERVAL_TYPES.contains(l.getType().getSqlTypeName())) {
            return null;
        }
        BigDecimal millis = l.getValueAs(BigDecimal.class);
        if (millis == null || millis.remainder(BigDecimal.valueOf(MILLIS_PER_DAY)).signum() != 0) {
            return null;
        }
        BigDecimal days = millis.divide(BigDecimal.valueOf(MILLIS_PER_DAY));
        return days.abs().compareTo(BigDecimal.valueOf(1_000_000_000L)) > 0 ? null : days.longValueExact();
    }

    /** {@code n} (null: none) as a column of {@code type} over columns of {@code types}, or null when it does not fit. */
    private static ChunkExpr numericChunk(NumericExpr n, ColumnType type, List<ColumnType> types) {
        if (n == null || !readsAsStored(n, types)) {
            return null;
        }
        try {
            return new ChunkExpr.Numeric(n, type);
        } catch (IllegalArgumentException notThatType) {
            return null;
        }
    }

    /** A CASE's value as stored like the CASE ({@code type}): numbers brought to its scale. */
    private static ChunkExpr branch(RexNode e, ColumnType type, RelDataType caseType, List<ColumnType> types,
                                    DataContext root) {
        ChunkExpr x = chunkExpr(e, types, root);
        if (x != null && x.type().storageKind() == type.storageKind() && x.type().scale() == type.scale()) {
            return x;
        }
        NumericExpr.Type t = numericType(caseType);
        return numericChunk(t == null ? null : align(numeric(e), t), type, types);
    }

    /** Whether every column the expression reads is stored as it expects: longs at its scale, or doubles. */
    private static boolean readsAsStored(NumericExpr e, List<ColumnType> types) {
        return switch (e) {
            case NumericExpr.Column c -> {
                ColumnType t = types.get(c.column());
                yield t != null && (c.type().approximate()
                        ? t.storageKind() == StorageKind.DOUBLE
                        : t.storageKind() == StorageKind.LONG && t.scale() == c.type().scale()
                        && t.codec().numeric());
            }
            case NumericExpr.Arithmetic a -> readsAsStored(a.left(), types) && readsAsStored(a.right(), types);
            case NumericExpr.Negate n -> readsAsStored(n.operand(), types);
            case NumericExpr.Rescale r -> readsAsStored(r.operand(), types);
            case NumericExpr.ToDouble d -> readsAsStored(d.operand(), types);
            case NumericExpr.LongConstant l -> true;
            case NumericExpr.DoubleConstant d -> true;
        };
    }

    /** A cast that never rounds: exact to exact with no fewer fraction digits, or any number to DOUBLE. */
    static boolean widening(RelDataType from, RelDataType to) {
        if (!SqlTypeUtil.isNumeric(from) || !SqlTypeUtil.isNumeric(to)) {
            return false;
        }
        SqlTypeName t = to.getSqlTypeName();
        if (t == SqlTypeName.DOUBLE || t == SqlTypeName.FLOAT) {
            return true;
        }
        return SqlTypeUtil.isExactNumeric(from) && SqlTypeUtil.isExactNumeric(to)
                && (t == SqlTypeName.DECIMAL ? from.getScale() <= to.getScale() : from.getSqlTypeName() != SqlTypeName.DECIMAL);
    }

    /**
     * {@code SUBSTRING(column FROM start FOR length)} with literal integers as {column, start,
     * length}, or null; without FOR, the length is all that can follow.
     */
    static int[] substring(RexNode e) {
        if (!(e instanceof RexCall c) || c.getOperator() != SqlStdOperatorTable.SUBSTRING
                || !(c.getOperands().getFirst() instanceof RexInputRef ref)) {
            return null;
        }
        int[] out = {ref.getIndex(), 0, Integer.MAX_VALUE};
        for (int i = 1; i < c.getOperands().size(); i++) {
            if (!(c.getOperands().get(i) instanceof RexLiteral l) || l.isNull()
                    || !SqlTypeUtil.isExactNumeric(l.getType()) || l.getValueAs(BigDecimal.class).scale() > 0) {
                return null;
            }
            long v = l.getValueAs(Long.class);
            if (v != (int) v || (i == 2 && v < 0)) {
                return null;
            }
            out[i] = (int) v;
        }
        if (c.getOperands().size() == 2) {
            out[2] = Integer.MAX_VALUE - Math.max(0, out[1]); // to the end, without overflowing start + length
        }
        return out;
    }

    /**
     * What a CAST to {@code type} ({@code t} as computed) yields: a DECIMAL of at most 18 digits
     * checks its values against its precision, so that a value too wide fails the statement as
     * Calcite's CAST does, instead of passing as a DECIMAL it does not fit.
     */
    private static NumericExpr.Type castType(RelDataType type, NumericExpr.Type t) {
        if (type.getSqlTypeName() != SqlTypeName.DECIMAL || type.getPrecision() > MAX_SCALING) {
            return t;
        }
        long bound = BigDecimal.TEN.pow(type.getPrecision()).longValueExact() - 1;
        return new NumericExpr.Type(false, t.scale(), -bound, bound, false, t.name());
    }

    /** A cast from a DECIMAL to a DECIMAL with fewer fraction digits: it rounds. */
    static boolean narrowing(RelDataType from, RelDataType to) {
        return from.getSqlTypeName() == SqlTypeName.DECIMAL && to.getSqlTypeName() == SqlTypeName.DECIMAL
                && to.getScale() < from.getScale() && from.getScale() - to.getScale() <= MAX_SCALING;
    }

    static boolean numericCast(RelDataType from, RelDataType to) {
        return widening(from, to) || narrowing(from, to);
    }

    static Projection projection(RexNode e) {
        if (e instanceof RexInputRef ref) {
            return new Projection.ColumnRef(ref.getIndex());
        }
        TreeSet<Integer> columns = new TreeSet<>();
        collectColumns(e, columns);
        return new Projection.Computed(columns.stream().mapToInt(Integer::intValue).toArray(), compile(e), numeric(e),
                e.toString());
    }

    /**
     * The expression as primitive arithmetic aggregates run a block at a time, or null where
     * that would round or needs types it has not (DATE, REAL, NULL literals).
     */
    static NumericExpr numeric(RexNode e) {
        if (e instanceof RexInputRef ref && e.getType().getSqlTypeName() == SqlTypeName.REAL) {
            // a REAL column's stored double is its exact value; REAL arithmetic rounds each step to a float
            return new NumericExpr.Column(ref.getIndex(), NumericExpr.Type.DOUBLE);
        }
        NumericExpr.Type t = numericType(e.getType());
        if (t == null) {
            return null;
        }
        return switch (e) {
            case RexInputRef ref -> new NumericExpr.Column(ref.getIndex(), t);
            case RexLiteral l -> constant(l, t);
            case RexCall c -> switch (c.getKind()) {
                case PLUS, MINUS, TIMES, DIVIDE -> arithmetic(c, t);
                case MINUS_PREFIX -> {
                    NumericExpr operand = align(numeric(c.getOperands().getFirst()), t);
                    yield operand == null ? null : new NumericExpr.Negate(operand, t);
                }
                case CAST -> {
                    RelDataType from = c.getOperands().getFirst().getType();
                    NumericExpr.Type checked = castType(c.getType(), t);
                    if (widening(from, c.getType())) {
                        yield align(numeric(c.getOperands().getFirst()), checked);
                    }
                    NumericExpr operand = narrowing(from, c.getType()) ? numeric(c.getOperands().getFirst()) : null;
                    yield operand == null || operand.type().approximate() ? null : new NumericExpr.Rescale(operand, checked);
                }
                default -> null;
            };
            default -> null;
        };
    }

    private static NumericExpr arithmetic(RexCall c, NumericExpr.Type t) {
        NumericExpr a = numeric(c.getOperands().get(0));
        NumericExpr b = numeric(c.getOperands().get(1));
        if (a == null || b == null) {
            return null;
        }
        NumericExpr.Op op = switch (c.getKind()) {
            case PLUS -> NumericExpr.Op.ADD;
            case MINUS -> NumericExpr.Op.SUBTRACT;
            case DIVIDE -> NumericExpr.Op.DIVIDE;
            default -> NumericExpr.Op.MULTIPLY;
        };
        if (op == NumericExpr.Op.DIVIDE && !t.approximate()) {
            if (a.type().approximate() || b.type().approximate()
                    || Math.abs(t.scale() + b.type().scale() - a.type().scale()) > MAX_SCALING) {
                return null;
            }
            return new NumericExpr.Arithmetic(op, a, b, t);
        }
        if (t.approximate() || op != NumericExpr.Op.MULTIPLY) {
            a = align(a, t);
            b = align(b, t);
            return a == null || b == null ? null : new NumericExpr.Arithmetic(op, a, b, t);
        }
        if (a.type().approximate() || b.type().approximate()) {
            return null;
        }
        int scale = a.type().scale() + b.type().scale();
        if (scale == t.scale()) {
            return new NumericExpr.Arithmetic(op, a, b, t);
        }
        if (scale > t.scale()) {
            return null; // Calcite capped the scale: the product rounds, which only BigDecimals do
        }
        NumericExpr.Type product = new NumericExpr.Type(false, scale, Long.MIN_VALUE, Long.MAX_VALUE, t.decimal(), t.name());
        return align(new NumericExpr.Arithmetic(op, a, b, product), t);
    }

    /** The largest power of ten a long holds. */
    private static final int MAX_SCALING = 18;

    /** {@code e} as a value of {@code t} without rounding, or null when it would round. */
    private static NumericExpr align(NumericExpr e, NumericExpr.Type t) {
        if (e == null || e.type().equals(t)) {
            return e;
        }
        if ((t.approximate() ? e.type().scale() : t.scale() - e.type().scale()) > MAX_SCALING) {
            return null; // 10^19 leaves a long: BigDecimals will do
        }
        if (t.approximate()) {
            return switch (e) {
                case NumericExpr.LongConstant l -> new NumericExpr.DoubleConstant(
                        BigDecimal.valueOf(l.unscaled(), l.type().scale()).doubleValue());
                default -> e.type().approximate() ? e : new NumericExpr.ToDouble(e);
            };
        }
        if (e.type().approximate() || e.type().scale() > t.scale()) {
            return null;
        }
        if (e.type().scale() == t.scale() && t.fullRange()) {
            return e; // DECIMAL(15, 2) as DECIMAL(16, 2): the same unscaled longs
        }
        if (e instanceof NumericExpr.LongConstant l) {
            return constant(BigDecimal.valueOf(l.unscaled(), l.type().scale()), t);
        }
        return new NumericExpr.Rescale(e, t);
    }

    private static NumericExpr constant(RexLiteral l, NumericExpr.Type t) {
        if (l.isNull() || l.getType().getSqlTypeName().getFamily() != SqlTypeFamily.NUMERIC) {
            return null;
        }
        BigDecimal v = l.getValueAs(BigDecimal.class);
        return t.approximate() ? new NumericExpr.DoubleConstant(v.doubleValue()) : constant(v, t);
    }

    private static NumericExpr constant(BigDecimal v, NumericExpr.Type t) {
        try {
            long unscaled = v.setScale(t.scale(), RoundingMode.UNNECESSARY).unscaledValue().longValueExact();
            return unscaled < t.min() || unscaled > t.max() ? null : new NumericExpr.LongConstant(unscaled, t);
        } catch (ArithmeticException e) {
            return null; // it would round, or leaves a long: BigDecimals will say
        }
    }

    private static NumericExpr.Type numericType(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT -> NumericExpr.Type.TINYINT;
            case SMALLINT -> NumericExpr.Type.SMALLINT;
            case INTEGER -> NumericExpr.Type.INTEGER;
            case BIGINT -> NumericExpr.Type.BIGINT;
            case DECIMAL -> NumericExpr.Type.decimal(type.getPrecision(), type.getScale());
            case DOUBLE, FLOAT -> NumericExpr.Type.DOUBLE;
            default -> null;
        };
    }

    private static void collectColumns(RexNode e, Set<Integer> into) {
        if (e instanceof RexInputRef ref) {
            into.add(ref.getIndex());
        } else if (e instanceof RexCall c) {
            c.getOperands().forEach(o -> collectColumns(o, into));
        }
    }

    private static Function<Object[], Object> compile(RexNode e) {
        RelDataType type = e.getType();
        return switch (e) {
            case RexInputRef ref -> {
                int i = ref.getIndex();
                yield row -> row[i];
            }
            case RexLiteral l -> {
                Object v = literal(l);
                yield row -> v;
            }
            case RexCall c -> {
                List<Function<Object[], Object>> args = c.getOperands().stream().map(RowExpressions::compile).toList();
                yield switch (c.getKind()) {
                    case CAST -> {
                        int scale = type.getScale();
                        yield narrowing(c.getOperands().getFirst().getType(), type) ? row -> {
                            Object v = args.getFirst().apply(row);
                            return v == null ? null : SqlTypes.toInternal(decimal(v).setScale(scale, RoundingMode.HALF_UP), type);
                        } : row -> SqlTypes.toInternal(args.getFirst().apply(row), type);
                    }
                    case MINUS_PREFIX -> row -> {
                        Object v = args.getFirst().apply(row);
                        return v == null ? null : SqlTypes.toInternal(decimal(v).negate(), type);
                    };
                    default -> arithmetic(c, args, type);
                };
            }
            default -> throw new IllegalArgumentException("not a numacol expression: " + e);
        };
    }

    private static Function<Object[], Object> arithmetic(RexCall c, List<Function<Object[], Object>> args, RelDataType type) {
        Function<Object[], Object> a = args.get(0);
        Function<Object[], Object> b = args.get(1);
        boolean approximate = SqlTypeUtil.isApproximateNumeric(type);
        return row -> {
            Object x = a.apply(row);
            Object y = b.apply(row);
            if (x == null || y == null) {
                return null;
            }
            if (approximate) {
                double p = ((Number) x).doubleValue();
                double q = ((Number) y).doubleValue();
                double r = switch (c.getKind()) {
                    case PLUS -> p + q;
                    case MINUS -> p - q;
                    case DIVIDE -> p / q;
                    default -> p * q;
                };
                return r + 0.0; // -0.0 (0 * -2) as 0.0: Calcite's hash operators above tell them apart
            }
            BigDecimal p = decimal(x);
            BigDecimal q = decimal(y);
            BigDecimal r = switch (c.getKind()) {
                case PLUS -> p.add(q);
                case MINUS -> p.subtract(q);
                case DIVIDE -> {
                    if (q.signum() == 0) {
                        throw new ArithmeticException("division by zero");
                    }
                    yield p.divide(q, Math.max(0, type.getScale()), RoundingMode.DOWN);
                }
                default -> p.multiply(q);
            };
            return SqlTypes.toInternal(r, type);
        };
    }

    /**
     * A literal as Calcite's internal value (String, not NlsString; DATE as epoch day, TIMESTAMP as
     * epoch milliseconds, TIME as milliseconds of the day).
     */
    private static Object literal(RexLiteral l) {
        if (l.isNull()) {
            return null;
        }
        return switch (l.getType().getSqlTypeName().getFamily()) {
            case NUMERIC -> SqlTypes.toInternal(l.getValueAs(BigDecimal.class), l.getType());
            case CHARACTER -> l.getValueAs(String.class);
            case BOOLEAN -> l.getValueAs(Boolean.class);
            case DATE -> l.getValueAs(Integer.class);
            case TIMESTAMP -> l.getValueAs(Long.class);
            case TIME -> l.getValueAs(Integer.class);
            case null, default -> throw new IllegalArgumentException("not a numacol literal: " + l);
        };
    }

    private static BigDecimal decimal(Object v) {
        return switch (v) {
            case BigDecimal b -> b;
            case Double d -> BigDecimal.valueOf(d);
            case Number n -> BigDecimal.valueOf(n.longValue());
            default -> throw new IllegalArgumentException("not a number: " + v);
        };
    }
}
