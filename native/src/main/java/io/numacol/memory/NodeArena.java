package io.numacol.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A lifetime for a batch of node-placed segments, typically everything one table part owns.
 * Closing it frees all of them at once: closing a shared arena costs a handshake with every
 * thread, so numacol closes one per batch, never one per segment. Whoever closes it must know
 * that no reader can still reach its segments (table parts are reference counted for that).
 */
public final class NodeArena implements AutoCloseable {
    private final NumaMemory memory;
    private final Arena arena = Arena.ofShared();

    NodeArena(NumaMemory memory) {
        this.memory = memory;
    }

    /**
     * Zero-filled, page-aligned memory placed as asked and accounted to {@code component}.
     *
     * @throws IllegalArgumentException for a negative or absurd size or a node the topology lacks
     * @throws NumaMemoryException when the kernel has no memory to give
     */
    public MemorySegment allocate(long bytes, MemoryPlacement placement, Component component) {
        return memory.allocate(arena, bytes, placement, component);
    }

    public NumaMemory memory() {
        return memory;
    }

    public boolean isAlive() {
        return arena.scope().isAlive();
    }

    @Override
    public void close() {
        arena.close();
    }
}
