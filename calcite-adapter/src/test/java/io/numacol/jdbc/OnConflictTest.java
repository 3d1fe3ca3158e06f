package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Path;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * INSERT ... ON CONFLICT, PostgreSQL's upsert: DO NOTHING and DO UPDATE (EXCLUDED, the table's
 * own row, WHERE), parameters, batches, RETURNING and generated keys, composite and second keys,
 * transactions, and the errors PostgreSQL gives.
 */
class OnConflictTest {

    private static void fails(Statement s, String sql, String state, String words) {
        assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
                .hasMessageContaining(words);
    }

    @Test
    void doNothingSkipsExistingAndRepeatedKeys() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, name varchar(10))");
            s.executeUpdate("insert into t values (1, 'a'), (2, 'b')");
            assertThat(s.executeUpdate("insert into t values (2, 'x'), (3, 'c'), (3, 'y'), (4, 'd') on conflict (id) do nothing"))
                    .isEqualTo(2);
            assertThat(s.executeUpdate("insert into t (id, name) values (1, 'z') on conflict do nothing")).isZero();
            assertThat(rows(s, "select id, name from t order by id"))
                    .containsExactly(List.of(1, "a"), List.of(2, "b"), List.of(3, "c"), List.of(4, "d"));
        }
    }

    @Test
    void doUpdateSetsExcludedAndOwnValues() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table counts (k varchar(10) primary key, n int not null, note varchar(10))");
            s.executeUpdate("insert into counts values ('a', 1, 'first')");
            assertThat(s.executeUpdate("insert into counts values ('a', 5, 'second'), ('b', 2, 'new') "
                    + "on conflict (k) do update set n = counts.n + excluded.n, note = excluded.note")).isEqualTo(2);
            assertThat(rows(s, "select k, n, note from counts order by k"))
                    .containsExactly(List.of("a", 6, "second"), List.of("b", 2, "new"));
            // an alias, a column named alone (the existing row's), a WHERE that keeps the row
            assertThat(s.executeUpdate("insert into counts as c values ('a', 1, 'x') "
                    + "on conflict (k) do update set n = n + 10 where c.n > 100")).isZero();
            assertThat(s.executeUpdate("insert into counts as c values ('a', 1, 'x') "
                    + "on conflict (k) do update set n = n + 10 where c.n < 100")).isEqualTo(1);
            assertThat(rows(s, "select n, note from counts where k = 'a'")).containsExactly(List.of(16, "second"));
        }
    }

    @Test
    void errorsAsPostgreSqlGivesThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, code varchar(5) unique, v int)");
            s.executeUpdate("insert into t values (1, 'a', 0)");
            fails(s, "insert into t values (1, 'b', 0) on conflict (v) do nothing", "42P10",
                    "there is no unique or exclusion constraint matching the ON CONFLICT specification");
            fails(s, "insert into t values (1, 'b', 0) on conflict do update set v = 1", "42601", "requires inference specification");
            fails(s, "insert into t values (1, 'b', 0) on conflict on constraint nope do nothing", "42704", "does not exist");
            fails(s, "insert into t values (1, 'b', 0) on conflict (id) do something", "42601", "expected UPDATE");
            fails(s, "insert into t values (2, 'b', 0), (2, 'c', 0) on conflict (id) do update set v = excluded.v", "21000",
                    "cannot affect row a second time");
            // another key still violated: nothing of the statement is kept
            fails(s, "insert into t values (3, 'z', 0), (4, 'a', 0) on conflict (id) do nothing", "23505", "t_code_key");
            fails(s, "insert into t values (1, 'q', 0) on conflict (id) do update set v = 'many'", "22P02", "many");
            assertThat(rows(s, "select id, code, v from t")).containsExactly(List.of(1, "a", 0));
            assertThat(s.executeUpdate("insert into t values (5, 'a', 0) on conflict on constraint t_code_key do nothing")).isZero();
            assertThat(s.executeUpdate("insert into t values (5, 'a', 0) on conflict do nothing")).isZero();
        }
    }

    @Test
    void parametersInValuesSetAndWhere() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table stock (sku varchar(8) primary key, qty int, price decimal(8,2), seen date)");
            String upsert = "insert into stock values (?, ?, ?, ?) on conflict (sku) do update "
                    + "set qty = stock.qty + excluded.qty + ?, price = ?, seen = excluded.seen where stock.qty < ?";
            try (PreparedStatement p = c.prepareStatement(upsert)) {
                assertThat(p.getParameterMetaData().getParameterCount()).isEqualTo(7);
                Object[][] runs = {
                        {"a", 1, "1.50", "2024-01-01", 0, "9.99", 100},   // new: inserted as proposed
                        {"a", 2, "2.00", "2024-02-01", 10, "3.25", 100},  // 1 + 2 + 10, price from the SET's parameter
                        {"a", 5, "2.00", "2024-03-01", 0, "7.00", 5}};    // WHERE 13 < 5 fails: kept as is
                int[] counts = {1, 1, 0};
                for (int r = 0; r < runs.length; r++) {
                    p.setString(1, (String) runs[r][0]);
                    p.setInt(2, (Integer) runs[r][1]);
                    p.setBigDecimal(3, new java.math.BigDecimal((String) runs[r][2]));
                    p.setDate(4, java.sql.Date.valueOf((String) runs[r][3]));
                    p.setInt(5, (Integer) runs[r][4]);
                    p.setString(6, (String) runs[r][5]);
                    p.setInt(7, (Integer) runs[r][6]);
                    assertThat(p.executeUpdate()).isEqualTo(counts[r]);
                }
            }
            assertThat(rows(s, "select sku, qty, cast(price as varchar(10)), cast(seen as varchar(10)) from stock"))
                    .containsExactly(List.of("a", 13, "3.25", "2024-02-01"));
            try (PreparedStatement p = c.prepareStatement("insert into stock (sku, qty) values (?, ?) on conflict (sku) do update set qty = ?")) {
                p.setString(1, "a");
                p.setInt(2, 1);
                p.setString(3, "x");
                assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLException.class).hasMessageContaining("x");
            }
            assertThat(rows(s, "select qty from stock")).containsExactly(List.of(13));
        }
    }

    @Test
    void batchesSeeTheirEarlierEntriesAndKeepAllOrNothing() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table hits (page varchar(20) primary key, n bigint not null)");
            String upsert = "insert into hits (page, n) values (?, ?) on conflict (page) do update set n = hits.n + excluded.n";
            try (PreparedStatement p = c.prepareStatement(upsert)) {
                for (String page : new String[] {"home", "about", "home", "home"}) {
                    p.setString(1, page);
                    p.setLong(2, 1);
                    p.addBatch();
                }
                assertThat(p.executeBatch()).containsExactly(1, 1, 1, 1);
                assertThat(rows(s, "select page, n from hits order by page"))
                        .containsExactly(List.of("about", 1L), List.of("home", 3L));
                // a failing entry (NULL into n NOT NULL) keeps nothing of the batch
                p.setString(1, "home");
                p.setLong(2, 5);
                p.addBatch();
                p.setString(1, "new");
                p.setNull(2, java.sql.Types.BIGINT);
                p.addBatch();
                assertThatThrownBy(p::executeBatch).isInstanceOf(java.sql.BatchUpdateException.class);
            }
            assertThat(rows(s, "select page, n from hits order by page"))
                    .containsExactly(List.of("about", 1L), List.of("home", 3L));
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement(upsert)) {
                p.setString(1, "about");
                p.setLong(2, 10);
                p.addBatch();
                p.setString(1, "tx");
                p.setLong(2, 1);
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1, 1);
            }
            c.commit();
            assertThat(rows(s, "select page, n from hits order by page"))
                    .containsExactly(List.of("about", 11L), List.of("home", 3L), List.of("tx", 1L));
        }
    }

    @Test
    void returningAndGeneratedKeysGiveInsertedAndUpdatedRowsNotSkippedOnes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table users (id bigint generated always as identity, email varchar(30) unique, visits int default 0)");
            s.executeUpdate("insert into users (email) values ('a@x'), ('b@x')");
            try (ResultSet rs = s.executeQuery("insert into users (email, visits) values ('a@x', 1), ('c@x', 1) "
                    + "on conflict (email) do update set visits = users.visits + 1 returning id, email, visits")) {
                assertThat(rows(rs)).containsExactly(List.of(1L, "a@x", 1), List.of(4L, "c@x", 1));
            }
            try (ResultSet rs = s.executeQuery("insert into users (email) values ('b@x'), ('d@x') on conflict do nothing returning *")) {
                assertThat(rows(rs)).containsExactly(List.of(6L, "d@x", 0));
            }
            try (PreparedStatement p = c.prepareStatement("insert into users (email) values (?) on conflict (email) do update "
                    + "set visits = users.visits + 10", new String[] {"id"})) {
                p.setString(1, "b@x");
                assertThat(p.executeUpdate()).isEqualTo(1);
                try (ResultSet keys = p.getGeneratedKeys()) {
                    assertThat(rows(keys)).containsExactly(List.of(2L));
                }
            }
            assertThat(rows(s, "select id, email, visits from users order by id")).containsExactly(List.of(1L, "a@x", 1),
                    List.of(2L, "b@x", 10), List.of(4L, "c@x", 1), List.of(6L, "d@x", 0));
        }
    }

    @Test
    void compositeKeysAndTwoUniqueKeys() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table lines (ord bigint not null, line int not null, sku varchar(8), qty int, "
                    + "constraint pk_lines primary key (ord, line), constraint uq_sku unique (sku))");
            s.executeUpdate("insert into lines values (1, 1, 'a', 1), (1, 2, 'b', 1)");
            assertThat(s.executeUpdate("insert into lines values (1, 2, 'b', 5), (2, 1, 'c', 1) "
                    + "on conflict (line, ord) do update set qty = lines.qty + excluded.qty")).isEqualTo(2);
            // the row's other key conflicts with another row: 23505, nothing kept
            fails(s, "insert into lines values (1, 1, 'c', 1) on conflict (ord, line) do update set sku = excluded.sku", "23505", "uq_sku");
            // without a target DO NOTHING skips a conflict on either key
            assertThat(s.executeUpdate("insert into lines values (9, 9, 'a', 1), (1, 1, 'zz', 1), (3, 3, 'd', 1) on conflict do nothing"))
                    .isEqualTo(1);
            assertThat(rows(s, "select ord, line, sku, qty from lines order by ord, line")).containsExactly(
                    List.of(1L, 1, "a", 1), List.of(1L, 2, "b", 6), List.of(2L, 1, "c", 1), List.of(3L, 3, "d", 1));
        }
    }

    @Test
    void inATransactionUpsertsSeeItsOwnRowsAndRollBack() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:upsert_tx"); Statement s = c.createStatement()) {
            s.execute("create table kv (k int primary key, v varchar(10))");
            s.executeUpdate("insert into kv values (1, 'one')");
            c.setAutoCommit(false);
            s.executeUpdate("insert into kv values (2, 'two')");
            assertThat(s.executeUpdate("insert into kv values (2, 'TWO'), (1, 'ONE') on conflict (k) do update set v = excluded.v"))
                    .isEqualTo(2);
            assertThat(rows(s, "select k, v from kv order by k")).containsExactly(List.of(1, "ONE"), List.of(2, "TWO"));
            try (Connection other = DriverManager.getConnection("jdbc:numacol:mem:upsert_tx"); Statement o = other.createStatement()) {
                assertThat(rows(o, "select k, v from kv order by k")).containsExactly(List.of(1, "one"));
            }
            c.rollback();
            assertThat(rows(s, "select k, v from kv order by k")).containsExactly(List.of(1, "one"));
            assertThat(s.executeUpdate("insert into kv values (1, 'uno') on conflict (k) do update set v = excluded.v")).isEqualTo(1);
            c.commit();
            assertThat(rows(s, "select k, v from kv order by k")).containsExactly(List.of(1, "uno"));
        }
    }

    /** A concurrent transaction's conflict is caught by the key checks (23505) or the write-conflict check (40001). */
    private static void refusedAsConcurrent(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isIn("23505", "40001"));
    }

    @Test
    void concurrentTransactionsUpsertingOneNewKeyLeaveOneRow() throws SQLException {
        String upsert = "insert into acc values (7, ?) on conflict (id) do update set bal = acc.bal + excluded.bal";
        try (Connection a = DriverManager.getConnection("jdbc:numacol:mem:upsert_race");
             Connection b = DriverManager.getConnection("jdbc:numacol:mem:upsert_race");
             Statement s = a.createStatement()) {
            s.execute("create table acc (id int primary key, bal int)");
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try (PreparedStatement pa = a.prepareStatement(upsert); PreparedStatement pb = b.prepareStatement(upsert)) {
                // both insert key 7 while neither committed: the second to commit is refused
                pa.setInt(1, 1);
                assertThat(pa.executeUpdate()).isEqualTo(1);
                pb.setInt(1, 2);
                assertThat(pb.executeUpdate()).isEqualTo(1);
                a.commit();
                refusedAsConcurrent(b::commit);
                b.rollback();
                assertThat(rows(s, "select id, bal from acc")).containsExactly(List.of(7, 1));

                // b's snapshot began before a's commit: its statement does not see the row, and inserting it is refused
                try (Statement sb = b.createStatement()) {
                    assertThat(rows(sb, "select count(*) from acc")).containsExactly(List.of(1L));
                    try (Statement sa = a.createStatement()) {
                        sa.executeUpdate("delete from acc");
                    }
                    a.commit();
                    assertThat(rows(sb, "select count(*) from acc")).containsExactly(List.of(1L)); // still the old snapshot
                    pa.setInt(1, 10);
                    assertThat(pa.executeUpdate()).isEqualTo(1);
                    a.commit();
                    // b updates the row its snapshot shows, which a deleted: a write conflict, at the statement or commit
                    refusedAsConcurrent(() -> {
                        pb.setInt(1, 20);
                        pb.executeUpdate();
                        b.commit();
                    });
                    b.rollback();
                }
                assertThat(rows(s, "select id, bal from acc")).containsExactly(List.of(7, 10));
            }
        }
    }

    @Test
    void aPreparedUpsertIsPlannedAgainAfterTheTableChanged() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, v int)");
            try (PreparedStatement p = c.prepareStatement("insert into t (id, v) values (?, ?) on conflict (id) do update set v = t.v + ?")) {
                p.setInt(1, 1);
                p.setInt(2, 10);
                p.setInt(3, 1);
                assertThat(p.executeUpdate()).isEqualTo(1);
                s.execute("alter table t add column note varchar(5) default 'n'");
                assertThat(p.executeUpdate()).isEqualTo(1);
                p.setInt(1, 2);
                assertThat(p.executeUpdate()).isEqualTo(1);
                assertThat(rows(s, "select id, v, note from t order by id")).containsExactly(List.of(1, 11, "n"), List.of(2, 10, "n"));
                s.execute("drop table t");
                s.execute("create table t (id int primary key, v int)");
                assertThat(p.executeUpdate()).isEqualTo(1);
                assertThat(rows(s, "select id, v from t")).containsExactly(List.of(2, 10));
            }
        }
    }

    @Test
    void aFileDatabaseKeepsWhatUpsertsCommitted(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table kv (k int primary key, v varchar(10))");
            s.executeUpdate("insert into kv values (1, 'a'), (2, 'b')");
            s.executeUpdate("insert into kv values (2, 'B'), (3, 'C') on conflict (k) do update set v = excluded.v");
            s.executeUpdate("insert into kv values (1, 'x'), (4, 'D') on conflict do nothing");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertThat(rows(s, "select k, v from kv order by k"))
                    .containsExactly(List.of(1, "a"), List.of(2, "B"), List.of(3, "C"), List.of(4, "D"));
        }
    }

    @Test
    void insertSelectAndPlainStatementBatches() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table src (id int, amount int)");
            s.execute("create table totals (id int primary key, amount int)");
            s.executeUpdate("insert into src values (1, 5), (2, 7), (3, 1)");
            s.executeUpdate("insert into totals values (2, 100)");
            assertThat(s.executeUpdate("insert into totals select s.id, s.amount from src as s join src as o on s.id = o.id "
                    + "where s.amount > 1 on conflict (id) do update set amount = totals.amount + excluded.amount")).isEqualTo(2);
            s.addBatch("insert into totals values (3, 1) on conflict (id) do nothing");
            s.addBatch("insert into totals values (3, 9) on conflict (id) do update set amount = excluded.amount");
            assertThat(s.executeBatch()).containsExactly(1, 1);
            assertThat(rows(s, "select id, amount from totals order by id"))
                    .containsExactly(List.of(1, 5), List.of(2, 107), List.of(3, 9));
        }
    }

    @Test
    void insertOrIgnoreAndOrReplaceAsDuckDbSpellsThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key, name varchar(10), qty int default 0)");
            s.executeUpdate("insert into p values (1, 'a', 5), (2, 'b', 6)");
            assertThat(s.executeUpdate("insert or ignore into p values (1, 'x', 0), (3, 'c', 7)")).isEqualTo(1);
            // only the inserted columns are replaced; the key stays
            assertThat(s.executeUpdate("insert or replace into p (id, name) values (2, 'B'), (4, 'd')")).isEqualTo(2);
            assertThat(s.executeUpdate("insert or replace into p values (1, 'A', 50)")).isEqualTo(1);
            assertThat(rows(s, "select id, name, qty from p order by id"))
                    .containsExactly(List.of(1, "A", 50), List.of(2, "B", 6), List.of(3, "c", 7), List.of(4, "d", 0));
            s.execute("create table nokey (id int)");
            fails(s, "insert or replace into nokey values (1)", "42P10", "INSERT OR REPLACE needs one PRIMARY KEY or UNIQUE");
            s.execute("create table twokeys (id int primary key, code int unique)");
            fails(s, "insert or replace into twokeys values (1, 1)", "42P10", "it has 2");
            fails(s, "insert or ignore into p values (1, 'x', 0) on conflict do nothing", "42601", "INSERT OR IGNORE");
        }
    }

    /** Rows with byte arrays as their hex digits, which compare by value. */
    private static List<List<Object>> comparable(List<List<Object>> rows) {
        return rows.stream().map(r -> r.stream().map(v -> v instanceof byte[] b ? (Object) java.util.HexFormat.of().formatHex(b) : v).toList())
                .toList();
    }

    @Test
    void everyTypeKeepsItsValueThroughDoUpdate() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table v (id int primary key, b boolean, ti tinyint, si smallint, bi bigint, r real, d double, "
                    + "m decimal(12,3), dt date, ts timestamp(3), tz timestamp(3) with time zone, tm time(3), ch char(3), "
                    + "vc varchar(10), vb varbinary(4), u uuid)");
            String values = "(true, 1, 2, 3, 1.5, 2.25, 123.456, date '2024-02-29', timestamp '2024-01-02 03:04:05.678', "
                    + "'2024-01-02 03:04:05.678+02:00', time '10:11:12.345', 'ab', 'xyz', x'0102', "
                    + "'123e4567-e89b-12d3-a456-426614174000')";
            s.executeUpdate("insert into v values (1, " + values.substring(1));
            String columns = "b, ti, si, bi, r, d, m, dt, ts, tz, tm, ch, vc, vb, u";
            List<List<Object>> before = comparable(rows(s, "select " + columns + " from v"));
            StringBuilder same = new StringBuilder();
            StringBuilder fromExcluded = new StringBuilder();
            for (String col : columns.split(", ")) {
                same.append(same.isEmpty() ? "" : ", ").append(col).append(" = v.").append(col);
                fromExcluded.append(fromExcluded.isEmpty() ? "" : ", ").append(col).append(" = excluded.").append(col);
            }
            assertThat(s.executeUpdate("insert into v values (1, false, 9, 9, 9, 9, 9, 9, date '2000-01-01', "
                    + "timestamp '2000-01-01 00:00:00', '2000-01-01 00:00:00+00:00', time '00:00:00', 'zz', 'zz', x'ff', "
                    + "'00000000-0000-0000-0000-000000000000') on conflict (id) do update set " + same)).isEqualTo(1);
            assertThat(comparable(rows(s, "select " + columns + " from v"))).isEqualTo(before);
            s.executeUpdate("insert into v values (2, " + values.substring(1));
            assertThat(s.executeUpdate("insert into v values (1, " + values.substring(1) + " on conflict (id) do update set "
                    + fromExcluded)).isEqualTo(1);
            assertThat(comparable(rows(s, "select " + columns + " from v where id = 1")))
                    .isEqualTo(comparable(rows(s, "select " + columns + " from v where id = 2")));
        }
    }

    @Test
    void foreignKeysHoldThroughUpserts() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table customers (id int primary key, name varchar(10))");
            s.execute("create table orders (id int primary key, customer int references customers, total int)");
            s.executeUpdate("insert into customers values (1, 'a'), (2, 'b')");
            s.executeUpdate("insert into orders values (10, 1, 5)");
            fails(s, "insert into orders values (10, 9, 5) on conflict (id) do update set customer = excluded.customer", "23503",
                    "orders_customer_fkey");
            fails(s, "insert into customers values (1, 'z') on conflict (id) do update set id = 3", "23503", "still referenced");
            assertThat(s.executeUpdate("insert into orders values (10, 2, 7), (11, 1, 1) on conflict (id) "
                    + "do update set customer = excluded.customer, total = orders.total + excluded.total")).isEqualTo(2);
            assertThat(rows(s, "select id, customer, total from orders order by id")).containsExactly(List.of(10, 2, 12), List.of(11, 1, 1));
        }
    }
}
