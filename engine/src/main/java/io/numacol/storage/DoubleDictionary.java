package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.storage.types.StorageKind;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

/**
 * A Dictionary of doubles, 8 bytes each in one segment, in {@link Double#compare} order after
 * two normalizations, applied to built values and probes alike:
 * <ul>
 *   <li>-0.0 is 0.0. SQL has one zero, and {@code x = 0} or {@code x >= 0} must match a
 *       negative zero, which Double.compare alone would order below 0.0 as a separate value.
 *       A -0.0 put in is read back as 0.0.</li>
 *   <li>Every NaN is the one value {@link Double#NaN}, sorting after +Infinity (as PostgreSQL
 *       orders NaN: equal to itself, greater than every number). So {@code x > 5} includes NaN
 *       rows, and {@code find(NaN)} finds them.</li>
 * </ul>
 * Infinities are ordinary values at both ends.
 */
public final class DoubleDictionary implements Dictionary {
    private final MemorySegment values;
    private final int size;

    private DoubleDictionary(MemorySegment values, int size) {
        this.values = values;
        this.size = size;
    }

    /** The value as this dictionary stores and compares it: 0.0 for -0.0, {@link Double#NaN} for any NaN. */
    public static double normalize(double value) {
        if (value == 0.0) {
            return 0.0; // also -0.0, which == 0.0
        }
        return Double.isNaN(value) ? Double.NaN : value;
    }

    /**
     * A dictionary of {@code sortedDistinct[0..count)}, which must ascend strictly in this class's
     * order (use {@link DictionaryValues#sortedDistinct(double[], int)} otherwise); -0.0 next to
     * 0.0 counts as a duplicate. Bad input is rejected before anything is allocated.
     */
    public static DoubleDictionary build(double[] sortedDistinct, int count, NodeArena arena, MemoryPlacement placement) {
        Objects.requireNonNull(sortedDistinct, "sortedDistinct");
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(placement, "placement");
        Search.checkCount(count, sortedDistinct.length);
        Search.checkStrictlyAscending(count,
                i -> Double.compare(normalize(sortedDistinct[i - 1]), normalize(sortedDistinct[i])),
                i -> Double.toString(sortedDistinct[i]));
        MemorySegment values = arena.allocate(count * JAVA_DOUBLE.byteSize(), placement, Component.DICTIONARY);
        for (int i = 0; i < count; i++) {
            values.setAtIndex(JAVA_DOUBLE, i, normalize(sortedDistinct[i]));
        }
        return new DoubleDictionary(values.asReadOnly(), count);
    }

    /**
     * A dictionary over memory that already holds normalized doubles in this class's order, 8
     * bytes each (one {@link #values()} wrote, read back from a checkpoint): nothing is copied or
     * checked per value, so the caller vouches for order and normalization (the checkpoint by its
     * checksums). The segment belongs to the caller's arena as a built one does.
     *
     * @throws IllegalArgumentException when the size is not a whole number of doubles
     */
    public static DoubleDictionary wrap(MemorySegment values) {
        Objects.requireNonNull(values, "values");
        return new DoubleDictionary(values.asReadOnly(), (int) DictionaryValues.wholeValues(values, JAVA_DOUBLE.byteSize()));
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public StorageKind storageKind() {
        return StorageKind.DOUBLE;
    }

    public double getDouble(int vid) {
        Search.checkVid(vid, size);
        return values.getAtIndex(JAVA_DOUBLE, vid);
    }

    public int find(double value) {
        return Search.find(size, comparedTo(value));
    }

    public int lowerBound(double value) {
        return Search.lowerBound(size, comparedTo(value));
    }

    public int upperBound(double value) {
        return Search.upperBound(size, comparedTo(value));
    }

    /** The vids of values v with {@code low <= v <= high} in this class's order; empty when {@code low > high}. */
    public VidRange between(double low, double high) {
        return VidRange.of(lowerBound(low), upperBound(high));
    }

    private IntUnaryOperator comparedTo(double value) {
        double probe = normalize(value);
        return vid -> Double.compare(values.getAtIndex(JAVA_DOUBLE, vid), probe);
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
        return "DoubleDictionary[" + size + " values]";
    }
}
