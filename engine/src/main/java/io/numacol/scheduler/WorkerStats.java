package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker's counters: written by the worker alone (plain reads, opaque writes), read racily by
 * the watchdog and the meters (opaque). They sit on cache lines of their own, 128 bytes of
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
    private byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015,
            q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031,
            q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047,
            q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063,
            q064, q065, q066, q067, q068, q069, q070, q071, q072, q073, q074, q075, q076, q077, q078, q079,
            q080, q081, q082, q083, q084, q085, q086, q087, q088, q089, q090, q091, q092, q093, q094, q095,
            q096, q097, q098, q099, q100, q101, q102, q103, q104, q105, q106, q107, q108, q109, q110, q111,
            q112, q113, q114, q115, q116, q117, q118, q119, q120, q121, q122, q123, q124, q125, q126, q127;

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
