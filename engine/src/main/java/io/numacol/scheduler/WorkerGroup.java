package io.numacol.scheduler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * The thesis's thread group (§5.3; not {@link java.lang.ThreadGroup}): workers of one node, a
 * stealable priority queue and a hard queue (tasks only this node may run), under one lock. The
 * group keeps its active concurrency level (working workers not marked blocked) at its hardware
 * threads: a queued task wakes a parked worker only while the level is below them, and a worker
 * that finds the level above them parks after its task.
 *
 * <p>Submitters do not take the lock: they push onto a lock-free inbox, which a poller moves
 * into the priority queues when they run empty or every so often ({@link #takeArrivalsIfDue}),
 * and a worker about to park always. So the lock is shared by the
 * group's workers only, and a submitter preempted mid-submit (the machine is often
 * oversubscribed with query threads) never holds it. A worker takes a few tasks of one priority
 * per hold of the lock ({@link TaskBatch}).
 */
// working and blocked change only under the lock; volatile for the readers that take no lock
@SuppressWarnings("NonAtomicVolatileUpdate")
final class WorkerGroup {
    /** What became of a task handed to {@link #enqueue}. */
    enum Enqueued {
        QUEUED,
        /** The statement was cancelled: the caller counts the task done. */
        DROPPED_CANCELLED,
        /** The scheduler closed: the task was dropped (and counted done) already. */
        DROPPED_CLOSED
    }


    final WorkerPoolScheduler scheduler;
    final int node;
    final int indexInNode;
    final int hardwareThreads;
    /** The node's CPUs: what a bound worker of this group is restricted to. */
    final BitSet cpus;
    /** Where a worker steals when its own queues are empty, in order (set once, before the first worker runs). */
    WorkerGroup[] sameNode = new WorkerGroup[0];
    WorkerGroup[] remote = new WorkerGroup[0];

    private final int maxWorkers;
    private final ReentrantLock lock = new ReentrantLock();
    static final int TASKS_PER_DRAIN = 64;
    /** Or once this long has passed, so that tasks longer than a few microseconds see every arrival at once. */
    private static final long DRAIN_NANOS = 20_000;
    /**
     * Tasks taken from the queues since the inbox was last drained, and when that was: written
     * under the lock on every poll, read without it as a hint (whether a poll should take the
     * inbox). On cache lines of their own, apart from the queue flags below that every poll of
     * every worker reads.
     */
    private final DrainCounters drain = new DrainCounters();
    private final TaskQueue stealable = new TaskQueue();
    private final TaskQueue hard = new TaskQueue();
    // Whether the queues hold tasks: written under the lock, and only when that changes (so that
    // a queue that stays non-empty does not invalidate the readers' cache line on every task);
    // read without the lock as hints (an empty victim is skipped unlocked).
    private volatile boolean hasStealable;
    private volatile boolean hasHard;
    /** Tasks submitted but not yet in the queues, on cache lines of their own. */
    private final Inbox inbox;
    private volatile int working;
    private volatile int blocked;
    private volatile Worker[] workers = new Worker[0];
    private final ParkingLot parking = new ParkingLot();

    WorkerGroup(WorkerPoolScheduler scheduler, int node, int indexInNode, int hardwareThreads, BitSet cpus, int maxWorkers) {
        this.scheduler = scheduler;
        this.node = node;
        this.indexInNode = indexInNode;
        this.hardwareThreads = hardwareThreads;
        this.cpus = cpus;
        this.maxWorkers = Math.max(maxWorkers, hardwareThreads);
        // a stripe per hardware thread, at least 4 (outside submitters often outnumber the cores), at most 16
        this.inbox = new Inbox(Integer.highestOneBit(Math.clamp(hardwareThreads, 4, 16) * 2 - 1));
    }

    /** Creates one parked worker per hardware thread. */
    void start() {
        lock.lock();
        try {
            for (int i = 0; i < hardwareThreads; i++) {
                createLocked(-1, true);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Started under the lock, so that close() joins every thread it ever created. */
    private void createLocked(int inheritedBoundNode, boolean startParked) {
        addLocked(inheritedBoundNode, startParked).start();
    }

    private Worker addLocked(int inheritedBoundNode, boolean startParked) {
        Worker w = new Worker(this, workers.length, inheritedBoundNode, startParked);
        Worker[] grown = Arrays.copyOf(workers, workers.length + 1);
        grown[workers.length] = w;
        workers = grown;
        if (startParked) {
            pushParkedLocked(w);
        } else {
            working++;
        }
        return w;
    }

    /**
     * For the jcstress tests, whose actor plays the worker: a worker counted as working whose
     * thread is never started.
     */
    Worker addUnstartedWorker() {
        lock.lock();
        try {
            return addLocked(-1, false);
        } finally {
            lock.unlock();
        }
    }

    /** Queues a task; wakes a parked worker if the group runs fewer than its hardware threads. */
    Enqueued enqueue(QueuedTask t) {
        if (t.statement.isCancelled()) {
            return Enqueued.DROPPED_CANCELLED;
        }
        inbox.push(t);
        if (scheduler.isClosed()) {
            // close() may have drained this group before the push: drop what it left behind.
            dropAll();
            return Enqueued.DROPPED_CLOSED;
        }
        // Dekker with parkIfIdle(): it lowers working before it looks at the inbox again.
        if (working - blocked < hardwareThreads) {
            wakeOrCreate();
        }
        return Enqueued.QUEUED;
    }

    private void wakeOrCreate() {
        Worker wake = null;
        lock.lock();
        try {
            if (working - blocked < hardwareThreads && !scheduler.isClosed()) {
                if (!parking.isEmpty()) {
                    wake = popParkedLocked();
                } else if (workers.length < maxWorkers) {
                    // Every worker is waiting or blocked: replace one now rather than at the next watchdog round.
                    createLocked(inheritedBinding(), false);
                }
            }
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
    }

    /**
     * For a poll: the inbox, taken whole and put in arrival order without the lock, when the
     * queues are empty, else once {@value #TASKS_PER_DRAIN} tasks have been taken or {@value
     * #DRAIN_NANOS} ns have passed since the last time; null when it is not due or empty. Every
     * submission writes the inbox's head, and a drain per poll pulled that line and the tasks'
     * over from the submitters' cores for a task or two each time (a third of the workers' time
     * with four outside submitters, tasks of well under a microsecond); a task of a higher
     * priority waits behind at most that many tasks, or that long, and a batch ({@link
     * TaskBatch#MAX}). The walk over the new tasks misses the cache on each, so it is done
     * outside the lock: done under it, the other workers of the group parked on the lock
     * meanwhile (a million parks in eight seconds with four submitters on two cores).
     */
    private QueuedTask takeArrivalsIfDue() {
        // drain.taken and drain.last are read without the lock: a hint, as hasWork is
        if (inbox.isEmpty()
                || (drain.taken < TASKS_PER_DRAIN && (hasStealable || hasHard) && System.nanoTime() - drain.last < DRAIN_NANOS)) {
            return null;
        }
        return inbox.takeAll();
    }

    /**
     * Queues tasks taken by {@link #takeArrivalsIfDue}; under the lock. Until they are queued no
     * other worker can see them, so {@link #afterArrivals} must follow once the lock is let go.
     */
    private void queueArrivalsLocked(QueuedTask oldest) {
        drain.taken = 0;
        drain.last = System.nanoTime();
        queueLocked(oldest);
    }

    /**
     * After tasks taken from the inbox without the lock were queued: a worker that parked while
     * they were in nobody's sight is woken for them (a submitter woke nobody: the poller was
     * working), and if the scheduler closed meanwhile they are dropped as at close.
     */
    private void afterArrivals() {
        if (scheduler.isClosed()) {
            dropAll();
        } else if ((hasStealable || hasHard) && working - blocked < hardwareThreads) {
            wakeOrCreate();
        }
    }

    /** Moves the inbox into the queues, oldest first; under the lock. */
    private void drainInboxLocked() {
        queueLocked(inbox.takeAll());
    }

    private void queueLocked(QueuedTask oldest) {
        if (oldest == null) {
            return;
        }
        for (QueuedTask t = oldest; t != null; ) {
            QueuedTask next = t.next;
            t.next = null;
            (t.affinity.isHard() ? hard : stealable).offer(t);
            t = next;
        }
        if (!hasHard && !hard.isEmpty()) {
            hasHard = true;
        }
        if (!hasStealable && !stealable.isEmpty()) {
            hasStealable = true;
        }
    }

    private boolean hasWork(boolean includeHard) {
        return hasStealable || (includeHard && hasHard) || !inbox.isEmpty();
    }

    /**
     * The node the calling thread is bound to, which a thread it creates inherits; for a thread
     * outside the scheduler {@link Worker#UNKNOWN_BINDING} (the new worker resets its CPU set).
     */
    private int inheritedBinding() {
        Worker caller = scheduler.currentWorker();
        return caller != null ? caller.boundNode() : Worker.UNKNOWN_BINDING;
    }

    /**
     * For a worker's {@link TaskBatch}: the higher-priority head of the two queues into {@code
     * out[0]}, and after it tasks of the same queue and priority while the queue keeps as many
     * for each of the group's other hardware threads; returns how many.
     */
    int pollBatch(QueuedTask[] out, int limit) {
        return pollBatch(out, null, limit, limit);
    }

    /** {@link #pollBatch(QueuedTask[], int)} with {@code limit} for tasks of {@code timed}, {@code otherLimit} for others. */
    int pollBatch(QueuedTask[] out, TaskGroup timed, int limit, int otherLimit) {
        if (!hasWork(true)) {
            return 0;
        }
        QueuedTask arrived = takeArrivalsIfDue();
        int n;
        lock.lock();
        try {
            if (arrived != null) {
                queueArrivalsLocked(arrived);
            }
            n = pollBatchLocked(out, timed, limit, otherLimit);
        } finally {
            lock.unlock();
        }
        if (arrived != null) {
            afterArrivals();
        }
        return n;
    }

    private int pollBatchLocked(QueuedTask[] out, TaskGroup timed, int limit, int otherLimit) {
        QueuedTask first = pollLocked(true);
        if (first == null) {
            return 0;
        }

        out[0] = first;
        int n = 1;
        TaskQueue from = first.affinity.isHard() ? hard : stealable;
        int more = Math.min(first.group == timed ? limit : otherLimit, from.size() / (2 * hardwareThreads));
        if (more > 1) {
            n += from.pollSamePriority(out, 1, more, first);
        }
        if (n > 1) {
            hasHard = !hard.isEmpty();
            hasStealable = !stealable.isEmpty();
        }
        drain.taken += n;
        return n;
    }

    /**
     * Tasks taken back from a worker's batch ({@link TaskBatch#takeBack}) queued again, and a
     * worker woken for them; dropped as at close if the scheduler has closed.
     */
    void requeue(List<QueuedTask> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            for (QueuedTask t : tasks) {
                (t.affinity.isHard() ? hard : stealable).offer(t);
            }
            hasHard = !hard.isEmpty();
            hasStealable = !stealable.isEmpty();
        } finally {
            lock.unlock();
        }
        if (scheduler.isClosed()) {
            dropAll();
        } else if (working - blocked < hardwareThreads) {
            wakeOrCreate();
        }
    }

    /** For a thief: hard tasks only if it is a group of the same node. */
    QueuedTask steal(boolean includeHard) {
        if (!hasWork(includeHard)) {
            return null;
        }
        QueuedTask arrived = takeArrivalsIfDue();
        QueuedTask t;
        lock.lock();
        try {
            if (arrived != null) {
                queueArrivalsLocked(arrived);
            }
            t = pollLocked(includeHard);
            if (t != null) {
                drain.taken++;
            }
        } finally {
            lock.unlock();
        }
        if (arrived != null) {
            afterArrivals();
        }
        return t;
    }

    private QueuedTask pollLocked(boolean includeHard) {
        QueuedTask s = stealable.peek();
        QueuedTask h = includeHard ? hard.peek() : null;
        if (h != null && (s == null || h.compareTo(s) < 0)) {
            hard.poll();
            if (hard.isEmpty()) {
                hasHard = false;
            }
            return h;
        }
        if (s != null) {
            stealable.poll();
            if (stealable.isEmpty()) {
                hasStealable = false;
            }
        }
        return s;
    }

    boolean surplus() {
        return working - blocked > hardwareThreads;
    }

    /** Parks {@code w} if its own queues are empty (checked under the lock: no lost wake-up). */
    boolean parkIfIdle(Worker w) {
        lock.lock();
        try {
            drainInboxLocked();
            if (!stealable.isEmpty() || !hard.isEmpty() || scheduler.isClosed()) {
                return false;
            }
            leaveWorkingLocked(w, Worker.State.PARKED);
            pushParkedLocked(w);
            if (!inbox.isEmpty()) {
                // A submitter pushed before it could see working drop: it may not wake anyone.
                popParkedLocked();
                return false;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Parks {@code w} if the group runs more workers than hardware threads. */
    boolean parkIfSurplus(Worker w) {
        lock.lock();
        try {
            if (working - blocked <= hardwareThreads || scheduler.isClosed()) {
                return false;
            }
            leaveWorkingLocked(w, Worker.State.PARKED);
            pushParkedLocked(w);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code w} is about to wait: it stops counting as working and, if the group has queued tasks,
     * a parked worker is woken or a new one created in its place (thesis: "immediately"). Returns
     * false, leaving {@code w} working, when {@code mayHelp} and the group can neither wake nor
     * create a worker: the caller then runs tasks while it waits.
     */
    boolean goInactive(Worker w, boolean mayHelp) {
        Worker wake = null;
        lock.lock();
        try {
            boolean canReplace = !parking.isEmpty() || workers.length < maxWorkers;
            if (mayHelp && !canReplace && !scheduler.isClosed()) {
                return false;
            }
            leaveWorkingLocked(w, Worker.State.INACTIVE);
            drainInboxLocked();
            if ((!stealable.isEmpty() || !hard.isEmpty()) && working - blocked < hardwareThreads && !scheduler.isClosed()) {
                if (!parking.isEmpty()) {
                    wake = popParkedLocked();
                } else if (workers.length < maxWorkers) {
                    createLocked(inheritedBinding(), false);
                }
            }
            return true;
        } finally {
            lock.unlock();
            if (wake != null) {
                LockSupport.unpark(wake);
            }
        }
    }

    /** {@code w} resumes after a wait; a surplus is shed by parking after the next task. */
    void goActive(Worker w) {
        lock.lock();
        try {
            w.state = Worker.State.WORKING;
            working++;
        } finally {
            lock.unlock();
        }
    }

    void markBlocked(Worker w, QueuedTask seen) {
        lock.lock();
        try {
            if (w.state == Worker.State.WORKING && !w.markedBlocked && w.currentTask() == seen) {
                w.markedBlocked = true;
                blocked++;
            }
        } finally {
            lock.unlock();
        }
    }

    void unmarkBlocked(Worker w) {
        lock.lock();
        try {
            clearBlockedLocked(w);
        } finally {
            lock.unlock();
        }
    }

    private void clearBlockedLocked(Worker w) {
        if (w.markedBlocked) {
            w.markedBlocked = false;
            blocked--;
        }
    }

    private void leaveWorkingLocked(Worker w, Worker.State newState) {
        clearBlockedLocked(w);
        w.state = newState;
        working--;
    }

    private void pushParkedLocked(Worker w) {
        w.wakePermit = false;
        w.state = Worker.State.PARKED;
        parking.push(w);
    }

    /** The most recently parked worker (warmest cache), now counted as working. */
    private Worker popParkedLocked() {
        Worker w = parking.pop();
        working++;
        w.state = Worker.State.WORKING;
        w.wakePermit = true;
        return w;
    }

    /**
     * The watchdog's visit (thesis §5.3): mark workers stuck outside the scheduler as blocked;
     * wake or create workers while the group has tasks and is not saturated; if it is saturated
     * and still has tasks, ask the scheduler to wake idle workers elsewhere to steal them.
     */
    void watch() {
        for (Worker w : workers) {
            w.watchForBlocking();
        }
        List<Worker> wake = new ArrayList<>(0);
        int backlog = 0;
        boolean stealableBacklog = false;
        lock.lock();
        try {
            if (scheduler.isClosed()) {
                return;
            }
            drainInboxLocked();
            int queued = stealable.size() + hard.size();
            int missing = Math.min(queued, hardwareThreads - (working - blocked));
            for (; missing > 0 && !parking.isEmpty(); missing--) {
                wake.add(popParkedLocked());
            }
            for (; missing > 0 && workers.length < maxWorkers; missing--) {
                createLocked(-1, false); // the watchdog thread is unbound, and so are its children
            }
            if (queued > 0 && working - blocked >= hardwareThreads) {
                backlog = queued;
                stealableBacklog = !stealable.isEmpty();
            }
        } finally {
            lock.unlock();
        }
        wake.forEach(LockSupport::unpark);
        if (backlog > 0) {
            scheduler.recruitThieves(this, backlog, stealableBacklog);
        }
    }

    /** Wakes one parked worker if the group is below its hardware threads (so that it steals). */
    boolean wakeIdle() {
        if (parking.size() == 0) {
            return false;
        }
        Worker wake = null;
        lock.lock();
        try {
            if (!parking.isEmpty() && working - blocked < hardwareThreads && !scheduler.isClosed()) {
                wake = popParkedLocked();
            }
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
        return wake != null;
    }

    /** Removes the queued tasks of a cancelled statement. */
    List<QueuedTask> remove(Statement statement) {
        lock.lock();
        try {
            drainInboxLocked();
            List<QueuedTask> removed = stealable.remove(statement);
            removed.addAll(hard.remove(statement));
            hasStealable = !stealable.isEmpty();
            hasHard = !hard.isEmpty();
            return removed;
        } finally {
            lock.unlock();
        }
    }

    /** At close: drops every queued task and lets every parked worker go (the scheduler is closed already). */
    void closeGroup() {
        for (Worker w : workers) {
            requeue(w.batch.takeBack(null)); // the scheduler is closed: dropped
        }
        dropAll();
        List<Worker> wake = new ArrayList<>();
        lock.lock();
        try {
            while (!parking.isEmpty()) {
                wake.add(popParkedLocked());
            }
        } finally {
            lock.unlock();
        }
        wake.forEach(LockSupport::unpark);
    }

    /** Empties inbox and queues; each task's statement is marked cancelled before its group can drain. */
    private void dropAll() {
        List<QueuedTask> dropped = new ArrayList<>();
        lock.lock();
        try {
            drainInboxLocked();
            stealable.drainTo(dropped::add);
            hard.drainTo(dropped::add);
            hasStealable = false;
            hasHard = false;
        } finally {
            lock.unlock();
        }
        for (QueuedTask t : dropped) {
            t.statement.markCancelled();
            t.group.taskDone();
        }
    }

    void exited(Worker w) {
        lock.lock();
        try {
            if (w.state == Worker.State.WORKING) {
                leaveWorkingLocked(w, Worker.State.INACTIVE);
            }
        } finally {
            lock.unlock();
        }
    }

    Worker[] workers() {
        return workers;
    }

    /** For the gauges and tests: tasks in the stealable or the hard queue (the inbox sorted in first). */
    int queueLength(boolean hardQueue) {
        lock.lock();
        try {
            drainInboxLocked();
            return hardQueue ? hard.size() : stealable.size();
        } finally {
            lock.unlock();
        }
    }

    /** The active concurrency level: working workers not blocked. */
    int active() {
        return working - blocked;
    }

    int blocked() {
        return blocked;
    }

    int parked() {
        return parking.size();
    }

    long sum(ToLongFunction<Worker> counter) {
        long total = 0;
        for (Worker w : workers) {
            total += counter.applyAsLong(w);
        }
        return total;
    }

    @Override
    public String toString() {
        return "group n" + node + "-g" + indexInNode + " (" + hardwareThreads + " hardware threads, "
                + workers.length + " workers, " + (working - blocked) + " active, " + parking.size() + " parked)";
    }
}
