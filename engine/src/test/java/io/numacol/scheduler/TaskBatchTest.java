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

    /** Short tasks come in batches of up to MAX; once a batch's tasks took long, one task at a time. */
    @Test
    void aBatchIsAsLongAsItsTasksAllow() {
        try (WorkerPoolScheduler scheduler = new WorkerPoolScheduler(Topology.fake(1), SchedulerConfig.defaults(), false)) {
            WorkerGroup group = new WorkerGroup(scheduler, 0, 0, 1, new BitSet(), 1);
            group.addUnstartedWorker();
            TaskGroup tasks = scheduler.newStatement().newTaskGroup();
            for (int i = 0; i < 8 * TaskBatch.MAX; i++) {
                group.enqueue(new QueuedTask(ctx -> { }, tasks, Affinity.none(), TaskClass.OTHER, 0));
            }
            TaskBatch batch = new TaskBatch();
            assertThat(batch.poll(group)).isNotNull();
            assertThat(batch.size()).as("the first batch").isEqualTo(TaskBatch.MAX);
            for (int i = 1; i < TaskBatch.MAX; i++) {
                assertThat(batch.poll(group)).isNotNull();
            }
            // the last of them "runs" for as long as a whole batch may
            long until = System.nanoTime() + TaskBatch.BATCH_NANOS + 1;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertThat(batch.poll(group)).isNotNull();
            assertThat(batch.size()).as("after tasks of BATCH_NANOS / MAX or more").isLessThan(TaskBatch.MAX);
            long slow = System.nanoTime() + 2 * TaskBatch.BATCH_NANOS;
            while (batch.poll(group) != null && batch.size() > 1) {
                while (System.nanoTime() < slow) {
                    Thread.onSpinWait();
                }
                slow = System.nanoTime() + 2 * TaskBatch.BATCH_NANOS;
            }
            assertThat(batch.size()).as("after a task of twice BATCH_NANOS").isEqualTo(1);
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
