package io.numacol.scan;

import io.numacol.storage.IndexVector;

import java.lang.foreign.MemorySegment;

/**
 * The portable kernel: per block it copies the needed words into a heap scratch, then for each
 * position decodes the 32 lanes (a loop the JIT can vectorize) and folds the 32 tests into one
 * 32-bit word of the result.
 */
public final class ScalarScanKernel extends BlockScanKernel {
    static final ScalarScanKernel INSTANCE = new ScalarScanKernel();

    private ScalarScanKernel() {
    }

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    BlockMatcher rangeMatcher(IndexVector iv, int lo, int span) {
        return new Matcher(iv, lo, span, null);
    }

    @Override
    BlockMatcher setMatcher(IndexVector iv, VidPredicate.VidSet set) {
        return new Matcher(iv, 0, 0, set);
    }

    private static final class Matcher implements BlockMatcher {
        private final MemorySegment segment;
        private final int bitcase;
        private final int mask;
        private final long blockBytes;
        private final int lo;
        private final int span;
        /** Null for a range. */
        private final int[] bitmap;
        private final int setMax;
        private final int lastWord;
        private final int[] words;
        private final int[] vids = new int[IndexVector.LANES];

        Matcher(IndexVector iv, int lo, int span, VidPredicate.VidSet set) {
            this.segment = iv.segment();
            this.bitcase = iv.bitcase();
            this.mask = IndexVector.maxVid(bitcase);
            this.blockBytes = IndexVector.blockBytes(bitcase);
            this.lo = lo;
            this.span = span;
            this.bitmap = set == null ? null : set.bitmap();
            this.setMax = set == null ? 0 : set.maxVid();
            this.lastWord = set == null ? 0 : set.bitmap().length - 1;
            this.words = new int[IndexVector.LANES * bitcase];
        }

        @Override
        public void match(int block, int pFrom, int pTo, long[] dst, int dstOffset) {
            // Only the words that hold positions [pFrom, pTo).
            int wFrom = pFrom * bitcase >>> 5;
            int wTo = ((pTo * bitcase - 1) >>> 5) + 1;
            MemorySegment.copy(segment, IndexVector.WORD, block * blockBytes + (long) wFrom * IndexVector.LANES * Integer.BYTES,
                    words, wFrom * IndexVector.LANES, (wTo - wFrom) * IndexVector.LANES);
            for (int p = pFrom; p < pTo; p += 2) {
                dst[dstOffset + (p >>> 1)] = Integer.toUnsignedLong(positionBits(p)) | (long) positionBits(p + 1) << 32;
            }
        }

        /** Bit {@code l} set when lane {@code l} of position {@code p} matches. */
        private int positionBits(int p) {
            IndexVector.decodePosition(words, p, bitcase, mask, vids, 0);
            int bits = 0;
            if (bitmap == null) {
                for (int lane = 0; lane < IndexVector.LANES; lane++) {
                    bits |= (Integer.compareUnsigned(vids[lane] - lo, span) <= 0 ? 1 : 0) << lane;
                }
            } else {
                for (int lane = 0; lane < IndexVector.LANES; lane++) {
                    int vid = vids[lane];
                    int inBitmap = Integer.compareUnsigned(vid, setMax) <= 0 ? 1 : 0;
                    bits |= (bitmap[Math.min(vid >>> 5, lastWord)] >>> vid & inBitmap) << lane;
                }
            }
            return bits;
        }
    }
}
