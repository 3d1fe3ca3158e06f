package io.numacol.placement;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.StealPolicy;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskContext;
import io.numacol.scheduler.TaskGroup;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The thesis's §6.4 experiment, which finds the memory throughput above which a task class runs
 * faster when its tasks stay on their node (the ADAPTIVE {@link StealPolicy}'s threshold). Vectors
 * of integers on half of the nodes (the thesis's "average case where half of the server's sockets
 * have active data"), {@value #CLIENTS_PER_NODE} clients per vector node each summing its vector
 * over and over, a query being {@value #TASKS_PER_QUERY} tasks over equal ranges; each element
 * raised to the power {@code n} in a loop, so that the larger {@code n}, the less memory-bound a
 * task. For each {@code n} the clients run once with stealing (TARGET) and once without (BOUND);
 * the first {@code n} at which stealing wins by more than {@value #WIN_MARGIN} is the switching
 * point, and the memory throughput the tasks showed there without stealing is the threshold.
 *
 * <p>A task's memory throughput is what {@link TaskContext#recordRead} reports to the {@link
 * io.numacol.scheduler.DataUsage} (bytes read over busy time, numacol's own accounting: no CPU
 * counters here), so the threshold and the classes' averages it is compared with are the same
 * measure. On a fake topology with a {@link io.numacol.scheduler.BandwidthModel} the experiment
 * measures the model, as every figure taken under it does.
 */
public final class StealingCalibration {
    static final int CLIENTS_PER_NODE = 2;
    static final int TASKS_PER_QUERY = 4;
    /** How much faster stealing must be to count as winning: below it the two are noise apart. */
    static final double WIN_MARGIN = 1.05;
    static final int[] POWERS = {1, 2, 4, 8, 16, 32, 64, 128};

    /** One power's measurements: queries per second with and without stealing, and the tasks' bytes/s without. */
    public record Step(int power, double stealingQps, double boundQps, double taskBytesPerSecond) {
        public boolean stealingWins() {
            return stealingQps > boundQps * WIN_MARGIN;
        }
    }

    /**
     * The outcome: the threshold in bytes per second (task classes whose average is above it are
     * bound), the steps, and how it was found.
     */
    public record Result(double threshold, List<Step> steps, String how) {
    }

    private final Scheduler scheduler;
    private final NumaMemory memory;
    private final int vectorInts;
    private final long stepNanos;

    /**
     * @param vectorInts the length of each client's vector
     * @param stepMillis how long the clients run per power and policy
     */
    public StealingCalibration(Scheduler scheduler, NumaMemory memory, int vectorInts, long stepMillis) {
        this.scheduler = scheduler;
        this.memory = memory;
        this.vectorInts = vectorInts;
        this.stepNanos = stepMillis * 1_000_000;
    }

    /** Runs the experiment; {@code stop} ends it early (null result) when the database closes. */
    public Result run(BooleanSupplier stop) {
        int nodes = scheduler.topology().nodeCount();
        int dataNodes = Math.max(1, nodes / 2);
        NodeArena arena = memory.newArena();
        try {
            List<Client> clients = new ArrayList<>();
            for (int node = 0; node < dataNodes; node++) {
                for (int c = 0; c < CLIENTS_PER_NODE; c++) {
                    MemorySegment v = arena.allocate((long) vectorInts * Integer.BYTES, MemoryPlacement.onNode(node), Component.OTHER);
                    for (int i = 0; i < vectorInts; i++) {
                        v.setAtIndex(ValueLayout.JAVA_INT, i, 1 + (i * 7919) % 101);
                    }
                    clients.add(new Client(node, v));
                }
            }
            measure(clients, POWERS[0], StealPolicy.BOUND, stop); // the JIT's first compilations
            List<Step> steps = new ArrayList<>();
            for (int power : POWERS) {
                if (stop.getAsBoolean()) {
                    return null;
                }
                double[] stealing = measure(clients, power, StealPolicy.TARGET, stop);
                double[] bound = measure(clients, power, StealPolicy.BOUND, stop);
                steps.add(new Step(power, stealing[0], bound[0], bound[1]));
            }
            return decide(steps);
        } finally {
            arena.close();
        }
    }

    /**
     * The threshold from the steps: the bound tasks' throughput at the switching point, the
     * first power at which stealing wins and does not lose at the next power (one step's win
     * alone can be noise: the clients share the machine with everything else).
     */
    static Result decide(List<Step> steps) {
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            boolean confirmed = i == steps.size() - 1 || steps.get(i + 1).stealingQps() >= steps.get(i + 1).boundQps();
            if (s.stealingWins() && confirmed) {
                return new Result(s.taskBytesPerSecond(), steps, "stealing wins from power " + s.power()
                        + ": task classes above " + Math.round(s.taskBytesPerSecond() / 1e6) + " MB/s stay on their node");
            }
        }
        // stealing never won: every task class that reads memory at all is better bound
        double lowest = steps.stream().mapToDouble(Step::taskBytesPerSecond).filter(t -> t > 0).min().orElse(0);
        return new Result(lowest, steps, "stealing never won: task classes above " + Math.round(lowest / 1e6)
                + " MB/s (the least memory-bound step) stay on their node");
    }

    /** Runs every client for one step; returns queries/s and the counted tasks' bytes per second. */
    private double[] measure(List<Client> clients, int power, StealPolicy policy, BooleanSupplier stop) {
        LongAdder queries = new LongAdder();
        LongAdder bytes = new LongAdder();
        LongAdder nanos = new LongAdder();
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (Client c : clients) {
            threads.add(Thread.ofPlatform().daemon().name("numacol-steal-calibration").start(() -> {
                while (!done.get()) {
                    c.query(power, policy, bytes, nanos);
                    queries.increment();
                }
            }));
        }
        try {
            long end = start + stepNanos;
            while (System.nanoTime() < end && !stop.getAsBoolean()) {
                Thread.sleep(Math.max(1, Math.min(10, (end - System.nanoTime()) / 1_000_000)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        done.set(true);
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long n = nanos.sum();
        return new double[] {queries.sum() / seconds, n == 0 ? 0 : bytes.sum() * 1e9 / n};
    }

    /** A client's vector on its node. */
    private final class Client {
        final int node;
        final MemorySegment vector;

        Client(int node, MemorySegment vector) {
            this.node = node;
            this.vector = vector;
        }

        void query(int power, StealPolicy policy, LongAdder bytes, LongAdder nanos) {
            Statement statement = scheduler.newStatement(Statement.NORMAL_PRIORITY, policy);
            TaskGroup group = statement.newTaskGroup();
            int per = vectorInts / TASKS_PER_QUERY;
            for (int t = 0; t < TASKS_PER_QUERY; t++) {
                int from = t * per;
                int to = t == TASKS_PER_QUERY - 1 ? vectorInts : from + per;
                group.submit(context -> {
                    long startBusy = context.busyClock();
                    sink(sum(vector, from, to, power));
                    long busy = context.recordRead(node, (long) (to - from) * Integer.BYTES, startBusy);
                    if (busy > 0) {
                        bytes.add((long) (to - from) * Integer.BYTES);
                        nanos.add(busy);
                    }
                }, Affinity.node(node), TaskClass.CALIBRATION);
            }
            group.await();
        }
    }

    /** The thesis's kernel: the sum of each element raised to {@code power}, by repeated multiplication. */
    static long sum(MemorySegment vector, int from, int to, int power) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            long x = vector.getAtIndex(ValueLayout.JAVA_INT, i);
            long p = x;
            for (int k = 1; k < power; k++) {
                p *= x;
            }
            sum += p;
        }
        return sum;
    }

    /** Keeps the sums from being optimized away. */
    private static final AtomicLong SINK = new AtomicLong();

    private static void sink(long value) {
        SINK.getAndAdd(value);
    }
}
