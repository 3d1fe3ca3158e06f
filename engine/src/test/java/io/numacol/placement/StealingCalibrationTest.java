package io.numacol.placement;

import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.scheduler.DataUsage;
import io.numacol.scheduler.TaskClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The §6.4 experiment's decision, its kernel, and the advisor that applies its threshold. */
class StealingCalibrationTest {

    private static StealingCalibration.Step step(int power, double stealing, double bound, double mbPerSecond) {
        return new StealingCalibration.Step(power, stealing, bound, mbPerSecond * 1e6);
    }

    @Test
    void theThresholdIsTheBoundThroughputWhereStealingStartsToWin() {
        var result = StealingCalibration.decide(List.of(step(1, 100, 150, 700), step(2, 100, 120, 500),
                step(4, 110, 100, 400), step(8, 90, 80, 300), step(16, 50, 45, 200)));
        assertThat(result.threshold()).isEqualTo(400e6);
        assertThat(result.how()).contains("power 4").contains("400 MB/s");
    }

    @Test
    void aWinTheNextStepDoesNotConfirmIsNoise() {
        var result = StealingCalibration.decide(List.of(step(1, 100, 150, 700), step(2, 130, 120, 500),
                step(4, 90, 100, 400), step(8, 99, 90, 300), step(16, 50, 49, 200)));
        assertThat(result.threshold()).as("power 2 wins but 4 loses; 8 wins and 16 does not lose").isEqualTo(300e6);
        assertThat(StealingCalibration.decide(List.of(step(1, 100, 150, 700), step(2, 100, 120, 500), step(4, 120, 100, 400)))
                .threshold()).as("a win at the last step stands").isEqualTo(400e6);
    }

    @Test
    void whenStealingNeverWinsEveryClassThatReadsIsBound() {
        var result = StealingCalibration.decide(List.of(step(1, 100, 150, 700), step(2, 100, 101, 500), step(4, 50, 50, 0)));
        assertThat(result.threshold()).isEqualTo(500e6);
        assertThat(result.how()).startsWith("stealing never won");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void theKernelRaisesEachElementToThePower(int power) {
        try (Database db = Database.open(DatabaseConfig.defaults())) {
            NodeArena arena = db.memory().newArena();
            try {
                MemorySegment v = arena.allocate(5 * Integer.BYTES, MemoryPlacement.onNode(0), Component.OTHER);
                long expected = 0;
                for (int i = 0; i < 5; i++) {
                    v.setAtIndex(ValueLayout.JAVA_INT, i, i - 2);
                    expected += i >= 1 && i < 4 ? (long) Math.pow(i - 2, power) : 0;
                }
                assertThat(StealingCalibration.sum(v, 1, 4, power)).isEqualTo(expected);
            } finally {
                arena.close();
            }
        }
    }

    @Test
    void theAdvisorBindsClassesAboveTheThresholdOnceItIsKnown() {
        DataUsage usage = new DataUsage(2);
        ThresholdAdvisor advisor = new ThresholdAdvisor();
        advisor.readFrom(usage);
        usage.record(0, 1_000_000, 1_000_000, TaskClass.SCAN); // 1 GB/s
        usage.record(1, 1_000, 1_000_000, TaskClass.MATERIALIZE); // 1 MB/s
        assertThat(advisor.hard(TaskClass.SCAN)).as("no threshold yet").isFalse();
        advisor.setThreshold(100e6);
        assertThat(advisor.hard(TaskClass.SCAN)).isTrue();
        assertThat(advisor.hard(TaskClass.MATERIALIZE)).isFalse();
        assertThat(advisor.hard(TaskClass.AGGREGATE)).as("never ran").isFalse();
        assertThatThrownBy(() -> advisor.setThreshold(Double.NaN)).hasMessageContaining("bytes per second");
    }

    /** A short run of the real experiment on fake:4 with the bandwidth model: every step measured. */
    @Test
    void theExperimentMeasuresEveryPowerWithAndWithoutStealing() {
        try (Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:4").withNodeBandwidth(800_000_000))) {
            var result = new StealingCalibration(db.scheduler(), db.memory(), 1 << 16, 20).run(() -> false);
            assertThat(result.steps()).extracting(StealingCalibration.Step::power).containsExactly(1, 2, 4, 8, 16, 32, 64, 128);
            assertThat(result.steps()).allSatisfy(s -> {
                assertThat(s.stealingQps()).isPositive();
                assertThat(s.boundQps()).isPositive();
                assertThat(s.taskBytesPerSecond()).isPositive();
            });
            assertThat(result.steps()).extracting(StealingCalibration.Step::taskBytesPerSecond).contains(result.threshold());
            assertThat(db.scheduler().dataUsage().throughput(TaskClass.CALIBRATION)).isPositive();
            assertThat(new StealingCalibration(db.scheduler(), db.memory(), 1 << 16, 60_000).run(() -> true))
                    .as("stopped: no result, and no minute-long step").isNull();
            assertThat(db.memory().accounting().totalBytes()).as("the vectors are freed").isZero();
        }
    }
}
