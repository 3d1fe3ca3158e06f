package io.numacol.scheduler;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.numacol.scheduler.SchedulerTesting.spinUntil;
import static io.numacol.scheduler.SchedulerTesting.sum;
import static io.numacol.scheduler.SchedulerTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

class MetricsTest {

    @Test
    void metersPerNodeAndGroupInTheApplicationsRegistry() {
        MeterRegistry registry = new SimpleMeterRegistry();
        Topology topology = Topology.fake(4);
        SchedulerConfig config = SchedulerConfig.defaults().withMeterRegistry(registry).withGroupsPerNode(2)
                .withStealPolicy(StealPolicy.BOUND);
        try (WorkerPoolScheduler scheduler = new WorkerPoolScheduler(topology, config)) {
            for (int node = 0; node < 4; node++) {
                for (int group = 0; group < 2; group++) {
                    String[] tags = {"node", String.valueOf(node), "group", String.valueOf(group)};
                    for (String queue : new String[] {"stealable", "hard"}) {
                        assertThat(registry.find("numacol.scheduler.queue.length").tags(tags).tag("queue", queue).gauge()).isNotNull();
                    }
                    assertThat(registry.find("numacol.scheduler.tasks.run").tags(tags).functionCounter()).isNotNull();
                    assertThat(registry.find("numacol.scheduler.tasks.stolen").tags(tags).tag("scope", "local-node").functionCounter()).isNotNull();
                    assertThat(registry.find("numacol.scheduler.tasks.stolen").tags(tags).tag("scope", "remote-node").functionCounter()).isNotNull();
                    assertThat(registry.find("numacol.scheduler.busy.time").tags(tags).functionCounter()).isNotNull();
                    assertThat(registry.find("numacol.scheduler.workers.parked").tags(tags).gauge()).isNotNull();
                }
            }
            assertThat(registry.find("numacol.scheduler.concurrency.hint").gauge()).isNotNull();

            AtomicBoolean release = new AtomicBoolean();
            AtomicInteger running = new AtomicInteger();
            TaskGroup g = scheduler.newStatement().newTaskGroup();
            // One task holds each of node 2's two groups; the rest must queue there.
            for (int i = 0; i < 2; i++) {
                g.submit(ctx -> {
                    running.incrementAndGet();
                    spinUntil(release::get);
                }, Affinity.node(2));
            }
            for (int i = 0; i < 100; i++) {
                g.submit(ctx -> { }, Affinity.node(2));
            }
            waitUntil(() -> running.get() == 2, "node 2 is busy");
            assertThat(sum(registry, "queue.length", "node", "2", "queue", "hard")).isPositive();
            assertThat(sum(registry, "queue.length", "queue", "stealable")).isZero();
            release.set(true);
            g.await();
            assertThat(sum(registry, "tasks.run")).isEqualTo(102);
            assertThat(sum(registry, "tasks.run", "node", "2")).isEqualTo(102);
            assertThat(sum(registry, "queue.length")).isZero();
            assertThat(sum(registry, "busy.time", "node", "2")).isPositive();
            assertThat(sum(registry, "binds", "node", "2", "action", "bind")).isPositive();
            int threads = CancellationTest.workerCount(scheduler);
            waitUntil(() -> sum(registry, "workers.parked") == threads, "every worker parks when idle");
            assertThat(sum(registry, "workers.active")).isZero();
        }
    }
}
