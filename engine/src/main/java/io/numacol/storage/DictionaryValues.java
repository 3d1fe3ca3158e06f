package io.numacol.storage;

import io.numacol.storage.types.Utf8;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * Turns a column part's values into what a Dictionary is built from: sorted, without duplicates,
 * trimmed to length, in the order the matching Dictionary uses. A column builder then finds each
 * value's vid by binary search in the returned array.
 */
public final class DictionaryValues {
    private DictionaryValues() {
    }

    /**
     * How many values of {@code valueBytes} each {@code segment} holds, for a dictionary wrapped
     * around memory read back whole.
     *
     * @throws IllegalArgumentException when its size is not a whole number of them, or more than a part's vids
     */
    static long wholeValues(MemorySegment segment, long valueBytes) {
        long bytes = segment.byteSize();
        if (bytes % valueBytes != 0 || bytes / valueBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a segment of " + bytes + " bytes is not a dictionary of " + valueBytes
                    + "-byte values");
        }
        return bytes / valueBytes;
    }

    /** The distinct values of {@code values[0..count)}, ascending. */
    public static long[] sortedDistinct(long[] values, int count) {
        Objects.requireNonNull(values, "values");
        Search.checkCount(count, values.length);
        long[] sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
        int distinct = 0;
        for (int i = 0; i < count; i++) {
            if (distinct == 0 || sorted[i] != sorted[distinct - 1]) {
                sorted[distinct++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }

    /**
     * The distinct values of {@code values[0..count)}, normalized as {@link DoubleDictionary}
     * stores them (-0.0 becomes 0.0, every NaN one NaN, last), ascending.
     */
    public static double[] sortedDistinct(double[] values, int count) {
        Objects.requireNonNull(values, "values");
        Search.checkCount(count, values.length);
        double[] sorted = new double[count];
        for (int i = 0; i < count; i++) {
            sorted[i] = DoubleDictionary.normalize(values[i]);
        }
        Arrays.sort(sorted);
        int distinct = 0;
        for (int i = 0; i < count; i++) {
            if (distinct == 0 || Double.compare(sorted[i], sorted[distinct - 1]) != 0) {
                sorted[distinct++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }

    /** The distinct values of {@code values[0..count)} in UTF-8 byte (code point) order, as {@link StringDictionary} sorts. */
    public static String[] sortedDistinct(String[] values, int count) {
        Objects.requireNonNull(values, "values");
        Search.checkCount(count, values.length);
        String[] sorted = Arrays.copyOf(values, count);
        for (int i = 0; i < count; i++) {
            if (sorted[i] == null) {
                throw new IllegalArgumentException("null at position " + i + ": a dictionary holds no nulls");
            }
        }
        Arrays.sort(sorted, Utf8::compare);
        int distinct = 0;
        for (int i = 0; i < count; i++) {
            if (distinct == 0 || !sorted[i].equals(sorted[distinct - 1])) {
                sorted[distinct++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }
}
