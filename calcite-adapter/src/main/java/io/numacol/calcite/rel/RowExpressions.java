package io.numacol.calcite.rel;

import io.numacol.calcite.SqlTypes;
import io.numacol.exec.Projection;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.math.BigDecimal;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Projections numacol evaluates in its tasks: columns, literals, and +, -, * and widening CASTs
 * on numbers (exact on decimals, as Calcite computes them), with NULL in, NULL out. Anything
 * else stays in a Calcite Project.
 */
final class RowExpressions {
    private RowExpressions() {
    }

    static boolean supports(RexNode e) {
        return switch (e) {
            case RexInputRef ref -> true;
            case RexLiteral l -> l.isNull() || switch (l.getType().getSqlTypeName().getFamily()) {
                case NUMERIC, CHARACTER, BOOLEAN, DATE -> true;
                case null, default -> false;
            };
            case RexCall c -> switch (c.getKind()) {
                case PLUS, MINUS, TIMES -> SqlTypeUtil.isNumeric(c.getType()) && c.getOperands().stream().allMatch(RowExpressions::supports);
                case MINUS_PREFIX -> SqlTypeUtil.isNumeric(c.getType()) && supports(c.getOperands().getFirst());
                case CAST -> widening(c.getOperands().getFirst().getType(), c.getType()) && supports(c.getOperands().getFirst());
                default -> false;
            };
            default -> false;
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
                && (t == SqlTypeName.DECIMAL ? from.getScale() <= to.getScale() && (from.getSqlTypeName() == SqlTypeName.DECIMAL
                || t == SqlTypeName.DECIMAL) : from.getSqlTypeName() != SqlTypeName.DECIMAL);
    }

    static Projection projection(RexNode e) {
        if (e instanceof RexInputRef ref) {
            return new Projection.ColumnRef(ref.getIndex());
        }
        TreeSet<Integer> columns = new TreeSet<>();
        collectColumns(e, columns);
        return new Projection.Computed(columns.stream().mapToInt(Integer::intValue).toArray(), compile(e), e.toString());
    }

    private static void collectColumns(RexNode e, TreeSet<Integer> into) {
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
                    case CAST -> row -> SqlTypes.toInternal(args.getFirst().apply(row), type);
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
                return switch (c.getKind()) {
                    case PLUS -> p + q;
                    case MINUS -> p - q;
                    default -> p * q;
                };
            }
            BigDecimal p = decimal(x);
            BigDecimal q = decimal(y);
            BigDecimal r = switch (c.getKind()) {
                case PLUS -> p.add(q);
                case MINUS -> p.subtract(q);
                default -> p.multiply(q);
            };
            return SqlTypes.toInternal(r, type);
        };
    }

    /** A literal as Calcite's internal value (String, not NlsString; DATE as epoch day). */
    private static Object literal(RexLiteral l) {
        if (l.isNull()) {
            return null;
        }
        return switch (l.getType().getSqlTypeName().getFamily()) {
            case NUMERIC -> SqlTypes.toInternal(l.getValueAs(BigDecimal.class), l.getType());
            case CHARACTER -> l.getValueAs(String.class);
            case BOOLEAN -> l.getValueAs(Boolean.class);
            case DATE -> l.getValueAs(Integer.class);
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
