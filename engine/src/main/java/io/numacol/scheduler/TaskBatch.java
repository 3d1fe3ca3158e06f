package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The tasks a worker took from its group's queue in one hold of the group's lock, to run one by
 * one: the lock and the queue are paid once per batch rather than once per task (with four
 * outside submitters on two cores, the lock taken per task was a quarter of the workers' time).
 * A batch holds tasks of one priority only, at most {@link #MAX}, no more than leaves the
 * group's other workers as many ({@link WorkerGroup#pollBatch}), and no more than the last
 * batch's tasks would run in {@link #BATCH_NANOS} (8 tasks a batch gave 21-23 tasks per
 * microsecond with four submitters and empty tasks; up to 64 so bounded, 30-33).
 *
 * <p>Tasks in a batch are out of the queues, so no other worker sees them: whoever would strand
 * them takes them back for the group to queue again ({@link #takeBack}): the worker itself
 * before it waits inactive or parks and when it leaves a wait it helped in, the watchdog when it
 * finds the worker blocked in a task (the blocked task may be waiting for one of them), a
 * cancelled statement's purge, and close.
 * Each slot is claimed by one atomic swap, so the worker and a taker never both get a task.
 */
final class TaskBatch {
    static final int MAX = 64;
    /**
     * What a batch may take to run, by the last batch's tasks of the same task group: a task of a
     * higher priority that arrives meanwhile waits about that long on this worker, so a batch of
     * long tasks is one task. A task group this worker has not timed yet comes one task first.
     */
    static final long BATCH_NANOS = 20_000;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(QueuedTask[].class);

    private final QueuedTask[] slots = new QueuedTask[MAX];
    // The worker's own: the slots filled by the last refill, when that was and from which task
    // group; the last group timed and how many of its tasks a batch may take
    private int next;
    private int end;
    private long filledAt;
    private TaskGroup filledFrom;
    private TaskGroup timed;
    private int timedLimit;

    /** The worker: the next task of the batch no one took back, else the first of a new batch from {@code group}, else null. */
    QueuedTask poll(WorkerGroup group) {
        QueuedTask t = next();
        if (t != null) {
            return t;
        }
        long now = System.nanoTime();
        if (end > 0 && filledFrom != null) {
            long perTask = Math.max(1, (now - filledAt) / end); // over-estimated if tasks were taken back: fewer
            timed = filledFrom;
            timedLimit = Math.clamp(BATCH_NANOS / perTask, 1, MAX);
        }
        return refill(group, now, timed, timedLimit, 1);
    }

    /** For tests: {@link #poll(WorkerGroup)} with batches of up to {@code limit} tasks of any task group. */
    QueuedTask poll(WorkerGroup group, int limit) {
        QueuedTask t = next();
        return t != null ? t : refill(group, System.nanoTime(), null, limit, limit);
    }

    private QueuedTask refill(WorkerGroup group, long now, TaskGroup timedGroup, int limit, int otherLimit) {
        // filled under the group's lock, which every taker takes before it looks
        end = group.pollBatch(slots, timedGroup, limit, otherLimit);
        next = 0;
        filledAt = now;
        QueuedTask first = next();
        filledFrom = first == null ? null : first.group;
        return first;
    }

    /** For tests: how many tasks the last refill took. */
    int size() {
        return end;
    }

    private QueuedTask next() {
        while (next < end) {
            QueuedTask t = (QueuedTask) SLOTS.getAndSet(slots, next++, (QueuedTask) null);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** The worker: whether the next task of the batch, unless taken back first, is one of {@code group}'s. */
    boolean nextIsOf(TaskGroup group) {
        if (next >= end) {
            return false;
        }
        QueuedTask t = (QueuedTask) SLOTS.getAcquire(slots, next);
        return t != null && t.group == group;
    }

    /** Any thread: the tasks not yet taken, of {@code statement} or (if null) all of them, taken out of the batch. */
    List<QueuedTask> takeBack(Statement statement) {
        List<QueuedTask> taken = new ArrayList<>(0);
        for (int i = 0; i < MAX; i++) {
            QueuedTask t = (QueuedTask) SLOTS.getVolatile(slots, i);
            if (t != null && (statement == null || t.statement == statement) && SLOTS.compareAndSet(slots, i, t, (QueuedTask) null)) {
                taken.add(t);
            }
        }
        return taken;
    }
}
