package io.numacol.storage;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A counter of numbers, as PostgreSQL's sequences: each {@link #next} takes a number no other call
 * takes, atomically, and a number taken is never given again, whether the statement that took it
 * is kept or rolled back. An identity column's values come from one.
 */
public final class Sequence {
    private static final AtomicLong IDS = new AtomicLong();
    /** Every sequence by its {@link #id}, for the generated code of a statement to find it by a number. */
    private static final Map<Long, WeakReference<Sequence>> BY_ID = new ConcurrentHashMap<>();

    private final long id = IDS.incrementAndGet();
    private final long increment;
    private final AtomicLong next;

    public Sequence(long start, long increment) {
        if (increment == 0) {
            throw new IllegalArgumentException("INCREMENT must not be zero");
        }
        this.increment = increment;
        this.next = new AtomicLong(start);
        BY_ID.put(id, new WeakReference<>(this));
    }

    /** The next number. */
    public long next() {
        long n = next.getAndAdd(increment);
        if (increment > 0 ? n > Long.MAX_VALUE - increment + 1 && n < 0 : n < Long.MIN_VALUE - increment - 1 && n > 0) {
            throw new IllegalArgumentException("sequence reached its maximum value");
        }
        return n;
    }

    public long id() {
        return id;
    }

    /** The sequence of {@link #id} {@code id}. */
    public static Sequence byId(long id) {
        WeakReference<Sequence> ref = BY_ID.get(id);
        Sequence s = ref == null ? null : ref.get();
        if (s == null) {
            throw new IllegalStateException("sequence " + id + " no longer exists: run the statement again");
        }
        return s;
    }
}
