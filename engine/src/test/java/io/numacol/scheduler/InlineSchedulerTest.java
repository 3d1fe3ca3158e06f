package io.numacol.scheduler;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.numacol.scheduler.SchedulerTesting.LIMIT;
import static io.numacol.scheduler.SchedulerTesting.sum;
import static io.numacol.scheduler.SchedulerTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What only the inline scheduler promises: the caller's thread, submission order, one stack. */
class InlineSchedulerTest {

    @Test
    void runsEachTaskOnTheCallerAtSubmissionChildrenInsideTheirSpawn() {
        try (InlineScheduler scheduler = new InlineScheduler(Topology.fake(2), SchedulerConfig.defaults())) {
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            List<String> order = new ArrayList<>();
            Thread caller = Thread.currentThread();
            for (int i = 0; i < 3; i++) {
                String name = "t" + i;
                g.submit(ctx -> {
                    assertThat(Thread.currentThread()).isSameAs(caller);
                    order.add(name);
                    ctx.spawn(child -> order.add(name + ".a"));
                    order.add(name + " after a");
                    ctx.spawn(child -> order.add(name + ".b"), Affinity.node(1));
                });
                assertThat(g.pending()).as("the submission returns once the task and its children have").isZero();
            }
            g.await();
            assertThat(order).containsExactly("t0", "t0.a", "t0 after a", "t0.b", "t1", "t1.a", "t1 after a", "t1.b",
                    "t2", "t2.a", "t2 after a", "t2.b");
            assertThat(sum(scheduler.meterRegistry(), "tasks.run")).isEqualTo(9);
        }
    }

    /** Priorities are recorded, not acted on: there is no queue to order. */
    @Test
    void ignoresPriorities() {
        try (InlineScheduler scheduler = new InlineScheduler(Topology.fake(1), SchedulerConfig.defaults())) {
            List<Integer> order = new ArrayList<>();
            for (int priority : new int[] {Statement.MIN_PRIORITY, Statement.MAX_PRIORITY, 0}) {
                Statement s = scheduler.newStatement(priority);
                s.newTaskGroup().submit(ctx -> order.add(ctx.statement().userPriority()));
            }
            assertThat(order).containsExactly(Statement.MIN_PRIORITY, Statement.MAX_PRIORITY, 0);
        }
    }

    @Test
    void recordsTheAffinityThePolicyGivesAndRunsAsIfOnItsNode() {
        try (InlineScheduler scheduler = new InlineScheduler(Topology.fake(4), SchedulerConfig.defaults().withStealPolicy(StealPolicy.BOUND))) {
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            List<String> seen = new ArrayList<>();
            g.submit(ctx -> {
                seen.add(ctx.affinity() + "@" + ctx.node());
                ctx.spawn(child -> seen.add(child.affinity() + "@" + child.node()));
                ctx.spawn(child -> seen.add(child.affinity() + "@" + child.node() + (child.stolen() || child.bound() ? "!" : "")),
                        Affinity.node(3));
            }, Affinity.node(2), TaskClass.SCAN);
            g.submit(ctx -> seen.add(ctx.affinity() + "@" + ctx.node() + "/" + ctx.workerGroup()));
            g.await();
            assertThat(seen).as("a child without affinity reports its parent's node; a task without one the first")
                    .containsExactly("hard(2)@2", "none@2", "hard(3)@3", "none@0/0");
        }
    }

    /** The same hint as an idle worker pool, so that operators cut the same tasks. */
    @Test
    void reportsTheHintOfAnIdleWorkerPoolOfTheSameShape() {
        for (SchedulerConfig config : new SchedulerConfig[] {SchedulerConfig.defaults(), SchedulerConfig.defaults().withGroupsPerNode(3)}) {
            for (Topology topology : new Topology[] {Topology.fake(4), Topology.detect()}) {
                int poolThreads;
                try (WorkerPoolScheduler pool = new WorkerPoolScheduler(topology, config)) {
                    poolThreads = pool.hardwareThreads();
                }
                try (InlineScheduler inline = new InlineScheduler(topology, config)) {
                    assertThat(inline.concurrencyHint()).as("%s, %d groups per node", topology, config.groupsPerNode())
                            .isEqualTo(poolThreads);
                    TaskGroup g = inline.newStatement().newTaskGroup();
                    AtomicReference<Integer> inTask = new AtomicReference<>();
                    g.submit(ctx -> inTask.set(ctx.concurrencyHint()));
                    assertThat(inTask).hasValue(poolThreads);
                    assertThat(sum(inline.meterRegistry(), "concurrency.hint")).isEqualTo(poolThreads);
                }
            }
        }
    }

    @Test
    void recordsReadsInItsDataUsage() {
        try (InlineScheduler scheduler = new InlineScheduler(Topology.fake(2), SchedulerConfig.defaults())) {
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            AtomicReference<Long> busy = new AtomicReference<>();
            g.submit(ctx -> busy.set(ctx.recordRead(1, 4096, ctx.busyClock())), Affinity.node(0), TaskClass.SCAN);
            g.await();
            assertThat(busy.get()).as("never stolen: every read counts").isNotNegative();
            assertThat(scheduler.dataUsage().bytes(1)).isEqualTo(4096);
            assertThat(scheduler.dataUsage().bytes(0)).isZero();
        }
    }

    /** It would wait for itself: refused, failing the statement, rather than hanging. */
    @Test
    void aTaskAwaitingItsOwnStageOrItsSpawnersIsRefused() {
        try (InlineScheduler scheduler = new InlineScheduler(Topology.fake(1), SchedulerConfig.defaults())) {
            TaskGroup own = scheduler.newStatement().newTaskGroup();
            own.submit(ctx -> ctx.taskGroup().await());
            assertThatThrownBy(own::await).isInstanceOf(StatementFailedException.class)
                    .cause().isInstanceOf(IllegalStateException.class).hasMessageContaining("would never end");

            Statement s = scheduler.newStatement();
            TaskGroup parents = s.newTaskGroup();
            parents.submit(ctx -> {
                TaskGroup children = ctx.statement().newTaskGroup();
                ctx.spawn(children, child -> parents.await(), Affinity.none(), TaskClass.OTHER);
                children.await();
            });
            assertThatThrownBy(parents::await).isInstanceOf(StatementFailedException.class)
                    .cause().isInstanceOf(IllegalStateException.class).hasMessageContaining("would never end");
        }
    }

    /** Tasks of a stage that run on other threads are waited for, and close() waits for them too. */
    @Test
    void waitsForTasksRunningOnOtherThreads() throws Exception {
        InlineScheduler scheduler = new InlineScheduler(Topology.fake(2), SchedulerConfig.defaults());
        TaskGroup g = scheduler.newStatement().newTaskGroup();
        CountDownLatch inTask = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        Thread runner = new Thread(() -> g.submit(ctx -> {
            inTask.countDown();
            assertThat(release.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            finished.set(true);
        }), "inline-runner");
        runner.start();
        assertThat(inTask.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        AtomicReference<Throwable> awaited = new AtomicReference<>();
        AtomicBoolean sawFinished = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            try {
                g.await();
                sawFinished.set(finished.get());
            } catch (Throwable t) {
                awaited.set(t);
            }
        }, "inline-waiter");
        waiter.start();
        Thread closer = new Thread(scheduler::close, "inline-closer");
        waitUntil(() -> waiter.getState() == Thread.State.WAITING, "the waiter blocks");
        closer.start();
        waitUntil(() -> closer.getState() == Thread.State.WAITING, "close() waits for the running task");
        assertThat(scheduler.isClosed()).isTrue();
        assertThatThrownBy(scheduler::newStatement).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");

        release.countDown();
        for (Thread t : new Thread[] {runner, waiter, closer}) {
            t.join(LIMIT.toMillis());
            assertThat(t.isAlive()).as(t.getName()).isFalse();
        }
        assertThat(awaited.get()).isNull();
        assertThat(sawFinished).as("the waiter returned after the task").isTrue();
        assertThat(g.isDone()).isTrue();
        assertThatThrownBy(() -> g.submit(ctx -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("scheduler is closed");
    }

    @Test
    void closeRemovesTheMetersAndKeepsTheApplicationsRegistryOpen() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        InlineScheduler scheduler = new InlineScheduler(Topology.fake(2), SchedulerConfig.defaults().withMeterRegistry(registry));
        TaskGroup g = scheduler.newStatement().newTaskGroup();
        for (int i = 0; i < 5; i++) {
            g.submit(ctx -> { });
        }
        assertThat(sum(registry, "tasks.run")).isEqualTo(5);
        scheduler.close();
        scheduler.close(); // idempotent
        assertThat(registry.getMeters()).isEmpty();
        assertThat(registry.isClosed()).isFalse();
    }
}
