package io.numacol.scheduler;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.numacol.scheduler.SchedulerTesting.Kind;
import io.numacol.topology.Topology;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.numacol.scheduler.SchedulerTesting.spinUntil;
import static io.numacol.scheduler.SchedulerTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShutdownTest {

    @ParameterizedTest
    @MethodSource(SchedulerTesting.TOPOLOGIES)
    void closeDropsQueuedWorkLetsRunningTasksReturnAndLeavesNoThreads(Topology topology) throws Exception {
        WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(topology, StealPolicy.BOUND);
        // Workers that waited in tasks, plus watchdog replacements, are threads too.
        TaskGroup warm = scheduler.newStatement().newTaskGroup();
        warm.submit(ctx -> {
            TaskGroup inner = ctx.statement().newTaskGroup();
            ctx.spawn(inner, c -> { }, Affinity.node(0), TaskClass.OTHER);
            inner.await();
        }, Affinity.node(0));
        warm.await();

        Statement s = scheduler.newStatement();
        TaskGroup g = s.newTaskGroup();
        AtomicBoolean running = new AtomicBoolean();
        AtomicInteger finished = new AtomicInteger();
        for (int i = 0; i < 1000; i++) {
            g.submit(ctx -> {
                running.set(true);
                spinUntil(ctx::isCancelled);
                finished.incrementAndGet();
            }, Affinity.node(0));
        }
        waitUntil(running::get, "a task runs");
        AtomicReference<Throwable> awaited = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                g.await();
            } catch (Throwable t) {
                awaited.set(t);
            }
        });
        waiter.start();

        scheduler.close();
        waiter.join();
        assertThat(awaited.get()).isInstanceOf(CancellationException.class);
        assertThat(finished.get()).as("running tasks returned, queued ones were dropped").isPositive().isLessThan(1000);
        assertThat(g.pending()).isZero();
        assertThat(numacolThreads()).isEmpty();
        assertThat(scheduler.isClosed()).isTrue();
        scheduler.close(); // idempotent

        assertThatThrownBy(scheduler::newStatement).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> warm.submit(ctx -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("scheduler is closed");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void closeFromATaskIsRefused(Kind kind) {
        Scheduler scheduler = kind.create(Topology.fake(2), StealPolicy.TARGET);
        AutoCloseable closer = scheduler; // a task may hold the scheduler as any resource
        TaskGroup g = scheduler.newStatement().newTaskGroup();
        g.submit(ctx -> closer.close());
        assertThatThrownBy(g::await).isInstanceOf(StatementFailedException.class)
                .cause().isInstanceOf(IllegalStateException.class).hasMessageContaining("from a task");
        assertThat(scheduler.isClosed()).isFalse();
        scheduler.close();
        assertThat(numacolThreads()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void closeRemovesTheMetersFromAnApplicationsRegistry(Kind kind) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Scheduler scheduler = kind.create(Topology.fake(2), SchedulerConfig.defaults().withMeterRegistry(registry));
        assertThat(scheduler.meterRegistry()).isSameAs(registry);
        assertThat(registry.getMeters()).isNotEmpty();
        scheduler.close();
        assertThat(registry.getMeters()).isEmpty();
        assertThat(registry.isClosed()).as("the application's registry stays open").isFalse();
    }

    static List<String> numacolThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("numacol-")).toList();
    }
}
