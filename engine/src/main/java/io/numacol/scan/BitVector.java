package io.numacol.scan;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * One bit per row: row {@code i} is bit {@code i & 63} of word {@code i >>> 6}.
 *
 * <p>A scan of rows {@code [from, to)} sets or clears exactly the bits of those rows and leaves
 * every other bit as it was. Words are written whole, so tasks that scan disjoint row ranges into
 * one shared BitVector concurrently must split the rows at multiples of 64 (then no two tasks
 * write the same word); the caller publishes the result (for instance by joining the tasks).
 * Bits beyond {@link #size()} in the last word are never set by a scan and are ignored by the
 * counting methods.
 */
public final class BitVector {
    private final int size;
    private final long[] words;

    /** All rows clear. */
    public BitVector(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("a BitVector's size must not be negative, got " + size);
        }
        this.size = size;
        this.words = new long[(int) (((long) size + 63) >>> 6)];
    }

    /** Rows. */
    public int size() {
        return size;
    }

    /** The backing words themselves (not a copy): bit {@code i & 63} of word {@code i >>> 6} is row {@code i}. */
    public long[] words() {
        return words;
    }

    public boolean get(int row) {
        checkRow(row);
        return (words[row >>> 6] >>> row & 1) != 0;
    }

    public void set(int row, boolean value) {
        checkRow(row);
        if (value) {
            words[row >>> 6] |= 1L << row;
        } else {
            words[row >>> 6] &= ~(1L << row);
        }
    }

    /** Rows set. */
    public int cardinality() {
        return cardinality(0, size);
    }

    /** Rows set in {@code [from, to)}. */
    public int cardinality(int from, int to) {
        checkRange(from, to);
        if (from == to) {
            return 0;
        }
        int first = from >>> 6;
        int last = (to - 1) >>> 6;
        long firstMask = -1L << from;
        long lastMask = -1L >>> -to;
        if (first == last) {
            return Long.bitCount(words[first] & firstMask & lastMask);
        }
        int n = Long.bitCount(words[first] & firstMask);
        for (int i = first + 1; i < last; i++) {
            n += Long.bitCount(words[i]);
        }
        return n + Long.bitCount(words[last] & lastMask);
    }

    /** Keeps only the rows also set in {@code other} (a conjunction of two column predicates). */
    public BitVector and(BitVector other) {
        long[] theirs = sameSize(other).words;
        for (int i = 0; i < words.length; i++) {
            words[i] &= theirs[i];
        }
        return this;
    }

    /** Adds the rows set in {@code other} (a disjunction of two column predicates). */
    public BitVector or(BitVector other) {
        long[] theirs = sameSize(other).words;
        for (int i = 0; i < words.length; i++) {
            words[i] |= theirs[i];
        }
        return this;
    }

    private BitVector sameSize(BitVector other) {
        if (other.size != size) {
            throw new IllegalArgumentException("cannot combine a BitVector of " + size + " rows with one of " + other.size);
        }
        return other;
    }

    /** Appends the set rows to {@code out} in ascending order; returns how many. */
    public int toPositions(PositionList out) {
        int before = out.size();
        forEach(out::add);
        return out.size() - before;
    }

    /** Calls {@code action} with every set row, ascending. */
    public void forEach(IntConsumer action) {
        for (int i = 0; i < words.length; i++) {
            long w = i == words.length - 1 ? words[i] & (-1L >>> -size) : words[i];
            while (w != 0) {
                action.accept((i << 6) + Long.numberOfTrailingZeros(w));
                w &= w - 1;
            }
        }
    }

    private void checkRow(int row) {
        if (row < 0 || row >= size) {
            throw new IndexOutOfBoundsException("row " + row + " is outside the BitVector's rows [0, " + size + ")");
        }
    }

    private void checkRange(int from, int to) {
        if (from < 0 || from > to || to > size) {
            throw new IndexOutOfBoundsException("row range [" + from + ", " + to + ") is not within the BitVector's rows [0, "
                    + size + ")");
        }
    }

    /** Same size and same rows set (bits beyond the size do not count). */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BitVector other) || other.size != size) {
            return false;
        }
        for (int i = 0; i < words.length; i++) {
            long mask = i == words.length - 1 ? -1L >>> -size : -1L;
            if (((words[i] ^ other.words[i]) & mask) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        long[] copy = words.clone();
        if (copy.length > 0) {
            copy[copy.length - 1] &= -1L >>> -size;
        }
        return 31 * size + Arrays.hashCode(copy);
    }

    @Override
    public String toString() {
        return "BitVector[" + size + " rows, " + cardinality() + " set]";
    }
}
