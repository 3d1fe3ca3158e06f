package io.numacol.scheduler;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What tasks read, per NUMA node holding the data, as tasks report it (thesis §6.2: the placer
 * and the ADAPTIVE steal policy need CPU and memory throughput per socket and per task class).
 * These machines have no CPU PMU to ask, so the figures are numacol's own accounting: a scan
 * task reports the IndexVector bytes of the rows it scanned and its run time, attributed to the
 * node holding those rows (spread evenly over the nodes when they are interleaved); tasks stolen
 * by another node's worker are not counted (thesis §6.2). Counters only
 * grow; rates are differences over time ({@link io.numacol.scheduler.TaskContext#recordRead}).
 */
public final class DataUsage {
    /** The weight of the newest task in a class's average (thesis §6.4: 0.9 old, 0.1 new). */
    static final double EWMA_WEIGHT = 0.1;

    private final int nodes;
    private final LongAdder[] busyNanos;
    private final LongAdder[] bytes;
    /** Per task class, the bits of a double: the moving average of its tasks' bytes per second. */
    private final AtomicLongArray classThroughput = new AtomicLongArray(TaskClass.values().length);

    public DataUsage(int nodes) {
        this.nodes = nodes;
        this.busyNanos = new LongAdder[nodes];
        this.bytes = new LongAdder[nodes];
        for (int n = 0; n < nodes; n++) {
            busyNanos[n] = new LongAdder();
            bytes[n] = new LongAdder();
        }
    }

    /**
     * Records a task of {@code taskClass} that read {@code readBytes} of data on {@code node}
     * (-1: spread over all nodes) in {@code nanos} of run time.
     */
    @SuppressWarnings("EnumOrdinal") // one array slot per class: no map lookup after every task
    public void record(int node, long readBytes, long nanos, TaskClass taskClass) {
        if (node >= nodes) {
            throw new IllegalArgumentException("node " + node + " is not one of the topology's " + nodes);
        }
        if (node >= 0) {
            busyNanos[node].add(nanos);
            bytes[node].add(readBytes);
        } else {
            for (int n = 0; n < nodes; n++) {
                busyNanos[n].add(nanos / nodes);
                bytes[n].add(readBytes / nodes);
            }
        }
        if (nanos > 0) {
            double sample = readBytes * 1e9 / nanos;
            int c = taskClass.ordinal();
            while (true) {
                long old = classThroughput.get(c);
                double avg = old == 0 ? sample : (1 - EWMA_WEIGHT) * Double.longBitsToDouble(old) + EWMA_WEIGHT * sample;
                if (classThroughput.compareAndSet(c, old, Double.doubleToRawLongBits(avg))) {
                    break;
                }
            }
        }
    }

    public int nodes() {
        return nodes;
    }

    /** Task run time spent on {@code node}'s data so far. */
    public long busyNanos(int node) {
        return busyNanos[node].sum();
    }

    /** Bytes read from {@code node} so far. */
    public long bytes(int node) {
        return bytes[node].sum();
    }

    /** The moving average of the bytes per second of the class's tasks; 0 before the first. */
    @SuppressWarnings("EnumOrdinal")
    public double throughput(TaskClass taskClass) {
        return Double.longBitsToDouble(classThroughput.get(taskClass.ordinal()));
    }
}
