package io.numacol.scheduler;

import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static io.numacol.scheduler.SchedulerTesting.spinUntil;
import static io.numacol.scheduler.SchedulerTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ConcurrencyHintTest {

    @Test
    void halfOfFreeThreadsPlusHalfOfThePreviousHint() {
        assertThat(ConcurrencyHint.next(4, 0, 8)).isEqualTo(2.0);
        assertThat(ConcurrencyHint.next(2, 0, 8)).isEqualTo(1.0);
        assertThat(ConcurrencyHint.next(1, 4, 8)).isEqualTo(2.5);
        assertThat(ConcurrencyHint.next(2.5, 3, 8)).isEqualTo(2.75);
    }

    @Test
    void resetsToTheHardwareThreadsPastNinetyPercent() {
        // 0.5 * 8 + 0.5 * 6.5 = 7.25 <= 7.2? no: 7.25 > 0.9 * 8 = 7.2, so it jumps to 8.
        assertThat(ConcurrencyHint.next(6.5, 8, 8)).isEqualTo(8.0);
        // 0.5 * 8 + 0.5 * 6.4 = 7.2 is not past 90%.
        assertThat(ConcurrencyHint.next(6.4, 8, 8)).isCloseTo(7.2, within(1e-12));
        assertThat(ConcurrencyHint.next(8, 8, 8)).isEqualTo(8.0);
    }

    @Test
    void freeThreadsNeverGoNegative() {
        assertThat(ConcurrencyHint.free(4, 1)).isEqualTo(3);
        assertThat(ConcurrencyHint.free(4, 6)).isZero();
    }

    @Test
    void decaysUnderLoadAndRecoversWhenIdle() {
        ConcurrencyHint hint = new ConcurrencyHint(4);
        assertThat(hint.value()).isEqualTo(4.0);
        assertThat(hint.tasks()).isEqualTo(4);
        hint.sample(0);
        hint.sample(0);
        hint.sample(0);
        assertThat(hint.value()).isEqualTo(0.5);
        assertThat(hint.tasks()).as("rounded, at least 1").isEqualTo(1);
        hint.sample(0);
        assertThat(hint.tasks()).isEqualTo(1);
        assertThat(hint.value()).isEqualTo(0.25);
        hint.sample(4);
        hint.sample(4);
        hint.sample(4);
        assertThat(hint.value()).isEqualTo(3.53125);
        hint.sample(4); // 3.765625 > 3.6
        assertThat(hint.value()).isEqualTo(4.0);
    }

    @Test
    void theWatchdogSamplesFreeWorkersOfTheWholeMachine() {
        Topology topology = Topology.fake(4);
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(topology, StealPolicy.BOUND)) {
            int hardware = scheduler.hardwareThreads();
            assertThat(hardware).isEqualTo(4);
            assertThat(scheduler.concurrencyHint()).isEqualTo(hardware);
            AtomicBoolean release = new AtomicBoolean();
            Statement s = scheduler.newStatement();
            TaskGroup busy = s.newTaskGroup();
            for (int node = 0; node < topology.nodeCount(); node++) {
                busy.submit(ctx -> spinUntil(release::get), Affinity.node(node));
            }
            waitUntil(() -> scheduler.concurrencyHintValue() < 0.5, "the hint fell with every worker busy");
            assertThat(scheduler.concurrencyHint()).isEqualTo(1);
            assertThat(SchedulerTesting.sum(scheduler.meterRegistry(), "concurrency.hint")).isLessThan(0.5);
            release.set(true);
            busy.await();
            waitUntil(() -> scheduler.concurrencyHint() == hardware, "the hint recovered on an idle machine");
        }
    }
}
