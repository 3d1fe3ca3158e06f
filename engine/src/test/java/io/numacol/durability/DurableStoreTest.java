package io.numacol.durability;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.database.TableChange;
import io.numacol.placement.Placement;
import io.numacol.storage.Catalog;
import io.numacol.storage.NamedSequence;
import io.numacol.storage.Sequence;
import io.numacol.storage.SequenceDef;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.ViewDef;
import io.numacol.storage.types.ColumnType;
import io.numacol.wal.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A file database read back: after a clean close (from its checkpoint), after a crash (from the
 * log over the last checkpoint, or from the log alone), with small parts logged as rows, big ones
 * as part files, deletions, drops, merges, ALTERs, keys, identities, views and placements.
 */
class DurableStoreTest {
    @TempDir
    Path dir;

    private static final DatabaseConfig CONFIG = DatabaseConfig.defaults().withTopology("fake:2");

    private Database open() {
        return Database.open(CONFIG, StorageOptions.of(dir));
    }

    private static Table create(Database db, String name) {
        return db.catalog().create(name, new TableSchema(List.of(
                new ColumnDef("id", ColumnType.bigint(), false),
                new ColumnDef("name", ColumnType.varchar(20), true),
                new ColumnDef("amount", ColumnType.decimal(12, 2), true)),
                List.of(new TableSchema.KeyDef(name + "_pkey", List.of(0), true))));
    }

    private static void append(Database db, Table t, long from, long to) {
        try (Appender a = db.appender(t)) {
            for (long id = from; id < to; id++) {
                a.append(id, id % 7 == 0 ? null : "n" + id, new java.math.BigDecimal(id).movePointLeft(2));
            }
        }
    }

    private static void delete(Database db, Table t, LongPredicate which) {
        try (TableChange change = TableChange.begin(db, t, () -> { })) {
            try (TableSnapshot s = t.snapshot()) {
                for (TablePart p : s.parts()) {
                    for (int r = 0; r < p.rowCount(); r++) {
                        if (!p.deleted().isDeleted(r) && which.test((Long) p.column(0).value(r))) {
                            change.delete(p.rowId(r));
                        }
                    }
                }
            }
            change.commit();
        }
    }

    /** The live rows of the table, sorted by id. */
    private static List<List<Object>> rows(Table t) {
        List<List<Object>> out = new ArrayList<>();
        try (TableSnapshot s = t.snapshot()) {
            for (TablePart p : s.parts()) {
                for (int r = 0; r < p.rowCount(); r++) {
                    if (!p.deleted().isDeleted(r)) {
                        List<Object> row = new ArrayList<>();
                        for (int c = 0; c < p.columns().size(); c++) {
                            row.add(p.column(c).value(r));
                        }
                        out.add(row);
                    }
                }
            }
        }
        out.sort((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)));
        return out;
    }

    private static void crash(Database db) {
        db.durableStore().orElseThrow().abandon();
        db.close();
    }

    @Test
    void aCleanCloseIsReadBackFromItsCheckpoint() {
        List<List<Object>> before;
        try (Database db = open()) {
            Table t = create(db, "items");
            append(db, t, 0, 100);
            append(db, t, 100, 40_000); // a part file
            delete(db, t, id -> id % 3 == 0);
            before = rows(t);
        }
        assertThat(dir.resolve("MANIFEST")).exists();
        try (Database db = open()) {
            Table t = db.catalog().get("items");
            assertThat(rows(t)).isEqualTo(before);
            assertThat(t.schema().keys()).hasSize(1);
            assertThat(before).hasSize(40_000 - 13_334);
        }
    }

    @Test
    void aCrashIsRecoveredFromTheLogAlone() {
        List<List<Object>> items;
        List<List<Object>> other;
        Database db = open();
        Table t = create(db, "items");
        append(db, t, 0, 10);
        append(db, t, 10, 30_000);
        delete(db, t, id -> id % 5 == 1);
        Table o = create(db, "other");
        append(db, o, 0, 3);
        db.dropTable("other");
        o = create(db, "other"); // a new table of the old name: its own id
        append(db, o, 5, 9);
        items = rows(t);
        other = rows(o);
        crash(db);
        assertThat(dir.resolve("MANIFEST")).doesNotExist();
        try (Database back = open()) {
            assertThat(rows(back.catalog().get("items"))).isEqualTo(items);
            assertThat(rows(back.catalog().get("other"))).isEqualTo(other);
        }
    }

    @Test
    void theLogAfterACheckpointReplaysOverIt() {
        Database db = open();
        Table t = create(db, "items");
        append(db, t, 0, 20_000);
        append(db, t, 20_000, 20_050);
        db.checkpoint();
        delete(db, t, id -> id < 100 || id >= 20_040); // deletions in parts the checkpoint holds
        append(db, t, 30_000, 30_010);
        List<List<Object>> expected = rows(t);
        crash(db);
        try (Database back = open()) {
            assertThat(rows(back.catalog().get("items"))).isEqualTo(expected);
        }
        try (Database again = open()) { // the clean close's checkpoint holds the same
            assertThat(rows(again.catalog().get("items"))).isEqualTo(expected);
        }
    }

    @Test
    void mergedPartsKeepTheRowIdsLaterDeletionsName() {
        Database db = open();
        Table t = create(db, "items");
        for (int i = 0; i < 20; i++) {
            append(db, t, i * 10L, i * 10L + 10); // twenty small parts
        }
        delete(db, t, id -> id % 4 == 0);
        db.mergeParts(t); // a new part whose positions differ from the sources'
        delete(db, t, id -> id % 4 == 1);
        List<List<Object>> expected = rows(t);
        crash(db);
        try (Database back = open()) {
            assertThat(rows(back.catalog().get("items"))).isEqualTo(expected);
        }
    }

    /** A merge is not forced (no one waits for it): a crash right after it replays its sources, with the same rows. */
    @Test
    void aMergeThatNoForceCoveredIsReplayedAsItsSources() {
        Database db = open();
        Table t = create(db, "items");
        for (int i = 0; i < 12; i++) {
            append(db, t, i * 10L, i * 10L + 10);
        }
        delete(db, t, id -> id % 3 == 0);
        assertThat(db.mergeParts(t)).isPositive();
        List<List<Object>> expected = rows(t);
        crash(db);
        try (Database back = open()) {
            assertThat(rows(back.catalog().get("items"))).isEqualTo(expected).hasSize(120 - 40);
            delete(back, back.catalog().get("items"), id -> id % 3 == 1); // the replayed rows take deletions by their ids
            assertThat(rows(back.catalog().get("items"))).hasSize(120 - 80);
        }
    }

    @Test
    void anAlteredTableAndTheCatalogsOtherObjectsComeBack() {
        Database db = open();
        db.catalog().createSchema("sales");
        Table t = db.catalog().create("sales", "orders", new TableSchema(List.of(
                new ColumnDef("id", ColumnType.bigint(), false, null, new TableSchema.Identity(true, new Sequence(1, 1))),
                new ColumnDef("qty", ColumnType.integer(), true, "7", null)), List.of()));
        try (Appender a = db.appender(t)) {
            for (int i = 0; i < 5; i++) {
                a.append(t.schema().column(0).identity().sequence().next(), i);
            }
        }
        db.setPlacement(t, Placement.parse("RR"));
        Table items = create(db, "items");
        append(db, items, 0, 50);
        db.catalog().createView(new ViewDef("main", "big", "SELECT * FROM items WHERE id > 10", List.of("id", "name", "amount"),
                "main"), false);
        db.catalog().createIndex("items_name", items, List.of("name"), false);
        // an ALTER: a new table under the old name, filled with the old rows
        db.alterTable(items, "items", new TableSchema(List.of(
                new ColumnDef("id", ColumnType.bigint(), false),
                new ColumnDef("name", ColumnType.varchar(20), true),
                new ColumnDef("amount", ColumnType.decimal(12, 2), true),
                new ColumnDef("extra", ColumnType.integer(), true))), row -> Arrays.copyOf(row, 4), c -> c);
        List<List<Object>> altered = rows(db.catalog().get("items"));
        crash(db);
        try (Database back = open()) {
            Table orders = back.catalog().get("sales", "orders");
            assertThat(rows(orders)).hasSize(5);
            assertThat(orders.schema().column(1).defaultText()).isEqualTo("7");
            assertThat(orders.schema().column(0).identity().always()).isTrue();
            assertThat(orders.schema().column(0).identity().sequence().next()).isGreaterThan(5);
            assertThat(back.placement(orders)).hasToString("RR");
            assertThat(rows(back.catalog().get("items"))).isEqualTo(altered);
            assertThat(back.catalog().get("items").schema().size()).isEqualTo(4);
            assertThat(back.catalog().findView("main", "big")).isPresent();
            assertThat(back.catalog().findIndex("main", "items_name")).isPresent();
        }
    }

    @Test
    void partsOfAPartitionComeBackAsItsPartsOnItsNode() {
        Database db = open();
        Table t = create(db, "items");
        append(db, t, 0, 80_000);
        db.setPlacement(t, Placement.parse("PP(4) BY HASH (id)")); // re-dealt: a part file per partition
        append(db, t, 80_000, 80_100); // dealt as it is loaded: logged as rows
        delete(db, t, id -> id % 5 == 0);
        List<List<Object>> expected = rows(t);
        crash(db); // the log alone: the partitioning, then the parts dealt by it
        try (Database back = open()) {
            assertPartitioned(back, expected, "PP(4) BY HASH (id)");
        } // a clean close: the checkpoint's part files
        try (Database back = open()) {
            assertPartitioned(back, expected, "PP(4) BY HASH (id)");
            // dealt anew by another key, then a crash: each replayed part is checked against the partitioning it was dealt by
            back.setPlacement(back.catalog().get("items"), Placement.parse("PP(3) BY RANGE (id)"));
            crash(back);
        }
        try (Database back = open()) {
            assertPartitioned(back, expected, "PP(3) BY RANGE (id)");
        }
    }

    /** The table's rows are {@code expected}, and each of its parts is one of its partitions', whole on that partition's node. */
    private static void assertPartitioned(Database db, List<List<Object>> expected, String placement) {
        Table t = db.catalog().get("items");
        assertThat(rows(t)).isEqualTo(expected);
        assertThat(db.placement(t)).hasToString(placement);
        io.numacol.storage.Partitioning partitioning = db.partitioning(t);
        assertThat(partitioning).isNotNull();
        try (TableSnapshot s = t.snapshot()) {
            assertThat(s.parts()).isNotEmpty();
            for (TablePart p : s.parts()) {
                assertThat(p.partitioning()).as("part %s", p).isEqualTo(partitioning);
                assertThat(p.partition()).isBetween(0, partitioning.count() - 1);
                for (int c = 0; c < p.columns().size(); c++) {
                    assertThat(p.column(c).placement()).as("part %s column %d", p, c)
                            .isEqualTo(io.numacol.storage.ColumnPlacement.onNode(p.partition() % 2));
                }
            }
        }
    }

    @Test
    void aReadOnlyOpenReadsTheLogAndCheckpointWritesNothingAndRefusesChanges() throws Exception {
        List<List<Object>> expected;
        try (Database db = open()) {
            Table t = create(db, "items");
            append(db, t, 0, 20_000); // a part file
            db.checkpoint();
            append(db, t, 20_000, 20_100); // in the log only
            delete(db, t, id -> id % 10 == 3);
            expected = rows(t);
            crash(db); // no last checkpoint: the read-only open must replay the log
        }
        List<String> before = listing(dir);
        try (Database reader = Database.open(CONFIG, new StorageOptions(dir, Durability.FSYNC, StorageOptions.DEFAULT_CHECKPOINT_BYTES, true))) {
            assertThat(reader.isReadOnly()).isTrue();
            Table t = reader.catalog().get("items");
            assertThat(rows(t)).isEqualTo(expected);
            assertThatThrownBy(() -> append(reader, t, 50_000, 50_001)).isInstanceOf(ReadOnlyDatabaseException.class)
                    .hasMessageContaining("read-only");
            assertThatThrownBy(() -> delete(reader, t, id -> id == 5)).isInstanceOf(ReadOnlyDatabaseException.class);
            assertThat(rows(t)).isEqualTo(expected); // nothing of the refused changes
            assertThatThrownBy(this::open).isInstanceOf(DatabaseLockedException.class); // no writer while it reads
        }
        assertThat(listing(dir)).isEqualTo(before); // not a byte written, no file made or removed
        try (Database db = open()) { // the writer may come back once the reader is gone
            assertThat(rows(db.catalog().get("items"))).isEqualTo(expected);
        }
        Path empty = dir.resolve("nothing here");
        Files.createDirectories(empty);
        assertThatThrownBy(() -> Database.open(CONFIG, new StorageOptions(empty, Durability.FSYNC, 0, true)))
                .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("no numacol database");
        assertThat(listing(empty)).isEmpty();
    }

    /** Every file under {@code root} with its size and last modification, sorted. */
    private static List<String> listing(Path root) throws java.io.IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).map(f -> {
                try {
                    return root.relativize(f) + " " + Files.size(f) + " " + Files.getLastModifiedTime(f);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sorted().toList();
        }
    }

    @Test
    void aSecondOpenOfTheDirectoryIsRefusedNamingTheLock() {
        try (Database db = open()) {
            assertThat(db.durableStore()).isPresent();
            assertThatThrownBy(this::open).isInstanceOf(DatabaseLockedException.class).hasMessageContaining("LOCK");
        }
        try (Database again = open()) { // the lock went with the first
            assertThat(again.catalog().tables()).isEmpty();
        }
    }

    @Test
    void aCheckpointDropsTheLogAndThePartFilesItMadeRedundant() throws Exception {
        try (Database db = open()) {
            Table t = create(db, "items");
            append(db, t, 0, 20_000);
            delete(db, t, id -> id < 10); // the part file's part has a new version: the checkpoint writes it anew
            db.checkpoint();
            db.checkpoint();
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.filter(f -> f.toString().endsWith(".part")).count()).isEqualTo(1);
            }
            assertThat(db.durableStore().orElseThrow().status().logBytesSinceCheckpoint()).isLessThan(200);
        }
    }

    @Test
    void randomChangesAndCrashesAgreeWithTheLastCommittedState() {
        Random random = new Random(42);
        List<List<Object>> expected = List.of();
        long next = 0;
        for (int round = 0; round < 6; round++) {
            Database db = open();
            Table t = db.catalog().find("items").orElseGet(() -> create(db, "items"));
            assertThat(rows(t)).isEqualTo(expected);
            for (int step = 0; step < 12; step++) {
                switch (random.nextInt(5)) {
                    case 0, 1 -> {
                        int n = random.nextInt(4) == 0 ? 17_000 : 1 + random.nextInt(50);
                        append(db, t, next, next + n);
                        next += n;
                    }
                    case 2 -> {
                        long m = 2L + random.nextInt(9);
                        delete(db, t, id -> id % m == 0);
                    }
                    case 3 -> db.mergeParts(t);
                    default -> db.checkpoint();
                }
            }
            expected = rows(t);
            if (round % 2 == 0) {
                crash(db);
            } else {
                db.close();
            }
        }
        try (Database db = open()) {
            assertThat(rows(db.catalog().get("items"))).isEqualTo(expected);
        }
    }

    @Test
    void durabilityNoneStillKeepsWhatAClosedDatabaseHad() {
        StorageOptions none = new StorageOptions(dir, Durability.NONE, 0);
        List<List<Object>> expected;
        try (Database db = Database.open(CONFIG, none)) {
            Table t = create(db, "items");
            append(db, t, 0, 100);
            expected = rows(t);
        }
        try (Database db = Database.open(CONFIG, none)) {
            assertThat(rows(db.catalog().get("items"))).isEqualTo(expected);
        }
    }

    /** The newest log file of the database. */
    private Path newestLog() throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve(DurableStore.LOG_DIRECTORY))) {
            return files.filter(f -> f.toString().endsWith(".wal")).max(Path::compareTo).orElseThrow();
        }
    }

    /**
     * Five commits of ten rows each, then a crash; returns the rows after each commit (index 0:
     * none). Parts of ten rows are not small where a part holds 16 rows at most: no background
     * merge commits after them, so the log's last transaction is the fifth commit.
     */
    private List<List<List<Object>>> fiveCommitsThenCrash() {
        List<List<List<Object>>> states = new ArrayList<>();
        Database db = Database.open(CONFIG.withRowsPerPart(16), StorageOptions.of(dir));
        Table t = create(db, "items");
        states.add(rows(t));
        for (int i = 0; i < 5; i++) {
            append(db, t, i * 10L, i * 10L + 10);
            states.add(rows(t));
        }
        crash(db);
        return states;
    }

    @Test
    void aTornLogTailLosesOnlyTheCommitsItCut() throws Exception {
        List<List<List<Object>>> states = fiveCommitsThenCrash();
        Path log = newestLog();
        long size = Files.size(log);
        try (var channel = java.nio.channels.FileChannel.open(log, java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(size - 7); // a write the crash cut in the middle of the last record
        }
        try (Database db = open()) {
            List<List<Object>> back = rows(db.catalog().get("items"));
            assertThat(back).isEqualTo(states.get(4)); // the last commit is gone, whole; the others are there
        }
        try (Database db = open()) { // the cut tail is gone for good: the log goes on from the last whole record
            assertThat(rows(db.catalog().get("items"))).isEqualTo(states.get(4));
        }
    }

    @Test
    void aFlippedBitInTheLastRecordIsNeverReadAsData() throws Exception {
        List<List<List<Object>>> states = fiveCommitsThenCrash();
        Path log = newestLog();
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length - 40] ^= 0x10; // inside the last transaction's records
        Files.write(log, bytes);
        try (Database db = open()) {
            List<List<Object>> back = rows(db.catalog().get("items"));
            assertThat(states).contains(back);
            assertThat(back.size()).isGreaterThanOrEqualTo(40); // only the damaged commit is lost
        }
    }

    @Test
    void aDamagedPartFileIsRefusedNamingIt() throws Exception {
        try (Database db = open()) {
            Table t = create(db, "items");
            append(db, t, 0, 1000);
        }
        Path part;
        try (Stream<Path> files = Files.list(dir)) {
            part = files.filter(f -> f.toString().endsWith(".part")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(part);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(part, bytes);
        assertThatThrownBy(this::open).isInstanceOf(java.io.UncheckedIOException.class)
                .hasMessageContaining(part.getFileName().toString())
                .hasCauseInstanceOf(io.numacol.checkpoint.DamagedFileException.class);
        bytes[bytes.length / 2] ^= 0x01; // mended: the database opens, nothing was changed by the refusal
        Files.write(part, bytes);
        try (Database db = open()) {
            assertThat(rows(db.catalog().get("items"))).hasSize(1000);
        }
    }

    @Test
    void aManifestOfAnotherFormatVersionIsRefused() throws Exception {
        try (Database db = open()) {
            create(db, "items");
        }
        Path manifest = dir.resolve("MANIFEST");
        byte[] bytes = Files.readAllBytes(manifest);
        bytes[8] = 99; // the version after the magic
        Files.write(manifest, bytes);
        assertThatThrownBy(this::open).isInstanceOf(java.io.UncheckedIOException.class)
                .hasCauseInstanceOf(io.numacol.checkpoint.UnsupportedVersionException.class);
    }

    @Test
    void identityNumbersOfRowsGoneBeforeACrashAreNotGivenAgain() {
        Database db = open();
        Table t = db.catalog().create("main", "orders", new TableSchema(List.of(
                new ColumnDef("id", ColumnType.bigint(), false, null, new TableSchema.Identity(false, new Sequence(1, 1))),
                new ColumnDef("qty", ColumnType.integer(), true)), List.of()));
        try (Appender a = db.appender(t)) {
            for (int i = 0; i < 5; i++) {
                a.append(t.schema().column(0).identity().sequence().next(), i);
            }
        }
        db.truncate("orders"); // the numbers 1..5 were handed out; no row holds them any more
        crash(db);
        try (Database back = open()) {
            Table orders = back.catalog().get("orders");
            assertThat(rows(orders)).isEmpty();
            assertThat(orders.schema().column(0).identity().sequence().next()).isEqualTo(6);
        }
    }

    @Test
    void sequenceNumbersGivenBeforeACrashOrACloseAreNotGivenAgain() {
        Database db = open();
        Catalog catalog = db.catalog();
        NamedSequence s = catalog.createSequence(SequenceDef.withDefaults("main", "ids", "BIGINT", 10L, 5L, null, null, false),
                new NamedSequence.Position(10, false));
        catalog.createSequence(SequenceDef.withDefaults("main", "gone", "INTEGER", null, null, null, null, false),
                new NamedSequence.Position(1, false));
        long last = 0;
        for (int i = 0; i < 40; i++) {
            last = catalog.nextval(s); // past one reservation of 32 numbers into the next
        }
        catalog.dropSequence("main", "gone");
        crash(db);
        long afterCrash;
        try (Database back = open()) {
            NamedSequence again = back.catalog().findSequence("main", "IDS").orElseThrow();
            assertThat(back.catalog().findSequence("main", "gone")).isEmpty();
            assertThat(again.def().increment()).isEqualTo(5);
            afterCrash = back.catalog().nextval(again);
            assertThat(afterCrash).isGreaterThan(last).isLessThanOrEqualTo(last + 5 * 32 * 2);
            back.catalog().setval(again, 1_000);
        }
        try (Database back = open()) { // a clean close: from the checkpoint
            assertThat(back.catalog().nextval(back.catalog().findSequence("main", "ids").orElseThrow())).isEqualTo(1_005);
        }
    }

    @Test
    void aCommitAfterCloseIsRefusedNotKeptInMemoryOnly() {
        Database db = open();
        Table t = create(db, "items");
        append(db, t, 0, 5);
        db.durableStore().orElseThrow().close();
        assertThatThrownBy(() -> append(db, t, 5, 6)).hasMessageContaining("closed");
        db.close();
        try (Database back = open()) {
            assertThat(rows(back.catalog().get("items"))).hasSize(5);
        }
    }
}
