package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The optional Index (IX) of a column part: for each vid, the ascending row positions holding
 * it. Two off-heap vectors as in the thesis: vid -> offset ({@code vidCount + 1} ints) and
 * offset -> position (one int per row), built by a counting sort of the vids.
 */
public final class InvertedIndex {
    private final MemorySegment offsets;
    private final MemorySegment positions;
    private final int vidCount;

    private InvertedIndex(MemorySegment offsets, MemorySegment positions, int vidCount) {
        this.offsets = offsets;
        this.positions = positions;
        this.vidCount = vidCount;
    }

    /** Indexes {@code vids[0..length)}, each in {@code [0, vidCount)}. */
    public static InvertedIndex build(int[] vids, int length, int vidCount, NodeArena arena, MemoryPlacement placement) {
        Objects.checkFromToIndex(0, length, vids.length);
        if (vidCount < 0) {
            throw new IllegalArgumentException("an index needs a vid count >= 0, got " + vidCount);
        }
        int[] starts = new int[vidCount + 1];
        for (int row = 0; row < length; row++) {
            int vid = vids[row];
            if (vid < 0 || vid >= vidCount) {
                throw new IllegalArgumentException("row " + row + " has vid " + vid + ", outside [0, " + vidCount + ")");
            }
            starts[vid + 1]++;
        }
        for (int v = 0; v < vidCount; v++) {
            starts[v + 1] += starts[v];
        }
        MemorySegment offsets = arena.allocate((vidCount + 1L) * Integer.BYTES, placement, Component.INDEX);
        MemorySegment positions = arena.allocate((long) length * Integer.BYTES, placement, Component.INDEX);
        MemorySegment.copy(starts, 0, offsets, JAVA_INT, 0, vidCount + 1);
        int[] next = starts;
        for (int row = 0; row < length; row++) {
            positions.setAtIndex(JAVA_INT, next[vids[row]]++, row);
        }
        return new InvertedIndex(offsets, positions, vidCount);
    }

    /**
     * An index over memory already in its layout ({@link #segments()}: the offsets, then the
     * positions), read back from a checkpoint. Nothing is checked per vid or row, so the caller
     * vouches for the contents (the checkpoint by its checksums); the sizes are checked.
     *
     * @throws IllegalArgumentException when {@code offsets} is not {@code vidCount + 1} ints or
     *     {@code positions} not a whole number of ints
     */
    public static InvertedIndex wrap(MemorySegment offsets, MemorySegment positions, int vidCount) {
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(positions, "positions");
        if (vidCount < 0 || offsets.byteSize() != (vidCount + 1L) * Integer.BYTES) {
            throw new IllegalArgumentException("an index of " + vidCount + " vids has " + (vidCount + 1L) * Integer.BYTES
                    + " bytes of offsets, not " + offsets.byteSize());
        }
        if (positions.byteSize() % Integer.BYTES != 0) {
            throw new IllegalArgumentException("an index's positions are ints, not " + positions.byteSize() + " bytes");
        }
        return new InvertedIndex(offsets.asReadOnly(), positions.asReadOnly(), vidCount);
    }

    /** How many rows the index covers. */
    public int rowCount() {
        return (int) (positions.byteSize() / Integer.BYTES);
    }

    public int vidCount() {
        return vidCount;
    }

    /** How many rows hold {@code vid}. */
    public int count(int vid) {
        checkVid(vid);
        return offsets.getAtIndex(JAVA_INT, vid + 1) - offsets.getAtIndex(JAVA_INT, vid);
    }

    /** Copies the rows holding {@code vid}, ascending, into {@code out} from {@code outOffset}; returns how many. */
    public int positions(int vid, int[] out, int outOffset) {
        checkVid(vid);
        int from = offsets.getAtIndex(JAVA_INT, vid);
        int n = offsets.getAtIndex(JAVA_INT, vid + 1) - from;
        MemorySegment.copy(positions, JAVA_INT, (long) from * Integer.BYTES, out, outOffset, n);
        return n;
    }

    public List<MemorySegment> segments() {
        return List.of(offsets, positions);
    }

    public long byteSize() {
        return offsets.byteSize() + positions.byteSize();
    }

    private void checkVid(int vid) {
        if (vid < 0 || vid >= vidCount) {
            throw new IndexOutOfBoundsException("vid " + vid + " is outside this index's [0, " + vidCount + ")");
        }
    }
}
