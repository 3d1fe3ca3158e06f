package io.numacol.exec;

import io.numacol.storage.StringDictionary;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A condition on the columns of a {@link Chunk}, evaluated on values rather than vids: what a
 * {@link ColumnFilter} cannot say, such as comparing two columns ({@code l_commitdate <
 * l_receiptdate}), or columns that came out of a join. Three-valued: a comparison with a NULL is
 * unknown, NOT of unknown is unknown, AND and OR follow Kleene; a row is kept only when TRUE.
 */
public sealed interface RowPredicate {
    byte FALSE = 0;
    byte TRUE = 1;
    byte UNKNOWN = 2;

    enum Op {
        EQ, NE, LT, LE, GT, GE;

        boolean holds(int cmp) {
            return switch (this) {
                case EQ -> cmp == 0;
                case NE -> cmp != 0;
                case LT -> cmp < 0;
                case LE -> cmp <= 0;
                case GT -> cmp > 0;
                case GE -> cmp >= 0;
            };
        }
    }

    /** Column or constant (a stored value: Long, Double or String; null is SQL NULL). */
    sealed interface Operand {
    }

    record ColumnOperand(int column) implements Operand {
    }

    record Constant(Object stored) implements Operand {
    }

    /**
     * {@code left op right}; both operands must compare by stored value (one storage kind, and
     * for longs one scale), which whoever builds the predicate checks.
     */
    record Compare(Op op, Operand left, Operand right) implements RowPredicate {
    }

    record IsNull(int column, boolean negated) implements RowPredicate {
    }

    record Not(RowPredicate operand) implements RowPredicate {
    }

    /** {@code operand IS [NOT] TRUE} ({@code value} TRUE) or {@code IS [NOT] FALSE}: never unknown. */
    record Is(RowPredicate operand, byte value, boolean negated) implements RowPredicate {
    }

    /** A string column's value passes {@code test} (LIKE); NULL is unknown. {@code test} must be thread-safe. */
    record Matches(int column, Predicate<String> test, String description) implements RowPredicate {
        @Override
        public String toString() {
            return "Matches[" + column + " " + description + "]";
        }
    }

    /** A column's value is one of a join build side's keys (see {@link KeyFilter}); NULL is unknown. */
    record InKeys(int column, KeyFilter keys) implements RowPredicate {
    }

    /**
     * A column's stored value is one of {@code values} (Longs, Doubles or Strings, as the column
     * stores them): an IN list or a SEARCH of many points, tested by one lookup instead of an OR
     * of as many comparisons. NULL is unknown. Doubles are kept with -0.0 as 0.0, which SQL
     * calls equal.
     */
    record InValues(int column, Set<Object> values) implements RowPredicate {
        public InValues {
            values = values.stream().map(RowPredicate::normalized).collect(Collectors.toUnmodifiableSet());
        }

        @Override
        public String toString() {
            return "InValues[" + column + ", " + values.size() + " values]";
        }
    }

    record And(List<RowPredicate> operands) implements RowPredicate {
        public And {
            operands = List.copyOf(operands);
        }
    }

    record Or(List<RowPredicate> operands) implements RowPredicate {
        public Or {
            operands = List.copyOf(operands);
        }
    }

    /** Row {@code row}'s truth: {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}. */
    default byte eval(Chunk chunk, int row) {
        return switch (this) {
            case Compare c -> compare(c, chunk, row);
            case IsNull n -> (chunk.isNull(n.column(), row) != n.negated()) ? TRUE : FALSE;
            case Is i -> (i.operand().eval(chunk, row) == i.value()) != i.negated() ? TRUE : FALSE;
            case Matches m -> chunk.isNull(m.column(), row) ? UNKNOWN : m.test().test(chunk.strings[m.column()][row]) ? TRUE : FALSE;
            case InKeys k -> chunk.isNull(k.column(), row) ? UNKNOWN : k.keys().contains(chunk, k.column(), row) ? TRUE : FALSE;
            case InValues v -> {
                Object value = value(new ColumnOperand(v.column()), chunk, row);
                yield value == null ? UNKNOWN : v.values().contains(normalized(value)) ? TRUE : FALSE;
            }
            case Not n -> {
                byte v = n.operand().eval(chunk, row);
                yield v == UNKNOWN ? UNKNOWN : (byte) (1 - v);
            }
            case And a -> {
                byte out = TRUE;
                for (RowPredicate p : a.operands()) {
                    byte v = p.eval(chunk, row);
                    if (v == FALSE) {
                        yield FALSE;
                    }
                    if (v == UNKNOWN) {
                        out = UNKNOWN;
                    }
                }
                yield out;
            }
            case Or o -> {
                byte out = FALSE;
                for (RowPredicate p : o.operands()) {
                    byte v = p.eval(chunk, row);
                    if (v == TRUE) {
                        yield TRUE;
                    }
                    if (v == UNKNOWN) {
                        out = UNKNOWN;
                    }
                }
                yield out;
            }
        };
    }

    private static byte compare(Compare c, Chunk chunk, int row) {
        Object a = value(c.left(), chunk, row);
        Object b = value(c.right(), chunk, row);
        if (a == null || b == null) {
            return UNKNOWN;
        }
        int cmp = switch (a) {
            case Long x -> Long.compare(x, (Long) b);
            case Double x -> x.doubleValue() == (Double) b ? 0 : Double.compare(x, (Double) b); // 0.0 = -0.0
            case String x -> StringDictionary.compare(x, (String) b);
            default -> throw new IllegalStateException("not a stored value: " + a);
        };
        return c.op().holds(cmp) ? TRUE : FALSE;
    }

    /** {@code value} as {@link InValues} keeps it: -0.0 as 0.0. */
    private static Object normalized(Object value) {
        return value instanceof Double d ? d + 0.0 : value;
    }

    private static Object value(Operand operand, Chunk chunk, int row) {
        return switch (operand) {
            case Constant k -> k.stored();
            case ColumnOperand col -> {
                int c = col.column();
                if (chunk.isNull(c, row)) {
                    yield null;
                }
                yield switch (chunk.types[c].storageKind()) {
                    case LONG -> chunk.longs[c][row];
                    case DOUBLE -> chunk.doubles[c][row];
                    case STRING -> chunk.strings[c][row];
                };
            }
        };
    }
}
