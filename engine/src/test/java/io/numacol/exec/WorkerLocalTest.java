package io.numacol.exec;

import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.TaskClass;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerLocalTest {

    /** A value per worker: each task finds its worker's, no two workers share one, and every task's work is counted once. */
    @Test
    void eachWorkerHasItsOwnValue() {
        try (Scheduler scheduler = Scheduler.create(Topology.fake(2))) {
            WorkerLocal<long[]> counts = new WorkerLocal<>(() -> new long[1]);
            Map<String, Integer> slotOfWorker = new ConcurrentHashMap<>();
            Map<Integer, String> workerOfSlot = new ConcurrentHashMap<>();
            Statement statement = scheduler.newStatement();
            int tasks = 500;
            statement.runStage(group -> {
                for (int i = 0; i < tasks; i++) {
                    group.submit(context -> {
                        counts.get(context)[0]++;
                        assertThat(slotOfWorker.computeIfAbsent(context.workerName(), n -> context.workerSlot()))
                                .isEqualTo(context.workerSlot());
                        assertThat(workerOfSlot.computeIfAbsent(context.workerSlot(), s -> context.workerName()))
                                .isEqualTo(context.workerName());
                    }, Affinity.none(), TaskClass.SCAN);
                }
            });
            List<long[]> all = counts.all();
            assertThat(all).hasSize(slotOfWorker.size());
            assertThat(all.stream().mapToLong(c -> c[0]).sum()).isEqualTo(tasks);
        }
    }

    /** A dropped value is replaced by a new one on the worker's next ask, and the dropped one is no longer listed. */
    @Test
    void dropStartsAnotherValue() {
        try (Scheduler scheduler = Scheduler.create(Topology.fake(1))) {
            WorkerLocal<long[]> values = new WorkerLocal<>(() -> new long[1]);
            long[][] seen = new long[2][];
            scheduler.newStatement().runStage(group -> group.submit(context -> {
                seen[0] = values.get(context);
                values.drop(context);
                seen[1] = values.get(context);
            }, Affinity.none(), TaskClass.SCAN));
            assertThat(seen[1]).isNotSameAs(seen[0]);
            assertThat(values.all()).containsExactly(seen[1]);
        }
    }
}
