package io.numacol.exec;

import java.util.function.LongToIntFunction;

/**
 * Group numbers of keys of few bits (a few flag columns span 2^16 at most): an array indexed by the
 * packed key, a perfect hash without probing.
 */
final class DirectGroupNumbering implements GroupNumbering {
    /** Packed key -> group number + 1 (0: none yet). */
    private final int[] direct;
    private final LongToIntFunction newGroup;

    /** {@code newGroup}: the number of a new group of a key. */
    DirectGroupNumbering(int keyBits, LongToIntFunction newGroup) {
        this.direct = new int[1 << keyBits];
        this.newGroup = newGroup;
    }

    @Override
    public void assign(long[] key, int n, int[] groupOf) {
        for (int i = 0; i < n; i++) {
            int slot = (int) key[i];
            int g = direct[slot] - 1;
            if (g < 0) {
                g = newGroup.applyAsInt(key[i]);
                direct[slot] = g + 1;
            }
            groupOf[i] = g;
        }
    }
}
