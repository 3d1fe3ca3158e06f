package io.numacol.scan;

import io.numacol.storage.VidRange;

import java.util.Arrays;
import java.util.Objects;

/** A condition on vids (unsigned ints), evaluated by a {@link ScanKernel}. */
public sealed interface VidPredicate permits VidPredicate.Between, VidPredicate.VidSet {

    /** Whether {@code vid} (unsigned) satisfies the predicate. */
    boolean test(int vid);

    static Between range(int lo, int hi) {
        return new Between(lo, hi);
    }

    /** The predicate for a dictionary's answer to a value range. */
    static Between of(VidRange vids) {
        return vids.isEmpty() ? new Between(1, 0) : new Between(vids.first(), vids.last());
    }

    static VidSet in(int... vids) {
        return new VidSet(vids);
    }

    /**
     * Unsigned {@code lo <= vid <= hi}; empty when {@code lo > hi} (unsigned). The inclusive,
     * kernel-side form of a dictionary's half-open {@link io.numacol.storage.VidRange}.
     */
    record Between(int lo, int hi) implements VidPredicate {

        public boolean isEmpty() {
            return Integer.compareUnsigned(lo, hi) > 0;
        }

        @Override
        public boolean test(int vid) {
            return Integer.compareUnsigned(vid - lo, hi - lo) <= 0 && !isEmpty();
        }

        @Override
        public String toString() {
            return "vid in [" + Integer.toUnsignedString(lo) + ".." + Integer.toUnsignedString(hi) + "]";
        }
    }

    /**
     * A set of vids, backed by a bitmap over {@code [0, max vid]}: it costs {@code max vid / 8}
     * bytes, so it suits the dense vids a dictionary hands out.
     */
    final class VidSet implements VidPredicate {
        private final int[] vids;
        private final int[] bitmap;

        /** The set of the given vids (unsigned; duplicates are fine). */
        public VidSet(int[] vids) {
            int[] sorted = Objects.requireNonNull(vids, "vids").clone();
            // Sort as unsigned: flip the sign bit, sort signed, flip back.
            for (int i = 0; i < sorted.length; i++) {
                sorted[i] ^= Integer.MIN_VALUE;
            }
            Arrays.sort(sorted);
            for (int i = 0; i < sorted.length; i++) {
                sorted[i] ^= Integer.MIN_VALUE;
            }
            this.vids = Arrays.stream(sorted).distinct().toArray();
            this.bitmap = this.vids.length == 0 ? new int[0] : new int[(this.vids[this.vids.length - 1] >>> 5) + 1];
            for (int vid : this.vids) {
                bitmap[vid >>> 5] |= 1 << vid;
            }
        }

        private VidSet(int[] ascendingVids, int[] bitmap) {
            this.vids = ascendingVids;
            this.bitmap = bitmap;
        }

        /** The set of the vids whose bit ({@code vid & 31} of word {@code vid >>> 5}) is set; the bitmap is taken, not copied. */
        public static VidSet ofBitmap(int[] bitmap) {
            int count = 0;
            int last = -1;
            for (int w = 0; w < bitmap.length; w++) {
                count += Integer.bitCount(bitmap[w]);
                last = bitmap[w] != 0 ? w : last;
            }
            int[] vids = new int[count];
            int n = 0;
            for (int w = 0; w <= last; w++) {
                for (int x = bitmap[w]; x != 0; x &= x - 1) {
                    vids[n++] = (w << 5) + Integer.numberOfTrailingZeros(x);
                }
            }
            return new VidSet(vids, Arrays.copyOf(bitmap, last + 1));
        }

        public int size() {
            return vids.length;
        }

        public boolean isEmpty() {
            return vids.length == 0;
        }

        /** The distinct vids in unsigned ascending order (a copy). */
        public int[] vids() {
            return vids.clone();
        }

        /** How many of the vids are unsigned {@code <= bound}. */
        int countAtMost(int bound) {
            int lo = 0;
            int hi = vids.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (Integer.compareUnsigned(vids[mid], bound) <= 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** The largest vid (unsigned); meaningless for an empty set. */
        int maxVid() {
            return vids.length == 0 ? 0 : vids[vids.length - 1];
        }

        /** The vid at {@code index} of the ascending order. */
        int vid(int index) {
            return vids[index];
        }

        /** Bit {@code vid & 31} of word {@code vid >>> 5}; the kernels read it directly. */
        int[] bitmap() {
            return bitmap;
        }

        @Override
        public boolean test(int vid) {
            return Integer.compareUnsigned(vid, maxVid()) <= 0 && !isEmpty() && (bitmap[vid >>> 5] >>> vid & 1) != 0;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof VidSet other && Arrays.equals(vids, other.vids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(vids);
        }

        @Override
        public String toString() {
            if (vids.length > 8) {
                return "VidSet[" + vids.length + " vids, max " + Integer.toUnsignedString(maxVid()) + "]";
            }
            StringBuilder s = new StringBuilder("VidSet[");
            for (int i = 0; i < vids.length; i++) {
                s.append(i == 0 ? "" : ", ").append(Integer.toUnsignedString(vids[i]));
            }
            return s.append(']').toString();
        }
    }
}
