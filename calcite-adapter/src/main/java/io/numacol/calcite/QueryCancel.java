package io.numacol.calcite;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a running query should stop: Statement.cancel() sets Calcite's cancel flag, and
 * setQueryTimeout puts a timeout into the DataContext, which nothing else in Calcite's enumerable
 * path enforces. Planning asks at each planner event ({@code PlanningStop}); rows handed to Calcite's
 * operators ask before each ({@link #checking}), since one row of a nested loop may cost
 * thousands of the loop's steps.
 */
public final class QueryCancel {
    /** Steps between checks, minus one (a power of two). */
    public static final int CHECK_MASK = 1023;
    /**
     * Rows between two reads of the clock, minus one (a power of two): the flags are read before
     * every row (a volatile read), the deadline only every 64, which a nested loop's row of a few
     * thousand steps makes a few milliseconds.
     */
    private static final int CLOCK_MASK = 63;

    private final AtomicBoolean flag;
    private final long deadlineNanos;
    private final long timeoutMillis;
    /** The statement this one runs for, whose stop stops this one too, or null. */
    private final QueryCancel outer;

    private QueryCancel(AtomicBoolean flag, long timeoutMillis) {
        this(flag, timeoutMillis, null);
    }

    private QueryCancel(AtomicBoolean flag, long timeoutMillis, QueryCancel outer) {
        this.outer = outer;
        this.flag = flag;
        this.timeoutMillis = timeoutMillis;
        this.deadlineNanos = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000 : Long.MAX_VALUE;
    }

    /** The stop conditions of the statement whose DataContext is {@code root} (none when root is null). */
    public static QueryCancel of(DataContext root) {
        AtomicBoolean flag = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
        Long timeout = root == null ? null : DataContext.Variable.TIMEOUT.get(root);
        // and the statement running on this thread, whose DataContext this may not be (CREATE TABLE AS runs its query in its own)
        return new QueryCancel(flag, timeout == null ? 0 : timeout, CURRENT.get());
    }

    /** The statement the JDBC driver runs on this thread (planning, DDL), or none. */
    private static final ThreadLocal<QueryCancel> CURRENT = new ThreadLocal<>();
    private static final QueryCancel NONE = new QueryCancel(null, 0);

    /**
     * The stop conditions of a statement given by its cancel flag and timeout (0: none), for
     * what runs before or outside its DataContext (planning, DDL such as COPY).
     */
    public static QueryCancel of(AtomicBoolean flag, long timeoutMillis) {
        return new QueryCancel(flag, timeoutMillis);
    }

    /** Raises statements' cancel flags at their deadlines (one daemon thread for the JVM). */
    private static final ScheduledThreadPoolExecutor ALARMS = alarms();

    private static ScheduledThreadPoolExecutor alarms() {
        ScheduledThreadPoolExecutor alarms = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "numacol-statement-timeouts");
            t.setDaemon(true);
            return t;
        });
        alarms.setRemoveOnCancelPolicy(true);
        // no thread stays once no statement with a timeout runs: an embedding application sees none left after close
        alarms.setKeepAliveTime(1, TimeUnit.SECONDS);
        alarms.allowCoreThreadTimeOut(true);
        return alarms;
    }

    /**
     * Raises this statement's cancel flag at its deadline, until the returned action disarms it:
     * what polls only the flag (Calcite's planner, a DataContext's code) stops at a timeout too.
     */
    public Runnable deadlineAlarm() {
        if (flag == null || deadlineNanos == Long.MAX_VALUE) {
            return () -> { };
        }
        ScheduledFuture<?> alarm = ALARMS.schedule(() -> flag.set(true), Math.max(0, deadlineNanos - System.nanoTime()),
                TimeUnit.NANOSECONDS);
        return () -> alarm.cancel(false);
    }

    /** The flag that cancel() raises (and {@link #deadlineAlarm} at the deadline), or null. */
    public AtomicBoolean flag() {
        return flag;
    }

    /** These conditions, and those of {@code outer}, the statement this one runs for. */
    public QueryCancel within(QueryCancel outer) {
        return outer == NONE || outer == null ? this : new QueryCancel(flag, timeoutMillis, outer);
    }

    /** The stop conditions of the statement running on this thread ({@link #runAs}), or ones that never stop. */
    public static QueryCancel current() {
        QueryCancel c = CURRENT.get();
        return c == null ? NONE : c;
    }

    /** Runs {@code body} with {@code cancel} as this thread's {@link #current()}. */
    public static <T, E extends Exception> T runAs(QueryCancel cancel, Body<T, E> body) throws E {
        QueryCancel before = CURRENT.get();
        CURRENT.set(cancel);
        try {
            return body.run();
        } finally {
            if (before == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(before);
            }
        }
    }

    /** What {@link #runAs} runs. */
    @FunctionalInterface
    public interface Body<T, E extends Exception> {
        T run() throws E;
    }

    /** Throws CancellationException if the statement was canceled or ran past its timeout. */
    public void check() {
        if (outer != null) {
            outer.check();
        }
        if (timedOut()) { // first: the deadline raises the flag too
            throw timeout();
        }
        if (flag != null && flag.get()) {
            throw new CancellationException("query canceled (Statement.cancel())");
        }
    }

    /** The failure of a statement that ran past its timeout. */
    public CancellationException timeout() {
        return new CancellationException("query canceled: it ran longer than its timeout of " + timeoutMillis + " ms");
    }

    /** Whether the query should stop, for engine code that polls and cancels on its own. */
    public boolean shouldStop() {
        return (outer != null && outer.shouldStop()) || (flag != null && flag.get()) || timedOut();
    }

    /** Whether a flag of this statement or of the one it runs for was raised (cancel(), or a deadline's alarm). */
    private boolean raised() {
        return (flag != null && flag.get()) || (outer != null && outer.raised());
    }

    /**
     * {@code rows}, asking this statement's stop before each: Calcite's own loops (a nested-loop
     * join, which enumerates its inner input again for every outer row) never ask.
     */
    public <T> Enumerator<T> checking(Enumerator<T> rows) {
        return new Enumerator<>() {
            private int count;

            @Override
            public T current() {
                return rows.current();
            }

            @Override
            public boolean moveNext() {
                if ((count++ & CLOCK_MASK) == 0 || raised()) {
                    check();
                }
                return rows.moveNext();
            }

            @Override
            public void reset() {
                rows.reset();
            }

            @Override
            public void close() {
                rows.close();
            }
        };
    }

    /**
     * {@code rows} with the stop of the statement whose DataContext is {@code root} asked before
     * each row; called by the code Calcite generates for a plan's own leaves (VALUES, system
     * tables), whose rows a cross join may loop over for minutes.
     */
    public static <T> Enumerable<T> checking(Enumerable<T> rows, DataContext root) {
        QueryCancel stop = of(root);
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<T> enumerator() {
                return stop.checking(rows.enumerator());
            }
        };
    }

    /** Whether the statement ran past its timeout (setQueryTimeout sets no flag, so only this tells). */
    public boolean timedOut() {
        return deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0;
    }
}
