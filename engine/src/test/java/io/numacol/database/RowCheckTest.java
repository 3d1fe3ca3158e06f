package io.numacol.database;

import io.numacol.durability.StorageOptions;
import io.numacol.storage.CheckCompiler;
import io.numacol.storage.CheckViolationException;
import io.numacol.storage.RowCheck;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.CheckDef;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine's side of CHECK constraints, with a compiler of its own that reads {@code column >
 * number} (numacol's SQL layer registers the real one): the Appender tests every row and keeps
 * nothing of a refused one, a table version compiles once however many appenders write to it at
 * once, ALTER TABLE carries checks through renamed columns and drops them with a dropped one, a
 * table with checks and no compiler takes no row, and a file database read back replays its rows
 * without a compiler: they were checked when they were written.
 */
class RowCheckTest {
    @TempDir
    Path dir;

    /** Compiles checks of the form {@code column > number}; counts its compilations. */
    static final class GreaterThan implements CheckCompiler {
        final AtomicInteger compiled = new AtomicInteger();

        @Override
        public RowCheck compile(TableSchema schema) {
            compiled.incrementAndGet();
            List<CheckDef> checks = schema.checks();
            int[] columns = new int[checks.size()];
            long[] bounds = new long[checks.size()];
            for (int i = 0; i < columns.length; i++) {
                String[] parts = checks.get(i).expression().split(" > ");
                columns[i] = schema.indexOf(parts[0]);
                if (columns[i] < 0) {
                    throw new IllegalArgumentException("check constraint \"" + checks.get(i).name() + "\": no column " + parts[0]);
                }
                bounds[i] = Long.parseLong(parts[1]);
            }
            return stored -> {
                for (int i = 0; i < columns.length; i++) {
                    if (stored[columns[i]] instanceof Long v && v <= bounds[i]) {
                        return checks.get(i);
                    }
                }
                return null;
            };
        }

        @Override
        public String renamed(String expression, TableSchema schema, UnaryOperator<String> rename) {
            String[] parts = expression.split(" > ");
            String column = rename.apply(schema.column(schema.indexOf(parts[0])).name());
            return column == null ? null : column + " > " + parts[1];
        }
    }

    private static final TableSchema SCHEMA = new TableSchema(List.of(new ColumnDef("id", ColumnType.bigint(), false),
            new ColumnDef("qty", ColumnType.bigint(), true), new ColumnDef("note", ColumnType.varchar(10), true)), List.of(),
            List.of(), List.of(new CheckDef("id_positive", "id > 0"), new CheckDef("qty_big", "qty > 10")));

    private static List<List<Object>> rows(Table t) {
        List<List<Object>> out = new ArrayList<>();
        try (var snapshot = t.snapshot()) {
            for (var part : snapshot.parts()) {
                for (int r = 0; r < part.rowCount(); r++) {
                    if (!part.deleted().isDeleted(r)) {
                        List<Object> row = new ArrayList<>();
                        for (int c = 0; c < part.columns().size(); c++) {
                            row.add(part.column(c).value(r));
                        }
                        out.add(row);
                    }
                }
            }
        }
        out.sort((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)));
        return out;
    }

    @Test
    void theAppenderRefusesARowThatFailsACheckAndKeepsTheOthers() {
        GreaterThan compiler = new GreaterThan();
        try (Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"))) {
            db.catalog().checkCompiler(compiler);
            Table t = db.catalog().create("t", SCHEMA);
            assertThat(compiler.compiled).hasValue(1); // at CREATE: a check that does not compile creates nothing
            try (Appender a = db.appender(t)) {
                a.append(1L, 11L, "a").append(2L, null, "NULL ok");
                assertThatThrownBy(() -> a.append(3L, 10L, "x")).isInstanceOf(CheckViolationException.class)
                        .hasMessage("new row for relation \"t\" violates check constraint \"qty_big\": Failing row contains (3, 10, x).")
                        .satisfies(e -> assertThat(((CheckViolationException) e).constraint()).isEqualTo("qty_big"));
                assertThatThrownBy(() -> a.append(-3L, 20L, null)).isInstanceOf(CheckViolationException.class)
                        .hasMessageContaining("\"id_positive\": Failing row contains (-3, 20, null)");
                a.append(4L, 12L, "d");
            }
            assertThat(rows(t)).containsExactly(List.of(1L, 11L, "a"), Arrays.asList(2L, null, "NULL ok"), List.of(4L, 12L, "d"));

            // an UPDATE's new versions are checked: the change fails whole
            try (TableChange change = TableChange.begin(db, t, () -> { })) {
                change.insert(new Object[] {5L, 50L, "ok"});
                assertThatThrownBy(() -> change.insert(new Object[] {6L, 0L, "no"})).isInstanceOf(CheckViolationException.class);
            } // not committed: nothing of it stays
            assertThat(rows(t)).hasSize(3);
            assertThatThrownBy(() -> db.catalog().create("u", SCHEMA.withChecks(List.of(new CheckDef("bad", "nosuch > 1")))))
                    .hasMessageContaining("no column nosuch");
            assertThat(db.catalog().find("u")).isEmpty();
        }
    }

    /** Appenders on four threads at once share the table's one compiled check. */
    @Test
    void aTableVersionCompilesItsChecksOnceForEveryAppender() throws Exception {
        GreaterThan compiler = new GreaterThan();
        try (Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"))) {
            Table t = db.catalog().create("t", SCHEMA); // no compiler yet: compiled at its first row
            db.catalog().checkCompiler(compiler);
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            AtomicInteger refused = new AtomicInteger();
            for (int w = 0; w < 4; w++) {
                long base = w * 10_000L;
                threads.add(Thread.ofPlatform().start(() -> {
                    try (Appender a = db.appender(t)) {
                        start.await();
                        for (long i = 1; i <= 5_000; i++) {
                            try {
                                a.append(base + i, i % 100 == 0 ? 5L : 100L, null);
                            } catch (CheckViolationException e) {
                                refused.incrementAndGet();
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(refused).hasValue(4 * 50);
            assertThat(t.rowCount()).isEqualTo(4 * 4_950);
            assertThat(compiler.compiled).hasValue(1);
        }
    }

    @Test
    void alterTableCarriesChecksThroughARenameAndDropsThemWithTheirColumn() {
        GreaterThan compiler = new GreaterThan();
        try (Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"))) {
            db.catalog().checkCompiler(compiler);
            Table t = db.catalog().create("t", SCHEMA);
            try (Appender a = db.appender(t)) {
                a.append(1L, 11L, "a");
            }
            List<ColumnDef> renamed = List.of(SCHEMA.column(0), SCHEMA.column(1).renamed("amount"), SCHEMA.column(2));
            db.alterTable(t, "t", new TableSchema(renamed), row -> row, c -> c.equals("qty") ? "amount" : c);
            Table altered = db.catalog().get("t");
            assertThat(altered.schema().checks()).containsExactly(new CheckDef("id_positive", "id > 0"),
                    new CheckDef("qty_big", "amount > 10"));
            try (Appender a = db.appender(altered)) {
                assertThatThrownBy(() -> a.append(2L, 3L, null)).isInstanceOf(CheckViolationException.class).hasMessageContaining("qty_big");
            }
            db.alterTable(altered, "t", new TableSchema(List.of(renamed.get(0), renamed.get(2))), row -> new Object[] {row[0], row[2]},
                    c -> c.equals("amount") ? null : c);
            assertThat(db.catalog().get("t").schema().checks()).containsExactly(new CheckDef("id_positive", "id > 0"));

            // a check the stored rows break is refused whole, naming it
            Table now = db.catalog().get("t");
            assertThatThrownBy(() -> db.alterConstraints(now, now.schema().withChecks(List.of(new CheckDef("id_big", "id > 5")))))
                    .isInstanceOf(CheckViolationException.class)
                    .hasMessage("check constraint \"id_big\" of relation \"t\" is violated by some row");
            assertThat(db.catalog().get("t")).isSameAs(now);
        }
    }

    @Test
    void withoutACompilerATableWithChecksTakesNoRowAndAFileDatabaseReplaysWithoutOne() {
        DatabaseConfig config = DatabaseConfig.defaults().withTopology("fake:2");
        try (Database db = Database.open(config, StorageOptions.of(dir))) {
            Table t = db.catalog().create("t", SCHEMA);
            try (Appender a = db.appender(t)) {
                assertThatThrownBy(() -> a.append(1L, 11L, null)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("CHECK constraints (id_positive, qty_big)").hasMessageContaining("no compiler");
            }
            db.catalog().checkCompiler(new GreaterThan());
            try (Appender a = db.appender(t)) {
                a.append(1L, 11L, null).append(2L, 12L, "b");
            }
            db.durableStore().orElseThrow().abandon(); // a crash: the rows are in the log alone
        }
        try (Database db = Database.open(config, StorageOptions.of(dir))) {
            Table t = db.catalog().get("t"); // replayed with no compiler registered
            assertThat(rows(t)).containsExactly(Arrays.asList(1L, 11L, null), List.of(2L, 12L, "b"));
            assertThat(t.schema().checks()).isEqualTo(SCHEMA.checks());
            try (Appender a = db.appender(t)) {
                assertThatThrownBy(() -> a.append(3L, 11L, null)).isInstanceOf(IllegalStateException.class);
            }
        }
    }
}
