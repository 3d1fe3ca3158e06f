package io.numacol.scheduler;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A model of per-node memory bandwidth for fake topologies, whose nodes share one machine's
 * memory and so show no NUMA effect of their own (nor does the emulated guest: it has no NUMA
 * timing). Each node serves reads at {@code bytesPerSecond}, one after another; a read by a
 * worker of another node costs {@value #REMOTE_FACTOR} times its bytes (a remote access). A scan
 * task's read reserves its node's next free time, and the task then waits until its reservation
 * ends: concurrent reads of one node queue, a skewed workload saturates its node, and placing the
 * data differently changes the throughput. Only the IndexVector bytes scan tasks report are
 * modelled (see {@link DataUsage}); figures measured under the model are the model's, not the
 * machine's, and say so where they appear.
 */
public final class BandwidthModel {
    public static final int REMOTE_FACTOR = 2;

    private final long bytesPerSecond;
    /** Per node, the time (System.nanoTime) from which it is free to serve the next read. */
    private final AtomicLongArray nextFree;

    public BandwidthModel(int nodes, long bytesPerSecond) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("a node's bandwidth must be positive, got " + bytesPerSecond + " bytes/s");
        }
        this.bytesPerSecond = bytesPerSecond;
        this.nextFree = new AtomicLongArray(nodes);
    }

    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    /**
     * Returns once node {@code node} (-1: every node an equal share, as for interleaved pages)
     * has served {@code bytes} to a worker of {@code workerNode}.
     */
    public void read(int node, long bytes, int workerNode) {
        long now = System.nanoTime();
        long end = now;
        if (node >= 0) {
            end = reserve(node, cost(bytes, node != workerNode), now);
        } else {
            int nodes = nextFree.length();
            for (int n = 0; n < nodes; n++) {
                end = Math.max(end, reserve(n, cost(bytes / nodes, n != workerNode), now));
            }
        }
        for (long wait = end - System.nanoTime(); wait > 0; wait = end - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
    }

    /** The nanoseconds a node spends serving {@code bytes}. */
    long cost(long bytes, boolean remote) {
        return (long) ((double) bytes * (remote ? REMOTE_FACTOR : 1) * 1e9 / bytesPerSecond);
    }

    /** Books {@code cost} of the node's time from {@code now} or when it is free; returns when it ends. */
    private long reserve(int node, long cost, long now) {
        while (true) {
            long free = nextFree.get(node);
            long end = Math.max(free, now) + cost;
            if (nextFree.compareAndSet(node, free, end)) {
                return end;
            }
        }
    }

    /**
     * Parses a bandwidth: a whole number of bytes per second with an optional {@code k}, {@code
     * m} or {@code g} (powers of 1000), as in {@code 800m}.
     */
    public static long parse(String text) {
        return parse(text, "nodeBandwidth");
    }

    /** {@link #parse(String)} for the property {@code name}, which an error names. */
    public static long parse(String text, String name) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit = t.isEmpty() ? 1 : switch (t.charAt(t.length() - 1)) {
            case 'k' -> 1_000L;
            case 'm' -> 1_000_000L;
            case 'g' -> 1_000_000_000L;
            default -> 1;
        };
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        try {
            long value = Math.multiplyExact(Long.parseLong(digits.trim()), unit);
            if (value <= 0) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(name + " must be a positive number of bytes per second, optionally"
                    + " with k, m or g (800m is 800 MB/s), got '" + text + "'");
        }
    }
}
