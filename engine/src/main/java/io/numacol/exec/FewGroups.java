package io.numacol.exec;

import java.util.Arrays;

/**
 * How a block's rows fall into at most {@link #MAX} groups (a few flags' combinations): per group
 * a mask of its rows (-1 or 0) and how many rows it has. With so few groups, an aggregate runs one
 * branch-free pass per group over the block ({@link AggregateFunction#updateFew}) instead of
 * scattering row by row into a few hot slots, which serializes on memory.
 */
final class FewGroups {
    static final int MAX = 8;

    /** Per group, -1 for its rows and 0 for the others: longs like the values they mask, so that masked sums vectorize. */
    final long[][] masks = new long[MAX][Chunk.CAPACITY];
    final int[] rows = new int[MAX];
    int groups;

    /** Sets the masks of the block's {@code n} rows, whose packed keys are {@code packed}, for groups {@code 0..groups-1} of {@code groupKeys}. */
    void assign(long[] packed, int n, long[] groupKeys, int groups) {
        if (groups > MAX) {
            throw new IllegalArgumentException(groups + " groups are not few");
        }
        this.groups = groups;
        for (int g = 0; g < groups; g++) {
            long[] mask = masks[g];
            long key = groupKeys[g];
            long count = 0;
            for (int i = 0; i < n; i++) { // on the packed keys, longs like the masks: the JIT vectorizes it
                long in = packed[i] == key ? -1L : 0L;
                mask[i] = in;
                count -= in;
            }
            rows[g] = (int) count;
        }
        Arrays.fill(rows, groups, MAX, 0);
    }
}
