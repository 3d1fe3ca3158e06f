package io.numacol.crash;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The crash workload's generator and, by replaying it, the verifier's model: from a seed, a
 * sequence of steps (transactions) whose statements are generated from an in-memory copy of the
 * tables, which each step also updates. {@link CrashWorkload} runs the steps against a database;
 * {@link #stateAfter} replays them without one. Both draw from the same {@link Generator}, so
 * model and database agree by construction, and a database that crashed after its k-th commit
 * must hold {@code stateAfter(k)} (or {@code stateAfter(k + 1)}: see {@link CrashRecoveryTest}).
 *
 * <p>Nothing generated depends on what the database answers, only on the seed: the statements
 * carry their values, and the model applies them itself. Keys only grow (a deleted key is never
 * inserted again) so that no engine's handling of a re-used key in one transaction is in play,
 * and every DOUBLE is a multiple of 1/4 far below 2^50, so sums are exact in both engines.
 *
 * <p>Only SQL that numacol and DuckDB both take: BIGINT, VARCHAR, DOUBLE and DATE columns, a
 * BIGINT primary key {@code id}, literals and {@code ?} parameters, BETWEEN ranges, ALTER TABLE
 * ADD COLUMN with a DEFAULT literal, {@code COPY t FROM 'f.csv' (HEADER)}, CHECKPOINT.
 */
final class CrashModel {
    private CrashModel() {
    }

    /** How a step ends: one statement in autocommit, or several then commit, or then rollback. */
    enum Mode { AUTOCOMMIT, COMMIT, ROLLBACK }

    /** The engine differences the workload has to know; so far only where the SQL is spelled differently. */
    enum Dialect {
        DUCKDB, NUMACOL;

        static Dialect of(String url) {
            return url.startsWith("jdbc:numacol:") ? NUMACOL : DUCKDB;
        }

        /** Both engines take DuckDB's spelling today; numacol also takes {@code WITH (HEADER true)}. */
        String copy(String table, Path csv) {
            return "COPY " + table + " FROM '" + csv.toAbsolutePath().toString().replace("'", "''") + "' (HEADER)";
        }
    }

    /** A column of a generated table; {@code defaultValue} is what rows that do not name it get. */
    record Column(String name, String type, Object defaultValue) {
    }

    /** What a table holds as the verifier compares it: column names in order, rows by id. */
    record TableContent(List<String> columns, List<List<Object>> rows) {
        @Override
        public String toString() {
            return columns + " " + rows.size() + " rows";
        }
    }

    /** One generated table: its columns and rows by id, and the next id an INSERT takes. */
    static final class Table {
        final String name;
        final List<Column> columns = new ArrayList<>();
        final TreeMap<Long, Object[]> rows = new TreeMap<>();
        long nextId = 1;

        Table(String name) {
            this.name = name;
        }

        Table copy() {
            Table t = new Table(name);
            t.columns.addAll(columns);
            t.rows.putAll(rows); // rows are replaced, never changed in place: see Update
            t.nextId = nextId;
            return t;
        }

        TableContent content() {
            List<List<Object>> out = new ArrayList<>(rows.size());
            for (Object[] row : rows.values()) {
                out.add(Arrays.asList(row.clone())); // Arrays.asList: a row holds NULLs
            }
            return new TableContent(columns.stream().map(Column::name).toList(), out);
        }
    }

    /** Every table by name, and the numbers the next new table and column take. */
    static final class State {
        final TreeMap<String, Table> tables = new TreeMap<>();
        int nextTable;
        int nextColumn;

        State copy() {
            State s = new State();
            tables.forEach((name, t) -> s.tables.put(name, t.copy()));
            s.nextTable = nextTable;
            s.nextColumn = nextColumn;
            return s;
        }

        Map<String, TableContent> content() {
            Map<String, TableContent> out = new TreeMap<>();
            tables.forEach((name, t) -> out.put(name, t.content()));
            return out;
        }
    }

    /** A statement: run against a database, and applied to the model when generated. */
    interface Op {
        void run(Connection c, Dialect dialect, Path scratch) throws SQLException, IOException;

        String describe();
    }

    /** One step: its statements and how it ends. */
    record Step(Mode mode, List<Op> ops) {
    }

    /** The expected content of every table after the {@code n}-th commit (0: before the first). */
    static Map<String, TableContent> stateAfter(long seed, long n) {
        return replay(seed, n).state.content();
    }

    /** A generator that has made its {@code n}-th committed step, for a caller that wants two states in one replay. */
    static Generator replay(long seed, long n) {
        Generator g = new Generator(seed);
        while (g.committed() < n) {
            g.next();
        }
        return g;
    }

    /**
     * The seeded sequence of steps. {@link #next} decides a step, generating each statement
     * from the model as the statements before it left it; a committed step keeps the changes, a
     * rolled-back one works on a copy it then drops.
     */
    static final class Generator {
        private static final int MAX_TABLES = 4;
        private static final int MAX_COLUMNS = 8;
        private static final String[] ADDED_TYPES = {"BIGINT", "VARCHAR", "DOUBLE"};

        private final Random random;
        private State state = new State();
        private long committed;
        private long steps;

        Generator(long seed) {
            this.random = new Random(seed);
        }

        long committed() {
            return committed;
        }

        /** The model after the last committed step. */
        State state() {
            return state;
        }

        Step next() {
            steps++;
            Step step = decide();
            if (step.mode() != Mode.ROLLBACK) {
                committed++;
            }
            return step;
        }

        private Step decide() {
            if (state.tables.isEmpty()) {
                return new Step(Mode.AUTOCOMMIT, List.of(createTable(state)));
            }
            int roll = random.nextInt(100);
            if (roll < 3) {
                // statements the database must forget: run against a copy of the model that is then dropped
                State scratch = state.copy();
                List<Op> ops = new ArrayList<>();
                ops.add(batch(pickTable(scratch))); // at least one insert, so a leak would show
                for (int i = random.nextInt(3); i > 0; i--) {
                    ops.add(dml(scratch));
                }
                return new Step(Mode.ROLLBACK, ops);
            }
            if (roll < 6) {
                return new Step(Mode.AUTOCOMMIT, List.of(new Checkpoint()));
            }
            if (roll < 12) {
                return new Step(Mode.AUTOCOMMIT, List.of(ddl()));
            }
            if (roll < 17) {
                return new Step(Mode.AUTOCOMMIT, List.of(copy(pickTable(state))));
            }
            if (roll < 40) {
                // one statement, committed by autocommit; never a batch, which autocommit may commit row by row
                Table t = pickTable(state);
                int kind = random.nextInt(4);
                return new Step(Mode.AUTOCOMMIT, List.of(kind < 2 ? insertOne(t) : kind == 2 ? update(t) : delete(t)));
            }
            List<Op> ops = new ArrayList<>();
            for (int i = 1 + random.nextInt(4); i > 0; i--) {
                ops.add(dml(state));
            }
            return new Step(Mode.COMMIT, ops);
        }

        private Op dml(State s) {
            Table t = pickTable(s);
            int kind = random.nextInt(20);
            return kind < 10 ? batch(t) : kind < 13 ? insertOne(t) : kind < 17 ? update(t) : delete(t);
        }

        private Table pickTable(State s) {
            List<Table> tables = new ArrayList<>(s.tables.values());
            return tables.get(random.nextInt(tables.size()));
        }

        private Op ddl() {
            int kind = random.nextInt(3);
            if (kind == 0 && state.tables.size() < MAX_TABLES) {
                return createTable(state);
            }
            if (kind == 1 && state.tables.size() > 1) {
                Table t = pickTable(state);
                state.tables.remove(t.name);
                return new DropTable(t.name);
            }
            Table t = pickTable(state);
            if (t.columns.size() >= MAX_COLUMNS) {
                return new Checkpoint(); // no more columns; something else that changes nothing
            }
            String type = ADDED_TYPES[random.nextInt(ADDED_TYPES.length)];
            Column c = new Column("c" + state.nextColumn++, type, value(type, false));
            t.columns.add(c);
            for (Map.Entry<Long, Object[]> e : t.rows.entrySet()) {
                Object[] row = Arrays.copyOf(e.getValue(), t.columns.size());
                row[row.length - 1] = c.defaultValue();
                e.setValue(row);
            }
            return new AddColumn(t.name, c);
        }

        private Op createTable(State s) {
            Table t = new Table("t" + s.nextTable++);
            t.columns.add(new Column("id", "BIGINT", null));
            t.columns.add(new Column("name", "VARCHAR", null));
            t.columns.add(new Column("amount", "DOUBLE", null));
            t.columns.add(new Column("born", "DATE", null));
            s.tables.put(t.name, t);
            return new CreateTable(t.name);
        }

        /** A row of all of {@code t}'s columns under a new id. */
        private Object[] newRow(Table t) {
            Object[] row = new Object[t.columns.size()];
            row[0] = t.nextId++;
            for (int i = 1; i < row.length; i++) {
                row[i] = value(t.columns.get(i).type(), true);
            }
            return row;
        }

        private Object value(String type, boolean nullable) {
            if (nullable && random.nextInt(10) == 0) {
                return null;
            }
            return switch (type) {
                case "BIGINT" -> random.nextLong(-1_000_000, 1_000_000);
                case "VARCHAR" -> "v" + random.nextInt(1_000_000);
                case "DOUBLE" -> random.nextInt(-200_000, 200_000) / 4.0;
                case "DATE" -> LocalDate.ofEpochDay(random.nextInt(-1000, 20_000));
                default -> throw new IllegalStateException(type);
            };
        }

        private Op insertOne(Table t) {
            // names only the four first columns: the ones ALTER TABLE added take their DEFAULT
            Object[] row = newRow(t);
            for (int i = 4; i < row.length; i++) {
                row[i] = t.columns.get(i).defaultValue();
            }
            t.rows.put((Long) row[0], row);
            return new InsertOne(t.name, List.copyOf(t.columns.subList(0, 4)), Arrays.copyOf(row, 4));
        }

        private Op batch(Table t) {
            // mostly small: DuckDB runs a batch row by row (about 1 ms a row), and more commits test more
            int n = 1 + (random.nextInt(10) == 0 ? random.nextInt(500) : random.nextInt(30));
            List<Object[]> rows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Object[] row = newRow(t);
                rows.add(row);
                t.rows.put((Long) row[0], row);
            }
            return new Batch(t.name, List.copyOf(t.columns), rows);
        }

        private Op copy(Table t) {
            int n = 1 + random.nextInt(300);
            List<Object[]> rows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Object[] row = newRow(t);
                rows.add(row);
                t.rows.put((Long) row[0], row);
            }
            return new Copy(t.name, List.copyOf(t.columns), rows, "copy-" + steps + ".csv");
        }

        /** A key range, mostly over the recent keys where the rows are. */
        private long[] range(Table t) {
            long lo = Math.max(1, t.nextId - 1 - random.nextLong(Math.min(t.nextId, 3000)));
            long hi = lo + random.nextLong(200);
            return new long[]{lo, hi};
        }

        private Op update(Table t) {
            long[] r = range(t);
            boolean amount = random.nextBoolean();
            double delta = random.nextInt(-400, 400) / 4.0;
            String name = "u" + random.nextInt(1_000_000);
            for (Map.Entry<Long, Object[]> e : t.rows.subMap(r[0], true, r[1], true).entrySet()) {
                Object[] row = e.getValue().clone(); // a copy: a rolled-back step's model shares rows with the kept one
                if (amount) {
                    row[2] = row[2] == null ? null : (Double) row[2] + delta; // NULL + x is NULL
                } else {
                    row[1] = name;
                }
                e.setValue(row);
            }
            String set = amount ? "amount = amount + " + delta : "name = '" + name + "'";
            return new Sql("UPDATE " + t.name + " SET " + set + " WHERE id BETWEEN " + r[0] + " AND " + r[1]);
        }

        private Op delete(Table t) {
            long[] r = range(t);
            boolean positiveOnly = random.nextInt(3) == 0;
            // with "amount > 0" a NULL amount is not deleted: the condition is unknown, not true
            t.rows.subMap(r[0], true, r[1], true).values()
                    .removeIf(row -> !positiveOnly || (row[2] != null && (Double) row[2] > 0));
            return new Sql("DELETE FROM " + t.name + " WHERE id BETWEEN " + r[0] + " AND " + r[1]
                    + (positiveOnly ? " AND amount > 0" : ""));
        }
    }

    static String literal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        if (v instanceof LocalDate d) {
            return "DATE '" + d + "'";
        }
        return v.toString(); // a Long, or a Double as 12.25: never 1.0E7, the values are far smaller
    }

    record Sql(String sql) implements Op {
        @Override
        public void run(Connection c, Dialect dialect, Path scratch) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }

        @Override
        public String describe() {
            return sql;
        }
    }

    record Checkpoint() implements Op {
        @Override
        public void run(Connection c, Dialect dialect, Path scratch) throws SQLException {
            new Sql("CHECKPOINT").run(c, dialect, scratch);
        }

        @Override
        public String describe() {
            return "CHECKPOINT";
        }
    }

    record CreateTable(String table) implements Op {
        @Override
        public void run(Connection c, Dialect dialect, Path scratch) throws SQLException {
            new Sql(describe()).run(c, dialect, scratch);
        }

        @Override
        public String describe() {
            return "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, name VARCHAR, amount DOUBLE, born DATE)";
        }
    }

    record DropTable(String table) implements Op {
        @Override
        public void run(Connection c, Dialect dialect, Path scratch) throws SQLException {
            new Sql(describe()).run(c, dialect, scratch);
        }

        @Override
        public String describe() {
            return "DROP TABLE " + table;
        }
    }

    record AddColumn(String table, Column column) implements Op {
        @Override
        public void run(Connection c, Dialect dialect, Path scratch) throws SQLException {
            new Sql(describe()).run(c, dialect, scratch);
        }

        @Override
        public String describe() {
            return "ALTER TABLE " + table + " ADD COLUMN " + column.name() + " " + column.type()
                    + " DEFAULT " + literal(column.defaultValue());
        }
    }

    record InsertOne(String table, List<Column> columns, Object[] row) implements Op {
        @Override
        public void run(Connection c, Dialect dialect, Path scratch) throws SQLException {
            new Sql(describe()).run(c, dialect, scratch);
        }

        @Override
        public String describe() {
            return "INSERT INTO " + table + " (" + columns.stream().map(Column::name).collect(Collectors.joining(", "))
                    + ") VALUES (" + Arrays.stream(row).map(CrashModel::literal).collect(Collectors.joining(", ")) + ")";
        }
    }

    record Batch(String table, List<Column> columns, List<Object[]> rows) implements Op {
        @Override
        public void run(Connection c, Dialect dialect, Path scratch) throws SQLException {
            String sql = "INSERT INTO " + table + " (" + columns.stream().map(Column::name).collect(Collectors.joining(", "))
                    + ") VALUES (" + columns.stream().map(col -> "?").collect(Collectors.joining(", ")) + ")";
            try (PreparedStatement p = c.prepareStatement(sql)) {
                for (Object[] row : rows) {
                    for (int i = 0; i < row.length; i++) {
                        bind(p, i + 1, columns.get(i).type(), row[i]);
                    }
                    p.addBatch();
                }
                p.executeBatch();
            }
        }

        private static void bind(PreparedStatement p, int index, String type, Object v) throws SQLException {
            switch (type) {
                case "BIGINT" -> {
                    if (v == null) p.setNull(index, Types.BIGINT); else p.setLong(index, (Long) v);
                }
                case "VARCHAR" -> {
                    if (v == null) p.setNull(index, Types.VARCHAR); else p.setString(index, (String) v);
                }
                case "DOUBLE" -> {
                    if (v == null) p.setNull(index, Types.DOUBLE); else p.setDouble(index, (Double) v);
                }
                case "DATE" -> {
                    // java.sql.Date in the JVM's zone, read back by getDate in the same zone
                    if (v == null) p.setNull(index, Types.DATE); else p.setDate(index, Date.valueOf((LocalDate) v));
                }
                default -> throw new IllegalStateException(type);
            }
        }

        @Override
        public String describe() {
            return "INSERT INTO " + table + " batch of " + rows.size();
        }
    }

    /** A CSV file of all the table's columns with a header, written when the step runs, then COPY. */
    record Copy(String table, List<Column> columns, List<Object[]> rows, String fileName) implements Op {
        @Override
        public void run(Connection c, Dialect dialect, Path scratch) throws SQLException, IOException {
            Path csv = scratch.resolve(fileName);
            try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
                w.write(columns.stream().map(Column::name).collect(Collectors.joining(",")));
                w.write('\n');
                for (Object[] row : rows) {
                    // an empty field is NULL to both engines; no generated string is empty or needs quotes
                    w.write(Arrays.stream(row).map(v -> v == null ? "" : v.toString()).collect(Collectors.joining(",")));
                    w.write('\n');
                }
            }
            new Sql(dialect.copy(table, csv)).run(c, dialect, scratch);
            Files.delete(csv); // loaded: no later step reads it
        }

        @Override
        public String describe() {
            return "COPY " + table + " FROM " + fileName + " (" + rows.size() + " rows)";
        }
    }
}
