package io.numacol.exec;

import io.numacol.exec.NumericExpr.BeyondLong;
import io.numacol.storage.IndexVector;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * A {@link NumericExpr} compiled for one task: each node evaluates the rows of a
 * {@link ColumnVectors} (a part's decoded batch, a pipeline's chunk) into its own array, loops without branches the JIT can vectorize, and checks
 * overflow once per block. Values of NULL rows are computed from zeros and ignored by whoever
 * reads {@link #nulls}.
 */
abstract sealed class NumericKernel {
    private static final int BLOCK = IndexVector.BLOCK_ROWS;

    final NumericExpr.Type type;
    private final int[] columns;
    private final boolean[] nullScratch = new boolean[BLOCK];

    private NumericKernel(NumericExpr.Type type, int[] columns) {
        this.type = type;
        this.columns = columns;
    }

    /**
     * Compiles {@code e}; equal subexpressions (a {@code price * (1 - discount)} in two sums) share one kernel through {@code shared}, and so compute once per block.
     */
    static NumericKernel compile(NumericExpr e, Map<NumericExpr, NumericKernel> shared) {
        NumericKernel known = shared.get(e);
        if (known != null) {
            return known;
        }
        int[] columns = e.columns();
        NumericKernel k = switch (e) {
            case NumericExpr.Column c -> new ColumnKernel(c, columns);
            case NumericExpr.LongConstant l -> new Constant(l.type(), l.unscaled(), 0, columns);
            case NumericExpr.DoubleConstant d -> new Constant(NumericExpr.Type.DOUBLE, 0, d.value(), columns);
            case NumericExpr.Arithmetic a -> new ArithmeticKernel(a, compile(a.left(), shared),
                    compile(a.right(), shared), columns);
            case NumericExpr.Negate n -> new Unary(n.type(), Unary.Op.NEGATE, compile(n.operand(), shared), columns);
            case NumericExpr.Rescale r -> new Unary(r.type(), Unary.Op.RESCALE, compile(r.operand(), shared), columns);
            case NumericExpr.ToDouble d -> new Unary(NumericExpr.Type.DOUBLE, Unary.Op.TO_DOUBLE, compile(d.operand(), shared), columns);
        };
        shared.put(e, k);
        return k;
    }

    /** Exact values of the batch's rows (unscaled at {@code type.scale()}). */
    abstract long[] longs(ColumnVectors batch);

    /** Approximate values of the batch's rows. */
    abstract double[] doubles(ColumnVectors batch);

    /** The rows whose value is NULL, or null when none is. */
    boolean[] nulls(ColumnVectors batch) {
        boolean[] only = null;
        int nullable = 0;
        for (int c : columns) {
            boolean[] nc = batch.nulls(c);
            if (nc != null) {
                only = nc;
                nullable++;
            }
        }
        if (nullable <= 1) {
            return only;
        }
        int n = batch.size();
        Arrays.fill(nullScratch, 0, n, false);
        for (int c : columns) {
            boolean[] nc = batch.nulls(c);
            if (nc != null) {
                for (int i = 0; i < n; i++) {
                    nullScratch[i] |= nc[i];
                }
            }
        }
        return nullScratch;
    }

    /** An exact result left a long, or its type's range. */
    final RuntimeException overflow(String what) {
        return type.decimal() ? new BeyondLong(what) : new ArithmeticException(type.name() + " overflow in " + what);
    }

    /** Checks an exact result against its type's range (INTEGER's is narrower than a long). */
    @SuppressWarnings("ShortCircuitBoolean") // no branch per value: the loop stays vectorizable
    final void checkRange(ColumnVectors batch, long[] values, Object what) {
        if (type.fullRange()) {
            return;
        }
        long min = type.min();
        long max = type.max();
        int n = batch.size();
        boolean out = false;
        for (int i = 0; i < n; i++) {
            out |= values[i] < min | values[i] > max;
        }
        if (out && anyNotNull(batch, i -> values[i] < min || values[i] > max)) {
            throw overflow(String.valueOf(what));
        }
    }

    /**
     * Whether a row that is not NULL fails {@code bad}. The loops test every row, branch-free;
     * only when one fails does this look again, since a NULL row's value is computed from zeros
     * and may overflow where no SQL value does.
     */
    final boolean anyNotNull(ColumnVectors batch, IntPredicate bad) {
        boolean[] nulls = nulls(batch);
        for (int i = 0, n = batch.size(); i < n; i++) {
            if ((nulls == null || !nulls[i]) && bad.test(i)) {
                return true;
            }
        }
        return false;
    }

    private static final class ColumnKernel extends NumericKernel {
        private final int column;

        ColumnKernel(NumericExpr.Column c, int[] columns) {
            super(c.type(), columns);
            this.column = c.column();
        }

        @Override
        long[] longs(ColumnVectors batch) {
            return batch.longs(column);
        }

        @Override
        double[] doubles(ColumnVectors batch) {
            return batch.doubles(column);
        }
    }

    private static final class Constant extends NumericKernel {
        private final long[] longs = new long[BLOCK];
        private final double[] doubles = new double[BLOCK];

        Constant(NumericExpr.Type type, long unscaled, double value, int[] columns) {
            super(type, columns);
            Arrays.fill(longs, unscaled);
            Arrays.fill(doubles, value);
        }

        @Override
        long[] longs(ColumnVectors batch) {
            return longs;
        }

        @Override
        double[] doubles(ColumnVectors batch) {
            return doubles;
        }
    }

    private static final class ArithmeticKernel extends NumericKernel {
        private final NumericExpr.Arithmetic expr;
        private final NumericKernel left;
        private final NumericKernel right;
        /** DIVIDE: the dividend is scaled up (digits >= 0) or the divisor (digits < 0) by this power of ten. */
        private final int digits;
        private final long factor;
        private final long[] longs = new long[BLOCK];
        private final double[] doubles = new double[BLOCK];
        /** The batch generation the arrays hold, so that a shared kernel computes once per block. */
        private int longsOf = -1;
        private int doublesOf = -1;

        ArithmeticKernel(NumericExpr.Arithmetic expr, NumericKernel left, NumericKernel right, int[] columns) {
            super(expr.type(), columns);
            this.expr = expr;
            this.left = left;
            this.right = right;
            this.digits = expr.op() == NumericExpr.Op.DIVIDE && !expr.type().approximate()
                    ? expr.type().scale() + right.type.scale() - left.type.scale() : 0;
            this.factor = NumericExpr.LongMath.POWERS[Math.abs(digits)];
        }

        /**
         * Bits enough for the magnitude of {@code v[0, n)}: every |v[i]| <= 2^result. A pass the JIT
         * vectorizes, cheaper than the multiply's high half, which has no vector instruction.
         */
        private static int bitLength(long[] v, int n) {
            long m = 0;
            for (int i = 0; i < n; i++) {
                m |= v[i] ^ (v[i] >> 63); // |v| for v >= 0, |v| - 1 below
            }
            return Long.SIZE - Long.numberOfLeadingZeros(m);
        }

        /** a / b truncated at the result's scale, for b not zero and a quotient that {@link #fits}. */
        private long divide(long a, long b) {
            if (digits >= 0) {
                long scaled = a * factor;
                return Math.multiplyHigh(a, factor) == (scaled >> 63) ? scaled / b : wideQuotient(a, b).longValue();
            }
            long scaled = b * factor;
            // a divisor beyond a long is larger than any dividend: the quotient truncates to zero
            return Math.multiplyHigh(b, factor) != (scaled >> 63) ? 0 : a / scaled;
        }

        /** Whether a / b (b not zero) at the result's scale is a long. */
        private boolean fits(long a, long b) {
            if (digits < 0) {
                return true;
            }
            long scaled = a * factor;
            if (Math.multiplyHigh(a, factor) != (scaled >> 63)) {
                return wideQuotient(a, b).bitLength() < 64;
            }
            return scaled != Long.MIN_VALUE || b != -1;
        }

        private BigInteger wideQuotient(long a, long b) {
            return BigInteger.valueOf(a).multiply(BigInteger.valueOf(factor)).divide(BigInteger.valueOf(b));
        }

        @Override
        long[] longs(ColumnVectors batch) {
            if (longsOf == batch.generation()) {
                return longs;
            }
            longsOf = batch.generation();
            long[] a = left.longs(batch);
            long[] b = right.longs(batch);
            long[] r = longs;
            int n = batch.size();
            long overflow = 0;
            switch (expr.op()) {
                case ADD -> {
                    for (int i = 0; i < n; i++) {
                        long s = a[i] + b[i];
                        overflow |= (a[i] ^ s) & (b[i] ^ s); // sign bit set: both operands' signs differ from the sum's
                        r[i] = s;
                    }
                }
                case SUBTRACT -> {
                    for (int i = 0; i < n; i++) {
                        long d = a[i] - b[i];
                        overflow |= (a[i] ^ b[i]) & (a[i] ^ d);
                        r[i] = d;
                    }
                }
                case MULTIPLY -> {
                    if (bitLength(a, n) + bitLength(b, n) <= Long.SIZE - 2) { // |a * b| <= 2^62: the common case of small decimals
                        for (int i = 0; i < n; i++) {
                            r[i] = a[i] * b[i];
                        }
                    } else {
                        for (int i = 0; i < n; i++) {
                            long p = a[i] * b[i];
                            overflow |= Math.multiplyHigh(a[i], b[i]) ^ (p >> 63); // the high half is not the low half's sign: overflow
                            r[i] = p;
                        }
                        overflow = overflow != 0 ? -1 : 0;
                    }
                }
                case DIVIDE -> {
                    boolean zero = false;
                    boolean beyond = false;
                    for (int i = 0; i < n; i++) {
                        if (b[i] == 0) {
                            zero = true;
                            r[i] = 0;
                        } else if (!fits(a[i], b[i])) {
                            beyond = true;
                            r[i] = 0;
                        } else {
                            r[i] = divide(a[i], b[i]);
                        }
                    }
                    if (zero && anyNotNull(batch, i -> b[i] == 0)) {
                        throw new ArithmeticException("division by zero in " + describe());
                    }
                    if (beyond && anyNotNull(batch, i -> b[i] != 0 && !fits(a[i], b[i]))) {
                        throw overflow(describe());
                    }
                }
            }
            if (overflow < 0 && anyNotNull(batch, i -> switch (expr.op()) {
                case ADD -> ((a[i] ^ r[i]) & (b[i] ^ r[i])) < 0;
                case SUBTRACT -> ((a[i] ^ b[i]) & (a[i] ^ r[i])) < 0;
                case MULTIPLY -> Math.multiplyHigh(a[i], b[i]) != (r[i] >> 63);
                case DIVIDE -> false; // checked above
            })) {
                throw overflow(describe());
            }
            checkRange(batch, r, this);
            return r;
        }

        /** For error messages: "the product of DECIMAL(15, 2) and BIGINT". */
        private String describe() {
            String what = switch (expr.op()) {
                case ADD -> "the sum";
                case SUBTRACT -> "the difference";
                case MULTIPLY -> "the product";
                case DIVIDE -> "the quotient";
            };
            return what + " of " + left.type.name() + " and " + right.type.name();
        }

        @Override
        public String toString() {
            return describe();
        }

        @Override
        double[] doubles(ColumnVectors batch) {
            if (doublesOf == batch.generation()) {
                return doubles;
            }
            doublesOf = batch.generation();
            double[] a = left.doubles(batch);
            double[] b = right.doubles(batch);
            double[] r = doubles;
            int n = batch.size();
            switch (expr.op()) {
                case ADD -> {
                    for (int i = 0; i < n; i++) {
                        r[i] = a[i] + b[i];
                    }
                }
                case SUBTRACT -> {
                    for (int i = 0; i < n; i++) {
                        r[i] = a[i] - b[i];
                    }
                }
                case MULTIPLY -> {
                    for (int i = 0; i < n; i++) {
                        r[i] = a[i] * b[i];
                    }
                }
                case DIVIDE -> {
                    for (int i = 0; i < n; i++) {
                        r[i] = a[i] / b[i];
                    }
                }
            }
            return r;
        }
    }

    private static final class Unary extends NumericKernel {
        enum Op { NEGATE, RESCALE, TO_DOUBLE }

        private final Op op;
        private final NumericKernel operand;
        /** RESCALE to fewer fraction digits: divide by {@link #factor}, rounding half away from zero. */
        private final boolean down;
        private final long factor;
        private final double divisor;
        private final long[] longs = new long[BLOCK];
        private final double[] doubles = new double[BLOCK];
        private int longsOf = -1;
        private int doublesOf = -1;

        Unary(NumericExpr.Type type, Op op, NumericKernel operand, int[] columns) {
            super(type, columns);
            this.op = op;
            this.operand = operand;
            int digits = op == Op.RESCALE ? type.scale() - operand.type.scale() : operand.type.scale();
            if (Math.abs(digits) >= NumericExpr.LongMath.POWERS.length) {
                throw new IllegalArgumentException("cannot scale by 10^" + digits);
            }
            this.down = digits < 0;
            this.factor = NumericExpr.LongMath.POWERS[Math.abs(digits)];
            this.divisor = factor;
        }

        @Override
        long[] longs(ColumnVectors batch) {
            if (longsOf == batch.generation()) {
                return longs;
            }
            longsOf = batch.generation();
            long[] a = operand.longs(batch);
            long[] r = longs;
            int n = batch.size();
            long overflow = 0;
            if (op == Op.NEGATE) {
                for (int i = 0; i < n; i++) {
                    overflow |= a[i] & -a[i]; // only MIN_VALUE keeps its sign bit negated
                    r[i] = -a[i];
                }
                if (overflow < 0 && anyNotNull(batch, i -> a[i] == Long.MIN_VALUE)) {
                    throw overflow("-(" + operand.type.name() + ")");
                }
            } else if (down) {
                long half = factor / 2; // factor is a power of ten: even
                for (int i = 0; i < n; i++) {
                    long q = a[i] / factor;
                    long rest = a[i] - q * factor; // the sign of a[i]: |rest| < factor
                    r[i] = q + (rest >= half ? 1 : rest <= -half ? -1 : 0);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    long p = a[i] * factor;
                    overflow |= Math.multiplyHigh(a[i], factor) ^ (p >> 63);
                    r[i] = p;
                }
                if (overflow != 0 && anyNotNull(batch, i -> Math.multiplyHigh(a[i], factor) != (r[i] >> 63))) {
                    throw overflow("CAST(" + operand.type.name() + " AS " + type.name() + ")");
                }
            }
            if (!type.fullRange()) {
                checkRange(batch, r, "CAST(" + operand.type.name() + " AS " + type.name() + ")");
            }
            return r;
        }

        @Override
        double[] doubles(ColumnVectors batch) {
            if (doublesOf == batch.generation()) {
                return doubles;
            }
            doublesOf = batch.generation();
            double[] r = doubles;
            int n = batch.size();
            if (op == Op.NEGATE) {
                double[] a = operand.doubles(batch);
                for (int i = 0; i < n; i++) {
                    r[i] = -a[i];
                }
            } else {
                // unscaled values up to 2^53 and the power of ten are exact doubles, so one division
                // rounds as BigDecimal.doubleValue() does; larger ones round twice, within an ulp
                long[] a = operand.longs(batch);
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] / divisor;
                }
            }
            return r;
        }
    }
}
