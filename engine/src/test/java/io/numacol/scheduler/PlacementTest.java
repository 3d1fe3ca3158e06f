package io.numacol.scheduler;

import io.numacol.linux.Libc;
import io.numacol.scheduler.SchedulerTesting.Kind;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.BitSet;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.numacol.scheduler.SchedulerTesting.spinUntil;
import static io.numacol.scheduler.SchedulerTesting.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where tasks run under each steal policy, and whether their workers are bound. */
class PlacementTest {

    /** What a task saw of itself while it ran. */
    record Run(int wantedNode, int workerNode, int cpu, boolean bound, boolean stolen, Affinity affinity, BitSet cpus) {
        static Run of(int wantedNode, TaskContext ctx) {
            return new Run(wantedNode, ctx.node(), Libc.schedGetCpu(), ctx.bound(), ctx.stolen(), ctx.affinity(), Libc.getAffinity());
        }
    }

    @ParameterizedTest
    @MethodSource(SchedulerTesting.TOPOLOGIES)
    void boundTasksRunOnlyOnTheirNodesWorkersBoundToItsCpus(Topology topology) {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(topology, StealPolicy.BOUND)) {
            Queue<Run> runs = new ConcurrentLinkedQueue<>();
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            int nodes = topology.nodeCount();
            for (int i = 0; i < 4000; i++) {
                int node = (i * 7) % nodes;
                // A few heavier tasks keep groups saturated, so that thieves are woken and must refuse.
                int spin = i % 50 == 0 ? 200_000 : 0;
                g.submit(ctx -> {
                    busyWork(spin);
                    runs.add(Run.of(node, ctx));
                }, Affinity.node(node), TaskClass.SCAN);
            }
            g.await();
            assertThat(runs).hasSize(4000);
            for (Run r : runs) {
                assertThat(r.workerNode()).as("worker node of a BOUND task for node %d", r.wantedNode()).isEqualTo(r.wantedNode());
                assertThat(r.affinity()).isSameAs(Affinity.hard(r.wantedNode()));
                assertThat(r.bound()).isTrue();
                assertThat(topology.node(r.wantedNode()).cpuSet().get(r.cpu()))
                        .as("cpu %d is one of node %d's %s", r.cpu(), r.wantedNode(), topology.node(r.wantedNode()).cpuSet()).isTrue();
                assertThat(r.cpus()).isEqualTo(topology.node(r.wantedNode()).cpuSet());
            }
            assertThat(sum(scheduler.meterRegistry(), "tasks.stolen", "scope", "remote-node")).isZero();
            assertThat(sum(scheduler.meterRegistry(), "binds", "action", "bind")).isPositive();
        }
    }

    @Test
    void targetTasksOfABusyNodeAreStolenByIdleNodes() {
        Topology topology = Topology.fake(4);
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(topology, StealPolicy.TARGET)) {
            Queue<Run> runs = new ConcurrentLinkedQueue<>();
            AtomicInteger first = new AtomicInteger(-1);
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            for (int i = 0; i < 200; i++) {
                g.submit(ctx -> {
                    // The first task holds its worker until a task has run on another node: its
                    // node's queue backs up, and only stealing can drain it.
                    if (first.compareAndSet(-1, ctx.node())) {
                        assertThat(spinUntil(() -> runs.stream().anyMatch(r -> r.workerNode() != first.get())))
                                .as("a task ran on another node").isTrue();
                    }
                    runs.add(Run.of(0, ctx));
                }, Affinity.node(0), TaskClass.SCAN);
            }
            g.await();
            assertThat(runs).hasSize(200);
            List<Run> elsewhere = runs.stream().filter(r -> r.workerNode() != 0).toList();
            assertThat(elsewhere).isNotEmpty().allSatisfy(r -> {
                assertThat(r.stolen()).isTrue();
                assertThat(r.affinity()).isSameAs(Affinity.node(0));
                // A stolen task runs where its thief lives, bound to the thief's node.
                assertThat(r.cpus()).isEqualTo(topology.node(r.workerNode()).cpuSet());
            });
            assertThat(sum(scheduler.meterRegistry(), "tasks.stolen", "scope", "remote-node")).isEqualTo(elsewhere.size());
        }
    }

    @Test
    void boundTasksOfABusyNodeWaitForIt() {
        Topology topology = Topology.fake(4);
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(topology, StealPolicy.BOUND)) {
            Queue<Run> runs = new ConcurrentLinkedQueue<>();
            AtomicInteger started = new AtomicInteger();
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            for (int i = 0; i < 200; i++) {
                g.submit(ctx -> {
                    if (started.getAndIncrement() == 0) {
                        busyWork(50_000_000); // long enough for several watchdog rounds with a backlog
                    }
                    runs.add(Run.of(0, ctx));
                }, Affinity.node(0));
            }
            g.await();
            assertThat(runs).hasSize(200).allSatisfy(r -> assertThat(r.workerNode()).isZero());
        }
    }

    @ParameterizedTest
    @MethodSource(SchedulerTesting.KINDS_AND_TOPOLOGIES)
    void osTasksCarryNoAffinityAndNeverBind(Kind kind, Topology topology) {
        try (Scheduler scheduler = kind.create(topology, StealPolicy.OS)) {
            BitSet original = Libc.getAffinity();
            Queue<Run> runs = new ConcurrentLinkedQueue<>();
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            for (int i = 0; i < 1000; i++) {
                int node = i % topology.nodeCount();
                g.submit(ctx -> runs.add(Run.of(node, ctx)), i % 2 == 0 ? Affinity.node(node) : Affinity.hard(node));
            }
            g.await();
            assertThat(runs).hasSize(1000).allSatisfy(r -> {
                assertThat(r.affinity().isNone()).isTrue();
                assertThat(r.bound()).isFalse();
                assertThat(r.cpus()).isEqualTo(original);
            });
            assertThat(sum(scheduler.meterRegistry(), "binds")).isZero();
        }
    }

    @ParameterizedTest
    @MethodSource(SchedulerTesting.TOPOLOGIES)
    void workersUnbindBeforeTasksWithoutAffinity(Topology topology) {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(topology, StealPolicy.TARGET)) {
            BitSet original = Libc.getAffinity();
            Queue<Run> runs = new ConcurrentLinkedQueue<>();
            Statement s = scheduler.newStatement();
            TaskGroup g = s.newTaskGroup();
            int last = topology.nodeCount() - 1;
            // Spawned by a task on the last node, the tasks without affinity queue in its group too.
            g.submit(parent -> {
                for (int i = 0; i < 100; i++) {
                    boolean affine = i % 2 == 0;
                    parent.spawn(ctx -> runs.add(Run.of(affine ? last : -1, ctx)), affine ? Affinity.hard(last) : Affinity.none());
                }
            }, Affinity.hard(last));
            g.await();
            assertThat(runs).hasSize(100).allSatisfy(r -> {
                if (r.wantedNode() < 0) {
                    assertThat(r.bound()).isFalse();
                    assertThat(r.cpus()).isEqualTo(original);
                } else {
                    assertThat(r.bound()).isTrue();
                    assertThat(r.cpus()).isEqualTo(topology.node(last).cpuSet());
                    assertThat(topology.node(last).cpuSet().get(r.cpu())).isTrue();
                }
            });
            // Whether any worker went from bound to unbound depends on who took which task; the
            // per-run checks above are the proof. A bound task always costs a bind.
            assertThat(sum(scheduler.meterRegistry(), "binds", "action", "bind")).isPositive();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anAffinityForAMissingNodeIsRejectedNamingIt(Kind kind) {
        try (Scheduler scheduler = kind.create(Topology.fake(4), StealPolicy.TARGET)) {
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            assertThatThrownBy(() -> g.submit(ctx -> { }, Affinity.node(7)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7").hasMessageContaining("0..3");
            assertThat(g.pending()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aStatementMayOverrideTheEnginePolicy(Kind kind) {
        try (Scheduler scheduler = kind.create(Topology.fake(2), StealPolicy.OS)) {
            Statement s = scheduler.newStatement(Statement.NORMAL_PRIORITY, StealPolicy.BOUND);
            assertThat(s.stealPolicy()).isEqualTo(StealPolicy.BOUND);
            assertThat(s.overridesStealPolicy()).isTrue();
            assertThat(scheduler.newStatement().stealPolicy()).isEqualTo(StealPolicy.OS);
            AtomicReference<Run> run = new AtomicReference<>();
            TaskGroup g = s.newTaskGroup();
            g.submit(ctx -> run.set(Run.of(1, ctx)), Affinity.node(1));
            g.await();
            assertThat(run.get().affinity()).isSameAs(Affinity.hard(1));
            assertThat(run.get().workerNode()).as("inline: the node the affinity names").isEqualTo(1);
            assertThat(run.get().bound()).as("bound on the worker pool only").isEqualTo(kind == Kind.POOL);
        }
    }

    @Test
    void groupsOfANodeShareItsCpus() {
        Topology topology = Topology.fake(1);
        SchedulerConfig config = SchedulerConfig.defaults().withGroupsPerNode(3).withStealPolicy(StealPolicy.BOUND);
        try (WorkerPoolScheduler scheduler = new WorkerPoolScheduler(topology, config)) {
            int cpus = topology.node(0).cpus().length;
            assertThat(scheduler.hardwareThreads()).as("every group gets at least one hardware thread").isEqualTo(Math.max(cpus, 3));
            Queue<Integer> groups = new ConcurrentLinkedQueue<>();
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            for (int i = 0; i < 300; i++) {
                g.submit(ctx -> groups.add(ctx.workerGroup()), Affinity.node(0));
            }
            g.await();
            assertThat(groups).hasSize(300).allSatisfy(i -> assertThat(i).isBetween(0, 2));
        }
    }

    static long busyWork(int iterations) {
        long x = iterations;
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        if (x == 42) {
            System.out.print("");
        }
        return x;
    }
}
