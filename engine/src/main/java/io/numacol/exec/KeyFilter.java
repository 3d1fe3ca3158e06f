package io.numacol.exec;

import io.numacol.storage.Dictionary;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The distinct values of one key column of a hash join's build side, which rows of the probe
 * side must hold to match anything. {@link RuntimeFilters} pushes it below the probe side's
 * pipeline breakers (an aggregate grouping by the key, another join's build side), so that rows
 * without a partner are dropped before they are grouped or built: an aggregate below a
 * selective join groups only the rows the join keeps. Right above a scan, the keys are tested on the
 * scan's vids ({@link #vidTest}). Read-only once made but for those vid tests, so tasks share
 * it.
 */
final class KeyFilter {
    private final ColumnType type;
    /**
     * LONG keys within a range of at most {@link #BITS_PER_KEY} values per key: a bit per value
     * from {@link #min} on (generated keys are dense: ten thousand keys among a million values
     * are 125 KB of bits, tested with one load that stays in the core's cache); null otherwise.
     */
    private final long[] bits;
    private final long min;
    /** Other LONG and DOUBLE (as normalized bits) keys: open addressing, {@link #EMPTY} marks a free slot. */
    private final long[] slots;
    private final boolean hasEmpty;
    private final int shift;
    private final Set<String> strings;
    private final int size;
    /** Per probe-side dictionary a scan met, which vids hold keys ({@link #vidTest}). */
    private final Map<Dictionary, VidTest> tests = new ConcurrentHashMap<>();

    private static final long EMPTY = Long.MIN_VALUE;
    /** States of a vid in a {@link VidTest}; 0 is not known yet. */
    static final byte KEY = 1;
    static final byte NOT_KEY = 2;

    /** A bitmap costs at most the open addressing's 16 bytes per key. */
    private static final long BITS_PER_KEY = 128;

    private KeyFilter(ColumnType type, long[] bits, long min, long[] slots, boolean hasEmpty, Set<String> strings, int size) {
        this.type = type;
        this.bits = bits;
        this.min = min;
        this.slots = slots;
        this.hasEmpty = hasEmpty;
        this.shift = slots == null ? 0 : 64 - Integer.numberOfTrailingZeros(slots.length);
        this.strings = strings;
        this.size = size;
    }

    /** The values of column {@code column} of {@code rows}' pages that are not NULL. */
    static KeyFilter of(List<Chunk> pages, int column, ColumnType type, long rows) {
        if (type.storageKind() == StorageKind.STRING) {
            Set<String> values = new HashSet<>();
            for (Chunk page : pages) {
                for (int r = 0; r < page.size; r++) {
                    if (!page.isNull(column, r)) {
                        values.add(page.strings[column][r]);
                    }
                }
            }
            return new KeyFilter(type, null, 0, null, false, values, values.size());
        }
        if (type.storageKind() == StorageKind.LONG) {
            KeyFilter dense = dense(pages, column, type, rows);
            if (dense != null) {
                return dense;
            }
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
        return new KeyFilter(type, null, 0, slots, hasEmpty, null, size + (hasEmpty ? 1 : 0));
    }

    /** A bitmap of the LONG keys, or null if their range is too wide for it (or they are all NULL). */
    private static KeyFilter dense(List<Chunk> pages, int column, ColumnType type, long rows) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (Chunk page : pages) {
            long[] values = page.longs[column];
            for (int r = 0; r < page.size; r++) {
                if (!page.isNull(column, r)) {
                    min = Math.min(min, values[r]);
                    max = Math.max(max, values[r]);
                }
            }
        }
        if (min > max) {
            return null;
        }
        long range = max - min + 1; // overflows to <= 0 for the widest ranges
        if (range <= 0 || range > Math.max(64, rows * BITS_PER_KEY) || range > 1L << 34) {
            return null;
        }
        long[] bits = new long[(int) ((range + 63) >>> 6)];
        int size = 0;
        for (Chunk page : pages) {
            long[] values = page.longs[column];
            for (int r = 0; r < page.size; r++) {
                if (!page.isNull(column, r)) {
                    long offset = values[r] - min;
                    long word = bits[(int) (offset >>> 6)];
                    long bit = 1L << offset;
                    if ((word & bit) == 0) {
                        bits[(int) (offset >>> 6)] = word | bit;
                        size++;
                    }
                }
            }
        }
        return new KeyFilter(type, bits, min, null, false, null, size);
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

    /** Whether the keys are a bitmap: a scan of a LONG column finds a bit per vid in one pass over its dictionary. */
    boolean testsValues() {
        return bits != null;
    }

    /** Whether {@link #vidTest} can take a column of this storage kind (a DOUBLE's keys are normalized bits: no). */
    boolean testsVids() {
        return type.storageKind() != StorageKind.DOUBLE;
    }

    /**
     * How a scan tests these keys on the vids of a column's dictionary, shared by its
     * tasks. A bit per vid where finding them costs little beside the scan: few keys looked up
     * in the dictionary, or a LONG dictionary's values tested in one sequential
     * pass, with the keys in a bitmap or the dictionary small. Otherwise a state per vid that the
     * tasks fill as they meet vids, so that a scan tests each distinct value once and never more
     * values than it reads (racing tasks write the same answer). The null vid is never a key.
     */
    VidTest vidTest(Dictionary dictionary) {
        return tests.computeIfAbsent(dictionary, d -> {
            int logSize = 32 - Integer.numberOfLeadingZeros(Math.max(1, d.size()));
            if ((long) size * logSize * 4 < d.size()) {
                long[] vidBits = new long[(d.size() >>> 6) + 1];
                switch (d) {
                    case LongDictionary longs -> forEachLong(k -> markKey(vidBits, longs.find(k)));
                    case StringDictionary text -> strings.forEach(k -> markKey(vidBits, text.find(k)));
                    default -> throw new IllegalStateException("no vid test for " + d);
                }
                return new VidTest(this, vidBits, null);
            }
            if (d instanceof LongDictionary longs && (bits != null || d.size() <= EAGER_VALUES)) {
                return new VidTest(this, valueBits(longs), null);
            }
            byte[] states = new byte[d.size() + 1];
            states[d.size()] = NOT_KEY;
            return new VidTest(this, null, states);
        });
    }

    /** A bit per vid of {@code d}, set where its value is a key: a word at a time, in registers. */
    private long[] valueBits(LongDictionary d) {
        int n = d.size();
        long[] out = new long[(n >>> 6) + 1];
        MemorySegment values = d.values();
        for (int w = 0, from = 0; from < n; w++, from += 64) {
            int to = Math.min(n, from + 64);
            long word = 0;
            if (bits != null) {
                long[] keys = bits;
                long limit = (long) keys.length << 6;
                for (int vid = from; vid < to; vid++) {
                    long offset = values.getAtIndex(JAVA_LONG, vid) - min; // below min wraps to a huge unsigned offset
                    long key = Long.compareUnsigned(offset, limit) < 0 ? keys[(int) (offset >>> 6)] >>> offset : 0;
                    word |= (key & 1) << vid;
                }
            } else {
                for (int vid = from; vid < to; vid++) {
                    word |= (containsBits(values.getAtIndex(JAVA_LONG, vid)) ? 1L : 0L) << vid;
                }
            }
            out[w] = word;
        }
        return out;
    }

    /** A LONG dictionary up to this size gets a bit per vid at once whatever its keys: a pass of a tenth of a millisecond. */
    private static final int EAGER_VALUES = 1 << 16;

    private static void markKey(long[] vidBits, int vid) {
        if (vid >= 0) {
            vidBits[vid >>> 6] |= 1L << vid;
        }
    }

    /** How many dictionaries a scan tested on vids (for tests). */
    int dictionariesTested() {
        return tests.size();
    }

    /**
     * Which vids of one dictionary hold keys: a bit per vid ({@code bits}, the null vid's
     * clear), or a state per vid filled as met ({@code states}: {@link #KEY}, {@link #NOT_KEY},
     * 0 not known yet).
     */
    record VidTest(KeyFilter keys, long[] bits, byte[] states) {
        /**
         * Keeps the entries {@code i < n} of {@code vids} and {@code selected} whose vid of
         * {@code d} holds a key, in order at the front; returns how many. Written always and kept
         * by the count: a branch on the answer mispredicts as often as keys and others are mixed.
         * States not known yet are found in a pass of their own, so that the keeping pass has no
         * branch; a state's branch mispredicts on each new value of a column whose values come in
         * runs, where a bit per vid, found in one pass over the dictionary, has no branch.
         */
        int retain(Dictionary d, int[] vids, int[] selected, int n) {
            int kept = 0;
            if (bits != null) {
                long[] words = bits;
                for (int i = 0; i < n; i++) {
                    int vid = vids[i];
                    selected[kept] = selected[i];
                    vids[kept] = vid;
                    kept += (int) (words[vid >>> 6] >>> vid) & 1;
                }
                return kept;
            }
            for (int i = 0; i < n; i++) {
                int vid = vids[i];
                if (states[vid] == 0) {
                    states[vid] = keys.isKey(d, vid) ? KEY : NOT_KEY;
                }
            }
            for (int i = 0; i < n; i++) {
                int vid = vids[i];
                selected[kept] = selected[i];
                vids[kept] = vid;
                kept += states[vid] & KEY;
            }
            return kept;
        }
    }

    /**
     * The share of the values of {@code dictionaries} that are keys, from up to {@link #SAMPLES}
     * vids spread evenly over each: an estimate of the share of a column's rows that a test on
     * vids keeps, where values are about as frequent as each other. Sums of dictionary sizes
     * cannot tell it: keys that are every value of one dictionary and keys that are a
     * sixth of another's can add up to the same size.
     */
    double share(List<Dictionary> dictionaries) {
        if (!testsVids()) {
            return 1.0;
        }
        long tested = 0;
        long keys = 0;
        for (Dictionary d : dictionaries) {
            int n = d.size();
            int step = Math.max(1, n / SAMPLES);
            for (int vid = step / 2; vid < n; vid += step) {
                tested++;
                keys += isKey(d, vid) ? 1 : 0;
            }
        }
        return tested == 0 ? 1.0 : keys / (double) tested;
    }

    private static final int SAMPLES = 64;

    /** Whether the value at {@code vid} of dictionary {@code d} is a key. */
    boolean isKey(Dictionary d, int vid) {
        return switch (d) {
            case LongDictionary longs -> containsBits(longs.getLong(vid));
            case StringDictionary text -> strings.contains(text.getString(vid));
            default -> throw new IllegalStateException("no vid test for " + d);
        };
    }

    /** Calls {@code action} with each LONG key. */
    private void forEachLong(LongConsumer action) {
        if (bits != null) {
            for (int w = 0; w < bits.length; w++) {
                for (long word = bits[w]; word != 0; word &= word - 1) {
                    action.accept(min + ((long) w << 6) + Long.numberOfTrailingZeros(word));
                }
            }
            return;
        }
        for (long k : slots) {
            if (k != EMPTY) {
                action.accept(k);
            }
        }
        if (hasEmpty) {
            action.accept(EMPTY);
        }
    }

    private boolean containsBits(long v) {
        if (bits != null) {
            long offset = v - min; // below min wraps to a huge unsigned offset
            return Long.compareUnsigned(offset, (long) bits.length << 6) < 0 && (bits[(int) (offset >>> 6)] & (1L << offset)) != 0;
        }
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
        if (chunk.types[column].storageKind() == StorageKind.LONG) {
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
