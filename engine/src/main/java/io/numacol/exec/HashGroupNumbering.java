package io.numacol.exec;

import java.util.function.LongToIntFunction;

/**
 * Group numbers of keys too wide for an array: open addressing with linear probing, at most
 * half full; entries hold group number + 1.
 */
final class HashGroupNumbering implements GroupNumbering {
    private final LongToIntFunction newGroup;
    private long[] hashKeys = new long[1024];
    private int[] hashGroups = new int[1024];
    /** Entries, one per group. */
    private int groups;

    /** {@code newGroup}: the number of a new group of a key. */
    HashGroupNumbering(LongToIntFunction newGroup) {
        this.newGroup = newGroup;
    }

    @Override
    public void assign(long[] key, int n, int[] groupOf) {
        for (int i = 0; i < n; i++) {
            groupOf[i] = lookup(key[i]);
        }
    }

    private int lookup(long key) {
        int mask = hashKeys.length - 1;
        int at = (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        while (true) {
            int g = hashGroups[at] - 1;
            if (g < 0) {
                g = newGroup.applyAsInt(key);
                groups++;
                hashKeys[at] = key;
                hashGroups[at] = g + 1;
                if (2 * groups > hashKeys.length) {
                    rehash();
                }
                return g;
            }
            if (hashKeys[at] == key) {
                return g;
            }
            at = (at + 1) & mask;
        }
    }

    private void rehash() {
        long[] keys = hashKeys;
        int[] slots = hashGroups;
        hashKeys = new long[keys.length * 2];
        hashGroups = new int[keys.length * 2];
        int mask = hashKeys.length - 1;
        for (int i = 0; i < keys.length; i++) {
            if (slots[i] != 0) {
                int at = (int) ((keys[i] * 0x9E3779B97F4A7C15L) >>> 40) & mask;
                while (hashGroups[at] != 0) {
                    at = (at + 1) & mask;
                }
                hashKeys[at] = keys[i];
                hashGroups[at] = slots[i];
            }
        }
    }
}
