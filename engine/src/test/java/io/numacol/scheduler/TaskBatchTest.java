package io.numacol.scheduler;

import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.numacol.scheduler.SchedulerTesting.holdNodeZero;
import static org.assertj.core.api.Assertions.assertThat;

class TaskBatchTest {

    /** A batch takes tasks of the head's priority only, and leaves the group's other hardware threads as many. */
    @Test
    void aBatchHoldsOnePriorityAndLeavesWorkForTheOthers() {
        try (WorkerPoolScheduler scheduler = new WorkerPoolScheduler(Topology.fake(1), SchedulerConfig.defaults(), false)) {
            WorkerGroup group = new WorkerGroup(scheduler, 0, 0, 2, new BitSet(), 2);
            group.addUnstartedWorker(); // two workers that never start: submissions wake no one
            group.addUnstartedWorker();
            TaskGroup older = scheduler.newStatement().newTaskGroup();
            TaskGroup younger = scheduler.newStatement().newTaskGroup();
            for (int i = 0; i < 3; i++) {
                group.enqueue(new QueuedTask(ctx -> { }, older, Affinity.none(), TaskClass.OTHER, 0));
            }
            for (int i = 0; i < 40; i++) {
                group.enqueue(new QueuedTask(ctx -> { }, younger, Affinity.none(), TaskClass.OTHER, 0));
            }
            int limit = 8;
            QueuedTask[] out = new QueuedTask[TaskBatch.MAX];
            assertThat(group.pollBatch(out, limit)).as("the older statement's three").isEqualTo(3);
            assertThat(out).extracting(t -> t == null ? null : t.statement).containsOnly(older.statement(), null);
            assertThat(group.pollBatch(out, limit)).as("a full batch: 40 leave 32 behind").isEqualTo(limit);
            for (int left = 40 - limit; left > 0; ) {
                int n = group.pollBatch(out, limit);
                assertThat(n).isBetween(1, Math.max(1, (left - 1) / 4 + 1));
                left -= n;
            }
            assertThat(group.pollBatch(out, limit)).isZero();
        }
    }

    /**
     * A task group this worker has not timed comes one task first; quick tasks then come in
     * batches; once a batch's tasks took long, one task at a time; and another task group starts
     * at one task again.
     */
    @Test
    void aBatchIsAsLongAsItsTasksAllow() {
        try (WorkerPoolScheduler scheduler = new WorkerPoolScheduler(Topology.fake(1), SchedulerConfig.defaults(), false)) {
            WorkerGroup group = new WorkerGroup(scheduler, 0, 0, 1, new BitSet(), 1);
            group.addUnstartedWorker();
            TaskGroup tasks = scheduler.newStatement().newTaskGroup();
            for (int i = 0; i < 64 * TaskBatch.MAX; i++) {
                group.enqueue(new QueuedTask(ctx -> { }, tasks, Affinity.none(), TaskClass.OTHER, 0));
            }
            TaskBatch batch = new TaskBatch();
            assertThat(batch.poll(group)).isNotNull();
            assertThat(batch.size()).as("a task group not timed yet").isEqualTo(1);
            // timed: quick tasks (in a cold JVM a poll alone may take a microsecond, so not always MAX)
            int none = 0;
            for (int polls = 0; polls < 1000 && batch.size() == 1; polls++) {
                none += batch.poll(group) == null ? 1 : 0; // no assertion per poll: it would be the time measured
            }
            assertThat(none).isZero();
            assertThat(batch.size()).as("after quick tasks").isBetween(2, TaskBatch.MAX);
            // tasks that "run" twice as long as a batch may: the next batch is one task
            while (batch.poll(group) != null && batch.size() > 1) {
                spin(2 * TaskBatch.BATCH_NANOS);
            }
            assertThat(batch.size()).as("after a task of twice BATCH_NANOS").isEqualTo(1);
            while (batch.poll(group) != null) {
                // the rest, quickly
            }
            TaskGroup other = scheduler.newStatement().newTaskGroup();
            for (int i = 0; i < 64 * TaskBatch.MAX; i++) {
                group.enqueue(new QueuedTask(ctx -> { }, other, Affinity.none(), TaskClass.OTHER, 0));
            }
            assertThat(batch.poll(group)).isNotNull();
            assertThat(batch.size()).as("another task group, not timed yet").isEqualTo(1);
            for (int polls = 0; polls < 1000 && batch.size() == 1; polls++) {
                none += batch.poll(group) == null ? 1 : 0;
            }
            assertThat(none).isZero();
            assertThat(batch.size()).as("the other group's quick tasks").isGreaterThan(1);
        }
    }

    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    /**
     * A task blocked on a sibling that sits in its own worker's batch: the watchdog finds the
     * worker blocked and gives the batch back to the group, whose next worker runs the sibling.
     */
    @Test
    void aBlockedWorkersBatchGoesBackToItsGroup() throws Exception {
        // BOUND on fake nodes with one hardware thread each: node 0's one worker runs everything
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(4), StealPolicy.BOUND)) {
            AtomicBoolean open = new AtomicBoolean();
            TaskGroup gate = holdNodeZero(scheduler, open);

            CountDownLatch released = new CountDownLatch(1);
            TaskGroup tasks = scheduler.newStatement().newTaskGroup();
            tasks.submit(ctx -> released.await(), Affinity.node(0)); // first in the batch: waits for the next
            tasks.submit(ctx -> released.countDown(), Affinity.node(0));
            for (int i = 0; i < 4 * TaskBatch.MAX; i++) {
                tasks.submit(ctx -> { }, Affinity.node(0));
            }
            open.set(true);
            try {
                assertThat(tasks.await(SchedulerTesting.LIMIT.toSeconds(), TimeUnit.SECONDS)).as("the sibling ran").isTrue();
            } finally {
                released.countDown(); // so that close, which waits for running tasks, returns either way
            }
            gate.await();
        }
    }
}
