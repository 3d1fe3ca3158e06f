package io.numacol.scheduler;

import io.micrometer.core.instrument.MeterRegistry;
import io.numacol.linux.Libc;
import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * numacol's NUMA-aware task scheduler (thesis §4.1 and §5.3), named for what sets it apart from
 * the {@link InlineScheduler}: it runs tasks on a pool of worker threads of its own.
 * {@link SchedulerConfig#groupsPerNode()} WorkerGroups per node, each with a stealable and a hard
 * priority queue and workers that bind to the node's CPUs for tasks with an affinity; a watchdog
 * thread that keeps every group's active concurrency level at its hardware threads and samples
 * the concurrency hint. This is the scheduler a database runs on unless told otherwise.
 *
 * <p>Where a task is queued: with an affinity for node k, in a group of node k (the caller's, if
 * it is a worker of node k; else the groups of k in turn); without affinity, in the calling
 * worker's group, or in all groups in turn for a thread outside the scheduler. A node without
 * CPUs (a memory-only node) has no workers: tasks for it queue on the nearest node with CPUs.
 *
 * <p>{@link #close()} is orderly: it refuses new work, drops queued tasks (their statements are
 * cancelled, so their awaiters get a CancellationException), lets running tasks return, and joins
 * every thread it started.
 */
public final class WorkerPoolScheduler extends AbstractScheduler {
    private static final System.Logger LOG = System.getLogger(WorkerPoolScheduler.class.getName());

    private final WorkerGroup[] groups;
    /** Per node id: the groups that run its tasks (its own, or the nearest node's when it has no CPUs). */
    private final WorkerGroup[][] groupsOfNode;
    private final int hardwareThreads;
    /** The CPU set restored when a worker unbinds: the creating thread's, read once. */
    private final BitSet originalCpus;
    private volatile boolean bindingEnabled;
    private final ConcurrencyHint hint;
    private final Thread watchdog;
    private final SchedulerMetrics metrics;
    private final AtomicBoolean closing = new AtomicBoolean();
    /** The next {@link TaskContext#workerSlot()}: workers are never removed, so slots stay few. */
    private final AtomicInteger workerSlots = new AtomicInteger();
    private volatile boolean closed;

    public WorkerPoolScheduler(Topology topology, SchedulerConfig config) {
        this(topology, config, true);
    }

    /**
     * @param startThreads false only for the jcstress tests, which build their own WorkerGroups on
     *                     this scheduler and play the workers themselves: no worker and no watchdog
     *                     thread is started, so nothing runs a task
     */
    WorkerPoolScheduler(Topology topology, SchedulerConfig config, boolean startThreads) {
        super(topology, config);
        BitSet original = null;
        try {
            original = Libc.getAffinity();
        } catch (RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "numacol workers will not bind to nodes: cannot read the CPU affinity", e);
        }
        this.originalCpus = original;
        this.bindingEnabled = original != null;

        List<WorkerGroup> all = new ArrayList<>();
        WorkerGroup[][] own = new WorkerGroup[topology.nodeCount()][];
        for (NumaNode n : topology.nodes()) {
            int[] cpus = n.cpus();
            if (cpus.length == 0) {
                continue;
            }
            own[n.id()] = new WorkerGroup[config.groupsPerNode()];
            for (int g = 0; g < config.groupsPerNode(); g++) {
                WorkerGroup group = new WorkerGroup(this, n.id(), g, groupThreads(cpus.length, config.groupsPerNode(), g), n.cpuSet(),
                        config.maxWorkersPerGroup());
                own[n.id()][g] = group;
                all.add(group);
            }
        }
        if (all.isEmpty()) {
            throw new IllegalArgumentException("topology has no node with CPUs: " + topology);
        }
        this.groups = all.toArray(WorkerGroup[]::new);
        this.groupsOfNode = new WorkerGroup[topology.nodeCount()][];
        for (NumaNode n : topology.nodes()) {
            groupsOfNode[n.id()] = own[n.id()] != null ? own[n.id()] : own[nearestWithCpus(topology, n)];
        }
        for (WorkerGroup g : groups) {
            g.sameNode = stealOrderSameNode(g);
            g.remote = stealOrderRemote(g);
        }
        this.hardwareThreads = all.stream().mapToInt(g -> g.hardwareThreads).sum();
        this.hint = new ConcurrencyHint(hardwareThreads);
        this.metrics = new SchedulerMetrics(this, config.meterRegistry());
        this.watchdog = new Thread(null, this::watchdogLoop, "numacol-watchdog", 0, false);
        watchdog.setDaemon(true);
        if (startThreads) {
            for (WorkerGroup g : groups) {
                g.start();
            }
            watchdog.start();
        }
    }

    /** The other groups of the node, starting after this one so that thieves spread out. */
    private WorkerGroup[] stealOrderSameNode(WorkerGroup g) {
        WorkerGroup[] mine = groupsOfNode[g.node];
        WorkerGroup[] order = new WorkerGroup[mine.length - 1];
        for (int i = 1; i < mine.length; i++) {
            order[i - 1] = mine[(g.indexInNode + i) % mine.length];
        }
        return order;
    }

    /** Groups of the other nodes, nearest first; equally near nodes in turn from this node on. */
    private WorkerGroup[] stealOrderRemote(WorkerGroup g) {
        int nodes = topology.nodeCount();
        NumaNode home = topology.node(g.node);
        return Arrays.stream(groups).filter(o -> o.node != g.node)
                .sorted(Comparator.comparingInt((WorkerGroup o) -> home.distanceTo(o.node))
                        .thenComparingInt(o -> Math.floorMod(o.node - g.node, nodes))
                        .thenComparingInt(o -> Math.floorMod(o.indexInNode - g.indexInNode, config.groupsPerNode())))
                .toArray(WorkerGroup[]::new);
    }

    /** The thesis's concurrency hint: at most this many tasks per partitionable operator (at least 1). */
    @Override
    public int concurrencyHint() {
        return hint.tasks();
    }

    /** The hint's exact current value. */
    public double concurrencyHintValue() {
        return hint.value();
    }

    public int hardwareThreads() {
        return hardwareThreads;
    }

    /** Where the scheduler's meters are: the configured registry, or its private simple one. */
    @Override
    public MeterRegistry meterRegistry() {
        return metrics.registry();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    void submit(TaskGroup into, Task body, Affinity requested, TaskClass taskClass, int depth) {
        Affinity affinity = admit(into, body, requested, taskClass);
        WorkerGroup target = target(affinity, currentWorker(), into);
        QueuedTask task = new QueuedTask(body, into, affinity, taskClass, depth);
        into.taskAdded();
        WorkerGroup.Enqueued outcome = target.enqueue(task);
        if (outcome == WorkerGroup.Enqueued.DROPPED_CANCELLED) {
            into.taskDone();
        } else if (outcome == WorkerGroup.Enqueued.DROPPED_CLOSED) {
            throw closedException("submit a task");
        }
    }

    /** On a worker, the worker waits (inactive, or helping at the thread cap); any other thread blocks. */
    @Override
    boolean await(TaskGroup group, boolean timed, long deadline) {
        Worker worker = currentWorker();
        return worker != null ? worker.awaitGroup(group, timed, deadline) : group.block(timed, deadline);
    }

    private WorkerGroup target(Affinity affinity, Worker caller, TaskGroup into) {
        WorkerGroup[] candidates;
        if (affinity.isNone()) {
            if (caller != null) {
                return caller.group;
            }
            candidates = groups;
        } else {
            candidates = groupsOfNode[affinity.node()];
            if (caller != null && caller.group.node == candidates[0].node) {
                return caller.group;
            }
        }
        return candidates.length == 1 ? candidates[0] : candidates[Math.floorMod(into.roundRobin++, candidates.length)];
    }

    /** Drops a cancelled statement's queued tasks from every queue. */
    @Override
    void purge(Statement statement) {
        for (WorkerGroup g : groups) {
            for (QueuedTask t : g.remove(statement)) {
                t.group.taskDone();
            }
            for (Worker w : g.workers()) {
                for (QueuedTask t : w.batch.takeBack(statement)) {
                    t.group.taskDone();
                }
            }
        }
    }

    /** The saturated group {@code from} has {@code backlog} queued tasks: wake idle workers that may steal them. */
    void recruitThieves(WorkerGroup from, int backlog, boolean stealable) {
        int wanted = backlog;
        for (WorkerGroup g : from.sameNode) {
            while (wanted > 0 && g.wakeIdle()) {
                wanted--;
            }
        }
        if (stealable) {
            for (WorkerGroup g : from.remote) {
                while (wanted > 0 && g.wakeIdle()) {
                    wanted--;
                }
            }
        }
    }

    Worker currentWorker() {
        return Thread.currentThread() instanceof Worker w && w.scheduler == this ? w : null;
    }

    /** Restricts the calling worker to {@code cpus}; false (and binding off, logged once) if the kernel refuses. */
    boolean bind(BitSet cpus) {
        return bindingEnabled && setAffinity(cpus);
    }

    boolean unbind() {
        return bindingEnabled && setAffinity(originalCpus);
    }

    private boolean setAffinity(BitSet cpus) {
        try {
            Libc.setAffinity(cpus);
            return true;
        } catch (RuntimeException e) {
            if (bindingEnabled) {
                bindingEnabled = false;
                LOG.log(System.Logger.Level.WARNING, "numacol workers stop binding to nodes: " + e.getMessage());
            }
            return false;
        }
    }

    private void watchdogLoop() {
        long watchPeriod = config.watchdogPeriod().toNanos();
        long hintPeriod = config.hintPeriod().toNanos();
        long nextWatch = System.nanoTime() + watchPeriod;
        long nextHint = System.nanoTime() + hintPeriod;
        while (!closed) {
            long now = System.nanoTime();
            long wait = Math.min(nextWatch - now, nextHint - now);
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
                continue;
            }
            try {
                if (nextWatch - now <= 0) {
                    for (WorkerGroup g : groups) {
                        g.watch();
                    }
                    nextWatch = now + watchPeriod;
                }
                if (nextHint - now <= 0) {
                    sampleHint();
                    nextHint = now + hintPeriod;
                }
            } catch (OutOfMemoryError e) {
                // A statement filled the heap (Calcite's row operators, say) and fails with it; its
                // rows are garbage once it unwinds, and the scheduler must still be watched then.
                LOG.log(System.Logger.Level.ERROR, "numacol watchdog round failed", e);
            } catch (VirtualMachineError e) {
                // The JVM is failing (an internal error): not to be carried on from.
                LOG.log(System.Logger.Level.ERROR, "numacol watchdog stopped", e);
                throw e;
            } catch (RuntimeException | Error e) {
                // The watchdog keeps the scheduler live; one bad round must not end it.
                LOG.log(System.Logger.Level.ERROR, "numacol watchdog round failed", e);
            }
        }
    }

    void sampleHint() {
        int free = 0;
        for (WorkerGroup g : groups) {
            free += ConcurrencyHint.free(g.hardwareThreads, g.active());
        }
        hint.sample(free);
    }

    WorkerGroup[] groups() {
        return groups;
    }

    /**
     * Refuses new work, drops the queued tasks (cancelling their statements), lets the running
     * tasks return, stops the watchdog and the workers and waits for their threads to end.
     *
     * @throws IllegalStateException when called from a task of this scheduler (it would wait for itself)
     */
    @Override
    public void close() {
        if (currentWorker() != null) {
            throw new IllegalStateException("close() called from a task of this scheduler: it would wait for its own worker");
        }
        if (closing.compareAndSet(false, true)) {
            closed = true;
            for (WorkerGroup g : groups) {
                g.closeGroup();
            }
            LockSupport.unpark(watchdog);
        }
        boolean interrupted = false;
        List<Thread> threads = new ArrayList<>(List.of(watchdog));
        for (WorkerGroup g : groups) {
            threads.addAll(List.of(g.workers()));
        }
        for (Thread t : threads) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        metrics.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "numacol scheduler on " + topology + ": " + groups.length + " groups, " + hardwareThreads
                + " hardware threads, " + config.stealPolicy() + (closed ? ", closed" : "");
    }

    int nextWorkerSlot() {
        return workerSlots.getAndIncrement();
    }
}
