package io.numacol.scheduler;

import io.numacol.scheduler.SchedulerTesting.Kind;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.numacol.scheduler.SchedulerTesting.spinUntil;
import static io.numacol.scheduler.SchedulerTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Cancellation and failure of statements; workers outlive both. */
class CancellationTest {

    @ParameterizedTest
    @MethodSource(SchedulerTesting.TOPOLOGIES)
    void cancellingDropsQueuedTasksAndAwaitThrows(Topology topology) {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(topology, StealPolicy.TARGET)) {
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            AtomicInteger started = new AtomicInteger();
            AtomicInteger sawCancel = new AtomicInteger();
            int tasks = 10_000;
            for (int i = 0; i < tasks; i++) {
                g.submit(ctx -> {
                    started.incrementAndGet();
                    // Hold the worker until the cancellation: checking the flag is how long tasks stop early.
                    if (spinUntil(ctx::isCancelled)) {
                        sawCancel.incrementAndGet();
                    }
                }, Affinity.node(0));
            }
            waitUntil(() -> started.get() > 0, "a task started");
            s.cancel();
            assertThatThrownBy(g::await).isInstanceOf(CancellationException.class).hasMessageContaining("cancelled");
            assertThat(g.pending()).isZero();
            assertThat(started.get()).as("queued tasks were dropped").isLessThan(tasks);
            assertThat(sawCancel.get()).isEqualTo(started.get());
            assertThat(s.isCancelled()).isTrue();
            assertThat(s.failure()).isEmpty();
            assertThat(totalQueued(scheduler)).isZero();
            s.cancel(); // idempotent

            TaskGroup next = scheduler.newStatement().newTaskGroup();
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < 100; i++) {
                next.submit(ctx -> ran.incrementAndGet(), Affinity.node(i % topology.nodeCount()));
            }
            next.await();
            assertThat(ran).hasValue(100);
        }
    }

    /** A task cancels its own statement: whatever ran, the group drains and awaiting it reports the cancellation. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aTaskCancellingItsStatementEndsTheStage(Kind kind) {
        try (Scheduler scheduler = kind.create(Topology.fake(2), StealPolicy.TARGET)) {
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            AtomicInteger ran = new AtomicInteger();
            AtomicBoolean sawOwnCancel = new AtomicBoolean();
            g.submit(ctx -> {
                ctx.statement().cancel();
                sawOwnCancel.set(ctx.isCancelled());
            });
            for (int i = 0; i < 1000; i++) {
                g.submit(ctx -> ran.incrementAndGet(), Affinity.node(i % 2));
            }
            assertThatThrownBy(g::await).isInstanceOf(CancellationException.class).hasMessageContaining("cancelled");
            assertThat(g.pending()).isZero();
            assertThat(sawOwnCancel).isTrue();
            assertThat(s.failure()).isEmpty();
            g.submit(ctx -> ran.addAndGet(1_000_000));
            assertThat(g.pending()).as("a task submitted after the cancellation is dropped").isZero();
            assertThat(ran.get()).isLessThanOrEqualTo(1000);

            TaskGroup next = scheduler.newStatement().newTaskGroup();
            AtomicInteger ranNext = new AtomicInteger();
            for (int i = 0; i < 100; i++) {
                next.submit(ctx -> ranNext.incrementAndGet(), Affinity.node(i % 2));
            }
            next.await();
            assertThat(ranNext).hasValue(100);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void tasksOfACancelledStatementAreDroppedAtSubmission(Kind kind) {
        try (Scheduler scheduler = kind.create(Topology.fake(2), StealPolicy.TARGET)) {
            Statement s = scheduler.newStatement();
            s.cancel();
            TaskGroup g = s.newTaskGroup();
            AtomicInteger ran = new AtomicInteger();
            g.submit(ctx -> ran.incrementAndGet());
            assertThat(g.pending()).isZero();
            assertThatThrownBy(g::await).isInstanceOf(CancellationException.class);
            assertThat(ran).hasValue(0);
        }
    }

    @Test
    void interruptingAnOutsideWaiterCancelsTheStatement() throws Exception {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(2), StealPolicy.TARGET)) {
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            AtomicBoolean running = new AtomicBoolean();
            g.submit(ctx -> {
                running.set(true);
                spinUntil(ctx::isCancelled);
            });
            waitUntil(running::get, "the task runs");
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread waiter = new Thread(() -> {
                try {
                    g.await();
                } catch (Throwable t) {
                    thrown.set(t);
                }
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
            waiter.start();
            waitUntil(() -> waiter.getState() == Thread.State.WAITING, "the waiter blocks");
            waiter.interrupt();
            waiter.join();
            assertThat(thrown.get()).isInstanceOf(CancellationException.class);
            assertThat(stillInterrupted).isTrue();
            assertThat(s.isCancelled()).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource(SchedulerTesting.KINDS_AND_TOPOLOGIES)
    void aTaskExceptionFailsTheStatementAndTheWorkerLivesOn(Kind kind, Topology topology) {
        try (Scheduler scheduler = kind.create(topology, StealPolicy.BOUND)) {
            int workersBefore = workerCount(scheduler);
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            TaskGroup other = s.newTaskGroup();
            IllegalStateException boom = new IllegalStateException("boom");
            AtomicInteger ranAfter = new AtomicInteger();
            g.submit(ctx -> {
                throw boom;
            }, Affinity.node(0));
            for (int i = 0; i < 1000; i++) {
                g.submit(ctx -> {
                    spinUntil(ctx::isCancelled);
                    ranAfter.incrementAndGet();
                }, Affinity.node(0));
            }
            assertThatThrownBy(g::await).isInstanceOf(StatementFailedException.class)
                    .hasMessageContaining("boom").cause().isSameAs(boom);
            assertThat(s.failure()).containsSame(boom);
            assertThat(s.isCancelled()).as("a failure cancels the rest of the statement").isTrue();
            assertThat(ranAfter.get()).isLessThan(1000);
            assertThatThrownBy(other::await).isInstanceOf(StatementFailedException.class).cause().isSameAs(boom);

            // Errors too; and every node still runs work with the same threads.
            Statement second = scheduler.newStatement();
            TaskGroup bad = second.newTaskGroup();
            bad.submit(ctx -> {
                throw new AssertionError("an error inside a task");
            });
            assertThatThrownBy(bad::await).isInstanceOf(StatementFailedException.class).cause().isInstanceOf(AssertionError.class);

            assertEveryNodeRunsWorkWith(scheduler, topology, workersBefore);
            if (scheduler instanceof WorkerPoolScheduler pool) {
                for (WorkerGroup wg : pool.groups()) {
                    assertThat(wg.workers()).allSatisfy(w -> assertThat(w.isAlive()).isTrue());
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource(SchedulerTesting.KINDS_AND_TOPOLOGIES)
    void aVirtualMachineErrorIsThrownAsItselfAndTheWorkersLiveOn(Kind kind, Topology topology) {
        try (Scheduler scheduler = kind.create(topology, StealPolicy.BOUND)) {
            int workersBefore = workerCount(scheduler);
            OutOfMemoryError oom = new OutOfMemoryError("injected: a task ran out of heap");
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            g.submit(ctx -> {
                throw oom;
            }, Affinity.node(topology.nodeCount() - 1));
            assertThatThrownBy(g::await).as("not wrapped into a statement's failure").isSameAs(oom);

            assertEveryNodeRunsWorkWith(scheduler, topology, workersBefore);
        }
    }

    /** A task on every node runs, and the scheduler has the workers it had. */
    private static void assertEveryNodeRunsWorkWith(Scheduler scheduler, Topology topology, int workersBefore) {
        TaskGroup fine = scheduler.newStatement().newTaskGroup();
        AtomicInteger ran = new AtomicInteger();
        for (int node = 0; node < topology.nodeCount(); node++) {
            fine.submit(ctx -> ran.incrementAndGet(), Affinity.node(node));
        }
        fine.await();
        assertThat(ran).hasValue(topology.nodeCount());
        assertThat(workerCount(scheduler)).isEqualTo(workersBefore);
    }

    @Test
    void abandoningAGroupCancelsItAndWaitsForTheTasksAlreadySubmitted() {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(2), StealPolicy.TARGET)) {
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            AtomicInteger running = new AtomicInteger();
            AtomicInteger finished = new AtomicInteger();
            for (int i = 0; i < 4; i++) {
                g.submit(ctx -> {
                    running.incrementAndGet();
                    spinUntil(ctx::isCancelled);
                    finished.incrementAndGet();
                });
            }
            spinUntil(() -> running.get() > 0);
            g.abandon(); // as a submission loop does when its next submit throws
            assertThat(s.isCancelled()).isTrue();
            assertThat(g.isDone()).as("no task outlives the abandon").isTrue();
            assertThat(finished.get()).isEqualTo(running.get());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aCheckedExceptionIsTheCauseAsThrown(Kind kind) {
        try (Scheduler scheduler = kind.create(Topology.fake(2), StealPolicy.TARGET)) {
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            Exception checked = new IOException("disk");
            g.submit(ctx -> {
                throw checked;
            });
            assertThatThrownBy(g::await).isInstanceOf(StatementFailedException.class).cause().isSameAs(checked);
        }
    }

    /** The worker pool's threads; none inline. */
    static int workerCount(Scheduler scheduler) {
        if (!(scheduler instanceof WorkerPoolScheduler pool)) {
            return 0;
        }
        int n = 0;
        for (WorkerGroup g : pool.groups()) {
            n += g.workers().length;
        }
        return n;
    }

    static int totalQueued(WorkerPoolScheduler scheduler) {
        int n = 0;
        for (WorkerGroup g : scheduler.groups()) {
            n += g.queueLength(false) + g.queueLength(true);
        }
        return n;
    }
}
