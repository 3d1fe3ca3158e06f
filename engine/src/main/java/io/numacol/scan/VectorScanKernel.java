package io.numacol.scan;

import io.numacol.storage.IndexVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The SIMD kernel (jdk.incubator.vector). With the transposed layout a vector of {@code L} int
 * lanes loads {@code L} of a block's 32 lanes straight from the segment, decodes one position of
 * all of them with a shift and a mask (plus a shift and an or when the position continues into
 * the next word), and its compare mask ({@code toLong()}) is {@code L} consecutive rows' bits.
 *
 * <p>Only {@link ScanKernels} refers to this class, and only lazily: loading it needs the
 * {@code jdk.incubator.vector} module.
 */
public final class VectorScanKernel extends BlockScanKernel {
    /**
     * The species of {@value ScanKernels#VECTOR_BITS_PROPERTY} bits, or by default the preferred
     * one unless it has more lanes than a block (wide SVE): then 16 lanes. A static final, chosen
     * once, so that the JIT compiles the kernel for one shape (as Lucene's PanamaVectorConstants
     * does with {@code tests.vectorsize}); tests run the kernel at every width in JVMs of their own.
     */
    private static final VectorSpecies<Integer> SPECIES = species(System.getProperty(ScanKernels.VECTOR_BITS_PROPERTY, "auto"));
    /** 4, 8 or 16 on x86; a power of two that divides the 32 layout lanes. */
    private static final int L = SPECIES.length();
    private static final int LANES_BYTES = IndexVector.LANES * Integer.BYTES;
    /** Sets up to this size compare for equality instead of gathering from the bitmap. */
    private static final int SMALL_SET = 4;

    static final VectorScanKernel INSTANCE = new VectorScanKernel();

    private VectorScanKernel() {
    }

    /** Int lanes of the species this JVM's kernel uses. */
    static int preferredLanes() {
        return L;
    }

    /** The species of {@code bits} (128, 256 or 512), or of the CPU's preferred width for {@code auto}. */
    static VectorSpecies<Integer> species(String bits) {
        return switch (bits.trim()) {
            case "auto" -> IntVector.SPECIES_PREFERRED.length() <= IndexVector.LANES ? IntVector.SPECIES_PREFERRED : IntVector.SPECIES_512;
            case "128" -> IntVector.SPECIES_128;
            case "256" -> IntVector.SPECIES_256;
            case "512" -> IntVector.SPECIES_512;
            default -> throw new IllegalArgumentException(ScanKernels.VECTOR_BITS_PROPERTY + " must be auto, 128, 256 or 512, got '"
                    + bits + "'");
        };
    }

    @Override
    public String name() {
        return "vector";
    }

    @Override
    public void decodeBlock(IndexVector iv, int block, int[] words, int[] out) {
        int bitcase = iv.bitcase();
        iv.copyBlock(block, words);
        Objects.checkFromIndexSize(0, IndexVector.BLOCK_ROWS, out.length);
        int mask = IndexVector.maxVid(bitcase);
        for (int p = 0; p < IndexVector.LANES; p++) {
            int bit = p * bitcase;
            int lo = (bit >>> 5) * IndexVector.LANES;
            int shift = bit & 31;
            int at = p * IndexVector.LANES;
            if (shift + bitcase <= Integer.SIZE) {
                for (int l0 = 0; l0 < IndexVector.LANES; l0 += L) {
                    IntVector.fromArray(SPECIES, words, lo + l0).lanewise(VectorOperators.LSHR, shift).and(mask)
                            .intoArray(out, at + l0);
                }
            } else {
                int hiShift = Integer.SIZE - shift;
                for (int l0 = 0; l0 < IndexVector.LANES; l0 += L) {
                    IntVector.fromArray(SPECIES, words, lo + l0).lanewise(VectorOperators.LSHR, shift)
                            .or(IntVector.fromArray(SPECIES, words, lo + IndexVector.LANES + l0).lanewise(VectorOperators.LSHL, hiShift))
                            .and(mask)
                            .intoArray(out, at + l0);
                }
            }
        }
    }

    /**
     * Packs with the vector compress operation (AVX-512's vpcompressd): over a 1024-row block that
     * keeps most rows, 5x faster than the scalar loop at 512 bits and 2.5x at 256 (AVX2, where the
     * JIT has no single instruction for it). Narrower species keep the scalar loop.
     */
    @Override
    public int compact(int[] values, long[] selection, int rows) {
        if (L < 8) {
            return ScalarScanKernel.INSTANCE.compact(values, selection, rows);
        }
        checkCompact(values, selection, rows);
        int n = 0;
        for (int i = 0; i < rows; i += L) {
            long bits = selection[i >>> 6] >>> (i & 63) & (-1L >>> (64 - L));
            if (rows - i < L) {
                bits &= (1L << (rows - i)) - 1;
            }
            IntVector.fromArray(SPECIES, values, i).compress(VectorMask.fromLong(SPECIES, bits)).intoArray(values, n);
            n += Long.bitCount(bits); // n <= i: the store reaches no lane still to load
        }
        return n;
    }

    @Override
    BlockMatcher matcher(IndexVector iv, int lo, int span, VidPredicate.VidSet set) {
        return new Matcher(iv, lo, span, set);
    }

    /** log2 of the vids one lane adds up over a block: 1024 / L. */
    private static final int LANE_SUM_BITS = Integer.numberOfTrailingZeros(IndexVector.BLOCK_ROWS / L);

    @Override
    BlockSummer summer(IndexVector iv, int lo, int span) {
        // Lanes add up 1024 / L vids in an int; wider bitcases could wrap it, so they stay scalar.
        return iv.bitcase() + LANE_SUM_BITS <= Integer.SIZE ? new Summer(iv, lo, span)
                : new ScalarScanKernel.Summer(iv, lo, span);
    }

    /** Decodes like the matcher, and adds the vids in range lane-wise into int lanes, widened once per block. */
    private static final class Summer extends RangeSummer {
        private final int[] lanes = new int[L];

        Summer(IndexVector iv, int lo, int span) {
            super(iv, lo, span);
        }

        @Override
        public void sum(int block, long[] into) {
            long base = block * blockBytes;
            IntVector acc = IntVector.zero(SPECIES);
            long count = 0;
            for (int p = 0; p < IndexVector.LANES; p++) {
                int bit = p * bitcase;
                long offset = base + (long) (bit >>> 5) * LANES_BYTES;
                int shift = bit & 31;
                boolean split = shift + bitcase > Integer.SIZE;
                for (int l0 = 0; l0 < IndexVector.LANES; l0 += L) {
                    long at = offset + (long) l0 * Integer.BYTES;
                    IntVector vids = load(at).lanewise(VectorOperators.LSHR, shift);
                    if (split) {
                        vids = vids.or(load(at + LANES_BYTES).lanewise(VectorOperators.LSHL, Integer.SIZE - shift));
                    }
                    vids = vids.and(mask);
                    VectorMask<Integer> in = vids.sub(lo).compare(VectorOperators.ULE, span);
                    count += in.trueCount();
                    acc = acc.add(vids, in);
                }
            }
            acc.intoArray(lanes, 0);
            long sum = 0;
            for (int lane : lanes) {
                sum += Integer.toUnsignedLong(lane);
            }
            into[0] += count;
            into[1] += sum;
        }

        private IntVector load(long offset) {
            return IntVector.fromMemorySegment(SPECIES, segment, offset, ByteOrder.LITTLE_ENDIAN);
        }
    }

    private static final class Matcher extends PredicateMatcher {
        private static final int RANGE = 0;
        private static final int SMALL = 1;
        private static final int BITMAP = 2;

        private final int kind;
        /** The small set's vids, padded by repeating the first. */
        private final int k0;
        private final int k1;
        private final int k2;
        private final int k3;
        /** Gather indexes (bitmap words) of one vector; the Vector API gathers through an int[]. */
        private final int[] gatherIndex = new int[L];

        Matcher(IndexVector iv, int lo, int span, VidPredicate.VidSet set) {
            super(iv, lo, span, set);
            this.kind = set == null ? RANGE : set.size() <= SMALL_SET ? SMALL : BITMAP;
            int[] small = new int[SMALL_SET];
            if (kind == SMALL) {
                for (int i = 0; i < SMALL_SET; i++) {
                    small[i] = set.vid(i < set.size() ? i : 0);
                }
            }
            this.k0 = small[0];
            this.k1 = small[1];
            this.k2 = small[2];
            this.k3 = small[3];
        }

        @Override
        public void match(int block, int pFrom, int pTo, long[] dst, int dstOffset) {
            long base = block * blockBytes;
            for (int p = pFrom; p < pTo; p += 2) {
                dst[dstOffset + (p >>> 1)] = positionBits(base, p) | positionBits(base, p + 1) << 32;
            }
        }

        /** Bit {@code l} set when lane {@code l} of position {@code p} of the block at {@code base} matches. */
        private long positionBits(long base, int p) {
            int bit = p * bitcase;
            long offset = base + (long) (bit >>> 5) * LANES_BYTES;
            // Vector shift counts are taken modulo 32; shift < 32 and 32 - shift > 0 here.
            int shift = bit & 31;
            long bits = 0;
            if (shift + bitcase <= Integer.SIZE) {
                for (int l0 = 0; l0 < IndexVector.LANES; l0 += L) {
                    IntVector vids = load(offset + (long) l0 * Integer.BYTES)
                            .lanewise(VectorOperators.LSHR, shift)
                            .and(mask);
                    bits |= test(vids) << l0;
                }
            } else {
                int hiShift = Integer.SIZE - shift;
                for (int l0 = 0; l0 < IndexVector.LANES; l0 += L) {
                    long at = offset + (long) l0 * Integer.BYTES;
                    IntVector vids = load(at).lanewise(VectorOperators.LSHR, shift)
                            .or(load(at + LANES_BYTES).lanewise(VectorOperators.LSHL, hiShift))
                            .and(mask);
                    bits |= test(vids) << l0;
                }
            }
            return bits;
        }

        private IntVector load(long offset) {
            return IntVector.fromMemorySegment(SPECIES, segment, offset, ByteOrder.LITTLE_ENDIAN);
        }

        /** The match bits of one vector of vids. */
        private long test(IntVector vids) {
            if (kind == RANGE) {
                // lo <= vid <= lo + span as one unsigned compare.
                return vids.sub(lo).compare(VectorOperators.ULE, span).toLong();
            }
            if (kind == SMALL) {
                return vids.eq(k0).or(vids.eq(k1)).or(vids.eq(k2)).or(vids.eq(k3)).toLong();
            }
            // Clamp the word index so the gather stays in the bitmap; vids past the set's max never match.
            vids.lanewise(VectorOperators.LSHR, 5).min(lastWord).intoArray(gatherIndex, 0);
            IntVector words = IntVector.fromArray(SPECIES, bitmap, 0, gatherIndex, 0);
            return words.lanewise(VectorOperators.LSHR, vids).and(1).compare(VectorOperators.NE, 0)
                    .and(vids.compare(VectorOperators.ULE, setMax))
                    .toLong();
        }
    }
}
