package io.numacol.exec;

import java.util.Arrays;

final class CountFunction extends AggregateFunction {
    private long[] counts = new long[0];

    CountFunction(int column) {
        super(column);
    }

    @Override
    void initialize(int capacity) {
        counts = Arrays.copyOf(counts, capacity);
    }

    @Override
    void update(Chunk in, int[] groupOf, int n) {
        boolean[] nulls = column < 0 ? null : in.nulls[column];
        for (int r = 0; r < n; r++) {
            if (groupOf[r] >= 0 && (nulls == null || !nulls[r])) {
                counts[groupOf[r]]++;
            }
        }
    }

    @Override
    void combine(int g, AggregateFunction other, int og) {
        counts[g] += ((CountFunction) other).counts[og];
    }

    @Override
    void finalizeGroup(Chunk out, int c, int r, int g) {
        out.nulls[c][r] = false;
        out.longs[c][r] = counts[g];
    }
}
