package io.numacol.scan;

import io.numacol.storage.IndexVector;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * What both kernels share: argument checks, reducing a predicate to what it means at the
 * IndexVector's bitcase, and walking the blocks of a row range. A kernel only says how to match
 * the positions of one block ({@link BlockMatcher}); interior blocks write straight into the
 * BitVector, edge blocks go through a 16-word scratch and are merged under a row mask.
 */
abstract class BlockScanKernel implements ScanKernel {
    static final int BLOCK_WORDS = IndexVector.BLOCK_ROWS / Long.SIZE;

    private static final BlockMatcher NONE = (block, pFrom, pTo, dst, dstOffset) ->
            Arrays.fill(dst, dstOffset + (pFrom >>> 1), dstOffset + (pTo >>> 1), 0L);
    private static final BlockMatcher ALL = (block, pFrom, pTo, dst, dstOffset) ->
            Arrays.fill(dst, dstOffset + (pFrom >>> 1), dstOffset + (pTo >>> 1), -1L);

    /** Matches the rows of blocks for one scan call; it holds that call's scratch, so one thread uses it. */
    interface BlockMatcher {
        /**
         * Writes the match bits of positions {@code [pFrom, pTo)} (both even) of {@code block}:
         * positions {@code p} and {@code p + 1} (64 consecutive rows) go to
         * {@code dst[dstOffset + p / 2]}, lane {@code l} of {@code p} at bit {@code l}, of {@code p + 1}
         * at bit {@code 32 + l}.
         */
        void match(int block, int pFrom, int pTo, long[] dst, int dstOffset);
    }

    /**
     * What a kernel's matcher reads, hoisted out of the block loop: the IndexVector and either a
     * range (unsigned {@code lo <= vid <= lo + span}, {@code lo + span} within the bitcase) or a set
     * of which at least two vids fit in the bitcase.
     */
    abstract static class PredicateMatcher implements BlockMatcher {
        final MemorySegment segment;
        final int bitcase;
        /** The bitcase's largest vid: the decode mask. */
        final int mask;
        final long blockBytes;
        final int lo;
        final int span;
        /** The set's bitmap, null for a range. */
        final int[] bitmap;
        final int setMax;
        final int lastWord;

        PredicateMatcher(IndexVector iv, int lo, int span, VidPredicate.VidSet set) {
            this.segment = iv.segment();
            this.bitcase = iv.bitcase();
            this.mask = IndexVector.maxVid(bitcase);
            this.blockBytes = IndexVector.blockBytes(bitcase);
            this.lo = lo;
            this.span = span;
            this.bitmap = set == null ? null : set.bitmap();
            this.setMax = set == null ? 0 : set.maxVid();
            this.lastWord = set == null ? 0 : set.bitmap().length - 1;
        }
    }

    /** A matcher for a range ({@code set} null) or a set ({@code lo} and {@code span} unused). */
    abstract BlockMatcher matcher(IndexVector iv, int lo, int span, VidPredicate.VidSet set);

    /** Counts and sums the vids in a range over whole blocks, for one call (it holds that call's scratch). */
    interface BlockSummer {
        /** Adds the count of {@code block}'s rows with {@code lo <= vid <= lo + span} (unsigned) to {@code into[0]}, their vid sum to {@code into[1]}. */
        void sum(int block, long[] into);
    }

    abstract BlockSummer summer(IndexVector iv, int lo, int span);

    /** What both kernels' summers read, hoisted out of the block loop: the IndexVector and the range. */
    abstract static class RangeSummer implements BlockSummer {
        final MemorySegment segment;
        final int bitcase;
        final int mask;
        final long blockBytes;
        final int lo;
        final int span;

        RangeSummer(IndexVector iv, int lo, int span) {
            this.segment = iv.segment();
            this.bitcase = iv.bitcase();
            this.mask = IndexVector.maxVid(bitcase);
            this.blockBytes = IndexVector.blockBytes(bitcase);
            this.lo = lo;
            this.span = span;
        }
    }

    /** The bounds {@link #compact} promises to check, so that both kernels fail alike. */
    static void checkCompact(int[] values, long[] selection, int rows) {
        int padded = (rows + IndexVector.LANES - 1) & -IndexVector.LANES;
        if (rows < 0 || values.length < padded || selection.length < (rows + 63) >>> 6) {
            throw new IndexOutOfBoundsException("compacting " + rows + " rows needs " + padded + " values and "
                    + ((rows + 63) >>> 6) + " selection words, got " + values.length + " and " + selection.length);
        }
    }

    @Override
    public final void countAndSumVids(IndexVector iv, int from, int to, VidPredicate.Between range, long[] into) {
        Objects.requireNonNull(iv, "iv");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(into, "into");
        iv.checkRange(from, to);
        int maxVid = IndexVector.maxVid(iv.bitcase());
        if (from == to || range.isEmpty() || Integer.compareUnsigned(range.lo(), maxVid) > 0) {
            return;
        }
        int lo = range.lo();
        int span = (Integer.compareUnsigned(range.hi(), maxVid) > 0 ? maxVid : range.hi()) - lo;
        BlockSummer summer = summer(iv, lo, span);
        int[] edge = null;
        for (int block = from >>> 10, last = (to - 1) >>> 10; block <= last; block++) {
            int first = block << 10;
            int rFrom = Math.max(from, first);
            int rTo = Math.min(to, first + IndexVector.BLOCK_ROWS);
            if (rTo - rFrom == IndexVector.BLOCK_ROWS) {
                summer.sum(block, into);
                continue;
            }
            if (edge == null) {
                edge = new int[IndexVector.BLOCK_ROWS];
            }
            iv.decode(rFrom, rTo, edge, 0); // a partial block: the rows one by one
            long count = 0;
            long sum = 0;
            for (int i = 0; i < rTo - rFrom; i++) {
                if (Integer.compareUnsigned(edge[i] - lo, span) <= 0) {
                    count++;
                    sum += Integer.toUnsignedLong(edge[i]);
                }
            }
            into[0] += count;
            into[1] += sum;
        }
    }

    @Override
    public final void scan(IndexVector iv, int from, int to, VidPredicate predicate, BitVector out) {
        Objects.requireNonNull(out, "out");
        BlockMatcher matcher = prepare(iv, from, to, predicate);
        if (to > out.size()) {
            throw new IllegalArgumentException("the BitVector has " + out.size() + " rows, the scan range ends at row " + to);
        }
        if (from == to) {
            return;
        }
        long[] words = out.words();
        long[] scratch = new long[BLOCK_WORDS];
        for (int block = from >>> 10, last = (to - 1) >>> 10; block <= last; block++) {
            int first = block << 10;
            int rFrom = Math.max(from - first, 0);
            int rTo = Math.min(to - first, IndexVector.BLOCK_ROWS);
            int base = first >>> 6;
            if (rFrom == 0 && rTo == IndexVector.BLOCK_ROWS) {
                matcher.match(block, 0, IndexVector.LANES, words, base);
                continue;
            }
            int wFrom = rFrom >>> 6;
            int wTo = (rTo + 63) >>> 6;
            matcher.match(block, 2 * wFrom, 2 * wTo, scratch, 0);
            for (int w = wFrom; w < wTo; w++) {
                long mask = rowMask(w, rFrom, rTo);
                words[base + w] = (words[base + w] & ~mask) | (scratch[w] & mask);
            }
        }
    }

    @Override
    public final int scanPositions(IndexVector iv, int from, int to, VidPredicate predicate, PositionList out) {
        Objects.requireNonNull(out, "out");
        BlockMatcher matcher = prepare(iv, from, to, predicate);
        if (from == to) {
            return 0;
        }
        long[] scratch = new long[BLOCK_WORDS];
        int before = out.size();
        for (int block = from >>> 10, last = (to - 1) >>> 10; block <= last; block++) {
            int first = block << 10;
            int rFrom = Math.max(from - first, 0);
            int rTo = Math.min(to - first, IndexVector.BLOCK_ROWS);
            int wFrom = rFrom >>> 6;
            int wTo = (rTo + 63) >>> 6;
            matcher.match(block, 2 * wFrom, 2 * wTo, scratch, 0);
            int[] positions = out.reserve(rTo - rFrom);
            int n = out.size();
            for (int w = wFrom; w < wTo; w++) {
                long bits = scratch[w] & rowMask(w, rFrom, rTo);
                int row = first + (w << 6);
                while (bits != 0) {
                    positions[n++] = row + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                }
            }
            out.size(n);
        }
        return out.size() - before;
    }

    /** The bits of word {@code w} of a block whose rows lie in {@code [rFrom, rTo)} of that block. */
    private static long rowMask(int w, int rFrom, int rTo) {
        long mask = -1L;
        if (w == rFrom >>> 6) {
            mask &= -1L << rFrom;
        }
        if (w == (rTo - 1) >>> 6) {
            mask &= -1L >>> -rTo;
        }
        return mask;
    }

    /** Checks the arguments and reduces the predicate to a matcher for the IndexVector's bitcase. */
    private BlockMatcher prepare(IndexVector iv, int from, int to, VidPredicate predicate) {
        Objects.requireNonNull(iv, "iv");
        Objects.requireNonNull(predicate, "predicate");
        iv.checkRange(from, to);
        int maxVid = IndexVector.maxVid(iv.bitcase());
        return switch (predicate) {
            case VidPredicate.Between r -> {
                if (r.isEmpty() || Integer.compareUnsigned(r.lo(), maxVid) > 0) {
                    yield NONE;
                }
                int hi = Integer.compareUnsigned(r.hi(), maxVid) > 0 ? maxVid : r.hi();
                yield r.lo() == 0 && hi == maxVid ? ALL : matcher(iv, r.lo(), hi - r.lo(), null);
            }
            case VidPredicate.VidSet s -> {
                int n = s.countAtMost(maxVid);
                if (n == 0) {
                    yield NONE;
                }
                if (n == Integer.toUnsignedLong(maxVid) + 1) {
                    yield ALL;
                }
                yield n == 1 ? matcher(iv, s.vid(0), 0, null) : matcher(iv, 0, 0, s);
            }
        };
    }

    @Override
    public String toString() {
        return name() + " scan kernel";
    }
}
