package io.numacol.scheduler;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;

/**
 * A scheduler that runs every task on the thread that submits it, at once (Hyrise's
 * {@code ImmediateExecutionScheduler}): a submission returns when its task has returned, and a
 * task's {@link TaskContext#spawn spawn} when the child has. Tasks thus run one after another in
 * the order they are submitted, each child inside its parent's spawn call, all on the submitter's
 * stack.
 *
 * <p>What it is for: deterministic tests, whose runs repeat exactly whatever the machine's
 * threads do, and debugging with a single stack, where a breakpoint or a stack trace shows the
 * whole path from the query down to the task that failed. A whole database runs on it with the
 * connection property {@code scheduler=inline}.
 *
 * <p>What callers rely on behaves as on the {@link WorkerPoolScheduler}: statements and task
 * groups and awaiting them; cancellation (a cancelled statement's later tasks are dropped at
 * submission, a running task sees {@link TaskContext#isCancelled()}); a task's exception failing
 * its statement, surfacing from {@link TaskGroup#await()} as a {@link StatementFailedException}
 * (a VirtualMachineError as itself) while the submission itself returns; a closed scheduler
 * refusing work, and {@link #close()} from a task refused; the steal policy turning the affinity
 * asked for into the one {@link TaskContext#affinity()} reports; reads recorded in {@link
 * #dataUsage()}, under the bandwidth model when configured; a {@code tasks.run} meter.
 *
 * <p>What it does not do: run anything in parallel; queue, order by priority or steal (a task
 * runs when it is submitted, whatever its statement's priority); bind (a task runs with the
 * caller's CPU set, and its {@link TaskContext#node()} is the node its affinity names, as if it
 * ran there, else its parent's, else the first node with CPUs); watch for blocked tasks; sample a
 * concurrency hint: {@link #concurrencyHint()} is fixed at what an idle worker pool on the same
 * topology reports, so that operators cut their work into the same tasks as there.
 *
 * <p>Waiting: a stage a task awaits has drained already, unless a task of it runs beneath the
 * waiter on the same stack (the waiter's own stage, or the stage of a task that spawned it). The
 * wait could then never end, so it is refused with an IllegalStateException, which fails the
 * waiting task's statement; on the worker pool a wait for a spawner's stage may end once the
 * spawner returns, so such task graphs run there only. A stage that tasks on other threads are
 * running in is waited for as on the worker pool.
 */
public final class InlineScheduler extends AbstractScheduler {
    private static final System.Logger LOG = System.getLogger(InlineScheduler.class.getName());
    /** The innermost task running on this thread (of any inline scheduler); the others through {@link Frame#below}. */
    private static final ThreadLocal<Frame> RUNNING = new ThreadLocal<>();

    private final int hint;
    /** Per node: the node its tasks count as running on (itself, or the nearest node with CPUs). */
    private final int[] runsOn;
    private final int firstNodeWithCpus;
    private final LongAdder tasksRun = new LongAdder();
    private final MeterRegistry registry;
    private final boolean ownRegistry;
    private final List<Meter> meters = new ArrayList<>();
    /** Guards {@link #running} and the change of {@link #closed}; close() waits on it. */
    private final Object lock = new Object();
    /** Tasks running now, on any thread. */
    private int running;
    private volatile boolean closed;

    public InlineScheduler(Topology topology, SchedulerConfig config) {
        super(topology, config);
        int threads = 0;
        int first = -1;
        this.runsOn = new int[topology.nodeCount()];
        for (int id = 0; id < topology.nodeCount(); id++) {
            NumaNode n = topology.node(id);
            int cpus = n.cpus().length;
            runsOn[id] = cpus > 0 ? id : -1;
            if (cpus > 0) {
                first = first < 0 ? id : first;
                for (int g = 0; g < config.groupsPerNode(); g++) {
                    threads += groupThreads(cpus, config.groupsPerNode(), g);
                }
            }
        }
        if (first < 0) {
            throw new IllegalArgumentException("topology has no node with CPUs: " + topology);
        }
        for (int id = 0; id < runsOn.length; id++) {
            if (runsOn[id] < 0) {
                runsOn[id] = nearestWithCpus(topology, topology.node(id));
            }
        }
        this.firstNodeWithCpus = first;
        this.hint = threads;
        this.ownRegistry = config.meterRegistry() == null;
        this.registry = ownRegistry ? new SimpleMeterRegistry() : config.meterRegistry();
        meters.add(FunctionCounter.builder(SchedulerMetrics.PREFIX + "tasks.run", tasksRun, LongAdder::sum)
                .description("tasks run inline, on the threads that submitted them").register(registry));
        int fixedHint = threads;
        meters.add(Gauge.builder(SchedulerMetrics.PREFIX + "concurrency.hint", () -> fixedHint)
                .description("the concurrency hint: fixed, as an idle worker pool reports it").register(registry));
    }

    /** The hardware threads an idle {@link WorkerPoolScheduler} on this topology and config would report. */
    @Override
    public int concurrencyHint() {
        return hint;
    }

    /** Where the scheduler's meters are: the configured registry, or its private simple one. */
    @Override
    public MeterRegistry meterRegistry() {
        return registry;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** Runs the task now, on this thread; returns once it has (or when its statement is cancelled). */
    @Override
    void submit(TaskGroup into, Task body, Affinity requested, TaskClass taskClass, int depth) {
        Affinity affinity = admit(into, body, requested, taskClass);
        Statement statement = into.statement();
        into.taskAdded();
        if (statement.isCancelled()) {
            into.taskDone(); // dropped, as the worker pool drops it: awaiting the group reports the cancellation
            return;
        }
        if (!enter()) {
            into.taskDone();
            throw closedException("submit a task");
        }
        Frame below = RUNNING.get();
        Frame frame = new Frame(into, affinity, taskClass, nodeOf(affinity, below), below);
        RUNNING.set(frame);
        try {
            body.run(frame);
        } catch (Throwable t) {
            // As on a worker: the submitter carries on, and whoever awaits the group gets what the
            // task threw. A VirtualMachineError is logged too: nobody may await it.
            if (t instanceof VirtualMachineError) {
                LOG.log(System.Logger.Level.ERROR, "a task of statement " + statement.id() + " failed", t);
            }
            statement.taskFailed(t);
        } finally {
            frame.done = true;
            if (below == null) {
                RUNNING.remove();
            } else {
                RUNNING.set(below);
            }
            tasksRun.increment();
            into.taskDone();
            leave();
        }
    }

    private int nodeOf(Affinity affinity, Frame below) {
        if (!affinity.isNone()) {
            return runsOn[affinity.node()];
        }
        return below != null && below.of(this) ? below.node : firstNodeWithCpus;
    }

    /** Nothing is queued: a cancelled statement's later tasks are dropped at submission. */
    @Override
    void purge(Statement statement) {
    }

    /**
     * Every task this thread submitted has returned; so a group still pending has tasks running
     * beneath the waiter (refused) or on other threads (waited for).
     */
    @Override
    boolean await(TaskGroup group, boolean timed, long deadline) {
        for (Frame f = RUNNING.get(); f != null; f = f.below) {
            if (f.group == group) {
                throw new IllegalStateException("a task awaits " + group + ", in which a task runs beneath it on the"
                        + " inline scheduler's stack (its own, or one that spawned it): the wait would never end");
            }
        }
        return group.block(timed, deadline);
    }

    private boolean enter() {
        synchronized (lock) {
            if (closed) {
                return false;
            }
            running++;
            return true;
        }
    }

    private void leave() {
        synchronized (lock) {
            running--;
            if (running == 0 && closed) {
                lock.notifyAll();
            }
        }
    }

    /**
     * Refuses new work and returns once the tasks running on other threads have returned; removes
     * the meters.
     *
     * @throws IllegalStateException when called from a task of this scheduler (it would wait for itself)
     */
    @Override
    public void close() {
        for (Frame f = RUNNING.get(); f != null; f = f.below) {
            if (f.of(this)) {
                throw new IllegalStateException("close() called from a task of this scheduler: it would wait for its own task");
            }
        }
        boolean interrupted = false;
        synchronized (lock) {
            closed = true;
            while (running > 0) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            meters.forEach(registry::remove);
            meters.clear();
        }
        if (ownRegistry) {
            registry.close();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "numacol inline scheduler on " + topology + ", " + config.stealPolicy() + (closed ? ", closed" : "");
    }

    /** A task running on its submitter's thread, and its {@link TaskContext}. */
    private final class Frame implements TaskContext {
        final TaskGroup group;
        final Affinity affinity;
        final TaskClass taskClass;
        final int node;
        /** The task this one runs inside of on the same thread, or null. */
        final Frame below;
        final Thread thread = Thread.currentThread();
        /** Written and read by {@link #thread} only. */
        boolean done;

        Frame(TaskGroup group, Affinity affinity, TaskClass taskClass, int node, Frame below) {
            this.group = group;
            this.affinity = affinity;
            this.taskClass = taskClass;
            this.node = node;
            this.below = below;
        }

        boolean of(InlineScheduler scheduler) {
            return InlineScheduler.this == scheduler;
        }

        private Frame check() {
            if (Thread.currentThread() != thread || done) {
                throw new IllegalStateException("a TaskContext is valid only inside its task, on the thread that runs it");
            }
            return this;
        }

        @Override
        public Statement statement() {
            return check().group.statement();
        }

        @Override
        public TaskGroup taskGroup() {
            return check().group;
        }

        @Override
        public Affinity affinity() {
            return check().affinity;
        }

        @Override
        public TaskClass taskClass() {
            return check().taskClass;
        }

        @Override
        public int node() {
            return node;
        }

        /** No worker groups: always 0. */
        @Override
        public int workerGroup() {
            return 0;
        }

        @Override
        public int workerSlot() {
            return 0;
        }

        /** The submitting thread's name. */
        @Override
        public String workerName() {
            return thread.getName();
        }

        @Override
        public boolean stolen() {
            check();
            return false;
        }

        @Override
        public boolean bound() {
            check();
            return false;
        }

        @Override
        public boolean isCancelled() {
            return check().group.statement().isCancelled();
        }

        @Override
        public long busyClock() {
            return BusyClock.now();
        }

        /** Never stolen, so every read counts, as the worker pool counts a read of its own node's worker. */
        @Override
        public long recordRead(int dataNode, long bytes, long startBusy) {
            check();
            BandwidthModel model = bandwidthModel();
            long stalled = 0;
            if (model != null) {
                long before = System.nanoTime();
                model.read(dataNode, bytes, node);
                stalled = System.nanoTime() - before;
            }
            long nanos = BusyClock.since(startBusy, stalled);
            dataUsage().record(dataNode, bytes, nanos, taskClass);
            return nanos;
        }

        @Override
        public int concurrencyHint() {
            return hint;
        }

        @Override
        public void spawn(Task child) {
            submit(check().group, child, Affinity.none(), taskClass, 0);
        }

        @Override
        public void spawn(Task child, Affinity affinity) {
            submit(check().group, child, affinity, taskClass, 0);
        }

        @Override
        public void spawn(TaskGroup into, Task child, Affinity affinity, TaskClass taskClass) {
            check();
            submit(into, child, affinity, taskClass, 0);
        }

        @Override
        public <T> T inactive(Callable<T> region) throws Exception {
            check();
            return region.call();
        }
    }
}
