package io.numacol.scheduler;

import io.micrometer.core.instrument.MeterRegistry;
import io.numacol.topology.Topology;

/**
 * Where a query's work runs as tasks: a {@link Statement} per query, a {@link TaskGroup} per stage.
 * Two implementations:
 *
 * <ul>
 *   <li>{@link WorkerPoolScheduler}, the NUMA-aware scheduler of the thesis: per-node worker
 *       groups, stealing, binding, a watchdog and a sampled concurrency hint. A database runs on
 *       it unless told otherwise.</li>
 *   <li>{@link InlineScheduler}: every task on the thread that submits it, at once, for
 *       deterministic tests and debugging with a single stack.</li>
 * </ul>
 *
 * <p>Sealed: statements and task groups are made by this package and reach into their scheduler's
 * package-private side, so no other implementation could serve them.
 */
public sealed interface Scheduler extends AutoCloseable permits AbstractScheduler {

    /** A {@link WorkerPoolScheduler} with {@link SchedulerConfig#defaults()}. */
    static Scheduler create(Topology topology) {
        return new WorkerPoolScheduler(topology, SchedulerConfig.defaults());
    }

    /** A statement of normal priority under the engine's steal policy. */
    default Statement newStatement() {
        return newStatement(Statement.NORMAL_PRIORITY, null);
    }

    default Statement newStatement(int userPriority) {
        return newStatement(userPriority, null);
    }

    /**
     * A statement of the given priority, under its own steal policy or the engine's.
     *
     * @param userPriority {@link Statement#MIN_PRIORITY}..{@link Statement#MAX_PRIORITY}, higher first
     * @param stealPolicy  this statement's policy, or null for the engine's
     * @throws IllegalStateException after {@link #close()}
     */
    Statement newStatement(int userPriority, StealPolicy stealPolicy);

    /** The thesis's concurrency hint: at most this many tasks per partitionable operator (at least 1). */
    int concurrencyHint();

    Topology topology();

    /** What tasks reported reading, per node of the data and per task class. */
    DataUsage dataUsage();

    /** The memory model of a fake topology, or null. */
    BandwidthModel bandwidthModel();

    /** Where the scheduler's meters are: the configured registry, or its private simple one. */
    MeterRegistry meterRegistry();

    boolean isClosed();

    /**
     * Refuses new work and returns once no task of this scheduler runs any more.
     *
     * @throws IllegalStateException when called from a task of this scheduler (it would wait for itself)
     */
    @Override
    void close();
}
