package io.numacol.storage;

import java.util.Arrays;

/**
 * The rows of one {@link TablePart} that DELETE or UPDATE took away (HANA's validity vector,
 * negated): bit {@code r & 63} of word {@code r >>> 6} is set when row {@code r} is deleted.
 * Immutable: a statement that deletes more publishes a new version of the part with a new set
 * ({@link TablePart#withDeleted}), so a reader's snapshot keeps the set it started with.
 */
public final class DeletedRows {
    public static final DeletedRows NONE = new DeletedRows(new long[0], 0);

    private final long[] words;
    private final int count;

    private DeletedRows(long[] words, int count) {
        this.words = words;
        this.count = count;
    }

    /** How many rows are deleted. */
    public int count() {
        return count;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    public boolean isDeleted(int row) {
        int w = row >>> 6;
        return w < words.length && (words[w] >>> row & 1) != 0;
    }

    /** How many of rows {@code [from, to)} are deleted. */
    public int count(int from, int to) {
        int n = 0;
        for (int w = from >>> 6, last = Math.min(words.length, (to + 63) >>> 6); w < last; w++) {
            long word = words[w];
            if (w == from >>> 6) {
                word &= -1L << from;
            }
            if (w == (to - 1) >>> 6 && (to & 63) != 0) {
                word &= -1L >>> -to;
            }
            n += Long.bitCount(word);
        }
        return n;
    }

    /** The set's words, a copy: as many as cover its last deleted row, or more. */
    public long[] words() {
        return words.clone();
    }

    /** Word {@code i} of the set (0 past its end): rows {@code 64 i} to {@code 64 i + 63}. */
    public long word(int i) {
        return i < words.length ? words[i] : 0;
    }

    /**
     * This set and the rows set in {@code more} (words of a bitmap over the part's rows, bits past
     * {@code rows} clear); itself when {@code more} adds nothing.
     */
    public DeletedRows with(long[] more, int rows) {
        int length = (rows + 63) >>> 6;
        if (more.length > length) {
            throw new IllegalArgumentException("a bitmap of " + more.length + " words for a part of " + rows + " rows");
        }
        long[] union = Arrays.copyOf(words, length);
        int n = 0;
        for (int i = 0; i < length; i++) {
            union[i] |= i < more.length ? more[i] : 0;
            n += Long.bitCount(union[i]);
        }
        if ((rows & 63) != 0 && (union[length - 1] & -1L << rows) != 0) {
            throw new IllegalArgumentException("rows past the part's " + rows + " rows marked deleted");
        }
        return n == count ? this : new DeletedRows(union, n);
    }

    @Override
    public String toString() {
        return "DeletedRows(" + count + ")";
    }
}
