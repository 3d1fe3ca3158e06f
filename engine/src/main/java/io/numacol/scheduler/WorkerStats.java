package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker's counters: written by the worker alone (plain reads, opaque writes), read racily by
 * the watchdog and the meters (opaque). They sit on cache lines of their own, 120 bytes of
 * padding on either side as in {@link PaddedCounter}: the worker writes them on every task, and
 * its state and current task, which the watchdog and its group read, live in the Worker.
 */
final class WorkerStats extends WorkerStatsValues {
    private static final VarHandle TASKS_RUN;
    private static final VarHandle STOLEN_LOCAL;
    private static final VarHandle STOLEN_REMOTE;
    private static final VarHandle BUSY_NANOS;
    private static final VarHandle BUSY_SINCE;
    private static final VarHandle BINDS;
    private static final VarHandle UNBINDS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TASKS_RUN = l.findVarHandle(WorkerStatsValues.class, "tasksRun", long.class);
            STOLEN_LOCAL = l.findVarHandle(WorkerStatsValues.class, "stolenLocal", long.class);
            STOLEN_REMOTE = l.findVarHandle(WorkerStatsValues.class, "stolenRemote", long.class);
            BUSY_NANOS = l.findVarHandle(WorkerStatsValues.class, "busyNanos", long.class);
            BUSY_SINCE = l.findVarHandle(WorkerStatsValues.class, "busySince", long.class);
            BINDS = l.findVarHandle(WorkerStatsValues.class, "binds", long.class);
            UNBINDS = l.findVarHandle(WorkerStatsValues.class, "unbinds", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15;

    void taskRun() {
        TASKS_RUN.setOpaque(this, tasksRun + 1);
    }

    void stolen(boolean remoteNode) {
        if (remoteNode) {
            STOLEN_REMOTE.setOpaque(this, stolenRemote + 1);
        } else {
            STOLEN_LOCAL.setOpaque(this, stolenLocal + 1);
        }
    }

    void bound() {
        BINDS.setOpaque(this, binds + 1);
    }

    void unbound() {
        UNBINDS.setOpaque(this, unbinds + 1);
    }

    void startBusy() {
        BUSY_SINCE.setOpaque(this, System.nanoTime());
    }

    void stopBusy() {
        long since = busySince;
        if (since != 0) {
            BUSY_NANOS.setOpaque(this, busyNanos + (System.nanoTime() - since));
            BUSY_SINCE.setOpaque(this, 0L);
        }
    }

    long busyNanos() {
        long since = (long) BUSY_SINCE.getOpaque(this);
        long total = (long) BUSY_NANOS.getOpaque(this);
        return since == 0 ? total : total + Math.max(0, System.nanoTime() - since);
    }

    long tasksRun() {
        return (long) TASKS_RUN.getOpaque(this);
    }

    long stolenLocal() {
        return (long) STOLEN_LOCAL.getOpaque(this);
    }

    long stolenRemote() {
        return (long) STOLEN_REMOTE.getOpaque(this);
    }

    long binds() {
        return (long) BINDS.getOpaque(this);
    }

    long unbinds() {
        return (long) UNBINDS.getOpaque(this);
    }
}

abstract class WorkerStatsValues extends LinePadding {
    long tasksRun;
    long stolenLocal;
    long stolenRemote;
    long busyNanos;
    long busySince;
    long binds;
    long unbinds;
}
