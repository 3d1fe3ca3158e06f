package io.numacol.storage;

import java.util.concurrent.atomic.LongAdder;

/**
 * How much the scans of one {@link TablePart} have cost: task run time and IndexVector bytes
 * read, as the tasks report them (numacol's own accounting, no hardware counters). Counters only
 * grow; the placer's histories take their differences over time.
 */
public final class PartUsage {
    private final LongAdder busyNanos = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    public void record(long readBytes, long nanos) {
        busyNanos.add(nanos);
        bytes.add(readBytes);
    }

    public long busyNanos() {
        return busyNanos.sum();
    }

    public long bytes() {
        return bytes.sum();
    }
}
