package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The tasks a worker took from its group's queue in one hold of the group's lock, to run one by
 * one: the lock and the queue are paid once per batch rather than once per task (with four
 * outside submitters on two cores, the lock taken per task was a quarter of the workers' time).
 * A batch holds tasks of one priority only, at most {@link #MAX}, and no more than leaves the
 * group's other workers as many ({@link WorkerGroup#pollBatch}).
 *
 * <p>Tasks in a batch are out of the queues, so no other worker sees them: whoever would strand
 * them takes them back for the group to queue again ({@link #takeBack}): the worker itself
 * before it waits inactive or parks and when it leaves a wait it helped in, the watchdog when it finds the worker blocked in a task
 * (the blocked task may be waiting for one of them), a cancelled statement's purge, and close.
 * Each slot is claimed by one atomic swap, so the worker and a taker never both get a task.
 */
final class TaskBatch {
    static final int MAX = 8;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(QueuedTask[].class);

    private final QueuedTask[] slots = new QueuedTask[MAX];
    // The worker's own: the slots filled by the last refill
    private int next;
    private int end;

    /** The worker: the next task of the batch no one took back, else the first of a new batch from {@code group}, else null. */
    QueuedTask poll(WorkerGroup group) {
        QueuedTask t = next();
        if (t != null) {
            return t;
        }
        // filled under the group's lock, which every taker takes before it looks
        end = group.pollBatch(slots);
        next = 0;
        return next();
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
