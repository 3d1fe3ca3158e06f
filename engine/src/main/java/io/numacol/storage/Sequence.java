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
    private final long start;
    private final long increment;
    private final AtomicLong next;

    public Sequence(long start, long increment) {
        if (increment == 0) {
            throw new IllegalArgumentException("INCREMENT must not be zero");
        }
        this.start = start;
        this.increment = increment;
        this.next = new AtomicLong(start);
        BY_ID.put(id, new WeakReference<>(this));
    }

    /**
     * A sequence as a checkpoint or log kept it: created with {@code start} and {@code increment},
     * with {@code next} the number its next {@link #next} gives (the numbers before it were taken).
     */
    public static Sequence restored(long start, long increment, long next) {
        Sequence s = new Sequence(start, increment);
        s.next.set(next);
        return s;
    }

    /** The number the sequence was created to start at. */
    public long start() {
        return start;
    }

    /** The step between numbers: positive counts up, negative down, never zero. */
    public long increment() {
        return increment;
    }

    /**
     * The number {@link #next} would give now, without taking it: what a checkpoint keeps so that
     * a number given before it is never given again after it. Another thread may take it first.
     */
    public long peek() {
        return next.get();
    }

    /**
     * Makes the next number lie beyond {@code value} in the sequence's direction: at least
     * {@code value + increment} counting up, at most that counting down. A replay calls it with
     * each identity value a logged row carries, so that numbers taken before a crash are not given
     * again. The sequence never moves back: a next number already beyond stays. A {@code value}
     * within one increment of the end of the long range moves the next number to that end, as
     * far as it can go (there is no number beyond it to give).
     */
    public void advancePast(long value) {
        long past;
        try {
            past = Math.addExact(value, increment);
        } catch (ArithmeticException e) {
            past = increment > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        long target = past;
        next.getAndUpdate(n -> increment > 0 ? Math.max(n, target) : Math.min(n, target));
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
