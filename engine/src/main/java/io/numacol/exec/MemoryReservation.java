package io.numacol.exec;

import io.numacol.memory.MemoryLimit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one execution holds of the {@link MemoryLimit} for its intermediates (the pages of rows
 * between operators, hash join tables), given back in full when the execution ends, however it
 * ends. Tasks reserve concurrently.
 */
final class MemoryReservation implements AutoCloseable {
    /** Reserves nothing: for stores outside an execution (tests, constant rows). */
    static final MemoryReservation NONE = new MemoryReservation(null);

    private final MemoryLimit limit;
    private final AtomicLong held = new AtomicLong();

    MemoryReservation(MemoryLimit limit) {
        this.limit = limit;
    }

    /** @throws io.numacol.memory.MemoryLimitException when the limit has no room for {@code bytes} */
    void reserve(long bytes, String what) {
        if (limit != null) {
            limit.reserve(-1, bytes, what);
            held.addAndGet(bytes);
        }
    }

    long held() {
        return held.get();
    }

    @Override
    public void close() {
        if (limit != null) {
            limit.release(-1, held.getAndSet(0));
        }
    }
}
