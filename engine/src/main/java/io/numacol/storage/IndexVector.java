package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A column's value ids (vids) bit-packed at the column's bitcase {@code b} (1..32 bits per vid),
 * in off-heap memory.
 *
 * <p>Layout (fixed; FastLanes-style "transposed" so that a SIMD register of any width decodes
 * with shifts and masks only, no cross-lane shuffles):
 * <ul>
 *   <li>Rows form blocks of {@value #BLOCK_ROWS}. A block is {@code 32 * b} little-endian 32-bit
 *       words ({@code 128 * b} bytes); the last block is padded with vid 0.</li>
 *   <li>Row {@code r} of a block lives in lane {@code r & 31} at position {@code p = r >>> 5}.</li>
 *   <li>Lane {@code l}'s bit stream is the block's words {@code w * 32 + l} for {@code w = 0..b-1};
 *       position {@code p} holds bits {@code [p*b, p*b + b)} of that stream, least significant
 *       first, so a vid may continue from word {@code w} into word {@code w + 1} of its lane.</li>
 * </ul>
 * Position {@code p} of all 32 lanes is 32 consecutive rows, so decoding one position across the
 * lanes yields rows in order.
 *
 * <p>Immutable once packed; any number of threads may read it while its arena is open.
 */
public final class IndexVector {
    public static final int BLOCK_ROWS = 1024;
    public static final int LANES = 32;
    public static final int MIN_BITCASE = 1;
    public static final int MAX_BITCASE = 32;
    /** The word layout; unaligned so that wrapped segments need not be 4-byte aligned. */
    public static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment segment;
    private final int length;
    private final int bitcase;
    private final int mask;

    private IndexVector(MemorySegment segment, int length, int bitcase) {
        this.segment = segment;
        this.length = length;
        this.bitcase = bitcase;
        this.mask = maxVid(bitcase);
    }

    /** The smallest bitcase (at least 1) that holds every vid in {@code [0, maxVid]}. */
    public static int bitcaseFor(long maxVid) {
        if (maxVid < 0 || maxVid > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("max vid " + maxVid + " is outside [0, 2^32-1]");
        }
        return Math.max(MIN_BITCASE, Long.SIZE - Long.numberOfLeadingZeros(maxVid));
    }

    /** Bytes an IndexVector of {@code length} rows at {@code bitcase} occupies, padding included. */
    public static long byteSize(int length, int bitcase) {
        checkLength(length);
        checkBitcase(bitcase);
        return blockCount(length) * blockBytes(bitcase);
    }

    /** Bytes of one block: {@code 32 * bitcase} words. */
    public static long blockBytes(int bitcase) {
        return (long) LANES * Integer.BYTES * bitcase;
    }

    /** The largest vid {@code bitcase} holds, as an unsigned int ({@code -1} for bitcase 32). */
    public static int maxVid(int bitcase) {
        checkBitcase(bitcase);
        return (int) (0xFFFF_FFFFL >>> (Integer.SIZE - bitcase));
    }

    /**
     * Packs {@code vids[0, length)} (unsigned) into memory from {@code arena}, accounted as
     * {@link Component#INDEX_VECTOR}. Everything is validated before anything is allocated, so a
     * rejected input leaves the arena as it was.
     *
     * @throws IllegalArgumentException for a bitcase outside 1..32, a negative length or one beyond
     *         {@code vids.length}, or a vid that does not fit in the bitcase (naming row and vid)
     */
    public static IndexVector pack(int[] vids, int length, int bitcase, NodeArena arena, MemoryPlacement placement) {
        Objects.requireNonNull(vids, "vids");
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(placement, "placement");
        checkBitcase(bitcase);
        checkLength(length);
        if (length > vids.length) {
            throw new IllegalArgumentException("length " + length + " exceeds the " + vids.length + " vids given");
        }
        if (bitcase < MAX_BITCASE) {
            for (int row = 0; row < length; row++) {
                if (vids[row] >>> bitcase != 0) {
                    throw new IllegalArgumentException("row " + row + " has vid " + Integer.toUnsignedString(vids[row])
                            + ", which does not fit in bitcase " + bitcase + " (max vid "
                            + Integer.toUnsignedString(maxVid(bitcase)) + ")");
                }
            }
        }
        MemorySegment segment = arena.allocate(byteSize(length, bitcase), placement, Component.INDEX_VECTOR);
        int[] words = new int[LANES * bitcase];
        int[] padded = new int[BLOCK_ROWS];
        long blockBytes = blockBytes(bitcase);
        for (int block = 0, blocks = (int) blockCount(length); block < blocks; block++) {
            int first = block * BLOCK_ROWS;
            int[] source = vids;
            int offset = first;
            if (length - first < BLOCK_ROWS) {
                System.arraycopy(vids, first, padded, 0, length - first);
                source = padded;
                offset = 0;
            }
            Arrays.fill(words, 0);
            packBlock(source, offset, bitcase, words);
            MemorySegment.copy(words, 0, segment, WORD, block * blockBytes, words.length);
        }
        return new IndexVector(segment, length, bitcase);
    }

    /**
     * An IndexVector over memory already in the layout above (for instance one read from disk).
     *
     * @throws IllegalArgumentException when the segment's size is not {@link #byteSize} of length and bitcase
     */
    public static IndexVector wrap(MemorySegment segment, int length, int bitcase) {
        Objects.requireNonNull(segment, "segment");
        long expected = byteSize(length, bitcase);
        if (segment.byteSize() != expected) {
            throw new IllegalArgumentException("an IndexVector of " + length + " rows at bitcase " + bitcase + " takes "
                    + expected + " bytes, the segment has " + segment.byteSize());
        }
        return new IndexVector(segment, length, bitcase);
    }

    public int length() {
        return length;
    }

    public int bitcase() {
        return bitcase;
    }

    public MemorySegment segment() {
        return segment;
    }

    /** Blocks, the last one possibly padded. */
    public int blocks() {
        return (int) blockCount(length);
    }

    /** The vid of {@code row} (an unsigned int). */
    public int get(int row) {
        if (row < 0 || row >= length) {
            throw new IndexOutOfBoundsException("row " + row + " is outside the IndexVector's rows [0, " + length + ")");
        }
        int r = row & (BLOCK_ROWS - 1);
        int bit = (r >>> 5) * bitcase;
        long word = (long) (row >>> 10) * LANES * bitcase + (long) (bit >>> 5) * LANES + (r & (LANES - 1));
        int shift = bit & 31;
        long bits = Integer.toUnsignedLong(segment.getAtIndex(WORD, word)) >>> shift;
        if (shift + bitcase > Integer.SIZE) {
            bits |= Integer.toUnsignedLong(segment.getAtIndex(WORD, word + LANES)) << (Integer.SIZE - shift);
        }
        return (int) bits & mask;
    }

    /** Decodes rows {@code [from, to)} into {@code out[outOffset ...]} in row order. */
    public void decode(int from, int to, int[] out, int outOffset) {
        checkRange(from, to);
        Objects.checkFromIndexSize(outOffset, to - from, out.length);
        if (from == to) {
            return;
        }
        int[] words = new int[LANES * bitcase];
        int[] edge = new int[LANES];
        long blockBytes = blockBytes(bitcase);
        for (int block = from >>> 10, last = (to - 1) >>> 10; block <= last; block++) {
            int first = block * BLOCK_ROWS;
            MemorySegment.copy(segment, WORD, block * blockBytes, words, 0, words.length);
            int pFrom = (Math.max(from, first) - first) >>> 5;
            int pTo = (Math.min(to - first, BLOCK_ROWS) + LANES - 1) >>> 5;
            for (int p = pFrom; p < pTo; p++) {
                int row = first + p * LANES;
                if (row >= from && to - row >= LANES) {
                    decodePosition(words, p, bitcase, mask, out, outOffset + row - from);
                } else {
                    decodePosition(words, p, bitcase, mask, edge, 0);
                    int lo = Math.max(row, from);
                    int n = Math.min(to - row, LANES) - (lo - row);
                    System.arraycopy(edge, lo - row, out, outOffset + lo - from, n);
                }
            }
        }
    }

    /**
     * Decodes all 1024 rows of {@code block} into {@code out[0, 1024)}, the padding past the last
     * row as zeros. {@code words} is scratch of at least {@code 32 * bitcase} ints: this path
     * allocates nothing, for operators that decode block after block.
     */
    public void decodeBlock(int block, int[] words, int[] out) {
        copyBlock(block, words);
        for (int p = 0; p < LANES; p++) {
            decodePosition(words, p, bitcase, mask, out, p * LANES);
        }
    }

    /** Copies the {@code 32 * bitcase} words of {@code block} into {@code words}, the transposed layout as stored. */
    public void copyBlock(int block, int[] words) {
        Objects.checkIndex(block, blocks());
        MemorySegment.copy(segment, WORD, block * blockBytes(bitcase), words, 0, LANES * bitcase);
    }

    /**
     * Decodes position {@code p} of all 32 lanes of a block's {@code words} (32 consecutive rows)
     * into {@code out[outOffset, outOffset + 32)}. Public so that scan kernels share the one
     * decoder; the per-position shift is uniform across lanes, which lets the JIT vectorize it.
     */
    public static void decodePosition(int[] words, int p, int bitcase, int mask, int[] out, int outOffset) {
        int bit = p * bitcase;
        int lo = (bit >>> 5) * LANES;
        int shift = bit & 31;
        if (shift + bitcase <= Integer.SIZE) {
            for (int lane = 0; lane < LANES; lane++) {
                out[outOffset + lane] = (words[lo + lane] >>> shift) & mask;
            }
        } else {
            int hiShift = Integer.SIZE - shift;
            for (int lane = 0; lane < LANES; lane++) {
                out[outOffset + lane] = ((words[lo + lane] >>> shift) | (words[lo + LANES + lane] << hiShift)) & mask;
            }
        }
    }

    /** The inverse of {@link #decodePosition} for all 32 positions; {@code words} must be zeroed. */
    private static void packBlock(int[] vids, int offset, int bitcase, int[] words) {
        for (int p = 0; p < LANES; p++) {
            int bit = p * bitcase;
            int lo = (bit >>> 5) * LANES;
            int shift = bit & 31;
            int in = offset + p * LANES;
            for (int lane = 0; lane < LANES; lane++) {
                words[lo + lane] |= vids[in + lane] << shift;
            }
            if (shift + bitcase > Integer.SIZE) {
                int hiShift = Integer.SIZE - shift;
                for (int lane = 0; lane < LANES; lane++) {
                    words[lo + LANES + lane] |= vids[in + lane] >>> hiShift;
                }
            }
        }
    }

    /**
     * Checks that {@code [from, to)} is a row range of this IndexVector.
     *
     * @throws IndexOutOfBoundsException naming the range and the length otherwise
     */
    public void checkRange(int from, int to) {
        if (from < 0 || from > to || to > length) {
            throw new IndexOutOfBoundsException("row range [" + from + ", " + to + ") is not within the IndexVector's rows [0, "
                    + length + ")");
        }
    }

    private static long blockCount(int length) {
        return ((long) length + BLOCK_ROWS - 1) / BLOCK_ROWS;
    }

    private static void checkBitcase(int bitcase) {
        if (bitcase < MIN_BITCASE || bitcase > MAX_BITCASE) {
            throw new IllegalArgumentException("bitcase " + bitcase + " is outside " + MIN_BITCASE + ".." + MAX_BITCASE);
        }
    }

    private static void checkLength(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("an IndexVector's length must not be negative, got " + length);
        }
    }

    @Override
    public String toString() {
        return "IndexVector[" + length + " rows, bitcase " + bitcase + ", " + segment.byteSize() + " bytes]";
    }
}
