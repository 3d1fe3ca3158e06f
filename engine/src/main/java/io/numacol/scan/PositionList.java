package io.numacol.scan;

import java.util.Arrays;

/** A growable list of row positions (ints), as a scan appends them: ascending per scan. */
public final class PositionList {
    private int[] positions;
    private int size;

    public PositionList() {
        this(64);
    }

    public PositionList(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initial capacity must not be negative, got " + initialCapacity);
        }
        this.positions = new int[initialCapacity];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " is outside the PositionList's [0, " + size + ")");
        }
        return positions[index];
    }

    public void add(int position) {
        reserve(1)[size++] = position;
    }

    public void clear() {
        size = 0;
    }

    public int[] toArray() {
        return Arrays.copyOf(positions, size);
    }

    /** The backing array with room for {@code extra} more positions past {@link #size()}; for bulk appends. */
    int[] reserve(int extra) {
        long needed = (long) size + extra;
        if (needed > positions.length) {
            if (needed > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a PositionList holds at most " + (Integer.MAX_VALUE - 8) + " positions");
            }
            positions = Arrays.copyOf(positions, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * positions.length)));
        }
        return positions;
    }

    /** After a bulk append into {@link #reserve}'s array. */
    void size(int newSize) {
        size = newSize;
    }

    @Override
    public String toString() {
        return size <= 16 ? "PositionList" + Arrays.toString(toArray()) : "PositionList[" + size + " positions]";
    }
}
