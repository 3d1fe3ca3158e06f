package io.numacol.exec;

import io.numacol.storage.types.StorageKind;

import java.util.Arrays;
import java.util.List;

/**
 * A {@link RowPredicate} compiled for one task to run a chunk at a time: comparisons of LONG- or
 * DOUBLE-stored columns and constants are primitive loops with no boxing; AND, OR, NOT and IS
 * combine per-row truths; anything else (strings, LIKE) falls back to {@link RowPredicate#eval}
 * row by row. Truths are ranked FALSE 0, UNKNOWN 1, TRUE 2, so that Kleene's AND is the minimum
 * and OR the maximum.
 */
final class ConditionKernel {
    private static final byte F = 0;
    private static final byte U = 1;
    private static final byte T = 2;

    private final Node root;

    ConditionKernel(RowPredicate predicate) {
        this.root = compile(predicate);
    }

    /** Sets {@code keep[r]} for each row of {@code chunk} on which the condition is TRUE. */
    void keep(Chunk chunk, boolean[] keep) {
        byte[] ranks = root.eval(chunk);
        for (int r = 0; r < chunk.size; r++) {
            keep[r] = ranks[r] == T;
        }
    }

    private abstract static class Node {
        final byte[] out = new byte[Chunk.CAPACITY];

        abstract byte[] eval(Chunk chunk);
    }

    private static Node compile(RowPredicate p) {
        return switch (p) {
            case RowPredicate.Compare c when primitive(c) -> new Compare(c);
            case RowPredicate.InValues v when v.values().stream().allMatch(Long.class::isInstance) -> new LongsIn(v);
            case RowPredicate.And a -> new Combine(a.operands().stream().map(ConditionKernel::compile).toList(), true);
            case RowPredicate.Or o -> new Combine(o.operands().stream().map(ConditionKernel::compile).toList(), false);
            case RowPredicate.Not n -> new Not(compile(n.operand()));
            case RowPredicate.Is i -> new Is(compile(i.operand()), i.value() == RowPredicate.TRUE ? T : F, i.negated());
            default -> new Generic(p);
        };
    }

    /** Whether a comparison reads only LONG- or DOUBLE-stored columns and constants of those. */
    private static boolean primitive(RowPredicate.Compare c) {
        return !(c.left() instanceof RowPredicate.Constant k && !(k.stored() instanceof Long || k.stored() instanceof Double))
                && !(c.right() instanceof RowPredicate.Constant k2 && !(k2.stored() instanceof Long || k2.stored() instanceof Double))
                && (c.left() instanceof RowPredicate.ColumnOperand || c.right() instanceof RowPredicate.ColumnOperand);
    }

    /** {@code a op b} on longs or doubles; a NULL operand (column or constant) makes the row UNKNOWN. */
    private static final class Compare extends Node {
        private final RowPredicate.Op op;
        private final RowPredicate.Operand left;
        private final RowPredicate.Operand right;
        private final long[] leftConstant = new long[Chunk.CAPACITY];
        private final long[] rightConstant = new long[Chunk.CAPACITY];
        private final double[] leftDouble = new double[Chunk.CAPACITY];
        private final double[] rightDouble = new double[Chunk.CAPACITY];
        private final boolean nullConstant;
        /** Strings compare a row at a time. */
        private final Generic strings;

        Compare(RowPredicate.Compare c) {
            this.strings = new Generic(c);
            this.op = c.op();
            this.left = c.left();
            this.right = c.right();
            boolean nullConstant = false;
            for (RowPredicate.Operand o : List.of(left, right)) {
                if (o instanceof RowPredicate.Constant k) {
                    nullConstant |= k.stored() == null;
                    long[] longs = o == left ? leftConstant : rightConstant;
                    double[] doubles = o == left ? leftDouble : rightDouble;
                    if (k.stored() instanceof Long v) {
                        Arrays.fill(longs, v);
                    } else if (k.stored() instanceof Double v) {
                        Arrays.fill(doubles, v);
                    }
                }
            }
            this.nullConstant = nullConstant;
        }

        @Override
        byte[] eval(Chunk chunk) {
            int n = chunk.size;
            if (nullConstant) {
                Arrays.fill(out, 0, n, U);
                return out;
            }
            int column = left instanceof RowPredicate.ColumnOperand c ? c.column() : ((RowPredicate.ColumnOperand) right).column();
            if (chunk.types[column].storageKind() == StorageKind.STRING) {
                return strings.eval(chunk);
            }
            if (chunk.types[column].storageKind() == StorageKind.DOUBLE) {
                double[] a = left instanceof RowPredicate.ColumnOperand c ? chunk.doubles[c.column()] : leftDouble;
                double[] b = right instanceof RowPredicate.ColumnOperand c ? chunk.doubles[c.column()] : rightDouble;
                switch (op) { // == on doubles: 0.0 equals -0.0, as in SQL
                    case EQ -> { for (int r = 0; r < n; r++) { out[r] = a[r] == b[r] ? T : F; } }
                    case NE -> { for (int r = 0; r < n; r++) { out[r] = a[r] != b[r] ? T : F; } }
                    case LT -> { for (int r = 0; r < n; r++) { out[r] = a[r] < b[r] ? T : F; } }
                    case LE -> { for (int r = 0; r < n; r++) { out[r] = a[r] <= b[r] ? T : F; } }
                    case GT -> { for (int r = 0; r < n; r++) { out[r] = a[r] > b[r] ? T : F; } }
                    case GE -> { for (int r = 0; r < n; r++) { out[r] = a[r] >= b[r] ? T : F; } }
                }
                // NaN equals NaN and is greater than any number, as RowPredicate and the dictionaries order it
                for (int r = 0; r < n; r++) {
                    if (Double.isNaN(a[r]) || Double.isNaN(b[r])) {
                        out[r] = op.holds(Double.compare(a[r], b[r])) ? T : F;
                    }
                }
            } else {
                long[] a = left instanceof RowPredicate.ColumnOperand c ? chunk.longs[c.column()] : leftConstant;
                long[] b = right instanceof RowPredicate.ColumnOperand c ? chunk.longs[c.column()] : rightConstant;
                switch (op) {
                    case EQ -> { for (int r = 0; r < n; r++) { out[r] = a[r] == b[r] ? T : F; } }
                    case NE -> { for (int r = 0; r < n; r++) { out[r] = a[r] != b[r] ? T : F; } }
                    case LT -> { for (int r = 0; r < n; r++) { out[r] = a[r] < b[r] ? T : F; } }
                    case LE -> { for (int r = 0; r < n; r++) { out[r] = a[r] <= b[r] ? T : F; } }
                    case GT -> { for (int r = 0; r < n; r++) { out[r] = a[r] > b[r] ? T : F; } }
                    case GE -> { for (int r = 0; r < n; r++) { out[r] = a[r] >= b[r] ? T : F; } }
                }
            }
            unknownWhereNull(chunk, left);
            unknownWhereNull(chunk, right);
            return out;
        }

        private void unknownWhereNull(Chunk chunk, RowPredicate.Operand operand) {
            if (operand instanceof RowPredicate.ColumnOperand c && chunk.nulls[c.column()] != null) {
                boolean[] nulls = chunk.nulls[c.column()];
                for (int r = 0; r < chunk.size; r++) {
                    if (nulls[r]) {
                        out[r] = U;
                    }
                }
            }
        }
    }

    /**
     * {@link RowPredicate.InValues} of LONG-stored values: a binary search of the sorted values
     * per row, no boxing. Strings and doubles go through {@link Generic}'s hash lookup.
     */
    private static final class LongsIn extends Node {
        private final int column;
        private final long[] sorted;
        private final Generic other;

        LongsIn(RowPredicate.InValues in) {
            this.column = in.column();
            this.sorted = in.values().stream().mapToLong(v -> (Long) v).sorted().toArray();
            this.other = new Generic(in);
        }

        @Override
        byte[] eval(Chunk chunk) {
            if (chunk.types[column].storageKind() != StorageKind.LONG) {
                return other.eval(chunk);
            }
            long[] values = chunk.longs[column];
            boolean[] nulls = chunk.nulls[column];
            for (int r = 0; r < chunk.size; r++) {
                out[r] = nulls != null && nulls[r] ? U : Arrays.binarySearch(sorted, values[r]) >= 0 ? T : F;
            }
            return out;
        }
    }

    /** AND (the least truth) or OR (the greatest) of its operands. */
    private static final class Combine extends Node {
        private final Node[] operands;
        private final boolean and;

        Combine(List<Node> operands, boolean and) {
            this.operands = operands.toArray(Node[]::new);
            this.and = and;
        }

        @Override
        byte[] eval(Chunk chunk) {
            int n = chunk.size;
            System.arraycopy(operands[0].eval(chunk), 0, out, 0, n);
            for (int i = 1; i < operands.length; i++) {
                byte[] v = operands[i].eval(chunk);
                if (and) {
                    for (int r = 0; r < n; r++) {
                        out[r] = (byte) Math.min(out[r], v[r]);
                    }
                } else {
                    for (int r = 0; r < n; r++) {
                        out[r] = (byte) Math.max(out[r], v[r]);
                    }
                }
            }
            return out;
        }
    }

    private static final class Not extends Node {
        private final Node operand;

        Not(Node operand) {
            this.operand = operand;
        }

        @Override
        byte[] eval(Chunk chunk) {
            byte[] v = operand.eval(chunk);
            for (int r = 0; r < chunk.size; r++) {
                out[r] = (byte) (T - v[r]);
            }
            return out;
        }
    }

    /** IS [NOT] TRUE / FALSE: never UNKNOWN. */
    private static final class Is extends Node {
        private final Node operand;
        private final byte value;
        private final boolean negated;

        Is(Node operand, byte value, boolean negated) {
            this.operand = operand;
            this.value = value;
            this.negated = negated;
        }

        @Override
        byte[] eval(Chunk chunk) {
            byte[] v = operand.eval(chunk);
            for (int r = 0; r < chunk.size; r++) {
                out[r] = (v[r] == value) != negated ? T : F;
            }
            return out;
        }
    }

    /** Any other condition, a row at a time. */
    private static final class Generic extends Node {
        private final RowPredicate predicate;

        Generic(RowPredicate predicate) {
            this.predicate = predicate;
        }

        @Override
        byte[] eval(Chunk chunk) {
            for (int r = 0; r < chunk.size; r++) {
                byte v = predicate.eval(chunk, r);
                out[r] = v == RowPredicate.TRUE ? T : v == RowPredicate.FALSE ? F : U;
            }
            return out;
        }
    }
}
