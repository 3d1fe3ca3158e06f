package io.numacol.storage;

import io.numacol.storage.types.StorageKind;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The sorted distinct values of a column part, off-heap. A value's position is its vid, so vids
 * are in value order and a range of values is a range of vids ({@link VidRange}).
 *
 * <p>Each implementation has typed lookups for its {@link StorageKind}: {@code find(x)} (the vid
 * of x, or {@code -(insertion point) - 1} as {@link java.util.Arrays#binarySearch} answers),
 * {@code lowerBound(x)} (the first vid whose value is >= x, {@link #size()} if none),
 * {@code upperBound(x)} (the first vid whose value is > x) and {@code between(a, b)} (the vids of
 * {@code a <= value <= b}), plus {@code get...(vid)} for random access.
 *
 * <p>A Dictionary lives in the {@link io.numacol.memory.NodeArena} it was built in, with
 * {@link io.numacol.memory.Component#DICTIONARY} memory; it does not own the arena. Once the
 * arena closes, every access throws IllegalStateException. It is immutable and safe to read from
 * any thread.
 */
public sealed interface Dictionary permits LongDictionary, DoubleDictionary, StringDictionary {

    /** The number of distinct values; vids are {@code 0..size()-1}. */
    int size();

    default boolean isEmpty() {
        return size() == 0;
    }

    StorageKind storageKind();

    /** The value of {@code vid} in its stored form: a Long, Double or String as {@link #storageKind()} says. */
    default Object stored(int vid) {
        return switch (this) {
            case LongDictionary l -> l.getLong(vid);
            case DoubleDictionary d -> d.getDouble(vid);
            case StringDictionary s -> s.getString(vid);
        };
    }

    /** Bytes of its segments (allocations are whole pages; accounting counts those). */
    default long byteSize() {
        long bytes = 0;
        for (MemorySegment segment : segments()) {
            bytes += segment.byteSize();
        }
        return bytes;
    }

    /** Its off-heap segments, read-only, for placement maps and page moves. */
    List<MemorySegment> segments();

    /** All vids. */
    default VidRange all() {
        return VidRange.of(0, size());
    }
}
