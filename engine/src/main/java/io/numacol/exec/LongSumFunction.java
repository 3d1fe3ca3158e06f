package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.DecimalCodec;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * An exact SUM in unscaled longs (at the scale of its DECIMAL type). A sum that leaves a long
 * spills into a BigDecimal and goes on from 0, so that the vid aggregate's rows, which carry
 * BigDecimals, stay exact ({@link #partial}); a chunk between operators holds longs, so writing
 * one there ({@link #finalizeGroup}) fails the statement with a numeric overflow, as does a sum
 * outside its output type's range.
 */
final class LongSumFunction extends SumFunction {
    /** Sums of a block of values below 2^52 in magnitude cannot overflow. */
    private static final long SMALL = 1L << 52;
    private static final int INTEGERS = -1;

    private final ColumnType type;
    /** The scale of the unscaled sums, {@link #INTEGERS} for an integer sum. */
    private final int scale;
    private long[] sums = new long[0];
    /** Per group what overflowed out of its long; null until a sum does. */
    private BigDecimal[] spilled;
    /** The block's values with NULL rows' slots set to 0 (they hold whatever their zeros computed to). */
    private long[] masked;

    LongSumFunction(int column, boolean zero, ColumnType type) {
        super(column, zero);
        this.type = type;
        this.scale = type.codec() instanceof DecimalCodec ? type.scale() : INTEGERS;
    }

    @Override
    void initialize(int capacity) {
        super.initialize(capacity);
        sums = Arrays.copyOf(sums, capacity);
        if (spilled != null) {
            spilled = Arrays.copyOf(spilled, capacity);
        }
    }

    @Override
    void update(Chunk in, int[] groupOf, int n) {
        long[] values = in.longs[column];
        boolean[] nulls = in.nulls[column];
        for (int r = 0; r < n; r++) {
            if (groupOf[r] >= 0 && (nulls == null || !nulls[r])) {
                int g = groupOf[r];
                add(g, values[r]);
                any[g] = true;
            }
        }
    }

    @Override
    void updateSingle(Chunk in, int n, int g) {
        long[] v = maskNulls(in, n);
        if (Long.compareUnsigned(magnitude(v, n), SMALL) >= 0) {
            for (int r = 0; r < n; r++) {
                add(g, v[r]);
            }
        } else {
            long sum = 0;
            for (int r = 0; r < n; r++) {
                sum += v[r];
            }
            add(g, sum);
        }
        markSingle(in.nulls[column], n, g);
    }

    @Override
    void updateFew(Chunk in, int n, int[] groupOf, FewGroups few) {
        long[] v = maskNulls(in, n);
        if (Long.compareUnsigned(magnitude(v, n), SMALL) >= 0) {
            for (int r = 0; r < n; r++) {
                add(groupOf[r], v[r]);
            }
        } else {
            for (int g = 0; g < few.groups; g++) {
                long[] mask = few.masks[g];
                long sum = 0;
                for (int r = 0; r < n; r++) {
                    sum += v[r] & mask[r];
                }
                add(g, sum);
            }
        }
        markFew(in.nulls[column], n, groupOf, few);
    }

    /** The column's values, NULL rows as 0, so that branch-free sums may add every row. */
    private long[] maskNulls(Chunk in, int n) {
        long[] v = in.longs[column];
        boolean[] nulls = in.nulls[column];
        if (nulls == null) {
            return v;
        }
        if (masked == null) {
            masked = new long[Chunk.CAPACITY];
        }
        for (int r = 0; r < n; r++) {
            masked[r] = nulls[r] ? 0 : v[r];
        }
        return masked;
    }

    /** The bits any of the values sets in its magnitude (at least each one's absolute value, less one for negatives). */
    private static long magnitude(long[] v, int n) {
        long magnitude = 0;
        for (int r = 0; r < n; r++) {
            magnitude |= v[r] ^ (v[r] >> 63);
        }
        return magnitude;
    }

    private void add(int g, long value) {
        long s = sums[g];
        long r = s + value;
        if (((s ^ r) & (value ^ r)) < 0) { // overflow: the running sum moves to the BigDecimal
            spill(g, BigDecimal.valueOf(s, Math.max(scale, 0)).add(BigDecimal.valueOf(value, Math.max(scale, 0))));
            sums[g] = 0;
        } else {
            sums[g] = r;
        }
    }

    private void spill(int g, BigDecimal value) {
        if (spilled == null) {
            spilled = new BigDecimal[sums.length];
        }
        spilled[g] = spilled[g] == null ? value : spilled[g].add(value);
    }

    @Override
    void combine(int g, AggregateFunction other, int og) {
        LongSumFunction o = (LongSumFunction) other;
        if (o.any[og]) {
            add(g, o.sums[og]);
            if (o.spilled != null && o.spilled[og] != null) {
                spill(g, o.spilled[og]);
            }
            any[g] = true;
        }
    }

    @Override
    void finalizeGroup(Chunk out, int c, int r, int g) {
        if (spilled != null && spilled[g] != null) {
            throw new ArithmeticException("numeric value out of range: a SUM above a join or an aggregate passed "
                    + Long.MAX_VALUE + ", the most numacol's operators carry between them (18 digits of a DECIMAL)");
        }
        boolean isNull = isNull(g);
        out.nulls[c][r] = isNull;
        long v = isNull ? 0 : sums[g];
        if (!type.holds(v)) {
            throw new ArithmeticException(type + " overflow: SUM " + v + " is out of its range");
        }
        out.longs[c][r] = v;
    }

    @Override
    Accumulator partial(int g) {
        return Accumulator.exactSum(any[g] ? 1 : 0, sums[g], spilled == null ? null : spilled[g], scale);
    }
}
