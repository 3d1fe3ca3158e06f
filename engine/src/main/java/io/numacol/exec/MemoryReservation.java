package io.numacol.exec;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryLimit;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one execution holds of the {@link MemoryLimit} for its intermediates (the pages of rows
 * between operators, hash join tables), given back in full when the execution ends, however it
 * ends. Tasks reserve concurrently.
 *
 * <p>Large arrays of longs (a hash join's buckets and rows) live off the heap in numacol's
 * memory, interleaved over every node as the morsel paper places its hash tables (every node's
 * workers probe them), in one arena per execution that closes when it ends: by then every task
 * of the execution has finished, so no reader can reach them.
 */
final class MemoryReservation implements AutoCloseable {
    /** Reserves nothing and allocates from the C heap: for stores outside an execution (tests, constant rows). */
    static final MemoryReservation NONE = new MemoryReservation(null, null);
    /**
     * Arrays from this size on are numacol memory: below it an mmap, its placement and its unmap
     * cost more than the table's build, and a small table fits the caches wherever it is.
     */
    static final long OFF_HEAP_BYTES = 1 << 20;

    private final MemoryLimit limit;
    private final NumaMemory memory;
    private final AtomicLong held = new AtomicLong();
    private NodeArena arena;

    /** Reserves in {@code limit} (null: nowhere) and places large arrays in {@code memory} (null: the C heap). */
    private MemoryReservation(MemoryLimit limit, NumaMemory memory) {
        this.limit = limit;
        this.memory = memory;
    }

    static MemoryReservation of(NumaMemory memory) {
        return new MemoryReservation(memory.limit(), memory);
    }

    /** @throws io.numacol.memory.MemoryLimitException when the limit has no room for {@code bytes} */
    void reserve(long bytes, String what) {
        if (limit != null) {
            limit.reserve(-1, bytes, what);
            held.addAndGet(bytes);
        }
    }

    /**
     * {@code count} zeroed longs for {@code what}, held until the execution ends: numacol memory
     * interleaved over the nodes from {@link #OFF_HEAP_BYTES} on (reserved on the nodes that hold
     * its pages), else the C heap's, reserved like the pages of rows.
     *
     * @throws io.numacol.memory.MemoryLimitException when the limit has no room for them
     */
    MemorySegment longs(long count, String what) {
        long bytes = Math.multiplyExact(count, Long.BYTES);
        if (memory == null || bytes < OFF_HEAP_BYTES) {
            reserve(bytes, what);
            // native too, freed once unreachable: a probe loop that meets heap and native segments
            // alike sees two segment classes at each access, and its compiled code tests the
            // class and branches where with one class it needs neither
            return Arena.ofAuto().allocate(bytes, Long.BYTES);
        }
        return arena().allocate(bytes, MemoryPlacement.interleaved(memory.topology().nodeIds()), Component.HASH_TABLE);
    }

    private synchronized NodeArena arena() {
        if (arena == null) {
            arena = memory.newArena();
        }
        return arena;
    }

    long held() {
        return held.get();
    }

    @Override
    public void close() {
        if (limit != null) {
            limit.release(-1, held.getAndSet(0));
        }
        NodeArena toClose;
        synchronized (this) {
            toClose = arena;
            arena = null;
        }
        if (toClose != null) {
            toClose.close();
        }
    }
}
