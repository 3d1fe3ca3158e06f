package io.numacol.placement;

import io.numacol.scheduler.DataUsage;
import io.numacol.storage.Catalog;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Histories of utilization per node and per table part (thesis §6.2: what the DataPlacer
 * decides on), sampled every {@value #PERIOD_MILLIS} ms from the scheduler's {@link DataUsage}
 * and the parts' {@link io.numacol.storage.PartUsage}: busy task time on the data (as busy
 * cores) and bytes read (as bytes per second). Each history keeps the last {@value #CAPACITY}
 * samples (five minutes) of the cumulative counters, so the average over any window within
 * them is one difference of two samples, weighted by time exactly. The figures are numacol's
 * own accounting of its scans, not hardware counters: see {@link DataUsage}.
 *
 * <p>{@link #sample()} is called by the database's sampling thread, or by tests directly.
 */
public final class Utilization {
    public static final long PERIOD_MILLIS = 100;
    public static final int CAPACITY = 3000;

    /** A rate over a window: busy cores (busy nanoseconds per nanosecond) and bytes per second. */
    public record Rate(double busyCores, double bytesPerSecond, Duration window) {
        static final Rate NONE = new Rate(0, 0, Duration.ZERO);
    }

    private final DataUsage usage;
    private final Catalog catalog;
    private final LongSupplier clock;
    private final History[] nodes;
    /** Per part of the catalog's tables at the last sample; parts gone are dropped. */
    private IdentityHashMap<TablePart, History> parts = new IdentityHashMap<>();

    public Utilization(DataUsage usage, Catalog catalog) {
        this(usage, catalog, System::nanoTime);
    }

    /** {@code clock}: nanoseconds, for tests that step time themselves. */
    public Utilization(DataUsage usage, Catalog catalog, LongSupplier clock) {
        this.usage = usage;
        this.catalog = catalog;
        this.clock = clock;
        this.nodes = new History[usage.nodes()];
        for (int n = 0; n < nodes.length; n++) {
            nodes[n] = new History();
        }
    }

    /** Takes one sample of every node's and every current part's counters. */
    public synchronized void sample() {
        long now = clock.getAsLong();
        for (int n = 0; n < nodes.length; n++) {
            nodes[n].add(now, usage.busyNanos(n), usage.bytes(n));
        }
        IdentityHashMap<TablePart, History> next = new IdentityHashMap<>();
        for (Table table : catalog.tables()) {
            if (table.isDropped()) {
                continue;
            }
            try (TableSnapshot snapshot = table.snapshot()) {
                for (TablePart part : snapshot.parts()) {
                    History h = parts.get(part);
                    if (h == null) {
                        h = new History();
                    }
                    h.add(now, part.usage().busyNanos(), part.usage().bytes());
                    next.put(part, h);
                }
            } catch (IllegalStateException dropped) {
                // dropped between the check and the snapshot
            }
        }
        parts = next;
    }

    /** Node {@code node}'s average over the last {@code window} (or as much of it as was sampled). */
    public synchronized Rate node(int node, Duration window) {
        return nodes[node].rate(window.toNanos());
    }

    /** The part's average over the last {@code window}; none for a part not sampled twice. */
    public synchronized Rate part(TablePart part, Duration window) {
        History h = parts.get(part);
        return h == null ? Rate.NONE : h.rate(window.toNanos());
    }

    /** The parts sampled last, in no order. */
    public synchronized List<TablePart> sampledParts() {
        return List.copyOf(parts.keySet());
    }

    /** Samples held for a node (at most {@link #CAPACITY}). */
    public synchronized int samples(int node) {
        return nodes[node].size;
    }

    /** A ring of the last {@link #CAPACITY} samples of two cumulative counters. */
    private static final class History {
        private final long[] times = new long[CAPACITY];
        private final long[] busy = new long[CAPACITY];
        private final long[] bytes = new long[CAPACITY];
        /** Index of the newest sample; the ring holds {@code size} samples ending there. */
        private int newest = -1;
        private int size;

        void add(long time, long busyNanos, long readBytes) {
            newest = (newest + 1) % CAPACITY;
            times[newest] = time;
            busy[newest] = busyNanos;
            bytes[newest] = readBytes;
            size = Math.min(CAPACITY, size + 1);
        }

        /** From the oldest sample at most {@code window} before the newest, to the newest. */
        Rate rate(long window) {
            if (size < 2) {
                return Rate.NONE;
            }
            int from = newest;
            for (int k = 1; k < size; k++) {
                int i = Math.floorMod(newest - k, CAPACITY);
                if (times[newest] - times[i] > window) {
                    break;
                }
                from = i;
            }
            if (from == newest) { // the window is shorter than one period: the last period
                from = Math.floorMod(newest - 1, CAPACITY);
            }
            long elapsed = times[newest] - times[from];
            if (elapsed <= 0) {
                return Rate.NONE;
            }
            return new Rate((double) (busy[newest] - busy[from]) / elapsed, (bytes[newest] - bytes[from]) * 1e9 / elapsed,
                    Duration.ofNanos(elapsed));
        }
    }
}
