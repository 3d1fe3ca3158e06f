package io.numacol.database;

import io.numacol.exec.ColumnFilter;
import io.numacol.exec.PipelineExecutor;
import io.numacol.exec.PlanNode;
import io.numacol.exec.Projection;
import io.numacol.placement.PageSocketMap;
import io.numacol.placement.Placement;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DataPlacer on a fake topology of four nodes under the bandwidth model, hot tables all on
 * node 0: it moves them apart, cuts one hot table in two, merges the pieces once they are idle,
 * and the answers of the queries running meanwhile never change.
 */
class DataPlacerTest {
    private static final int ROWS = 200_000;

    private static Database open() {
        return Database.open(DatabaseConfig.defaults().withTopology("fake:4").withNodeBandwidth(400_000_000L)
                .withPlacer("on", 200));
    }

    private static Table load(Database db, String name) {
        Table t = db.catalog().create(name, TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.bigint(), false)));
        try (Appender a = db.appender(name)) {
            for (long i = 0; i < ROWS; i++) {
                a.append(i);
            }
        }
        db.setPlacement(t, new Placement.Node(0));
        return t;
    }

    /** A client scanning {@code t} until stopped, checking every answer; the first wrong one is kept. */
    private static Thread client(Database db, Table t, AtomicBoolean stop, AtomicReference<String> wrong) {
        PlanNode.VidScan plan = new PlanNode.VidScan(t, new ColumnFilter.Range(0, 1_000L, true, 1_099L, true),
                List.<Projection>of(new Projection.ColumnRef(0)), null, null);
        Thread thread = Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) {
                int n = new PipelineExecutor(db.scheduler()).execute(plan, () -> false).size();
                if (n != 100) {
                    wrong.compareAndSet(null, t.name() + " answered " + n + " rows, not 100");
                }
            }
        });
        return thread;
    }

    /** The nodes holding most of each part's IndexVector pages. */
    private static Set<Integer> nodes(Database db, Table t) {
        Set<Integer> nodes = new TreeSet<>();
        try (TableSnapshot snapshot = t.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                PageSocketMap psm = new PageSocketMap(db.memory());
                psm.add(part.column(0).indexVector().segment());
                nodes.add(psm.majorityNode());
            }
        }
        return nodes;
    }

    /** Whether the placer acted, and not in its last {@code periods} periods. */
    private static boolean quiet(Database db, long periods) {
        List<Object[]> actions = db.placerActions();
        return !actions.isEmpty() && db.placerPeriods() - (long) actions.getLast()[7] >= periods;
    }

    private static void waitFor(BooleanSupplier condition, long seconds, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within %d s: %s", seconds, what).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    void hotTablesOnOneNodeAreMovedApart() throws Exception {
        Database db = open();
        try {
            assertThat(db.placerRunning()).isTrue();
            List<Table> tables = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                tables.add(load(db, "hot" + i));
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> wrong = new AtomicReference<>();
            List<Thread> clients = new ArrayList<>();
            for (Table t : tables) {
                for (int c = 0; c < 2; c++) {
                    clients.add(client(db, t, stop, wrong));
                }
            }
            int settledAfter;
            try {
                waitFor(() -> quiet(db, 5), 60, "the placer settles");
                settledAfter = db.placerActions().size();
                long settledAt = db.placerPeriods();
                waitFor(() -> db.placerPeriods() >= settledAt + 10, 60, "ten periods more under the same load");
            } finally {
                stop.set(true);
                for (Thread c : clients) {
                    c.join();
                }
            }
            assertThat(wrong.get()).isNull();
            assertThat(db.placerActions()).allSatisfy(a -> assertThat(a[6]).asString().contains("imbalance"));
            assertThat(db.placerActions().stream().map(a -> (String) a[2])).contains("move");
            // balanced: no oscillation. One more action is let through: on a loaded two-core machine the
            // utilization samples of eight clients are noisy enough for one late move (it failed 1 in 3
            // runs beside other builds); an oscillation makes one every few periods
            assertThat(db.placerActions()).as("balanced: no oscillation").hasSizeLessThanOrEqualTo(settledAfter + 1);
            Set<Integer> used = new TreeSet<>();
            tables.forEach(t -> used.addAll(nodes(db, t)));
            assertThat(used).as("spread over the nodes").hasSizeGreaterThanOrEqualTo(3);
        } finally {
            db.close();
        }
        assertThat(db.memory().accounting().totalBytes()).as("every part moved, cut or replaced is freed").isZero();
    }

    @Test
    void oneHotTableIsCutInTwoAndMergedOnceIdle() throws Exception {
        Database db = open();
        try {
            Table t = load(db, "solo");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> wrong = new AtomicReference<>();
            List<Thread> clients = List.of(client(db, t, stop, wrong), client(db, t, stop, wrong), client(db, t, stop, wrong));
            try {
                waitFor(() -> t.parts().size() >= 2, 60, "the hot table cut: " + db.placerActions().size() + " actions");
            } finally {
                stop.set(true);
                for (Thread c : clients) {
                    c.join();
                }
            }
            assertThat(wrong.get()).isNull();
            assertThat(nodes(db, t)).as("a piece on another node").hasSizeGreaterThanOrEqualTo(2);
            assertThat(db.placerActions().stream().map(a -> (String) a[2])).contains("partition");
            waitFor(() -> t.parts().size() == 1, 60, "the idle pieces merged");
            assertThat(db.placerActions().getLast()[2]).isEqualTo("merge");
            try (TableSnapshot snapshot = t.snapshot()) {
                assertThat(snapshot.parts().getFirst().rowCount()).isEqualTo(ROWS);
            }
        } finally {
            db.close();
        }
        assertThat(db.memory().accounting().totalBytes()).as("the pieces and the merged part freed").isZero();
    }

    /**
     * Two tables of a table group (PP(2) by the same key), all on node 0, one of them hot: the
     * placer moves a partition of the hot table and the same partition of the other with it, so
     * that their joins by partition stay on one node; it never cuts a PP part.
     */
    @Test
    void aTableGroupsPartitionMovesTogether() throws Exception {
        Database db = open();
        try {
            Table hot = load(db, "grouped_hot");
            Table cold = load(db, "grouped_cold");
            for (Table t : List.of(hot, cold)) {
                db.setPlacement(t, Placement.parse("PP(2) BY HASH (k)"));
                db.setPlacement(t, new Placement.Node(0)); // the parts keep their partitions
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> wrong = new AtomicReference<>();
            List<Thread> clients = List.of(client(db, hot, stop, wrong), client(db, hot, stop, wrong), client(db, hot, stop, wrong));
            try {
                waitFor(() -> !db.placerActions().isEmpty(), 60, "the placer acts");
            } finally {
                stop.set(true);
                for (Thread c : clients) {
                    c.join();
                }
            }
            assertThat(wrong.get()).isNull();
            Object[] action = db.placerActions().getFirst();
            assertThat(action[2]).as("a move, not a cut").isEqualTo("move");
            assertThat((String) action[6]).contains("of its table group: grouped_cold");
            int to = (Integer) action[5];
            try (TableSnapshot h = hot.snapshot(); TableSnapshot c = cold.snapshot()) {
                for (TablePart part : h.parts()) {
                    int node = PageSocketMap.homeNode(db.memory(), part);
                    TablePart twin = c.parts().stream().filter(p -> p.partition() == part.partition()).findFirst().orElseThrow();
                    assertThat(PageSocketMap.homeNode(db.memory(), twin)).as("partition %d of both tables", part.partition()).isEqualTo(node);
                }
                assertThat(h.parts().stream().map(p -> PageSocketMap.homeNode(db.memory(), p))).contains(to);
            }
        } finally {
            db.close();
        }
    }
}
