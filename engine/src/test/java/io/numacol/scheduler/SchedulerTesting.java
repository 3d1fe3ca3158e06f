package io.numacol.scheduler;

import io.micrometer.core.instrument.MeterRegistry;
import io.numacol.topology.Topology;
import org.junit.jupiter.params.provider.Arguments;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** What the scheduler tests share: topologies, condition waits with a time limit, meter sums. */
final class SchedulerTesting {
    /** Generous: conditions normally hold within milliseconds; this only bounds a broken run. */
    static final Duration LIMIT = Duration.ofSeconds(30);

    private SchedulerTesting() {
    }

    /** For {@code @MethodSource}: {@link #topologies()}. */
    static final String TOPOLOGIES = "io.numacol.scheduler.SchedulerTesting#topologies";

    /** 4 fake nodes over this machine's CPUs, and the real topology. */
    static Stream<Topology> topologies() {
        return Stream.of(Topology.fake(4), Topology.detect());
    }

    static WorkerPoolScheduler scheduler(Topology topology, StealPolicy policy) {
        return new WorkerPoolScheduler(topology, SchedulerConfig.defaults().withStealPolicy(policy));
    }

    /** The two implementations, for the tests whose assertions hold on both (whatever order tasks run in). */
    enum Kind {
        POOL {
            @Override
            Scheduler create(Topology topology, SchedulerConfig config) {
                return new WorkerPoolScheduler(topology, config);
            }
        },
        INLINE {
            @Override
            Scheduler create(Topology topology, SchedulerConfig config) {
                return new InlineScheduler(topology, config);
            }
        };

        abstract Scheduler create(Topology topology, SchedulerConfig config);

        Scheduler create(Topology topology, StealPolicy policy) {
            return create(topology, SchedulerConfig.defaults().withStealPolicy(policy));
        }
    }

    /** For {@code @MethodSource}: {@link #kindsAndTopologies()}. */
    static final String KINDS_AND_TOPOLOGIES = "io.numacol.scheduler.SchedulerTesting#kindsAndTopologies";

    /** Each {@link Kind} with each of {@link #topologies()}. */
    static Stream<Arguments> kindsAndTopologies() {
        return Stream.of(Kind.values()).flatMap(k -> topologies().map(t -> Arguments.of(k, t)));
    }

    /** Waits (yielding, never sleeping long) until {@code condition} holds; fails after {@link #LIMIT}. */
    static void waitUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + LIMIT + " waiting until " + what);
            }
            Thread.onSpinWait();
            yieldToWorkers();
        }
    }

    /**
     * A task that holds node 0's worker (runnable, so the watchdog does not replace it) until
     * {@code open}; returns once it runs. With BOUND on fake nodes of one hardware thread each,
     * node 0's tasks then queue behind it.
     */
    static TaskGroup holdNodeZero(WorkerPoolScheduler scheduler, AtomicBoolean open) {
        AtomicBoolean running = new AtomicBoolean();
        TaskGroup gate = scheduler.newStatement().newTaskGroup();
        gate.submit(ctx -> {
            running.set(true);
            spinUntil(open::get);
        }, Affinity.node(0));
        waitUntil(running::get, "the gate task holds node 0's worker");
        return gate;
    }

    /** For tasks that must hold their worker: spins (staying runnable) until {@code condition} or the limit. */
    static boolean spinUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    /** The sum of a function counter or gauge over all tag values matching {@code tags}. */
    static double sum(MeterRegistry registry, String name, String... tags) {
        var search = registry.find(SchedulerMetrics.PREFIX + name).tags(tags);
        return search.functionCounters().stream().mapToDouble(c -> c.count()).sum()
                + search.gauges().stream().mapToDouble(g -> g.value()).sum();
    }

    /** Lets the workers under test run on a machine with fewer cores than threads. */
    @SuppressWarnings("ThreadPriorityCheck") // a test's wait on two cores, not a scheduling policy
    private static void yieldToWorkers() {
        Thread.yield();
    }
}
