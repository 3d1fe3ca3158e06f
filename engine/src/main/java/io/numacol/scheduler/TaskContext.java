package io.numacol.scheduler;

import java.util.concurrent.Callable;

/**
 * What a running task sees of the scheduler: where it runs, its statement and stage, and how to
 * spawn children. Valid only on the worker thread, inside the task's {@link Task#run}.
 */
public interface TaskContext {

    Statement statement();

    /** The stage the task belongs to. */
    TaskGroup taskGroup();

    /** The affinity the task was queued with (after its statement's steal policy). */
    Affinity affinity();

    TaskClass taskClass();

    /** The NUMA node of the worker running the task. */
    int node();

    /** The index, within its node, of the running worker's WorkerGroup. */
    int workerGroup();

    /**
     * The running worker's number, dense from 0 over all workers the scheduler ever made and
     * never reused: an operator keeps per-worker state in an array indexed by it (a worker runs
     * one task at a time, so a task owns its worker's state while it runs, if it never waits for
     * other tasks inside). An inline scheduler, which runs a statement's tasks one after another
     * on the submitting thread, answers 0.
     */
    int workerSlot();

    String workerName();

    /** Whether the worker took the task from another group's queue (of this node or another). */
    boolean stolen();

    /** Whether the worker is bound to its node's CPUs while it runs this task. */
    boolean bound();

    /** The statement was cancelled or failed: a long task should return early. */
    boolean isCancelled();

    /**
     * The running worker's busy clock in nanoseconds: its thread's CPU time where the JVM measures
     * it (time the task spent waiting for other tasks, or preempted, is not the node's work),
     * else the wall clock. A task passes a reading to {@link #recordRead}.
     */
    long busyClock();

    /**
     * Reports that the task, since {@code startBusy} (a {@link #busyClock} reading), read {@code
     * bytes} of data held on {@code node} (-1: interleaved over all nodes), into the scheduler's
     * {@link DataUsage}; under a {@link BandwidthModel} first waits for the node to serve them,
     * and that wait counts as busy (a stalled core is not free). Returns the task's busy time,
     * or -1 when the task does not count: a worker of another node than the task's stole it.
     */
    long recordRead(int node, long bytes, long startBusy);

    /** The scheduler's concurrency hint: how many tasks a partitionable operator should create. */
    int concurrencyHint();

    /** A child in this task's group, without affinity (it queues in this worker's group). */
    void spawn(Task child);

    /** A child in this task's group with an affinity. */
    void spawn(Task child, Affinity affinity);

    /** A child in any group of this scheduler (another stage, or another statement's). */
    void spawn(TaskGroup into, Task child, Affinity affinity, TaskClass taskClass);

    /**
     * Runs {@code region} with this worker counted as inactive (the thesis's "inactive by
     * user"): another worker of the group may run meanwhile. For blocking calls that are not
     * {@link TaskGroup#await()}, which does this by itself.
     */
    <T> T inactive(Callable<T> region) throws Exception;
}
