package io.numacol.database;

import io.numacol.exec.PipelineExecutor;
import io.numacol.exec.PlanNode;
import io.numacol.placement.PageSocketMap;
import io.numacol.placement.Placement;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PP placements on a fake topology of four nodes: every part holds rows of one partition only,
 * the partition its key says, on the partition's node; rows appended later and parts merged
 * later keep it so; the table's rows are the same before and after.
 */
class PhysicalPartitioningTest {
    private static final int ROWS_PER_PART = 10_000;

    private static Database open() {
        return Database.open(DatabaseConfig.defaults().withTopology("fake:4").withRowsPerPart(ROWS_PER_PART));
    }

    private static Table load(Database db, String name, int rows, long seed) {
        Table t = db.catalog().create(name, TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.bigint(), true),
                new TableSchema.ColumnDef("s", ColumnType.varchar(20), true), new TableSchema.ColumnDef("d", ColumnType.doubleType(), true)));
        append(db, name, 0, rows, seed);
        return t;
    }

    private static void append(Database db, String name, int from, int to, long seed) {
        Random random = new Random(seed);
        try (Appender a = db.appender(name)) {
            for (int i = from; i < to; i++) {
                a.append(i % 97 == 0 ? null : (long) random.nextInt(5_000) - 100, i % 89 == 0 ? null : "s" + random.nextInt(700),
                        i % 83 == 0 ? null : random.nextInt(300) / 4.0 - 10);
            }
        }
    }

    /** Every row of the table, as strings, sorted: the table's content whatever its parts. */
    private static List<String> content(Table t) {
        List<String> rows = new ArrayList<>();
        try (TableSnapshot snapshot = t.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                for (int r = 0; r < part.rowCount(); r++) {
                    rows.add(part.column(0).value(r) + "|" + part.column(1).value(r) + "|" + part.column(2).value(r));
                }
            }
        }
        rows.sort(Comparator.naturalOrder());
        return rows;
    }

    /** Each part is of one partition of {@code expected}, holds only its rows, and sits on its node. */
    private static void assertPartitioned(Database db, Table t, Partitioning expected) {
        try (TableSnapshot snapshot = t.snapshot()) {
            assertThat(snapshot.parts()).isNotEmpty();
            for (TablePart part : snapshot.parts()) {
                assertThat(part.partitioning()).isEqualTo(expected);
                if (expected.kind() != Partitioning.Kind.ROUND_ROBIN) {
                    assertThat(expected.partitionsOf(part, 0)).as("the rows of %s", part).containsOnly(part.partition());
                }
                PageSocketMap psm = new PageSocketMap(db.memory());
                part.columns().forEach(c -> psm.add(c.indexVector().segment()));
                assertThat(psm.majorityNode()).isEqualTo(part.partition() % 4);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"PP(4) BY HASH (k)", "PP(6) BY HASH (s, k)", "PP(3) BY HASH (d)", "PP(5) BY RANGE (k)",
        "PP(4) BY RANGE (s)", "PP(7) ROUND ROBIN"})
    void everyPartHoldsOnePartitionOnItsNode(String spec) {
        try (Database db = open()) {
            Table t = load(db, "t", 35_000, 7);
            List<String> before = content(t);
            db.setPlacement(t, Placement.parse(spec));
            Partitioning partitioning = db.partitioning(t);
            assertThat(partitioning.count()).isEqualTo(((Placement.Partitioned) Placement.parse(spec)).count());
            assertThat(db.placement(t)).hasToString(spec);
            assertThat(content(t)).as("the same rows").isEqualTo(before);
            assertPartitioned(db, t, partitioning);

            // rows appended afterwards are dealt too, and merges keep partitions apart
            for (int batch = 0; batch < 5; batch++) {
                append(db, "t", 35_000 + batch * 500, 35_500 + batch * 500, 11 + batch);
            }
            db.mergeParts("t");
            assertPartitioned(db, t, partitioning);
            assertThat(content(t)).hasSize(37_500);
            if (partitioning.kind() == Partitioning.Kind.ROUND_ROBIN) {
                TreeMap<Integer, Long> rows = new TreeMap<>();
                try (TableSnapshot snapshot = t.snapshot()) {
                    snapshot.parts().forEach(p -> rows.merge(p.partition(), (long) p.rowCount(), Long::sum));
                }
                assertThat(rows.values()).allSatisfy(n -> assertThat(n).isBetween(37_500L / 7 - 10, 37_500L / 7 + 10));
            }
            db.setPlacement(t, null);
            assertThat(db.partitioning(t)).isNull();
            assertThat(content(t)).hasSize(37_500);
        }
        // every part freed: the database checks its memory on close (MemoryAccounting)
    }

    @Test
    void rangeBoundsFollowTheDataAndPartitionsKeepTheirOrder() {
        try (Database db = open()) {
            Table t = load(db, "t", 40_000, 3);
            db.setPlacement(t, Placement.parse("PP(4) BY RANGE (k)"));
            TreeMap<Integer, long[]> minMax = new TreeMap<>();
            TreeMap<Integer, Long> counts = new TreeMap<>();
            try (TableSnapshot snapshot = t.snapshot()) {
                for (TablePart part : snapshot.parts()) {
                    for (int r = 0; r < part.rowCount(); r++) {
                        Object v = part.column(0).value(r);
                        if (v != null) {
                            long k = (Long) v;
                            minMax.merge(part.partition(), new long[] {k, k}, (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
                        }
                    }
                    counts.merge(part.partition(), (long) part.rowCount(), Long::sum);
                }
            }
            assertThat(minMax).hasSize(4);
            for (int p = 1; p < 4; p++) {
                assertThat(minMax.get(p)[0]).as("partition %d starts above %d's end", p, p - 1).isGreaterThan(minMax.get(p - 1)[1]);
            }
            assertThat(counts.values()).as("quantile bounds: about a quarter each").allSatisfy(n -> assertThat(n).isBetween(8_000L, 12_000L));
        }
    }

    @Test
    void badPartitioningsAreRefusedAndChangeNothing() {
        try (Database db = open()) {
            Table t = load(db, "t", 5_000, 5);
            List<String> before = content(t);
            assertThatThrownBy(() -> db.setPlacement(t, Placement.parse("PP(4) BY HASH (nope)")))
                    .hasMessageContaining("table t has no column nope");
            assertThatThrownBy(() -> Placement.parse("PP(0) BY HASH (k)")).hasMessageContaining("1 to 1024 partitions");
            assertThatThrownBy(() -> Placement.parse("PP(99999999999) ROUND ROBIN")).hasMessageContaining("1 to 1024 partitions");
            assertThatThrownBy(() -> Placement.parse("PP(4) BY RANGE (k, s)")).hasMessageContaining("BY RANGE (column)");
            assertThatThrownBy(() -> Placement.parse("PP(4)")).hasMessageContaining("write PP(n) BY HASH");
            assertThatThrownBy(() -> Placement.parse("PP(4) BY HASH ()")).hasMessageContaining("write PP(n) BY HASH");
            assertThat(db.partitioning(t)).isNull();
            assertThat(content(t)).isEqualTo(before);
            Table empty = db.catalog().create("e", TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.integer(), true)));
            assertThatThrownBy(() -> db.setPlacement(empty, Placement.parse("PP(4) BY RANGE (k)")))
                    .hasMessageContaining("takes its bounds from the rows").hasMessageContaining("load it, then ALTER TABLE e");
            db.setPlacement(empty, Placement.parse("PP(4) BY HASH (k)"));
            try (Appender a = db.appender("e")) {
                for (int i = 0; i < 1_000; i++) {
                    a.append(i);
                }
            }
            assertThat(empty.parts()).extracting(TablePart::partition).containsExactlyInAnyOrder(0, 1, 2, 3);
            // one-row loads of a ROUND ROBIN table are dealt in turn too, not all to partition 0
            Table turns = db.catalog().create("turns", TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.integer(), true)));
            db.setPlacement(turns, Placement.parse("PP(5) ROUND ROBIN"));
            for (int i = 0; i < 5; i++) {
                try (Appender a = db.appender("turns")) {
                    a.append(i);
                }
            }
            assertThat(turns.parts()).extracting(TablePart::partition).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        }
    }

    /**
     * Joins of two tables running while both are placed anew, PP(4), PP(3) and RR in turn: a
     * join judges and reads the same parts (pinned snapshots), so every answer is the one
     * before, whether it ran by partition or not, and no part is freed under it.
     */
    @Test
    void joinsWhilePlacementsChangeGiveTheSameAnswers() throws Exception {
        try (Database db = open()) {
            Table a = load(db, "a", 30_000, 21);
            Table b = load(db, "b", 12_000, 22);
            PlanNode plan = new PlanNode.HashJoin(new PlanNode.Scan(a, null, new int[] {0, 2}), new PlanNode.Scan(b, null, new int[] {0, 1}),
                    new int[] {0}, new int[] {0}, new boolean[] {false}, PlanNode.JoinKind.INNER, false);
            List<String> expected = joined(db, plan);
            String[] specs = {"PP(4) BY HASH (k)", "PP(3) BY HASH (k)", "RR", "PP(4) BY HASH (k)"};
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread placer = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; !stop.get(); i++) {
                        db.setPlacement(i % 2 == 0 ? a : b, Placement.parse(specs[i / 2 % specs.length]));
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            long before = PipelineExecutor.coPartitionedJoins();
            try {
                for (int i = 0; i < 60; i++) {
                    assertThat(joined(db, plan)).as("join %d", i).isEqualTo(expected);
                }
            } finally {
                stop.set(true);
                joinKeepingTheFailure(placer);
            }
            assertThat(failed.get()).isNull();
            db.setPlacement(a, Placement.parse("PP(4) BY HASH (k)"));
            db.setPlacement(b, Placement.parse("PP(4) BY HASH (k)"));
            assertThat(joined(db, plan)).isEqualTo(expected);
            assertThat(PipelineExecutor.coPartitionedJoins()).as("at least the last ran by partition").isGreaterThan(before);
        }
    }

    /**
     * Joins the thread without throwing: an InterruptedException here would hide what failed in
     * the try block (a cancelled join); the flag stays set for {@code InterruptedThreadCheck}.
     */
    private static void joinKeepingTheFailure(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> joined(Database db, PlanNode plan) {
        return new PipelineExecutor(db.scheduler()).execute(plan, () -> false).stream().map(Arrays::toString).sorted().toList();
    }

    @Test
    void tablesPartitionedAlikeFormATableGroup() {
        Partitioning a = Partitioning.hash(8, new int[] {0}, List.of(ColumnType.integer()));
        assertThat(a.sameGroup(Partitioning.hash(8, new int[] {3}, List.of(ColumnType.bigint())))).as("integer types store one long").isTrue();
        assertThat(a.sameGroup(Partitioning.hash(4, new int[] {0}, List.of(ColumnType.integer())))).isFalse();
        assertThat(a.sameGroup(Partitioning.hash(8, new int[] {0}, List.of(ColumnType.varchar(5))))).isFalse();
        assertThat(a.sameGroup(Partitioning.hash(8, new int[] {0, 1}, List.of(ColumnType.integer(), ColumnType.integer())))).isFalse();
        assertThat(a.sameGroup(Partitioning.roundRobin(8))).isFalse();
        assertThat(a.sameGroup(Partitioning.range(8, 0, ColumnType.integer(), List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L)))).isFalse();
        // equal keys of two tables land in equal partitions
        Partitioning b = Partitioning.hash(8, new int[] {1}, List.of(ColumnType.bigint()));
        for (long k = -1000; k < 1000; k++) {
            assertThat(a.partitionOf(new Object[] {k}, 0)).isEqualTo(b.partitionOf(new Object[] {null, k}, 99));
        }
        Partitioning d = Partitioning.hash(8, new int[] {0}, List.of(ColumnType.doubleType()));
        assertThat(d.partitionOf(new Object[] {-0.0}, 0)).isEqualTo(d.partitionOf(new Object[] {0.0}, 0));
    }
}
