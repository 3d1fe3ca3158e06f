package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker thread of one {@link WorkerGroup}, and the {@link TaskContext} of the task it runs.
 *
 * <p>States (thesis §4.1.3), changed under the group's lock: WORKING (running a task or looking
 * for one; counted in the group's concurrency level unless the watchdog marked it blocked),
 * INACTIVE (inside {@link TaskGroup#await()} or {@link TaskContext#inactive}) and PARKED.
 *
 * <p>Binding: a worker binds itself to its node's CPUs before a task with an affinity (any node:
 * a task stolen from another node runs here, so here is where its thread belongs) and stays bound
 * while the next task has one too; before a task without affinity it restores the CPU set the
 * scheduler was created with.
 */
final class Worker extends Thread implements TaskContext {
    private static final System.Logger LOG = System.getLogger(Worker.class.getName());

    /** What a worker does, as its group accounts it (written under the group's lock). */
    enum State {
        /** Counted in the group's working workers: running a task or looking for one. */
        WORKING,
        /** Waiting for a task group (another worker took its place), or exited. */
        INACTIVE,
        /** On the group's parking stack, to be woken by a submission. */
        PARKED
    }

    /** A worker created by a thread outside the scheduler may have inherited any CPU set. */
    static final int UNKNOWN_BINDING = -2;

    /** Where a worker found the task it runs: its own group's queues, another group of its node, another node. */
    private enum Scope { OWN, LOCAL_NODE, REMOTE_NODE }

    /** The running task waits in the {@link BandwidthModel}; read by the watchdog. */
    private volatile boolean inModelledRead;
    /** A worker at the thread cap that waits for a group re-checks for tasks this often. */
    private static final long HELP_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final VarHandle CURRENT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CURRENT = l.findVarHandle(Worker.class, "current", QueuedTask.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final WorkerPoolScheduler scheduler;
    /** See {@link TaskContext#workerSlot()}. */
    private final int slot;
    final WorkerGroup group;

    // Changed under the group's lock; volatile for the watchdog's and the fast path's reads.
    volatile State state;
    volatile boolean markedBlocked;
    volatile boolean wakePermit;
    Worker nextParked;

    // This thread's own.
    private int boundNode;
    private Scope foundScope = Scope.OWN;
    private Scope currentScope = Scope.OWN;

    // Written by this thread only; the watchdog and the meters read them racily (opaque/acquire).
    private QueuedTask current;
    private final WorkerStats stats = new WorkerStats();
    /** Tasks taken from the group's queue with the last one, not yet run (see {@link TaskBatch}). */
    final TaskBatch batch = new TaskBatch();
    /** Tasks of {@code doneGroup} this worker ran and has not counted in it yet ({@link #countDone}). */
    private TaskGroup doneGroup;
    private int doneCount;

    // The watchdog's previous look at this worker (watchdog thread only).
    private QueuedTask seenTask;
    private long seenTasksRun;

    /**
     * @param inheritedBoundNode the node the creating thread was bound to (a new thread inherits
     *                           its creator's CPU set), or -1
     */
    Worker(WorkerGroup group, int index, int inheritedBoundNode, boolean parked) {
        super(null, null, "numacol-worker-n" + group.node + "-g" + group.indexInNode + "-" + index, 0, false);
        setDaemon(true);
        this.scheduler = group.scheduler;
        this.group = group;
        this.slot = group.scheduler.nextWorkerSlot();
        this.boundNode = inheritedBoundNode;
        this.state = parked ? State.PARKED : State.WORKING;
    }

    @Override
    public void run() {
        try {
            if (boundNode == UNKNOWN_BINDING) {
                scheduler.unbind();
                boundNode = -1;
            }
            if (state == State.PARKED) {
                waitForWake();
            } else {
                startBusy();
            }
            loop();
        } finally {
            publishDone();
            stopBusy();
            group.exited(this);
        }
    }

    /** The thesis's worker loop (§5.3): park when surplus, own queues, same node, other nodes, park. */
    private void loop() {
        while (true) {
            if (group.surplus() && handBack() && group.parkIfSurplus(this)) {
                waitForWake();
                continue;
            }
            QueuedTask task = findTask(true);
            if (task != null) {
                runTask(task, foundScope);
                continue;
            }
            if (scheduler.isClosed()) {
                return;
            }
            publishDone();
            if (group.parkIfIdle(this)) {
                waitForWake();
            }
        }
    }

    /**
     * The highest-priority task of the group's two queues; else a task stolen from the other
     * groups of this node, hard queues included; else (if {@code remote}) from the stealable
     * queues of the other nodes' groups, nearest node first.
     */
    private QueuedTask findTask(boolean remote) {
        QueuedTask t = batch.poll(group);
        if (t != null) {
            foundScope = Scope.OWN;
            return t;
        }
        for (WorkerGroup victim : group.sameNode) {
            t = victim.steal(true);
            if (t != null) {
                foundScope = Scope.LOCAL_NODE;
                stats.stolen(false);
                return t;
            }
        }
        if (remote) {
            for (WorkerGroup victim : group.remote) {
                t = victim.steal(false);
                if (t != null) {
                    foundScope = Scope.REMOTE_NODE;
                    stats.stolen(true);
                    return t;
                }
            }
        }
        return null;
    }

    private void runTask(QueuedTask task, Scope scope) {
        Statement statement = task.statement;
        QueuedTask outer = current;
        if (task.group != doneGroup) {
            publishDone(); // this task may run long: its group's count must not wait for it
        }
        if (!statement.isCancelled()) {
            Scope outerScope = currentScope;
            bindFor(task.affinity);
            CURRENT.setRelease(this, task);
            currentScope = scope;
            try {
                task.body.run(this);
            } catch (Throwable t) {
                // The worker lives on for other statements; the statement's awaiting thread gets
                // what the task threw. A VirtualMachineError is logged too: nobody may await it.
                if (t instanceof VirtualMachineError) {
                    LOG.log(System.Logger.Level.ERROR, "a task of statement " + statement.id() + " failed", t);
                }
                statement.taskFailed(t);
            } finally {
                CURRENT.setRelease(this, outer);
                currentScope = outerScope;
                stats.taskRun();
                if (markedBlocked) {
                    group.unmarkBlocked(this);
                }
                if (outer != null) {
                    bindFor(outer.affinity); // a helped task may have changed the binding
                } else {
                    Thread.interrupted(); // a stray interrupt would turn parking into spinning
                }
            }
        }
        countDone(task.group, outer != null);
    }

    /**
     * Counts a task done in its group, or defers the count while the next task of this worker's
     * batch belongs to the same group: the group cannot drain before that task has run, and
     * then both are counted at once. The two workers of a group counting every tiny task on one
     * counter fought over its line. Deferred counts are published before a task of another
     * group (so here any deferred count is {@code g}'s), before any wait or park, and at once
     * for a task run while helping.
     */
    private void countDone(TaskGroup g, boolean nested) {
        doneGroup = g;
        doneCount++;
        if (nested || !batch.nextIsOf(g)) {
            publishDone();
        }
    }

    private void publishDone() {
        if (doneCount > 0) {
            doneGroup.tasksDone(doneCount);
            doneCount = 0;
        }
        doneGroup = null;
    }

    private void bindFor(Affinity affinity) {
        if (affinity.isNone()) {
            if (boundNode >= 0 && scheduler.unbind()) {
                boundNode = -1;
                stats.unbound();
            }
        } else if (boundNode != group.node && scheduler.bind(group.cpus)) {
            boundNode = group.node;
            stats.bound();
        }
    }

    private void waitForWake() {
        stopBusy();
        while (!wakePermit) {
            LockSupport.park(this);
        }
        startBusy();
    }

    /**
     * Waits for {@code g} on this worker: inactive, so that another worker takes its place; or,
     * when the group may create no more threads, running tasks of this node until {@code g}
     * drains, so that nested waits cannot exhaust the workers.
     */
    boolean awaitGroup(TaskGroup g, boolean timed, long deadline) {
        handBack(); // the awaited tasks may be among them
        if (group.goInactive(this, true)) {
            stopBusy();
            try {
                return g.block(timed, deadline);
            } finally {
                group.goActive(this);
                startBusy();
            }
        }
        try {
            while (g.pending() > 0) {
                long now = System.nanoTime();
                if (timed && deadline - now <= 0) {
                    return false;
                }
                QueuedTask t = findTask(false);
                if (t != null) {
                    runTask(t, foundScope);
                } else {
                    g.block(true, timed && deadline - now < HELP_POLL_NANOS ? deadline : now + HELP_POLL_NANOS);
                }
            }
            return true;
        } finally {
            handBack(); // a batch taken while helping: the waiting task goes on, and may run long
        }
    }

    @Override
    public <T> T inactive(Callable<T> region) throws Exception {
        task();
        handBack();
        group.goInactive(this, false);
        stopBusy();
        try {
            return region.call();
        } finally {
            group.goActive(this);
            startBusy();
        }
    }

    /** Called by the watchdog: a worker stuck in one task and not runnable counts as blocked. */
    void watchForBlocking() {
        QueuedTask t = (QueuedTask) CURRENT.getAcquire(this);
        long run = stats.tasksRun();
        if (t != null && t == seenTask && run == seenTasksRun && state == State.WORKING && !markedBlocked && !inModelledRead) {
            Thread.State s = getState();
            if (s == Thread.State.BLOCKED || s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                group.markBlocked(this, t);
                // the task may be waiting for one of them: the group's other workers run them
                group.requeue(batch.takeBack(null));
            }
        }
        seenTask = t;
        seenTasksRun = run;
    }

    /**
     * Before this worker waits or parks: its deferred task counts published, and its batch's
     * tasks given back to its group's queue; true, for use in a condition.
     */
    private boolean handBack() {
        publishDone();
        group.requeue(batch.takeBack(null));
        return true;
    }

    QueuedTask currentTask() {
        return (QueuedTask) CURRENT.getAcquire(this);
    }

    int boundNode() {
        return boundNode;
    }

    private void startBusy() {
        stats.startBusy();
    }

    private void stopBusy() {
        stats.stopBusy();
    }

    long busyNanos() {
        return stats.busyNanos();
    }

    long tasksRun() {
        return stats.tasksRun();
    }

    long stolenLocal() {
        return stats.stolenLocal();
    }

    long stolenRemote() {
        return stats.stolenRemote();
    }

    long binds() {
        return stats.binds();
    }

    long unbinds() {
        return stats.unbinds();
    }

    // ---- TaskContext: valid only on this thread, inside a task ----

    private QueuedTask task() {
        QueuedTask t = current;
        if (t == null || Thread.currentThread() != this) {
            throw new IllegalStateException("a TaskContext is valid only inside its task, on its worker");
        }
        return t;
    }

    @Override
    public Statement statement() {
        return task().statement;
    }

    @Override
    public TaskGroup taskGroup() {
        return task().group;
    }

    @Override
    public Affinity affinity() {
        return task().affinity;
    }

    @Override
    public TaskClass taskClass() {
        return task().taskClass;
    }

    @Override
    public long busyClock() {
        return BusyClock.now();
    }

    @Override
    public long recordRead(int node, long bytes, long startBusy) {
        BandwidthModel model = scheduler.bandwidthModel();
        long stalled = 0;
        if (model != null) {
            // a modelled memory stall keeps the core, as a real one does: not blocked, so the
            // watchdog starts no worker in its place
            inModelledRead = true;
            long before = System.nanoTime();
            try {
                model.read(node, bytes, group.node);
            } finally {
                inModelledRead = false;
            }
            stalled = System.nanoTime() - before;
        }
        long nanos = BusyClock.since(startBusy, stalled);
        if (currentScope == Scope.REMOTE_NODE) {
            // As the thesis (§6.2): stealing is a stopgap until the data is placed better, so a
            // task stolen from another node counts for neither node, and a node whose workers
            // steal does not look busy with the other's data.
            return -1;
        }
        scheduler.dataUsage().record(node, bytes, nanos, task().taskClass);
        return nanos;
    }

    @Override
    public int node() {
        return group.node;
    }

    @Override
    public int workerGroup() {
        return group.indexInNode;
    }

    @Override
    public int workerSlot() {
        return slot;
    }

    @Override
    public String workerName() {
        return getName();
    }

    @Override
    public boolean stolen() {
        task();
        return currentScope != Scope.OWN;
    }

    @Override
    public boolean bound() {
        task();
        return boundNode >= 0;
    }

    @Override
    public boolean isCancelled() {
        return task().statement.isCancelled();
    }

    @Override
    public int concurrencyHint() {
        return scheduler.concurrencyHint();
    }

    @Override
    public void spawn(Task child) {
        QueuedTask t = task();
        scheduler.submit(t.group, child, Affinity.none(), t.taskClass, t.depth + 1);
    }

    @Override
    public void spawn(Task child, Affinity affinity) {
        QueuedTask t = task();
        scheduler.submit(t.group, child, affinity, t.taskClass, t.depth + 1);
    }

    @Override
    public void spawn(TaskGroup into, Task child, Affinity affinity, TaskClass taskClass) {
        scheduler.submit(into, child, affinity, taskClass, task().depth + 1);
    }
}
