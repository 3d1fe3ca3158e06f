package io.numacol.storage;

import java.util.NoSuchElementException;

/**
 * The vids {@code from} (inclusive) to {@code to} (exclusive) of a Dictionary: what a range
 * predicate on values becomes, since vids are in value order. {@code a <= x <= b} is
 * {@code [lowerBound(a), upperBound(b))}; {@link #of} makes that empty when the bounds cross,
 * and {@link #first()}/{@link #last()} give the inclusive ends a scan compares against.
 */
public record VidRange(int from, int to) {

    public static final VidRange EMPTY = new VidRange(0, 0);

    public VidRange {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("a vid range [from, to) needs 0 <= from <= to, got [" + from + ", " + to + ")");
        }
    }

    /** {@code [lowerBound, upperBound)}, or {@link #EMPTY} when {@code upperBound <= lowerBound} (e.g. BETWEEN 9 AND 3). */
    public static VidRange of(int lowerBound, int upperBound) {
        return upperBound > lowerBound ? new VidRange(lowerBound, upperBound) : EMPTY;
    }

    public boolean isEmpty() {
        return from == to;
    }

    public int size() {
        return to - from;
    }

    public boolean contains(int vid) {
        return vid >= from && vid < to;
    }

    /** The smallest vid in the range. */
    public int first() {
        requireNonEmpty("first");
        return from;
    }

    /** The largest vid in the range, i.e. {@code to - 1}. */
    public int last() {
        requireNonEmpty("last");
        return to - 1;
    }

    private void requireNonEmpty(String which) {
        if (isEmpty()) {
            throw new NoSuchElementException("an empty vid range has no " + which + " vid");
        }
    }
}
