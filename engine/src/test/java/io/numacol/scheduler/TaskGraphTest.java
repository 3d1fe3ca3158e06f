package io.numacol.scheduler;

import io.numacol.scheduler.SchedulerTesting.Kind;
import io.numacol.topology.Topology;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.numacol.scheduler.SchedulerTesting.LIMIT;
import static org.assertj.core.api.Assertions.assertThat;

/** Task graphs: children, stages awaited from tasks, and workers replaced while they wait or block. */
class TaskGraphTest {
    /** Long enough that no test here can pass thanks to the watchdog. */
    private static final Duration NO_WATCHDOG = Duration.ofHours(1);

    @ParameterizedTest
    @MethodSource(SchedulerTesting.KINDS_AND_TOPOLOGIES)
    void childrenKeepTheirGroupOpenUntilTheyReturn(Kind kind, Topology topology) {
        try (Scheduler scheduler = kind.create(topology, StealPolicy.TARGET)) {
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            AtomicLong leaves = new AtomicLong();
            g.submit(root -> spawnTree(root, 10, leaves));
            g.await();
            assertThat(leaves).hasValue(1 << 10);
            assertThat(g.isDone()).isTrue();
        }
    }

    private static void spawnTree(TaskContext ctx, int depth, AtomicLong leaves) {
        if (depth == 0) {
            leaves.incrementAndGet();
            return;
        }
        for (int i = 0; i < 2; i++) {
            ctx.spawn(child -> spawnTree(child, depth - 1, leaves), Affinity.node((depth + i) % ctx.statement().scheduler().topology().nodeCount()));
        }
    }

    /** Each task runs its children as a stage of its own and waits for it: no deadlock, no lost result. */
    @ParameterizedTest
    @MethodSource(SchedulerTesting.KINDS_AND_TOPOLOGIES)
    void tasksWaitingOnChildStagesDoNotDeadlock(Kind kind, Topology topology) {
        for (StealPolicy policy : new StealPolicy[] {StealPolicy.TARGET, StealPolicy.BOUND}) {
            SchedulerConfig config = SchedulerConfig.defaults().withStealPolicy(policy).withWatchdogPeriod(NO_WATCHDOG);
            try (Scheduler scheduler = kind.create(topology, config)) {
                assertThat(sumTree(scheduler, 7)).as("%s", policy).isEqualTo(1 << 7);
            }
        }
    }

    /** At the thread cap a waiting worker helps run tasks instead of going inactive. */
    @Test
    void waitingWorkersHelpWhenTheGroupMayCreateNoMoreThreads() {
        SchedulerConfig config = SchedulerConfig.defaults().withStealPolicy(StealPolicy.BOUND)
                .withMaxWorkersPerGroup(1).withWatchdogPeriod(NO_WATCHDOG);
        try (WorkerPoolScheduler scheduler = new WorkerPoolScheduler(Topology.fake(4), config)) {
            assertThat(sumTree(scheduler, 8)).isEqualTo(1 << 8);
            for (WorkerGroup g : scheduler.groups()) {
                assertThat(g.workers()).hasSize(1);
            }
        }
    }

    private static long sumTree(Scheduler scheduler, int depth) {
        Statement s = scheduler.newStatement();
        TaskGroup root = s.newTaskGroup();
        AtomicLong total = new AtomicLong();
        root.submit(ctx -> total.addAndGet(subtree(ctx, depth)), Affinity.node(0));
        root.await();
        return total.get();
    }

    /** Leaves of a binary tree, each inner task awaiting its two children spread over the nodes. */
    private static long subtree(TaskContext ctx, int depth) {
        if (depth == 0) {
            return 1;
        }
        TaskGroup children = ctx.statement().newTaskGroup();
        AtomicLong sum = new AtomicLong();
        int nodes = ctx.statement().scheduler().topology().nodeCount();
        for (int i = 0; i < 2; i++) {
            int node = (ctx.node() + i + depth) % nodes;
            ctx.spawn(children, child -> sum.addAndGet(subtree(child, depth - 1)), Affinity.node(node), TaskClass.OTHER);
        }
        children.await();
        return sum.get();
    }

    /** inactive(): the group runs another worker at once, not after a watchdog round. */
    @Test
    void anInactiveWorkerIsReplacedImmediately() throws Exception {
        SchedulerConfig config = SchedulerConfig.defaults().withStealPolicy(StealPolicy.BOUND).withWatchdogPeriod(NO_WATCHDOG);
        try (WorkerPoolScheduler scheduler = new WorkerPoolScheduler(Topology.fake(4), config)) {
            CountDownLatch latch = new CountDownLatch(1);
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            AtomicInteger inactiveLevel = new AtomicInteger(-1);
            g.submit(ctx -> {
                WorkerGroup group = ((Worker) Thread.currentThread()).group;
                ctx.inactive(() -> {
                    inactiveLevel.set(group.active());
                    return latch.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                });
            }, Affinity.node(0));
            g.submit(ctx -> latch.countDown(), Affinity.node(0));
            assertThat(g.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            assertThat(inactiveLevel.get()).as("active level of node 0 while its first worker was inactive").isLessThanOrEqualTo(1);
            assertThat(scheduler.groups()[0].workers()).as("a second worker was created").hasSize(2);
        }
    }

    /** A worker blocked outside the scheduler (a latch here) is replaced by the watchdog. */
    @Test
    void aBlockedWorkerIsReplacedByTheWatchdog() {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(4), StealPolicy.BOUND)) {
            CountDownLatch latch = new CountDownLatch(1);
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            g.submit(ctx -> latch.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS), Affinity.node(0));
            g.submit(ctx -> latch.countDown(), Affinity.node(0));
            assertThat(g.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            assertThat(latch.getCount()).as("the second task ran while the first one blocked").isZero();
            assertThat(scheduler.groups()[0].workers()).hasSizeGreaterThanOrEqualTo(2);
            SchedulerTesting.waitUntil(() -> scheduler.groups()[0].blocked() == 0, "the blocked mark is cleared");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aContextIsValidOnlyInsideItsTask(Kind kind) {
        try (Scheduler scheduler = kind.create(Topology.fake(1), StealPolicy.TARGET)) {
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            AtomicReference<TaskContext> escaped = new AtomicReference<>();
            AtomicReference<String> workerName = new AtomicReference<>();
            g.submit(ctx -> {
                escaped.set(ctx);
                assertThat(ctx.taskGroup()).isSameAs(g);
                assertThat(ctx.taskClass()).isEqualTo(TaskClass.OTHER);
                workerName.set(ctx.workerName());
                assertThat(ctx.concurrencyHint()).isPositive();
            });
            g.await();
            assertThat(workerName.get()).as("the task's thread")
                    .startsWith(kind == Kind.POOL ? "numacol-worker-n0-g0-" : Thread.currentThread().getName());
            Assertions.assertThatThrownBy(() -> escaped.get().statement())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("only inside its task");
        }
    }
}
