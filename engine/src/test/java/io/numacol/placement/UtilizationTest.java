package io.numacol.placement;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.exec.ColumnFilter;
import io.numacol.exec.PipelineExecutor;
import io.numacol.exec.PlanNode;
import io.numacol.exec.Projection;
import io.numacol.memory.NumaMemory;
import io.numacol.scheduler.DataUsage;
import io.numacol.scheduler.StealPolicy;
import io.numacol.scheduler.TaskClass;
import io.numacol.storage.Catalog;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Utilization histories on a clock the test steps, and scans' reports on a fake four-node database. */
class UtilizationTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void ratesAreTimeWeightedDifferencesOverTheWindow() {
        DataUsage usage = new DataUsage(2);
        AtomicLong clock = new AtomicLong();
        Utilization u = new Utilization(usage, new Catalog(NumaMemory.create(Topology.fake(2))), clock::get);
        assertThat(u.node(0, Duration.ofSeconds(1)).busyCores()).isZero();
        u.sample();
        // 10 samples 100 ms apart: node 0 busy 50 ms and 1 MB per period, then 10 idle periods
        for (int i = 0; i < 10; i++) {
            usage.record(0, 1_000_000, 50 * MS, TaskClass.SCAN);
            clock.addAndGet(100 * MS);
            u.sample();
        }
        Utilization.Rate busy = u.node(0, Duration.ofSeconds(1));
        assertThat(busy.busyCores()).isCloseTo(0.5, within(1e-9));
        assertThat(busy.bytesPerSecond()).isCloseTo(10_000_000, within(1e-3));
        assertThat(u.node(1, Duration.ofSeconds(1)).busyCores()).isZero();
        for (int i = 0; i < 10; i++) {
            clock.addAndGet(100 * MS);
            u.sample();
        }
        assertThat(u.node(0, Duration.ofSeconds(1)).busyCores()).isZero();
        assertThat(u.node(0, Duration.ofSeconds(2)).busyCores()).as("half of two seconds busy at half a core")
                .isCloseTo(0.25, within(1e-9));
        assertThat(u.node(0, Duration.ofMillis(1)).window()).as("a window under a period takes the last period")
                .isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void historiesKeepTheirLastSamplesOnly() {
        DataUsage usage = new DataUsage(1);
        AtomicLong clock = new AtomicLong();
        Utilization u = new Utilization(usage, new Catalog(NumaMemory.create(Topology.fake(1))), clock::get);
        for (int i = 0; i < Utilization.CAPACITY + 500; i++) {
            usage.record(0, 100, i < 400 ? 100 * MS : 0, TaskClass.SCAN); // busy at first, idle for the last 3100
            clock.addAndGet(100 * MS);
            u.sample();
        }
        assertThat(u.samples(0)).isEqualTo(Utilization.CAPACITY);
        Utilization.Rate all = u.node(0, Duration.ofDays(1));
        assertThat(all.window()).isEqualTo(Duration.ofMillis(100L * (Utilization.CAPACITY - 1)));
        assertThat(all.busyCores()).as("the busy samples fell out of the ring").isZero();
    }

    @Test
    void nodeRecordsSpreadInterleavedReadsAndAverageEachTaskClass() {
        DataUsage usage = new DataUsage(4);
        usage.record(-1, 4_000, 400, TaskClass.SCAN);
        for (int n = 0; n < 4; n++) {
            assertThat(usage.bytes(n)).isEqualTo(1_000);
            assertThat(usage.busyNanos(n)).isEqualTo(100);
        }
        usage.record(2, 1_000, 1_000, TaskClass.MATERIALIZE); // 1e9 bytes/s
        usage.record(2, 2_000, 1_000, TaskClass.MATERIALIZE); // 2e9 bytes/s
        assertThat(usage.throughput(TaskClass.MATERIALIZE)).isCloseTo(0.9e9 + 0.2e9, within(1.0));
        assertThat(usage.throughput(TaskClass.JOIN_PROBE)).isZero();
    }

    @Test
    void scansReportTheirBytesToTheNodeHoldingTheRows() {
        try (Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:4").withStealPolicy(StealPolicy.BOUND))) {
            Table t = db.catalog().create("u", TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.bigint(), false)));
            try (Appender a = db.appender("u")) {
                for (long i = 0; i < 100_000; i++) {
                    a.append(i);
                }
            }
            db.setPlacement(t, new Placement.Node(3));
            PlanNode.VidScan plan = new PlanNode.VidScan(t, new ColumnFilter.Range(0, 10L, true, 20L, true),
                    List.<Projection>of(new Projection.ColumnRef(0)), null, null);
            for (int i = 0; i < 5; i++) {
                assertThat(new PipelineExecutor(db.scheduler()).execute(plan, () -> false)).hasSize(11);
            }
            DataUsage usage = db.scheduler().dataUsage();
            try (TableSnapshot snapshot = t.snapshot()) {
                TablePart part = snapshot.parts().getFirst();
                long perScan = 100_000L * part.column(0).bitcase() / 8;
                assertThat(usage.bytes(3)).isEqualTo(5 * perScan);
                assertThat(part.usage().bytes()).isEqualTo(5 * perScan);
                assertThat(part.usage().busyNanos()).isPositive();
            }
            assertThat(usage.bytes(0) + usage.bytes(1) + usage.bytes(2)).isZero();
            assertThat(usage.busyNanos(3)).isPositive();
            assertThat(usage.throughput(TaskClass.MATERIALIZE)).isPositive();
        }
    }
}
