package io.numacol.scheduler;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The busy clock of the thread running a task ({@link TaskContext#busyClock()}): its CPU time
 * where the JVM measures it, else the wall clock. Shared by both schedulers so that a task's busy
 * time means the same on either.
 */
final class BusyClock {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Whether {@link #now} reads the thread's CPU time; else the wall clock. */
    private static final boolean CPU_TIME = cpuTimeAvailable();

    private BusyClock() {
    }

    private static boolean cpuTimeAvailable() {
        try {
            if (THREADS.isCurrentThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
                THREADS.setThreadCpuTimeEnabled(true);
            }
            return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.getCurrentThreadCpuTime() >= 0;
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    static long now() {
        return CPU_TIME ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    /**
     * The busy time since {@code startBusy} (a {@link #now} reading) of a task that spent {@code
     * stalled} nanoseconds of it in a modelled memory stall: a stall counts as busy (a stalled core
     * is not free), and the wall clock counts it already.
     */
    static long since(long startBusy, long stalled) {
        return Math.max(0, now() - startBusy - (CPU_TIME ? 0 : stalled)) + stalled;
    }
}
