package io.numacol.scheduler;

import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.util.Comparator;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What both schedulers share, and what {@link Statement}, {@link TaskGroup} and the task contexts
 * need of a scheduler beyond the public {@link Scheduler}: submitting, purging and awaiting stay
 * package-private here, so that the interface holds only what callers use.
 */
abstract sealed class AbstractScheduler implements Scheduler permits WorkerPoolScheduler, InlineScheduler {
    final Topology topology;
    final SchedulerConfig config;
    private final AtomicLong statementIds = new AtomicLong();
    private final DataUsage dataUsage;
    /** Null unless the config asks for the model (fake topologies). */
    private final BandwidthModel bandwidthModel;

    AbstractScheduler(Topology topology, SchedulerConfig config) {
        this.topology = Objects.requireNonNull(topology, "topology");
        this.config = Objects.requireNonNull(config, "config");
        this.dataUsage = new DataUsage(topology.nodeCount());
        this.bandwidthModel = config.nodeBandwidth() == 0 ? null : new BandwidthModel(topology.nodeCount(), config.nodeBandwidth());
    }

    @Override
    public final Statement newStatement(int userPriority, StealPolicy stealPolicy) {
        checkOpen("start a statement");
        return new Statement(this, statementIds.getAndIncrement(), userPriority, stealPolicy);
    }

    @Override
    public final DataUsage dataUsage() {
        return dataUsage;
    }

    @Override
    public final BandwidthModel bandwidthModel() {
        return bandwidthModel;
    }

    @Override
    public final Topology topology() {
        return topology;
    }

    public final SchedulerConfig config() {
        return config;
    }

    /** Runs {@code body} in {@code into} (queued, or at once), or drops it if its statement is cancelled. */
    abstract void submit(TaskGroup into, Task body, Affinity requested, TaskClass taskClass, int depth);

    /** Drops a cancelled statement's queued tasks. */
    abstract void purge(Statement statement);

    /** Waits until {@code group} drains or the deadline passes, on the calling thread; true when drained. */
    abstract boolean await(TaskGroup group, boolean timed, long deadline);

    /**
     * The checks of a submission, in the order callers see their exceptions; returns the affinity
     * the task gets under its statement's steal policy.
     */
    final Affinity admit(TaskGroup into, Task body, Affinity requested, TaskClass taskClass) {
        Objects.requireNonNull(into, "task group");
        Objects.requireNonNull(body, "task");
        Objects.requireNonNull(requested, "affinity");
        Objects.requireNonNull(taskClass, "task class");
        if (into.scheduler() != this) {
            throw new IllegalArgumentException(into + " belongs to another scheduler");
        }
        if (requested.node() >= topology.nodeCount()) {
            topology.checkNode(requested.node()); // throws, naming the node and the topology
        }
        checkOpen("submit a task");
        return into.statement().stealPolicy().apply(requested, taskClass, config.hardAffinityAdvisor());
    }

    final void checkOpen(String what) {
        if (isClosed()) {
            throw closedException(what);
        }
    }

    final IllegalStateException closedException(String what) {
        return new IllegalStateException("cannot " + what + ": the scheduler is closed");
    }

    /** Hardware threads of group {@code g} of a node with {@code cpus} CPUs shared out over {@code groups} groups: at least one. */
    static int groupThreads(int cpus, int groups, int g) {
        return Math.max(1, cpus / groups + (g < cpus % groups ? 1 : 0));
    }

    /** The node with CPUs nearest to {@code from} (the lower id of equally near ones): where a memory-only node's tasks run. */
    static int nearestWithCpus(Topology topology, NumaNode from) {
        return topology.nodes().stream().filter(n -> n.cpus().length > 0)
                .min(Comparator.comparingInt((NumaNode n) -> from.distanceTo(n.id())).thenComparingInt(NumaNode::id))
                .orElseThrow().id();
    }
}
