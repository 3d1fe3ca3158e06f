package io.numacol.storage;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sequence of the catalog (CREATE SEQUENCE), as PostgreSQL's: {@link #next} gives each number
 * once, whether the statement that took it is kept or rolled back, within the bounds of its
 * {@link SequenceDef}. It is not the identity columns' {@link Sequence}: that one counts lock-free
 * over the whole long range, while this one stops or wraps at its bounds and must say so, which
 * takes a lock per number.
 *
 * <p>Its counter is not logged at each number: like PostgreSQL's SEQ_LOG_VALS, every {@value
 * #RESERVE}th number logs the catalog with the counter {@value #RESERVE} numbers ahead ({@link
 * #reserved}), before the number is given, so a crash skips at most that many numbers and never
 * gives one twice.
 */
public final class NamedSequence {
    /** How many numbers one logged image reserves. */
    static final int RESERVE = 32;
    private static final AtomicLong IDS = new AtomicLong();
    /** Every sequence by its {@link #id}, for the generated code of a statement to find it by a number. */
    private static final Map<Long, WeakReference<NamedSequence>> BY_ID = new ConcurrentHashMap<>();

    /** A counter's place: the number it gives next, or none when it is past its end without CYCLE. */
    public record Position(long next, boolean exhausted) {
    }

    private final long id = IDS.incrementAndGet();
    private final SequenceDef def;
    /** Whose log a reservation goes to. */
    private final Catalog catalog;
    /** Guarded by this. */
    private Position position;
    /** Numbers left before the next reservation must be logged; guarded by this. */
    private int unreserved;
    /** Where a catalog image puts the counter: at or ahead of {@link #position}. */
    private volatile Position reserved;
    private volatile boolean dropped;

    NamedSequence(Catalog catalog, SequenceDef def, Position position) {
        this.catalog = catalog;
        this.def = def;
        this.position = position;
        this.reserved = position;
        BY_ID.values().removeIf(r -> r.get() == null); // those of closed databases: one sweep per sequence created
        BY_ID.put(id, new WeakReference<>(this));
    }

    public SequenceDef def() {
        return def;
    }

    public long id() {
        return id;
    }

    /** Where a catalog image written now puts the counter: no number given before it is given again after it. */
    public Position reserved() {
        return reserved;
    }

    /** The counter's place now, for sys listings (another thread may move it at once). */
    public synchronized Position position() {
        return position;
    }

    /**
     * nextval: the next number, logged ahead as the class comment says.
     *
     * @throws SequenceLimitException past the end without CYCLE
     */
    public long next() {
        return next(catalog::loggedNow);
    }

    /** setval: the number after {@code value} comes next, logged at once. */
    public void set(long value) {
        set(value, catalog::loggedNow);
    }

    /**
     * The next number. Every {@value #RESERVE}th call logs the catalog ({@code log}, under the
     * catalog's monitor) with the counter reserved ahead before it returns.
     *
     * @throws SequenceLimitException past the end without CYCLE
     */
    synchronized long next(Runnable log) {
        checkLive();
        if (position.exhausted()) {
            throw new SequenceLimitException("nextval: reached " + (def.increment() > 0 ? "maximum" : "minimum")
                    + " value of sequence \"" + def.name() + "\" (" + (def.increment() > 0 ? def.maxValue() : def.minValue()) + ")");
        }
        long n = position.next();
        Position after = step(position);
        if (unreserved == 0) {
            Position ahead = after;
            for (int i = 1; i < RESERVE && !ahead.exhausted(); i++) {
                ahead = step(ahead);
            }
            reserved = ahead;
            log.run();
            unreserved = RESERVE;
        }
        unreserved--;
        position = after;
        return n;
    }

    /**
     * PostgreSQL's setval(name, value): the next number is the one after {@code value}, which
     * must lie within the bounds; logged at once ({@code log}).
     */
    synchronized void set(long value, Runnable log) {
        checkLive();
        if (value < def.minValue() || value > def.maxValue()) {
            throw new IllegalArgumentException("setval: value " + value + " is out of bounds for sequence \"" + def.name()
                    + "\" (" + def.minValue() + ".." + def.maxValue() + ")");
        }
        position = step(new Position(value, false));
        reserved = position;
        unreserved = 0; // the next number reserves again
        log.run();
    }

    /** Recovery: the counter where a later logged image put it (the log's order is the counter's: setval may move it back). */
    synchronized void restore(Position at) {
        position = at;
        reserved = at;
        unreserved = 0;
    }

    void drop() {
        dropped = true;
        BY_ID.remove(id);
    }

    private void checkLive() {
        if (dropped) {
            throw new IllegalArgumentException("sequence \"" + def.name() + "\" does not exist (it was dropped)");
        }
    }

    /** The place after the number at {@code p}: {@code increment} on, wrapped or exhausted at the bounds. */
    private Position step(Position p) {
        long after;
        boolean beyond;
        try {
            after = Math.addExact(p.next(), def.increment());
            beyond = after > def.maxValue() || after < def.minValue();
        } catch (ArithmeticException e) {
            after = p.next();
            beyond = true;
        }
        if (!beyond) {
            return new Position(after, false);
        }
        if (def.cycle()) {
            return new Position(def.increment() > 0 ? def.minValue() : def.maxValue(), false);
        }
        return new Position(p.next(), true);
    }

    /** The sequence of {@link #id} {@code id}. */
    public static NamedSequence byId(long id) {
        WeakReference<NamedSequence> ref = BY_ID.get(id);
        NamedSequence s = ref == null ? null : ref.get();
        if (s == null) {
            throw new IllegalArgumentException("sequence " + id + " no longer exists: it was dropped");
        }
        return s;
    }
}
