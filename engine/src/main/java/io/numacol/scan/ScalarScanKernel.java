package io.numacol.scan;

import io.numacol.storage.IndexVector;

import java.lang.foreign.MemorySegment;

/**
 * The portable kernel: per block it copies the needed words into a heap scratch, then for each
 * position folds the tests of the 32 lanes (32 consecutive rows) into one 32-bit word of the
 * result. Ranges decode and compare in one branch-free loop (measured 1.8x faster than decoding
 * first); sets decode with the IndexVector's decoder, then look each vid up in the bitmap.
 */
public final class ScalarScanKernel extends BlockScanKernel {
    static final ScalarScanKernel INSTANCE = new ScalarScanKernel();
    private static final int[] LANE_BIT = new int[IndexVector.LANES];

    static {
        for (int lane = 0; lane < LANE_BIT.length; lane++) {
            LANE_BIT[lane] = 1 << lane;
        }
    }

    private ScalarScanKernel() {
    }

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void decodeBlock(IndexVector iv, int block, int[] words, int[] out) {
        iv.decodeBlock(block, words, out);
    }

    @Override
    public int compact(int[] values, long[] selection, int rows) {
        BlockScanKernel.checkCompact(values, selection, rows);
        int n = 0;
        for (int w = 0, words = (rows + 63) >>> 6; w < words; w++) {
            long x = w == words - 1 && (rows & 63) != 0 ? selection[w] & -1L >>> (64 - (rows & 63)) : selection[w];
            int base = w << 6;
            while (x != 0) {
                values[n++] = values[base + Long.numberOfTrailingZeros(x)]; // n <= the row: never overwrites one still to read
                x &= x - 1;
            }
        }
        return n;
    }

    @Override
    BlockMatcher matcher(IndexVector iv, int lo, int span, VidPredicate.VidSet set) {
        return new Matcher(iv, lo, span, set);
    }

    @Override
    BlockSummer summer(IndexVector iv, int lo, int span) {
        return new Summer(iv, lo, span);
    }

    /** Decodes a block position by position with the IndexVector's decoder; branch-free masks pick the vids in range. */
    static final class Summer extends RangeSummer {
        private final int[] words;
        private final int[] vids = new int[IndexVector.LANES];

        Summer(IndexVector iv, int lo, int span) {
            super(iv, lo, span);
            this.words = new int[IndexVector.LANES * bitcase];
        }

        @Override
        public void sum(int block, long[] into) {
            MemorySegment.copy(segment, IndexVector.WORD, block * blockBytes, words, 0, words.length);
            long count = 0;
            long sum = 0;
            for (int p = 0; p < IndexVector.LANES; p++) {
                IndexVector.decodePosition(words, p, bitcase, mask, vids, 0);
                for (int lane = 0; lane < IndexVector.LANES; lane++) {
                    long in = Matcher.inRange(vids[lane] - lo, span); // -1 or 0
                    count -= in;
                    sum += Integer.toUnsignedLong(vids[lane]) & in;
                }
            }
            into[0] += count;
            into[1] += sum;
        }
    }

    private static final class Matcher extends PredicateMatcher {
        private final int[] words;
        private final int[] vids = new int[IndexVector.LANES];

        Matcher(IndexVector iv, int lo, int span, VidPredicate.VidSet set) {
            super(iv, lo, span, set);
            this.words = new int[IndexVector.LANES * bitcase];
        }

        @Override
        public void match(int block, int pFrom, int pTo, long[] dst, int dstOffset) {
            // Only the words that hold positions [pFrom, pTo).
            int wFrom = (pFrom * bitcase) >>> 5;
            int wTo = ((pTo * bitcase - 1) >>> 5) + 1;
            MemorySegment.copy(segment, IndexVector.WORD, block * blockBytes + (long) wFrom * IndexVector.LANES * Integer.BYTES,
                    words, wFrom * IndexVector.LANES, (wTo - wFrom) * IndexVector.LANES);
            for (int p = pFrom; p < pTo; p += 2) {
                dst[dstOffset + (p >>> 1)] = Integer.toUnsignedLong(positionBits(p)) | (long) positionBits(p + 1) << 32;
            }
        }

        /** Bit {@code l} set when lane {@code l} of position {@code p} matches. */
        private int positionBits(int p) {
            return bitmap == null ? rangeBits(p) : setBits(p);
        }

        private int rangeBits(int p) {
            int bit = p * bitcase;
            int at = (bit >>> 5) * IndexVector.LANES;
            int shift = bit & 31;
            int lo = this.lo;
            int span = this.span;
            int bits = 0;
            if (shift + bitcase <= Integer.SIZE) {
                for (int lane = 0; lane < IndexVector.LANES; lane++) {
                    bits |= LANE_BIT[lane] & inRange(((words[at + lane] >>> shift) & mask) - lo, span);
                }
            } else {
                int hiShift = Integer.SIZE - shift;
                for (int lane = 0; lane < IndexVector.LANES; lane++) {
                    int vid = ((words[at + lane] >>> shift) | (words[at + IndexVector.LANES + lane] << hiShift)) & mask;
                    bits |= LANE_BIT[lane] & inRange(vid - lo, span);
                }
            }
            return bits;
        }

        /** All ones when {@code x <= span} unsigned, else 0: the borrow of {@code span - x}, without a branch. */
        static int inRange(int x, int span) {
            int borrow = ((~span & x) | (~(span ^ x) & (span - x))) >>> 31;
            return borrow - 1;
        }

        private int setBits(int p) {
            IndexVector.decodePosition(words, p, bitcase, mask, vids, 0);
            int bits = 0;
            for (int lane = 0; lane < IndexVector.LANES; lane++) {
                int vid = vids[lane];
                int inBitmap = Integer.compareUnsigned(vid, setMax) <= 0 ? 1 : 0;
                bits |= (bitmap[Math.min(vid >>> 5, lastWord)] >>> vid & inBitmap) << lane;
            }
            return bits;
        }
    }
}
