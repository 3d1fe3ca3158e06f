package io.numacol.database;

import io.numacol.durability.StorageOptions;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Small parts from many flushes become parts of up to rowsPerPart rows, with every row kept. */
class PartMergerTest {
    private static final int ROWS_PER_PART = 5_000;
    private final Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2").withRowsPerPart(ROWS_PER_PART));

    @AfterEach
    void close() {
        db.close();
    }

    private Table table(String name) {
        return db.catalog().create(name, TableSchema.of(
                new TableSchema.ColumnDef("id", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("amount", ColumnType.decimal(12, 2), true),
                new TableSchema.ColumnDef("day", ColumnType.date(), true),
                new TableSchema.ColumnDef("tag", ColumnType.varchar(10), true),
                new TableSchema.ColumnDef("score", ColumnType.doubleType(), true)));
    }

    /** Loads {@code flushes} batches of {@code rows} rows, each its own part; returns the rows as the table reads them back. */
    private List<List<Object>> load(String name, int flushes, int rows) {
        Random r = new Random(flushes * 31L + rows);
        try (Appender a = db.appender(name)) {
            for (int f = 0; f < flushes; f++) {
                for (int i = 0; i < rows; i++) {
                    a.append((long) (f * rows + i), r.nextInt(8) == 0 ? null : BigDecimal.valueOf(r.nextInt(100_000), 2),
                            r.nextInt(8) == 0 ? null : LocalDate.of(2020, 1, 1).plusDays(r.nextInt(400)),
                            r.nextInt(8) == 0 ? null : "t" + r.nextInt(50), r.nextInt(8) == 0 ? null : r.nextGaussian());
                }
                a.flush();
            }
        }
        return contents(db.catalog().get(name));
    }

    /** Every row of the table, sorted by id. */
    private static List<List<Object>> contents(Table table) {
        List<List<Object>> out = new ArrayList<>();
        try (TableSnapshot s = table.snapshot()) {
            for (TablePart p : s.parts()) {
                for (int row = 0; row < p.rowCount(); row++) {
                    if (p.deleted().isDeleted(row)) {
                        continue;
                    }
                    Object[] values = new Object[p.columns().size()];
                    for (int c = 0; c < values.length; c++) {
                        values[c] = p.column(c).value(row);
                    }
                    out.add(Arrays.asList(values));
                }
            }
        }
        out.sort((x, y) -> Long.compare((Long) x.getFirst(), (Long) y.getFirst()));
        return out;
    }

    @Test
    void mergingNowLeavesFullPartsAndEveryRow() {
        Table t = table("t");
        db.merger().pause();
        List<List<Object>> before = load("t", 23, 300);
        assertThat(t.parts()).hasSize(23);
        try (TableSnapshot old = t.snapshot()) {
            assertThat(db.mergeParts("t")).isEqualTo(2); // 16 parts of 300 fill 4800 of 5000 rows; 7 more make another
            assertThat(t.parts()).hasSize(2).allSatisfy(p -> assertThat(p.rowCount()).isLessThanOrEqualTo(ROWS_PER_PART));
            assertThat(old.parts()).as("a reader's snapshot keeps the parts it took").hasSize(23)
                    .noneMatch(TablePart::isFreed);
        }
        assertThat(contents(t)).isEqualTo(before);
        assertThat(db.mergeParts("t")).as("two parts of 4800 and 2100 rows would not fit one").isZero();
    }

    @Test
    void flushesMergeInTheBackground() throws InterruptedException {
        Table t = table("b");
        List<List<Object>> before = load("b", 40, 250);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (fullestTier(t) >= PartMerger.FAN && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        // merges interleave with the flushes, so the sizes vary; no tier is left with FAN small parts
        assertThat(fullestTier(t)).isLessThan(PartMerger.FAN);
        assertThat(t.parts().size()).isLessThan(10);
        assertThat(contents(t)).isEqualTo(before);
    }

    /**
     * A merge after each flush, as the background merges keep up with a load in batches: merged
     * by tiers, each row is rebuilt once per tier it passes (64-row parts to 512 to 4,096), where
     * merging each new part into the one grown so far rebuilt that part at every flush (quadratic
     * in the flushes: some 30 times the rows here).
     */
    @Test
    void mergesByTiersRebuildEachRowOncePerTier() {
        assertThat(PartMerger.FAN).isEqualTo(8);
        try (Database big = Database.open(DatabaseConfig.defaults().withTopology("fake:2").withRowsPerPart(1 << 20))) {
            Table t = big.catalog().create("tiers", TableSchema.of(new TableSchema.ColumnDef("id", ColumnType.bigint(), false),
                    new TableSchema.ColumnDef("tag", ColumnType.varchar(10), true)));
            big.pauseMerges(true);
            int flushes = 64;
            int rows = 64;
            Random r = new Random(7);
            try (Appender a = big.appender("tiers")) {
                for (int f = 0; f < flushes; f++) {
                    for (int i = 0; i < rows; i++) {
                        a.append((long) (f * rows + i), "t" + r.nextInt(50));
                    }
                    a.flush();
                    big.merger().mergeTiers(t);
                    assertThat(fullestTier(t, 1 << 20)).as("after flush %d", f).isLessThan(PartMerger.FAN);
                }
            }
            assertThat(big.merger().rebuiltRows()).isEqualTo(2L * flushes * rows);
            assertThat(t.parts()).extracting(TablePart::rowCount).containsExactly(flushes * rows);
            assertThat(t.rowCount()).isEqualTo((long) flushes * rows);
        }
        assertThat(PartMerger.tier(1)).isZero();
        assertThat(PartMerger.tier(7)).isZero();
        assertThat(PartMerger.tier(8)).isEqualTo(1);
        assertThat(PartMerger.tier(64)).isEqualTo(2);
        assertThat(PartMerger.tier(4_095)).isEqualTo(3);
    }

    /** The most small parts of one tier the table holds. */
    private static long fullestTier(Table t) {
        return fullestTier(t, ROWS_PER_PART);
    }

    private static long fullestTier(Table t, int rowsPerPart) {
        return t.parts().stream().filter(p -> p.rowCount() < rowsPerPart / 2)
                .collect(Collectors.groupingBy(p -> PartMerger.tier(p.liveRowCount()), Collectors.counting()))
                .values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    @Test
    void largePartsAreLeftAlone() {
        Table t = table("l");
        db.merger().pause();
        load("l", 3, 3_000);
        assertThat(db.mergeParts("l")).isZero();
        assertThat(t.parts()).hasSize(3);
    }

    /**
     * Parts with at least a fifth of their rows deleted are rebuilt without them, a part with
     * every row deleted is dropped, and a part with few deletions is left as it is; no deleted
     * row comes back.
     */
    @Test
    void partsWithManyDeletedRowsAreCompacted() {
        Table t = table("c");
        db.merger().pause();
        List<List<Object>> rows = load("c", 3, 4_000); // three large parts: no merge of small parts
        List<TablePart> parts = t.parts();
        try (TableChange change = TableChange.begin(db, t, () -> { })) {
            for (int r = 0; r < 4_000; r++) {
                change.delete(parts.get(0).rowId(r)); // all
                if (r % 4 == 0) {
                    change.delete(parts.get(1).rowId(r)); // 25%
                }
                if (r % 20 == 0) {
                    change.delete(parts.get(2).rowId(r)); // 5%
                }
            }
            change.commit();
        }
        List<List<Object>> live = contents(t);
        assertThat(t.deletedRowCount()).isEqualTo(4_000 + 1_000 + 200);
        assertThat(t.rowCount()).isEqualTo(12_000 - 5_200).isEqualTo(live.size());
        assertThat(db.mergeParts("c")).as("the empty part dropped, the 25%% one rebuilt").isEqualTo(2);
        assertThat(t.parts()).hasSize(2);
        assertThat(t.deletedRowCount()).as("the 5%% part keeps its deleted rows").isEqualTo(200);
        assertThat(contents(t)).isEqualTo(live);
        assertThat(rows).hasSize(12_000);
    }

    /**
     * A table being changed (UPDATE, DELETE) is merged once meanwhile, and the merge waits for the
     * change to let the table go: merges retried while the table was held kept every worker busy
     * while the changes waited for workers to build their parts (the soak test hung so, with two
     * workers and two rewrites).
     */
    @Test
    void tablesBeingChangedAreNotMergedMeanwhile() {
        Table a = table("ra");
        Table b = table("rb");
        db.merger().pause();
        List<List<Object>> rowsOfA = load("ra", 6, 200);
        load("rb", 6, 200);
        db.merger().resume();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (TableChange ra = TableChange.begin(db, a, () -> { }); TableChange rb = TableChange.begin(db, b, () -> { })) {
                db.afterFlush(a); // a merge of each, on each of the two workers
                db.afterFlush(b);
                for (List<Object> row : rowsOfA) {
                    ra.insert(row.toArray()); // a's rows twice
                }
                for (TablePart p : b.parts()) {
                    for (int r = 0; r < p.rowCount(); r++) {
                        rb.delete(p.rowId(r)); // b is emptied
                    }
                }
                ra.commit();
                rb.commit();
            }
        });
        List<List<Object>> twice = new ArrayList<>(rowsOfA);
        twice.addAll(rowsOfA);
        assertThat(contents(a)).containsExactlyInAnyOrderElementsOf(twice);
        assertThat(b.rowCount()).isZero();
    }

    /** A merge handed to the table's holder is dropped when the table is re-placed meanwhile: it was built for the old placement. */
    @Test
    void aMergeWaitingForTheHolderIsDroppedWhenTheTableIsPlacedAnew() throws Exception {
        Table t = db.catalog().create("w", new TableSchema(List.of(
                new TableSchema.ColumnDef("id", ColumnType.bigint(), false)), List.of()));
        db.merger().pause();
        for (long k = 0; k < 3; k++) {
            try (Appender a = db.appender(t)) {
                a.append(k);
            }
        }
        assertThat(t.parts()).hasSize(3);
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try {
            t.lockWrites();
            try {
                assertThat(worker.submit(() -> db.merger().mergeOnce(t)).get()).isTrue();
                assertThat(t.mergePending()).isTrue();
                db.whileNotMerging(t, () -> { }); // what a placement change runs its swap in
                assertThat(t.mergePending()).isFalse();
            } finally {
                t.unlockWrites();
            }
        } finally {
            worker.shutdown();
        }
        assertThat(t.parts()).as("the merge was not swapped in after the holder let go").hasSize(3);
        assertThat(t.rowCount()).isEqualTo(3L);
        assertThat(db.merger().mergeOnce(t)).as("a later merge takes the sources again").isTrue();
        assertThat(t.parts()).hasSize(1);
    }

    /**
     * One-row UPDATEs one after another (DurabilityBenchmark.updateByKey) hold the table nearly
     * all the time. A merge that finds the table held is swapped in as the UPDATE lets it go, the
     * rows the UPDATE deleted meanwhile staying deleted in the merged part. Before, such a merge was
     * dropped (the merger gave up on a held table, and a merge whose source got a newer version
     * failed its swap): the one-row parts piled up, 13,600 after 30,000 UPDATEs of 10,000 rows,
     * and every statement, walking all of them, got slower (1,290 UPDATEs a second, then 400).
     */
    @Test
    void aMergeOfATableBeingUpdatedIsSwappedInAfterTheUpdate() throws Exception {
        Table t = db.catalog().create("u", new TableSchema(List.of(
                new TableSchema.ColumnDef("id", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("v", ColumnType.bigint(), false)),
                List.of(new TableSchema.KeyDef("u_pkey", List.of(0), true))));
        db.merger().pause(); // merged below, at the worst moment: while an UPDATE holds the table
        int keys = 1_000;
        try (Appender a = db.appender(t)) {
            for (long k = 0; k < keys; k++) {
                a.append(k, 0L);
            }
        }
        long[] expected = new long[keys];
        Random random = new Random(7);
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try {
            for (int u = 0; u < 500; u++) {
                int key = random.nextInt(keys);
                boolean merged;
                try (TableChange change = TableChange.begin(db, t, () -> { })) {
                    change.update(rowOf(change.snapshot(), key), new Object[] {(long) key, ++expected[key]});
                    merged = worker.submit(() -> db.merger().mergeOnce(t)).get(); // reads the parts before the UPDATE
                    assertThat(t.mergePending()).isEqualTo(merged);
                    change.commit();
                }
                assertThat(merged).as("update %d: a merge of the parts (all but the first time)", u).isEqualTo(u > 0);
                assertThat(t.mergePending()).isFalse();
                assertThat(t.parts()).as("the merged part and the UPDATE's new row").hasSizeLessThanOrEqualTo(2);
            }
        } finally {
            worker.shutdown();
        }
        assertThat(t.deletedRowCount()).as("the UPDATE's deletion carried into the merged part").isEqualTo(1);
        List<List<Object>> rows = new ArrayList<>();
        try (TableSnapshot s = t.snapshot()) {
            for (TablePart p : s.parts()) {
                for (int r = 0; r < p.rowCount(); r++) {
                    if (!p.deleted().isDeleted(r)) {
                        rows.add(List.of(p.column(0).value(r), p.column(1).value(r)));
                    }
                }
            }
        }
        List<List<Object>> all = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            all.add(List.of((long) k, expected[k]));
        }
        assertThat(rows).as("each key once, with its last value").containsExactlyInAnyOrderElementsOf(all);
    }

    /**
     * A merge swapped in after an UPDATE that held the table, with the UPDATE's deletions carried
     * into the merged part as a version of it: a file database's log replays it so after a crash.
     */
    @Test
    void aMergeSwappedInAfterAnUpdateIsReplayedAfterACrash(@TempDir Path dir) throws Exception {
        DatabaseConfig config = DatabaseConfig.defaults().withTopology("fake:2").withRowsPerPart(ROWS_PER_PART);
        Database file = Database.open(config, StorageOptions.of(dir));
        Table t = file.catalog().create("u", new TableSchema(List.of(
                new TableSchema.ColumnDef("id", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("v", ColumnType.bigint(), false)),
                List.of(new TableSchema.KeyDef("u_pkey", List.of(0), true))));
        file.merger().pause();
        for (long from = 0; from < 300; from += 100) {
            try (Appender a = file.appender(t)) {
                for (long k = from; k < from + 100; k++) {
                    a.append(k, 0L);
                }
            }
        }
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try (TableChange change = TableChange.begin(file, t, () -> { })) {
            for (TablePart p : change.snapshot().parts()) {
                for (int r = 0; r < p.rowCount(); r++) {
                    if ((Long) p.column(0).value(r) % 3 == 0) {
                        change.update(p.rowId(r), new Object[] {p.column(0).value(r), 1L});
                    }
                }
            }
            assertThat(worker.submit(() -> file.merger().mergeOnce(t)).get()).as("taken while the UPDATE holds the table").isTrue();
            change.commit();
        } finally {
            worker.shutdown();
        }
        assertThat(t.parts()).as("the merged part and the UPDATE's new rows").hasSize(2);
        assertThat(t.deletedRowCount()).isEqualTo(100);
        List<List<Object>> expected = contents(t);
        assertThat(expected).hasSize(300).extracting(row -> row.getFirst()).doesNotHaveDuplicates();
        file.durableStore().orElseThrow().abandon(); // a crash: no checkpoint, the log alone
        file.close();
        try (Database back = Database.open(config, StorageOptions.of(dir))) {
            assertThat(contents(back.catalog().get("u"))).isEqualTo(expected);
        }
    }

    /** The row id of the live row of key {@code key} (column 0). */
    private static long rowOf(TableSnapshot snapshot, long key) {
        for (TablePart p : snapshot.parts()) {
            for (int r = 0; r < p.rowCount(); r++) {
                if (!p.deleted().isDeleted(r) && Long.valueOf(key).equals(p.column(0).value(r))) {
                    return p.rowId(r);
                }
            }
        }
        throw new AssertionError("no row of key " + key);
    }
}
