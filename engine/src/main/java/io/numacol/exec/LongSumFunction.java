package io.numacol.exec;

import io.numacol.storage.types.ColumnType;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * An exact SUM in unscaled longs. A sum that leaves a long, or the range of its output type,
 * fails the statement: intermediate columns hold longs (single-table aggregates go on in
 * BigDecimal instead).
 */
final class LongSumFunction extends SumFunction {
    private final ColumnType type;
    private long[] sums = new long[0];

    LongSumFunction(int column, boolean zero, ColumnType type) {
        super(column, zero);
        this.type = type;
    }

    @Override
    void initialize(int capacity) {
        super.initialize(capacity);
        sums = Arrays.copyOf(sums, capacity);
    }

    @Override
    void update(Chunk in, int[] groupOf, int n) {
        long[] values = in.longs[column];
        boolean[] nulls = in.nulls[column];
        for (int r = 0; r < n; r++) {
            if (groupOf[r] >= 0 && (nulls == null || !nulls[r])) {
                int g = groupOf[r];
                sums[g] = plus(sums[g], values[r]);
                any[g] = true;
            }
        }
    }

    private long plus(long a, long b) {
        long s = a + b;
        if (((a ^ s) & (b ^ s)) < 0) {
            throw new ArithmeticException("numeric value out of range: a SUM above a join or an aggregate passed "
                    + Long.MAX_VALUE + ", the most numacol's operators carry between them (18 digits of a DECIMAL)");
        }
        return s;
    }

    @Override
    void combine(int g, AggregateFunction other, int og) {
        LongSumFunction o = (LongSumFunction) other;
        if (o.any[og]) {
            sums[g] = plus(sums[g], o.sums[og]);
            any[g] = true;
        }
    }

    @Override
    void finalizeGroup(Chunk out, int c, int r, int g) {
        boolean isNull = isNull(g);
        out.nulls[c][r] = isNull;
        long v = isNull ? 0 : sums[g];
        if (!type.holds(v)) {
            throw new ArithmeticException(type + " overflow: SUM " + v + " is out of its range");
        }
        out.longs[c][r] = v;
    }
}
