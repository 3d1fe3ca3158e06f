package io.numacol.scheduler;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The scheduler's meters, tagged {@code node} and {@code group} (the group's index within its
 * node). They read counters the workers keep in their own fields, so the hot path pays no
 * Micrometer call. Busy time is the time workers spent working (running or looking for tasks),
 * not parked or waiting; it is measured at state changes, not per task. Removed again at close.
 */
final class SchedulerMetrics implements AutoCloseable {
    static final String PREFIX = "numacol.scheduler.";

    private final MeterRegistry registry;
    private final boolean ownRegistry;
    private final List<Meter> meters = new ArrayList<>();

    SchedulerMetrics(WorkerPoolScheduler scheduler, MeterRegistry configured) {
        this.ownRegistry = configured == null;
        this.registry = configured != null ? configured : new SimpleMeterRegistry();
        for (WorkerGroup g : scheduler.groups()) {
            Tags tags = Tags.of("node", String.valueOf(g.node), "group", String.valueOf(g.indexInNode));
            gauge("queue.length", "tasks queued in the group's stealable queue", tags.and("queue", "stealable"), g, x -> x.queueLength(false));
            gauge("queue.length", "tasks queued in the group's hard queue", tags.and("queue", "hard"), g, x -> x.queueLength(true));
            gauge("workers", "worker threads of the group", tags, g, x -> x.workers().length);
            gauge("workers.active", "the group's active concurrency level", tags, g, WorkerGroup::active);
            gauge("workers.blocked", "workers the watchdog found blocked inside a task", tags, g, WorkerGroup::blocked);
            gauge("workers.parked", "parked workers of the group", tags, g, WorkerGroup::parked);
            counter("tasks.run", "tasks run by the group's workers", tags, g, w -> w.tasksRun());
            counter("tasks.stolen", "tasks the group's workers took from another group of their node", tags.and("scope", "local-node"), g, w -> w.stolenLocal());
            counter("tasks.stolen", "tasks the group's workers took from a group of another node", tags.and("scope", "remote-node"), g, w -> w.stolenRemote());
            meters.add(FunctionCounter.builder(PREFIX + "busy.time", g, x -> x.sum(Worker::busyNanos) / (double) TimeUnit.SECONDS.toNanos(1))
                    .description("time the group's workers spent working").baseUnit("seconds").tags(tags).register(registry));
            counter("binds", "times a worker bound itself to its node's CPUs", tags.and("action", "bind"), g, w -> w.binds());
            counter("binds", "times a worker restored the original CPU set", tags.and("action", "unbind"), g, w -> w.unbinds());
        }
        meters.add(Gauge.builder(PREFIX + "concurrency.hint", scheduler, WorkerPoolScheduler::concurrencyHintValue)
                .description("the concurrency hint: free worker threads, averaged").register(registry));
    }

    private void gauge(String name, String description, Tags tags, WorkerGroup g, ToDoubleFunction<WorkerGroup> value) {
        meters.add(Gauge.builder(PREFIX + name, g, value).description(description).tags(tags).register(registry));
    }

    private void counter(String name, String description, Tags tags, WorkerGroup g, ToLongFunction<Worker> perWorker) {
        meters.add(FunctionCounter.builder(PREFIX + name, g, x -> x.sum(perWorker)).description(description)
                .tags(tags).register(registry));
    }

    MeterRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
        meters.clear();
        if (ownRegistry) {
            registry.close();
        }
    }
}
