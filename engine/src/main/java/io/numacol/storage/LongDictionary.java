package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.storage.types.StorageKind;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A Dictionary of signed longs in ascending order, 8 bytes each in one segment. Holds BOOLEAN,
 * INTEGER, BIGINT, DECIMAL (unscaled) and DATE (epoch day) columns; see {@link ColumnType}.
 */
public final class LongDictionary implements Dictionary {
    private final MemorySegment values;
    private final int size;

    /** Every long from the first value to the last is present: a value is the first plus its vid. */
    private final boolean dense;

    private LongDictionary(MemorySegment values, int size) {
        this.values = values;
        this.size = size;
        // ascending and distinct, so the difference is size - 1 exactly when no long is missing
        this.dense = size > 0 && values.getAtIndex(JAVA_LONG, size - 1) - values.getAtIndex(JAVA_LONG, 0) == size - 1;
    }

    /**
     * A dictionary of {@code sortedDistinct[0..count)}, which must ascend strictly (use
     * {@link DictionaryValues#sortedDistinct(long[], int)} otherwise). Bad input is rejected
     * before anything is allocated.
     */
    public static LongDictionary build(long[] sortedDistinct, int count, NodeArena arena, MemoryPlacement placement) {
        Objects.requireNonNull(sortedDistinct, "sortedDistinct");
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(placement, "placement");
        Search.checkCount(count, sortedDistinct.length);
        Search.checkStrictlyAscending(count, i -> Long.compare(sortedDistinct[i - 1], sortedDistinct[i]),
                i -> Long.toString(sortedDistinct[i]));
        MemorySegment values = arena.allocate(count * JAVA_LONG.byteSize(), placement, Component.DICTIONARY);
        MemorySegment.copy(sortedDistinct, 0, values, JAVA_LONG, 0, count);
        return new LongDictionary(values.asReadOnly(), count);
    }

    /**
     * A dictionary over memory that already holds strictly ascending longs, 8 bytes each (one
     * {@link #values()} wrote, read back from a checkpoint): nothing is copied or checked per
     * value, so the caller vouches for the order (the checkpoint by its checksums). The segment
     * belongs to the caller's arena as a built one does.
     *
     * @throws IllegalArgumentException when the size is not a whole number of longs
     */
    public static LongDictionary wrap(MemorySegment values) {
        Objects.requireNonNull(values, "values");
        return new LongDictionary(values.asReadOnly(), (int) DictionaryValues.wholeValues(values, JAVA_LONG.byteSize()));
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public StorageKind storageKind() {
        return StorageKind.LONG;
    }

    public long getLong(int vid) {
        Search.checkVid(vid, size);
        return values.getAtIndex(JAVA_LONG, vid);
    }

    public int find(long value) {
        return Search.find(size, comparedTo(value));
    }

    public int lowerBound(long value) {
        return Search.lowerBound(size, comparedTo(value));
    }

    public int upperBound(long value) {
        return Search.upperBound(size, comparedTo(value));
    }

    /** The vids of values v with {@code low <= v <= high}; empty when {@code low > high}. */
    public VidRange between(long low, long high) {
        return VidRange.of(lowerBound(low), upperBound(high));
    }

    private IntUnaryOperator comparedTo(long probe) {
        return vid -> Long.compare(values.getAtIndex(JAVA_LONG, vid), probe);
    }

    /**
     * Whether the values are consecutive longs (keys, dates of a period, TPC-H's quantities), so
     * that {@code getLong(vid) == getLong(0) + vid}: operators add instead of gathering.
     */
    public boolean isDense() {
        return dense;
    }

    /** The values in vid order, 8 bytes each (read-only): for kernels that gather many at once. */
    public MemorySegment values() {
        return values;
    }

    @Override
    public List<MemorySegment> segments() {
        return List.of(values);
    }

    @Override
    public String toString() {
        return "LongDictionary[" + size + " values]";
    }
}
