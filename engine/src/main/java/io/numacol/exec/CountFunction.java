package io.numacol.exec;

import java.util.Arrays;

/** COUNT(*) ({@link #column} -1) or COUNT of a column's values that are not NULL. */
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
    void updateSingle(Chunk in, int n, int g) {
        boolean[] nulls = column < 0 ? null : in.nulls[column];
        long c = n;
        if (nulls != null) {
            for (int r = 0; r < n; r++) {
                c -= nulls[r] ? 1 : 0;
            }
        }
        counts[g] += c;
    }

    @Override
    @SuppressWarnings("ShortCircuitBoolean") // no branch per row
    void updateFew(Chunk in, int n, int[] groupOf, FewGroups few) {
        boolean[] nulls = column < 0 ? null : in.nulls[column];
        for (int g = 0; g < few.groups; g++) {
            if (nulls == null) {
                counts[g] += few.rows[g];
            } else {
                long c = 0;
                for (int r = 0; r < n; r++) {
                    c += groupOf[r] == g & !nulls[r] ? 1 : 0;
                }
                counts[g] += c;
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

    @Override
    Accumulator partial(int g) {
        return Accumulator.count(counts[g]);
    }
}
