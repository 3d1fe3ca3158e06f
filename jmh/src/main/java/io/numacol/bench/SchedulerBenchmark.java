package io.numacol.bench;

import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.SchedulerConfig;
import io.numacol.scheduler.StealPolicy;
import io.numacol.scheduler.Task;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskGroup;
import io.numacol.scheduler.WorkerPoolScheduler;
import io.numacol.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;

/**
 * Cost per task and throughput of numacol's scheduler against {@link ForkJoinPool} (a pool of the
 * same parallelism as numacol's hardware threads): a batch of {@value #BATCH} tasks is submitted
 * into one stage and awaited, and counts as {@value #BATCH} operations. Tasks are empty, or
 * "small" (about 100 ns of arithmetic). numacol runs on a fake one-node topology and on the real
 * one, with policies OS (no affinity) and BOUND (hard affinity, workers bound).
 *
 * <ul>
 *   <li>{@code submit}: one thread outside the pool submits and waits (the JDBC caller's path).</li>
 *   <li>{@code submitFromManyThreads}: four such threads at once, each with its own stage.</li>
 *   <li>{@code spawnFromTask}: one task spawns the batch from inside the pool (a worker's own
 *       queue; ForkJoinPool's fork).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1) // BenchMain appends numacol's JVM flags (the Maven property numacol.jvm.args) to every fork
public class SchedulerBenchmark {
    static final int BATCH = 1000;
    /** About 100 ns on a current x86 core. */
    private static final int SMALL_TOKENS = 40;

    @Param({"numacol:fake1:OS", "numacol:fake1:BOUND", "numacol:real:OS", "numacol:real:BOUND", "forkjoin"})
    public String pool;

    @Param({"empty", "small"})
    public String work;

    private Scheduler scheduler;
    private ForkJoinPool forkJoin;
    private int nodes;
    private boolean small;

    @Setup(Level.Trial)
    public void start() {
        small = work.equals("small");
        if (pool.equals("forkjoin")) {
            forkJoin = new ForkJoinPool(Topology.detect().nodes().stream().mapToInt(n -> n.cpus().length).sum());
            return;
        }
        String[] spec = pool.split(":");
        Topology topology = spec[1].equals("real") ? Topology.detect() : Topology.fake(Integer.parseInt(spec[1].substring(4)));
        nodes = topology.nodeCount();
        scheduler = new WorkerPoolScheduler(topology, SchedulerConfig.defaults().withStealPolicy(StealPolicy.valueOf(spec[2])));
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (scheduler != null) {
            scheduler.close();
        }
        if (forkJoin != null) {
            forkJoin.shutdownNow();
        }
    }

    private static final Task EMPTY = ctx -> { };
    private static final Task SMALL = ctx -> Blackhole.consumeCPU(SMALL_TOKENS);

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void submit() throws InterruptedException {
        runBatch();
    }

    @Benchmark
    @Threads(4)
    @OperationsPerInvocation(BATCH)
    public void submitFromManyThreads() throws InterruptedException {
        runBatch();
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OperationsPerInvocation(BATCH)
    public void spawnFromTask() throws InterruptedException {
        if (forkJoin != null) {
            CountDownLatch done = new CountDownLatch(BATCH);
            Runnable body = forkJoinTask(done);
            forkJoin.execute(() -> {
                for (int i = 1; i < BATCH; i++) {
                    ForkJoinTask.adapt(body).fork();
                }
                body.run();
            });
            done.await();
            return;
        }
        Task body = small ? SMALL : EMPTY;
        TaskGroup g = scheduler.newStatement().newTaskGroup();
        g.submit(ctx -> {
            for (int i = 1; i < BATCH; i++) {
                ctx.spawn(body, Affinity.node(i % nodes));
            }
            body.run(ctx);
        }, Affinity.node(0), TaskClass.OTHER);
        g.await();
    }

    private void runBatch() throws InterruptedException {
        if (forkJoin != null) {
            CountDownLatch done = new CountDownLatch(BATCH);
            Runnable body = forkJoinTask(done);
            for (int i = 0; i < BATCH; i++) {
                forkJoin.execute(body);
            }
            done.await();
            return;
        }
        Task body = small ? SMALL : EMPTY;
        TaskGroup g = scheduler.newStatement().newTaskGroup();
        for (int i = 0; i < BATCH; i++) {
            g.submit(body, Affinity.node(i % nodes), TaskClass.OTHER);
        }
        g.await();
    }

    /** ForkJoinPool's task: the work, then the count the batch waits on (numacol's stage counts for itself). */
    private Runnable forkJoinTask(CountDownLatch done) {
        return small ? () -> {
            Blackhole.consumeCPU(SMALL_TOKENS);
            done.countDown();
        } : done::countDown;
    }
}
