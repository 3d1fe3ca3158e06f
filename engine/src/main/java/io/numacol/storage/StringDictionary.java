package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.storage.types.Describe;
import io.numacol.storage.types.StorageKind;
import io.numacol.storage.types.Utf8;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A Dictionary of strings in UTF-8 byte order, which is Unicode code point order. That differs
 * from {@link String#compareTo} (UTF-16 code units) for supplementary characters: here
 * U+FFFD sorts before U+1F600 (an emoji), String.compareTo puts the emoji first. CHAR and
 * VARCHAR columns use it; see {@link ColumnType}.
 *
 * <p>Layout, in one allocation so that a dictionary costs one page rounding and is never
 * half-built: {@code offsets}, n+1 longs where value v spans bytes
 * {@code [offsets[v], offsets[v+1])} of {@code data}, then {@code data}, the UTF-8 bytes of all
 * values concatenated. Offsets are longs, not ints, so the data of a large part may pass 2 GiB
 * without a special case; the 4 more bytes per value are small beside the strings themselves.
 *
 * <p>Lookups encode the probe once and compare bytes off-heap ({@link MemorySegment#mismatch}),
 * so no String is made per probe step. A probe with an unpaired surrogate has no UTF-8 form and
 * no place in the order: lookups reject it with IllegalArgumentException.
 */
public final class StringDictionary implements Dictionary {
    private final MemorySegment block;
    private final MemorySegment offsets;
    private final MemorySegment data;
    private final int size;

    private StringDictionary(MemorySegment block, int size) {
        this.block = block;
        this.size = size;
        long offsetBytes = (size + 1L) * JAVA_LONG.byteSize();
        this.offsets = block.asSlice(0, offsetBytes);
        this.data = block.asSlice(offsetBytes);
    }

    /**
     * The order of a dictionary's values: UTF-8 byte order, which is Unicode code point order
     * (DuckDB's), not {@link String#compareTo}'s UTF-16 order. They differ only where a character
     * beyond U+FFFF meets one in U+E000..U+FFFF.
     */
    public static int compare(String a, String b) {
        return Utf8.compare(a, b);
    }

    /**
     * A dictionary of {@code sortedDistinct[0..count)}, which must ascend strictly in UTF-8 byte
     * order (use {@link DictionaryValues#sortedDistinct(String[], int)} otherwise) and hold no
     * nulls and no unpaired surrogates. Bad input is rejected before anything is allocated.
     */
    public static StringDictionary build(String[] sortedDistinct, int count, NodeArena arena, MemoryPlacement placement) {
        return build(sortedDistinct, count, arena, placement, BuildStop.NEVER);
    }

    /**
     * {@link #build(String[], int, NodeArena, MemoryPlacement)} for a part's build that may be
     * stopped: encoding a million strings takes tens of milliseconds, so it asks {@code stop} as
     * it goes (a CancellationException before anything is allocated).
     */
    static StringDictionary build(String[] sortedDistinct, int count, NodeArena arena, MemoryPlacement placement, BuildStop stop) {
        Objects.requireNonNull(sortedDistinct, "sortedDistinct");
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(placement, "placement");
        Search.checkCount(count, sortedDistinct.length);
        byte[][] encoded = new byte[count][];
        long dataBytes = 0;
        for (int i = 0; i < count; i++) {
            stop.check(i);
            if (sortedDistinct[i] == null) {
                throw new IllegalArgumentException("null at position " + i + ": a dictionary holds no nulls");
            }
            encoded[i] = Utf8.encode(sortedDistinct[i]);
            dataBytes += encoded[i].length;
        }
        Search.checkStrictlyAscending(count, i -> Arrays.compareUnsigned(encoded[i - 1], encoded[i]),
                i -> Describe.value(sortedDistinct[i]));
        stop.check();

        long offsetBytes = (count + 1L) * JAVA_LONG.byteSize();
        MemorySegment block = arena.allocate(offsetBytes + dataBytes, placement, Component.DICTIONARY);
        long position = 0;
        for (int i = 0; i < count; i++) {
            block.setAtIndex(JAVA_LONG, i, position);
            MemorySegment.copy(encoded[i], 0, block, JAVA_BYTE, offsetBytes + position, encoded[i].length);
            position += encoded[i].length;
        }
        block.setAtIndex(JAVA_LONG, count, position);
        return new StringDictionary(block.asReadOnly(), count);
    }

    /**
     * A dictionary of {@code size} values over a block already in the layout above (the one
     * {@link #segments()} holds, read back from a checkpoint). Nothing is copied or checked per
     * value, so the caller vouches for the order and the offsets between the ends (the checkpoint
     * by its checksums); the ends are checked, which keeps every offset a lookup reads inside
     * the block's bounds checks. The block belongs to the caller's arena as a built one does.
     *
     * @throws IllegalArgumentException when the block cannot hold {@code size} offsets, or the
     *     first offset is not 0 or the last not the data's length
     */
    public static StringDictionary wrap(MemorySegment block, int size) {
        Objects.requireNonNull(block, "block");
        if (size < 0) {
            throw new IllegalArgumentException("a dictionary's size must not be negative, got " + size);
        }
        long offsetBytes = (size + 1L) * JAVA_LONG.byteSize();
        if (block.byteSize() < offsetBytes) {
            throw new IllegalArgumentException("a block of " + block.byteSize() + " bytes cannot hold the " + (size + 1)
                    + " offsets of " + size + " strings");
        }
        long first = block.getAtIndex(JAVA_LONG, 0);
        long last = block.getAtIndex(JAVA_LONG, size);
        if (first != 0 || last != block.byteSize() - offsetBytes) {
            throw new IllegalArgumentException("the offsets of " + size + " strings run from " + first + " to " + last
                    + ", not from 0 to the data's " + (block.byteSize() - offsetBytes) + " bytes");
        }
        return new StringDictionary(block.asReadOnly(), size);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public StorageKind storageKind() {
        return StorageKind.STRING;
    }

    public String getString(int vid) {
        Search.checkVid(vid, size);
        long start = offsets.getAtIndex(JAVA_LONG, vid);
        long end = offsets.getAtIndex(JAVA_LONG, vid + 1);
        // copied straight into the array: a slice's toArray looks up its class's name on each call
        byte[] bytes = new byte[Math.toIntExact(end - start)];
        MemorySegment.copy(data, JAVA_BYTE, start, bytes, 0, bytes.length);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The length in bytes of the value at {@code vid}, UTF-8 encoded. */
    public int utf8Length(int vid) {
        Search.checkVid(vid, size);
        return Math.toIntExact(offsets.getAtIndex(JAVA_LONG, vid + 1) - offsets.getAtIndex(JAVA_LONG, vid));
    }

    /**
     * Copies the UTF-8 bytes of the value at {@code vid} to the start of {@code into}, which must
     * hold {@link #utf8Length} of them, and returns how many: a test of the bytes makes no String.
     */
    public int copyUtf8(int vid, byte[] into) {
        Search.checkVid(vid, size);
        long start = offsets.getAtIndex(JAVA_LONG, vid);
        int length = Math.toIntExact(offsets.getAtIndex(JAVA_LONG, vid + 1) - start);
        MemorySegment.copy(data, JAVA_BYTE, start, into, 0, length);
        return length;
    }

    /**
     * Copies the UTF-8 bytes of the values at vids {@code [from, to)} back to back to the start of
     * {@code into}, which must hold them ({@link #utf8Bytes}), and their starts, relative to the
     * first, to {@code starts[0..to - from]} (one more than values: the last is the end); returns
     * the bytes copied. A test of many values copies them once, not a value at a time.
     */
    public int copyUtf8(int from, int to, byte[] into, int[] starts) {
        Objects.checkFromToIndex(from, to, size);
        long base = offsets.getAtIndex(JAVA_LONG, from);
        for (int vid = from; vid <= to; vid++) {
            starts[vid - from] = Math.toIntExact(offsets.getAtIndex(JAVA_LONG, vid) - base);
        }
        int length = starts[to - from];
        MemorySegment.copy(data, JAVA_BYTE, base, into, 0, length);
        return length;
    }

    /** The bytes of the values at vids {@code [from, to)}, UTF-8 encoded, back to back. */
    public long utf8Bytes(int from, int to) {
        Objects.checkFromToIndex(from, to, size);
        return offsets.getAtIndex(JAVA_LONG, to) - offsets.getAtIndex(JAVA_LONG, from);
    }

    public int find(String value) {
        return Search.find(size, comparedTo(value));
    }

    public int lowerBound(String value) {
        return Search.lowerBound(size, comparedTo(value));
    }

    public int upperBound(String value) {
        return Search.upperBound(size, comparedTo(value));
    }

    /** The vids of values v with {@code low <= v <= high} in UTF-8 byte order; empty when {@code low > high}. */
    public VidRange between(String low, String high) {
        return VidRange.of(lowerBound(low), upperBound(high));
    }

    /**
     * The vids of the values that start with {@code prefix}: one range, since a byte order puts
     * the values sharing a prefix next to each other (LIKE 'abc%' in two binary searches).
     */
    public VidRange withPrefix(String prefix) {
        MemorySegment probe = MemorySegment.ofArray(Utf8.encode(Objects.requireNonNull(prefix, "prefix")));
        IntUnaryOperator vsPrefix = vid -> compare(vid, probe, true);
        return VidRange.of(Search.lowerBound(size, vsPrefix), Search.upperBound(size, vsPrefix));
    }

    /** Encodes the probe once; each search step then compares bytes. */
    private IntUnaryOperator comparedTo(String value) {
        MemorySegment probe = MemorySegment.ofArray(Utf8.encode(Objects.requireNonNull(value, "value")));
        return vid -> compare(vid, probe, false);
    }

    /**
     * The value at {@code vid} against the probe's bytes, unsigned, a proper prefix first; with
     * {@code asPrefix}, a value that starts with the probe's bytes compares equal.
     */
    private int compare(int vid, MemorySegment probe, boolean asPrefix) {
        long start = offsets.getAtIndex(JAVA_LONG, vid);
        long end = offsets.getAtIndex(JAVA_LONG, vid + 1);
        long probeLength = probe.byteSize();
        long at = MemorySegment.mismatch(data, start, end, probe, 0, probeLength);
        if (at < 0) {
            return 0;
        }
        if (at == end - start) {
            return -1;
        }
        if (at == probeLength) {
            return asPrefix ? 0 : 1;
        }
        return Integer.compare(Byte.toUnsignedInt(data.get(JAVA_BYTE, start + at)),
                Byte.toUnsignedInt(probe.get(JAVA_BYTE, at)));
    }

    /** The one segment holding offsets and data. */
    @Override
    public List<MemorySegment> segments() {
        return List.of(block);
    }

    @Override
    public String toString() {
        return "StringDictionary[" + size + " values, " + data.byteSize() + " bytes of UTF-8]";
    }
}
