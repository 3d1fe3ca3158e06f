package io.numacol.numavm;

import io.numacol.linux.Libc;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.SchedulerConfig;
import io.numacol.scheduler.StealPolicy;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskGroup;
import io.numacol.scheduler.WorkerPoolScheduler;
import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Queue;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run inside a multi-node guest (see {@link NumaVm}): BOUND tasks for every node must run on a
 * worker of that node, on one of the node's CPUs as the kernel reports it (sched_getcpu), with
 * the thread's CPU set being the node's; OS tasks must run unbound. Exit code 0 when every check
 * passes.
 */
public final class SchedulerBindingCheck {
    private static final int TASKS_PER_NODE = 200;
    private static final int SPIN = 20_000;
    private static final List<String> FAILURES = new ArrayList<>();
    private static final AtomicLong SINK = new AtomicLong();

    record Run(int wanted, int workerNode, int cpu, boolean bound, BitSet cpus) {
    }

    public static void main(String[] args) {
        int expectedNodes = Integer.parseInt(args[0]);
        Topology topology = Topology.detect();
        System.out.println("topology: " + topology);
        check(topology.kind() == Topology.Kind.REAL, "topology is real, not " + topology.kind());
        check(topology.nodeCount() == expectedNodes, "expected " + expectedNodes + " nodes, got " + topology.nodeCount());
        BitSet original = Libc.getAffinity();
        SchedulerConfig config = SchedulerConfig.defaults().withStealPolicy(StealPolicy.BOUND);
        try (Scheduler scheduler = new WorkerPoolScheduler(topology, config)) {
            Queue<Run> runs = new ConcurrentLinkedQueue<>();
            TaskGroup bound = scheduler.newStatement().newTaskGroup();
            for (int i = 0; i < TASKS_PER_NODE; i++) {
                for (NumaNode n : topology.nodes()) {
                    if (n.cpus().length == 0) {
                        continue;
                    }
                    int node = n.id();
                    bound.submit(ctx -> {
                        spin(SPIN);
                        runs.add(new Run(node, ctx.node(), Libc.schedGetCpu(), ctx.bound(), Libc.getAffinity()));
                    }, Affinity.node(node), TaskClass.SCAN);
                }
            }
            bound.await();
            for (NumaNode n : topology.nodes()) {
                if (n.cpus().length == 0) {
                    System.out.println("  node " + n.id() + " has no CPUs: no workers to check");
                    continue;
                }
                List<Run> mine = runs.stream().filter(r -> r.wanted() == n.id()).toList();
                TreeSet<Integer> cpusSeen = new TreeSet<>();
                long elsewhere = 0;
                long offNode = 0;
                long unbound = 0;
                for (Run r : mine) {
                    cpusSeen.add(r.cpu());
                    elsewhere += r.workerNode() != n.id() ? 1 : 0;
                    offNode += n.cpuSet().get(r.cpu()) && r.cpus().equals(n.cpuSet()) ? 0 : 1;
                    unbound += r.bound() ? 0 : 1;
                }
                System.out.printf("  node %d: %d BOUND tasks, on cpus %s of the node's %s; on another node's worker: %d;"
                        + " off the node's CPUs: %d; unbound: %d%n", n.id(), mine.size(), cpusSeen, n.cpuSet(), elsewhere, offNode, unbound);
                check(mine.size() == TASKS_PER_NODE, "node " + n.id() + ": " + mine.size() + " of " + TASKS_PER_NODE + " tasks ran");
                check(elsewhere == 0, "node " + n.id() + ": " + elsewhere + " BOUND tasks ran on another node's worker");
                check(offNode == 0, "node " + n.id() + ": " + offNode + " BOUND tasks ran off the node's CPUs");
                check(unbound == 0, "node " + n.id() + ": " + unbound + " BOUND tasks ran on an unbound worker");
            }

            Queue<Run> osRuns = new ConcurrentLinkedQueue<>();
            TaskGroup os = scheduler.newStatement(0, StealPolicy.OS).newTaskGroup();
            for (int i = 0; i < TASKS_PER_NODE; i++) {
                int node = i % topology.nodeCount();
                os.submit(ctx -> osRuns.add(new Run(node, ctx.node(), Libc.schedGetCpu(), ctx.bound(), Libc.getAffinity())),
                        Affinity.node(node));
            }
            os.await();
            long restricted = osRuns.stream().filter(r -> r.bound() || !r.cpus().equals(original)).count();
            System.out.printf("  OS: %d tasks, %d on a worker restricted to a node (CPU set of the process: %s)%n",
                    osRuns.size(), restricted, original);
            check(restricted == 0, restricted + " OS tasks ran on a bound worker");
        }
        System.out.println(FAILURES.isEmpty() ? "RESULT: OK" : "RESULT: FAILED " + FAILURES);
        System.exit(FAILURES.isEmpty() ? 0 : 1);
    }

    /** A little work per task, so that the nodes' workers are busy at once and the kernel must place them all. */
    private static void spin(int iterations) {
        long x = iterations;
        for (int k = 0; k < iterations; k++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        SINK.set(x); // kept, so that the loop is not optimized away
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            FAILURES.add(what);
            System.out.println("  FAIL " + what);
        }
    }
}
