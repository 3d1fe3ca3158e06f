package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * One stage of a {@link Statement} (a pipeline, one phase of an operator): tasks are submitted
 * into it, may spawn children into it, and it is awaited as a whole. It is done when every task
 * submitted or spawned into it has returned or been dropped; a task that spawns children before
 * it returns keeps the group open for them.
 */
public final class TaskGroup {
    private static final VarHandle SUBMITTED;

    static {
        try {
            SUBMITTED = MethodHandles.lookup().findVarHandle(TaskGroup.class, "submitted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AbstractScheduler scheduler;
    private final Statement statement;
    // Two counters, not one pending count: submitters write one and workers the other, so a
    // task's submission and its completion do not fight over one cache line. A task is counted
    // as submitted before it is queued, so completed never passes submitted.
    private volatile long submitted;
    private final PaddedCounter completed = new PaddedCounter();
    /** Threads inside {@link #block}; changed under this object's monitor. */
    private volatile int waiters;
    /** Spreads an outside submitter's tasks over a node's groups; races only skew the spread. */
    int roundRobin;

    TaskGroup(AbstractScheduler scheduler, Statement statement) {
        this.scheduler = scheduler;
        this.statement = statement;
        this.roundRobin = (int) statement.id();
    }

    /** A task without affinity and of class OTHER. */
    public void submit(Task task) {
        scheduler.submit(this, task, Affinity.none(), TaskClass.OTHER, 0);
    }

    public void submit(Task task, Affinity affinity) {
        scheduler.submit(this, task, affinity, TaskClass.OTHER, 0);
    }

    /**
     * Queues a task. Throws IllegalStateException after the scheduler closed, and
     * IllegalArgumentException for an affinity to a node the topology lacks. A task of a
     * cancelled statement is dropped without a word: awaiting the group reports the cancellation.
     */
    public void submit(Task task, Affinity affinity, TaskClass taskClass) {
        scheduler.submit(this, task, affinity, taskClass, 0);
    }

    /**
     * Waits until every task of the group has returned. On a worker thread of the {@link
     * WorkerPoolScheduler} the worker stops counting as working while it waits, so another worker
     * of its group runs in its place.
     *
     * @throws StatementFailedException a task of the statement threw (the cause is what it threw)
     * @throws java.util.concurrent.CancellationException the statement was cancelled (an interrupt
     *         of the waiting thread cancels it too, and the interrupt flag stays set)
     */
    public void await() {
        awaitUntil(false, 0L);
        statement.throwIfUnsuccessful();
    }

    /**
     * After submitting into this group failed part way: cancels the statement and waits for the
     * tasks already submitted, without reporting them, so that none outlives what it reads (a
     * snapshot's parts). The caller then throws what made the submission fail.
     */
    public void abandon() {
        statement.cancel();
        awaitUntil(false, 0L);
    }

    /** {@link #await()} with a time limit: false when tasks are still pending at the deadline. */
    public boolean await(long timeout, TimeUnit unit) {
        if (!awaitUntil(true, System.nanoTime() + unit.toNanos(timeout))) {
            return false;
        }
        statement.throwIfUnsuccessful();
        return true;
    }

    private boolean awaitUntil(boolean timed, long deadline) {
        if (pending() == 0) {
            return true;
        }
        return scheduler.await(this, timed, deadline);
    }

    /** Tasks submitted or spawned into the group that have not returned yet. */
    public long pending() {
        long done = completed.get(); // first: submitted only grows, so the difference is never negative
        return submitted - done;
    }

    public boolean isDone() {
        return pending() == 0;
    }

    public Statement statement() {
        return statement;
    }

    AbstractScheduler scheduler() {
        return scheduler;
    }

    void taskAdded() {
        SUBMITTED.getAndAdd(this, 1L);
    }

    void taskDone() {
        tasksDone(1);
    }

    /** {@code n} tasks returned or were dropped. */
    void tasksDone(int n) {
        long done = completed.add(n);
        // Dekker with waitDrained(): waiters is raised before the counters are read there, so
        // either this sees the waiter or the waiter sees this completion. Of several tasks ending
        // at once, the last to count sees every completion.
        if (waiters > 0 && done == submitted) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /**
     * Blocks the calling thread until the group drains or the deadline passes; true when drained.
     * An interrupt cancels the statement (the caller gives up on it), but the wait goes on until
     * the running tasks have returned, and the interrupt flag is set again on return.
     */
    boolean block(boolean timed, long deadline) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return waitDrained(timed, deadline);
                } catch (InterruptedException e) {
                    interrupted = true;
                    statement.cancel(); // outside the monitor: cancelling completes other groups
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized boolean waitDrained(boolean timed, long deadline) throws InterruptedException {
        waiters++;
        try {
            while (pending() > 0) {
                if (!timed) {
                    wait();
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
            }
            return true;
        } finally {
            waiters--;
        }
    }

    @Override
    public String toString() {
        return "task group of " + statement + ", " + pending() + " pending";
    }
}
