package io.numacol.storage;

import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * Binary search and input checks shared by the Dictionaries. A search takes {@code valueVsProbe}:
 * for a vid, the sign of comparing the dictionary's value at that vid with the probe.
 */
final class Search {
    private Search() {
    }

    /** The first vid whose value is >= the probe; {@code size} if none. */
    static int lowerBound(int size, IntUnaryOperator valueVsProbe) {
        return firstAtLeast(size, valueVsProbe, 0);
    }

    /** The first vid whose value is > the probe; {@code size} if none. */
    static int upperBound(int size, IntUnaryOperator valueVsProbe) {
        return firstAtLeast(size, valueVsProbe, 1);
    }

    /** The probe's vid, or {@code -(insertion point) - 1} as {@link java.util.Arrays#binarySearch} answers. */
    static int find(int size, IntUnaryOperator valueVsProbe) {
        int vid = lowerBound(size, valueVsProbe);
        return vid < size && valueVsProbe.applyAsInt(vid) == 0 ? vid : -vid - 1;
    }

    private static int firstAtLeast(int size, IntUnaryOperator valueVsProbe, int sign) {
        int low = 0;
        int high = size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (valueVsProbe.applyAsInt(mid) < sign) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    static void checkVid(int vid, int size) {
        if (vid < 0 || vid >= size) {
            throw new IndexOutOfBoundsException("vid " + vid + " is out of range: the dictionary has " + size
                    + " values" + (size == 0 ? "" : " (vids 0.." + (size - 1) + ")"));
        }
    }

    static void checkCount(int count, int length) {
        if (count < 0 || count > length) {
            throw new IllegalArgumentException("count " + count + " is outside 0.." + length + " (the array's length)");
        }
    }

    /**
     * Checks that values 0..count-1 ascend strictly. {@code previousVsCurrent(i)} compares the
     * value at i-1 with the one at i; {@code show(i)} is how a message names the value at i.
     */
    static void checkStrictlyAscending(int count, IntUnaryOperator previousVsCurrent, IntFunction<String> show) {
        for (int i = 1; i < count; i++) {
            int c = previousVsCurrent.applyAsInt(i);
            if (c == 0) {
                throw new IllegalArgumentException("value " + show.apply(i - 1) + " at position " + (i - 1)
                        + " and value " + show.apply(i) + " at position " + i
                        + " are the same dictionary value: a dictionary holds distinct values"
                        + " (DictionaryValues.sortedDistinct sorts and removes duplicates)");
            }
            if (c > 0) {
                throw new IllegalArgumentException("value " + show.apply(i - 1) + " at position " + (i - 1)
                        + " comes after value " + show.apply(i) + " at position " + i
                        + ": dictionary values must be sorted ascending"
                        + " (DictionaryValues.sortedDistinct sorts and removes duplicates)");
            }
        }
    }
}
