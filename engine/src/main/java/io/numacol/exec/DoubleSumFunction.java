package io.numacol.exec;

import java.util.Arrays;

/** SUM of approximate numbers, in a double per group. */
final class DoubleSumFunction extends SumFunction {
    private double[] sums = new double[0];

    DoubleSumFunction(int column, boolean zero) {
        super(column, zero);
    }

    @Override
    void initialize(int capacity) {
        super.initialize(capacity);
        sums = Arrays.copyOf(sums, capacity);
    }

    @Override
    void update(Chunk in, int[] groupOf, int n) {
        double[] values = in.doubles[column];
        boolean[] nulls = in.nulls[column];
        for (int r = 0; r < n; r++) {
            if (groupOf[r] >= 0 && (nulls == null || !nulls[r])) {
                sums[groupOf[r]] += values[r];
                any[groupOf[r]] = true;
            }
        }
    }

    @Override
    void updateSingle(Chunk in, int n, int g) {
        double[] values = in.doubles[column];
        boolean[] nulls = in.nulls[column];
        double sum = sums[g];
        for (int r = 0; r < n; r++) {
            sum += nulls != null && nulls[r] ? 0 : values[r];
        }
        sums[g] = sum;
        markSingle(nulls, n, g);
    }

    @Override
    void combine(int g, AggregateFunction other, int og) {
        DoubleSumFunction o = (DoubleSumFunction) other;
        if (o.any[og]) {
            sums[g] += o.sums[og];
            any[g] = true;
        }
    }

    @Override
    void finalizeGroup(Chunk out, int c, int r, int g) {
        boolean isNull = isNull(g);
        out.nulls[c][r] = isNull;
        out.doubles[c][r] = isNull ? 0 : sums[g];
    }

    @Override
    Accumulator partial(int g) {
        return Accumulator.doubleSum(any[g] ? 1 : 0, sums[g]);
    }
}
