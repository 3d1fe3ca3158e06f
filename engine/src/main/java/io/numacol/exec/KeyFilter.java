package io.numacol.exec;

import io.numacol.storage.Column;
import io.numacol.storage.ColumnType;
import io.numacol.storage.Dictionary;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.StringDictionary;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The distinct values of one key column of a hash join's build side, which rows of the probe
 * side must hold to match anything. {@link RuntimeFilters} pushes it below the probe side's
 * pipeline breakers (an aggregate grouping by the key, another join's build side), so that rows
 * without a partner are dropped before they are grouped or built: Q17 groups the lineitems of a
 * few hundred parts instead of all of them. Read-only once made, so tasks share it.
 */
final class KeyFilter {
    private final ColumnType type;
    /** LONG and DOUBLE (as normalized bits) keys: open addressing, {@link #EMPTY} marks a free slot. */
    private final long[] slots;
    private final boolean hasEmpty;
    private final int shift;
    private final Set<String> strings;
    private final int size;
    private final java.util.Map<Dictionary, long[]> masks = new java.util.concurrent.ConcurrentHashMap<>();

    private static final long EMPTY = Long.MIN_VALUE;

    private KeyFilter(ColumnType type, long[] slots, boolean hasEmpty, Set<String> strings, int size) {
        this.type = type;
        this.slots = slots;
        this.hasEmpty = hasEmpty;
        this.shift = slots == null ? 0 : 64 - Integer.numberOfTrailingZeros(slots.length);
        this.strings = strings;
        this.size = size;
    }

    /** The values of column {@code column} of {@code rows}' pages that are not NULL. */
    static KeyFilter of(List<Chunk> pages, int column, ColumnType type, long rows) {
        if (type.storageKind() == io.numacol.storage.StorageKind.STRING) {
            Set<String> values = new HashSet<>();
            for (Chunk page : pages) {
                for (int r = 0; r < page.size; r++) {
                    if (!page.isNull(column, r)) {
                        values.add(page.strings[column][r]);
                    }
                }
            }
            return new KeyFilter(type, null, false, values, values.size());
        }
        int capacity = Integer.highestOneBit((int) Math.max(2, Math.min(1L << 29, rows * 2 - 1))) << 1;
        long[] slots = new long[capacity];
        Arrays.fill(slots, EMPTY);
        int shift = 64 - Integer.numberOfTrailingZeros(capacity);
        boolean hasEmpty = false;
        int size = 0;
        for (Chunk page : pages) {
            for (int r = 0; r < page.size; r++) {
                if (page.isNull(column, r)) {
                    continue;
                }
                long v = bits(page, column, r);
                if (v == EMPTY) {
                    hasEmpty = true;
                    continue;
                }
                int s = slot(v, shift);
                while (slots[s] != EMPTY && slots[s] != v) {
                    s = (s + 1) & (capacity - 1);
                }
                if (slots[s] == EMPTY) {
                    slots[s] = v;
                    size++;
                }
            }
        }
        return new KeyFilter(type, slots, hasEmpty, null, size + (hasEmpty ? 1 : 0));
    }

    int size() {
        return size;
    }

    ColumnType type() {
        return type;
    }

    /** Whether row {@code row} of column {@code column} holds one of the values (NULL holds none). */
    boolean contains(Chunk chunk, int column, int row) {
        if (chunk.isNull(column, row)) {
            return false;
        }
        if (strings != null) {
            return strings.contains(chunk.strings[column][row]);
        }
        return containsBits(bits(chunk, column, row));
    }

    /** Whether {@link #vidMask} can take a column of this storage kind (a DOUBLE's keys are normalized bits: no). */
    boolean masksVids() {
        return type.storageKind() != io.numacol.storage.StorageKind.DOUBLE;
    }

    /**
     * The vids of {@code column}'s dictionary whose value is a key, as a bit mask (the null vid
     * never set): computed once per dictionary and shared by the scan's tasks. Few keys are
     * looked up in the dictionary, many keys tested against each of its values.
     */
    long[] vidMask(Column column) {
        return masks.computeIfAbsent(column.dictionary(), d -> {
            long[] mask = new long[(d.size() >>> 6) + 2]; // the null vid (d.size()) has a word too
            int logSize = 32 - Integer.numberOfLeadingZeros(Math.max(1, d.size()));
            boolean lookUp = (long) size * logSize < d.size();
            switch (d) {
                case LongDictionary longs when lookUp -> {
                    for (long k : slots) {
                        if (k != EMPTY) {
                            set(mask, longs.find(k));
                        }
                    }
                    if (hasEmpty) {
                        set(mask, longs.find(EMPTY));
                    }
                }
                case LongDictionary longs -> {
                    for (int vid = 0; vid < longs.size(); vid++) {
                        if (containsBits(longs.getLong(vid))) {
                            set(mask, vid);
                        }
                    }
                }
                case StringDictionary text when lookUp -> strings.forEach(k -> set(mask, text.find(k)));
                case StringDictionary text -> {
                    for (int vid = 0; vid < text.size(); vid++) {
                        if (strings.contains(text.getString(vid))) {
                            set(mask, vid);
                        }
                    }
                }
                default -> throw new IllegalStateException("no vid mask for " + d);
            }
            return mask;
        });
    }

    /** How many dictionaries have a vid mask (for tests). */
    int maskedDictionaries() {
        return masks.size();
    }

    private static void set(long[] mask, int vid) {
        if (vid >= 0) {
            mask[vid >>> 6] |= 1L << vid;
        }
    }

    private boolean containsBits(long v) {
        if (v == EMPTY) {
            return hasEmpty;
        }
        int m = slots.length - 1;
        for (int s = slot(v, shift); ; s = (s + 1) & m) {
            long k = slots[s];
            if (k == v) {
                return true;
            }
            if (k == EMPTY) {
                return false;
            }
        }
    }

    /** A LONG value, or a DOUBLE's bits with 0.0 and -0.0 alike. */
    private static long bits(Chunk chunk, int column, int row) {
        if (chunk.types[column].storageKind() == io.numacol.storage.StorageKind.LONG) {
            return chunk.longs[column][row];
        }
        double d = chunk.doubles[column][row];
        return Double.doubleToLongBits(d == 0 ? 0.0 : d);
    }

    private static int slot(long v, int shift) {
        return (int) ((v * 0x9E3779B97F4A7C15L) >>> shift);
    }

    @Override
    public String toString() {
        return size + " keys";
    }
}
