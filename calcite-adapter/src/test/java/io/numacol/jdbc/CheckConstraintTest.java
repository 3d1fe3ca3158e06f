package io.numacol.jdbc;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.storage.CheckViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CHECK constraints as PostgreSQL has them: column and table constraints, named or named as
 * PostgreSQL names them, enforced on every path that adds rows (INSERT of values and of a query,
 * prepared and batched, UPDATE, COPY, the Appender), in and out of transactions, with SQLSTATE
 * 23514 naming the constraint and the row, nothing of the statement kept; a check that is NULL
 * passes. ALTER TABLE adds them (checking the stored rows), drops them, and carries them through
 * a renamed column and away with a dropped one; information_schema and sys show them; a file
 * database keeps them.
 */
class CheckConstraintTest {
    @TempDir
    Path dir;

    private static final String ITEMS = "create table items (id int primary key, price decimal(10,2) check (price >= 0), "
            + "qty int constraint qty_positive check (qty > 0), lo int, hi int, check (qty * price < 1000000), "
            + "constraint lo_hi check (lo <= hi))";

    /** {@code sql} fails with 23514 naming {@code constraint}, as an SQLIntegrityConstraintViolationException. */
    private static void violates(Statement s, String sql, String constraint) {
        assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLIntegrityConstraintViolationException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23514"))
                .hasMessageContaining("violates check constraint \"" + constraint + "\"");
    }

    /** {@code sql} is refused with {@code state}, its message containing {@code words}. */
    private static void refused(Statement s, String sql, String state, String words) {
        assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(((SQLException) e).getMessage()).isEqualTo(state))
                .hasMessageContaining(words);
    }

    @Test
    void insertsThatBreakACheckFailWithTheConstraintAndTheRowAndKeepNothing() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute(ITEMS);
            s.executeUpdate("insert into items values (1, 9.50, 3, 1, 2)");
            assertThatThrownBy(() -> s.executeUpdate("insert into items values (2, 1.00, -5, 1, 2)"))
                    .isInstanceOf(SQLIntegrityConstraintViolationException.class)
                    .hasMessageEndingWith(": new row for relation \"items\" violates check constraint \"qty_positive\": "
                            + "Failing row contains (2, 1.00, -5, 1, 2).")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23514"));
            violates(s, "insert into items values (3, -0.01, 1, 1, 2)", "items_price_check");
            violates(s, "insert into items values (4, 100000.00, 10, 1, 2)", "items_check");
            violates(s, "insert into items values (5, 1, 1, 3, 2)", "lo_hi");
            // one bad row of many: none is kept
            violates(s, "insert into items values (6, 1, 1, 1, 2), (7, 1, 0, 1, 2), (8, 1, 1, 1, 2)", "qty_positive");
            // NULL is not FALSE: a check that is unknown passes
            s.executeUpdate("insert into items values (9, null, null, null, 5)");
            assertThat(rows(s, "select id from items order by id")).containsExactly(List.of(1), List.of(9));
        }
    }

    @Test
    void unnamedChecksAreNamedAsPostgresNamesThemAndShownInTheCatalog() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute(ITEMS);
            s.execute("create table t (a int check (a > 0) check (a < 100), b int check (a < b), c varchar(5), "
                    + "check (c like 'x%'), check (c <> 'xy'), constraint t_check check (b is not null or c is null), check (b <> 7))");
            assertThat(rows(s, "select constraint_schema, constraint_name, check_clause from information_schema.check_constraints "
                    + "where constraint_name like 't\\_%' escape '\\'")).containsExactly(
                    List.of("main", "t_a_check", "a > 0"), List.of("main", "t_a_check1", "a < 100"), List.of("main", "t_check1", "a < b"),
                    List.of("main", "t_c_check", "c like 'x%'"), List.of("main", "t_c_check1", "c <> 'xy'"),
                    List.of("main", "t_check", "b is not null or c is null"), List.of("main", "t_b_check", "b <> 7"));
            assertThat(rows(s, "select constraint_name, constraint_type, table_name from information_schema.table_constraints "
                    + "where table_name = 'items'")).containsExactly(List.of("items_pkey", "PRIMARY KEY", "items"),
                    List.of("items_price_check", "CHECK", "items"), List.of("qty_positive", "CHECK", "items"),
                    List.of("items_check", "CHECK", "items"), List.of("lo_hi", "CHECK", "items"));
            assertThat(rows(s, "select constraint_name, constraint_type, column_names, check_clause from sys.constraints "
                    + "where table_name = 'items'")).containsExactly(Arrays.asList("items_pkey", "PRIMARY KEY", "id", null),
                    List.of("items_price_check", "CHECK", "price", "price >= 0"), List.of("qty_positive", "CHECK", "qty", "qty > 0"),
                    List.of("items_check", "CHECK", "qty, price", "qty * price < 1000000"), List.of("lo_hi", "CHECK", "lo, hi", "lo <= hi"));
            violates(s, "insert into t values (5, 7, 'x')", "t_b_check");
            violates(s, "insert into t values (5, 6, 'xy')", "t_c_check1");
            s.executeUpdate("insert into t values (5, 6, 'xz')");
        }
    }

    @Test
    void everyWayOfAddingRowsIsChecked() throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute(ITEMS);
            s.execute("create table source (id int, price decimal(10,2), qty int)");
            s.executeUpdate("insert into source values (10, 1, 1), (11, 2, -2), (12, 3, 3)");
            violates(s, "insert into items (id, price, qty) select id, price, qty from source", "qty_positive");
            s.executeUpdate("insert into items (id, price, qty) select id, price, qty from source where qty > 0");

            try (PreparedStatement p = c.prepareStatement("insert into items (id, price, qty) values (?, ?, ?)")) {
                p.setInt(1, 20);
                p.setBigDecimal(2, new BigDecimal("-1"));
                p.setInt(3, 1);
                assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLIntegrityConstraintViolationException.class)
                        .hasMessageContaining("items_price_check");
                for (int i = 21; i <= 23; i++) {
                    p.setInt(1, i);
                    p.setBigDecimal(2, BigDecimal.ONE);
                    p.setInt(3, i == 22 ? 0 : 1);
                    p.addBatch();
                }
                assertThatThrownBy(p::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .satisfies(e -> assertThat(Arrays.asList(((SQLException) e).getSQLState(),
                                ((SQLException) e).getCause() instanceof SQLException x ? x.getSQLState() : null)).contains("23514"));
            }
            assertThat(rows(s, "select id from items order by id")).containsExactly(List.of(10), List.of(12));

            // UPDATE: the new versions are checked, and a failing one changes nothing
            violates(s, "update items set qty = qty - 3", "qty_positive");
            s.executeUpdate("update items set lo = 1, hi = 2 where id = 10");
            violates(s, "update items set hi = 0 where id = 10", "lo_hi");
            assertThat(rows(s, "select id, qty, lo, hi from items order by id"))
                    .containsExactly(List.of(10, 1, 1, 2), Arrays.asList(12, 3, null, null));

            // COPY: a failing line loads nothing, and is named
            Path csv = Files.writeString(dir.resolve("items.csv"), "30,1.00,1,,\n31,2.00,-1,,\n32,3.00,3,,\n");
            refused(s, "copy items from '" + csv + "'", "23514", "line 2: new row for relation \"items\" violates check constraint \"qty_positive\"");
            Files.writeString(csv, "30,1.00,1,,\n32,3.00,3,1,1\n");
            assertThat(s.executeUpdate("copy items from '" + csv + "'")).isEqualTo(2);

            // the embedding API's Appender, and TableChange underneath UPDATE, take the same check
            Database db = NumacolDriver.database(c);
            try (Appender a = db.appender("items")) {
                a.append(40, new BigDecimal("5.00"), 2, null, null);
                assertThatThrownBy(() -> a.append(41, new BigDecimal("5.00"), 2, 9, 1)).isInstanceOf(CheckViolationException.class)
                        .hasMessageContaining("lo_hi").hasMessageContaining("Failing row contains (41, 5.00, 2, 9, 1)");
            }
            assertThat(rows(s, "select id from items order by id"))
                    .containsExactly(List.of(10), List.of(12), List.of(30), List.of(32), List.of(40));
        }
    }

    /** A table placed PP deals each row to its partition's part: the row is checked before it is dealt. */
    @Test
    void aPartitionedTableChecksItsRowsToo() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2"); Statement s = c.createStatement()) {
            s.execute("create table p (id int, v int check (v between 0 and 9)) placement PP(2) BY HASH (id)");
            s.executeUpdate("insert into p values (1, 1), (2, 2), (3, 3)");
            violates(s, "insert into p values (4, 4), (5, 50)", "p_v_check");
            violates(s, "update p set v = v * 5", "p_v_check");
            assertThat(rows(s, "select id, v from p order by id")).containsExactly(List.of(1, 1), List.of(2, 2), List.of(3, 3));
        }
    }

    /** Appenders on four threads at once run the table's one compiled check, each on its own rows. */
    @Test
    void appendersOnSeveralThreadsShareTheCompiledCheck() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table w (id bigint, v int check (mod(v, 10) <> 3), tag varchar(4) check (tag like 'ok%'))");
            Database db = NumacolDriver.database(c);
            AtomicInteger refused = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                long base = w * 100_000L;
                threads.add(Thread.ofPlatform().start(() -> {
                    try (Appender a = db.appender("w")) {
                        for (int i = 0; i < 20_000; i++) {
                            try {
                                a.append(base + i, i, i % 1000 == 7 ? "no" : "ok" + (i % 3));
                            } catch (CheckViolationException e) {
                                refused.incrementAndGet();
                            }
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(refused).hasValue(4 * (2_000 + 20)); // i % 10 == 3, and i % 1000 == 7 (never also 3 mod 10)
            assertThat(rows(s, "select count(*) from w")).containsExactly(List.of(4L * (20_000 - 2_020)));
        }
    }

    @Test
    void inATransactionAFailingStatementKeepsNothingAndTheTransactionGoesOn() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute(ITEMS);
            c.setAutoCommit(false);
            s.executeUpdate("insert into items values (1, 1, 1, null, null)");
            violates(s, "insert into items values (2, 1, 1, null, null), (3, 1, -1, null, null)", "qty_positive");
            violates(s, "update items set price = -price", "items_price_check");
            s.executeUpdate("insert into items values (4, 1, 1, null, null)");
            c.rollback();
            assertThat(rows(s, "select count(*) from items")).containsExactly(List.of(0L));
            s.executeUpdate("insert into items values (5, 1, 1, null, null)");
            violates(s, "insert into items values (6, 1, 0, null, null)", "qty_positive");
            c.commit();
            assertThat(rows(s, "select id from items")).containsExactly(List.of(5));
        }
    }

    @Test
    void checksTakeWhatAQueryTakes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table e (code varchar(10) check (code like 'A%' and char_length(code) between 2 and 4), "
                    + "kind varchar(5) check (kind in ('x', 'y', 'z')), "
                    + "n bigint check (case when kind = 'x' then n > 10 else n is null or n <= 10 end), "
                    + "d date check (d >= date '2020-01-01' and extract(year from d) < 2030), "
                    + "ts timestamp check (ts < timestamp '2030-01-01 00:00:00'), "
                    + "flag boolean check (flag or n is not null), "
                    + "r double check (abs(r) < 1e6 and r = floor(r)), "
                    + "u uuid check (u <> uuid '00000000-0000-0000-0000-000000000000'), "
                    + "tag varchar(8) check (upper(tag) = tag and coalesce(tag, 'X') <> ''), "
                    + "check (mod(n, 2) = 0 or kind = 'z'))");
            s.executeUpdate("insert into e values ('A1', 'x', 12, date '2021-05-06', timestamp '2021-05-06 10:00:00', true, 3, "
                    + "uuid '11111111-1111-1111-1111-111111111111', 'UP')");
            s.executeUpdate("insert into e (code, kind, flag) values ('AB', 'z', true)");
            violates(s, "insert into e (code) values ('B1')", "e_code_check");
            violates(s, "insert into e (code) values ('A12345')", "e_code_check");
            violates(s, "insert into e (kind) values ('w')", "e_kind_check");
            violates(s, "insert into e (kind, n) values ('x', 3)", "e_check");
            violates(s, "insert into e (kind, n) values ('y', 30)", "e_check");
            violates(s, "insert into e (d) values (date '2019-12-31')", "e_d_check");
            violates(s, "insert into e (d) values (date '2031-01-01')", "e_d_check");
            violates(s, "insert into e (ts) values (timestamp '2031-01-01 00:00:00')", "e_ts_check");
            violates(s, "insert into e (flag) values (false)", "e_check1");
            violates(s, "insert into e (r) values (2.5)", "e_r_check");
            violates(s, "insert into e (u) values (uuid '00000000-0000-0000-0000-000000000000')", "e_u_check");
            violates(s, "insert into e (tag) values ('low')", "e_tag_check");
            violates(s, "insert into e (kind, n) values ('x', 13)", "e_check2");
            assertThat(rows(s, "select count(*) from e")).containsExactly(List.of(2L));
        }
    }

    @Test
    void checksOverEveryTypeAndAnOverflowThatRefusesTheRow() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;timeZone=Europe/Berlin"); Statement s = c.createStatement()) {
            s.execute("create table k (t tinyint check (t <> 7), sm smallint check (sm * 2 < 100), re real check (re > 0.5), "
                    + "ch char(3) check (ch <> 'abc'), bin varbinary(4) check (bin <> x'0102'), "
                    + "tz timestamp with time zone check (tz > timestamp with time zone '2020-01-01 00:00:00+00'), "
                    + "tm time check (tm between time '08:00:00' and time '18:00:00'), ok boolean check (ok), "
                    + "d1 date, d2 date, check (d2 - d1 < 30), i int check (i * 1000000 <> 5), "
                    + "n bigint generated by default as identity check (n < 4))");
            s.executeUpdate("insert into k values (1, 2, 1.5, 'abd', x'0103', timestamp with time zone '2021-01-01 00:00:00+00', "
                    + "time '09:00:00', true, date '2021-01-01', date '2021-01-20', 1, default)");
            violates(s, "insert into k (t) values (7)", "k_t_check");
            violates(s, "insert into k (sm) values (50)", "k_sm_check");
            violates(s, "insert into k (re) values (0.25)", "k_re_check");
            violates(s, "insert into k (ch) values ('abc')", "k_ch_check");
            violates(s, "insert into k (bin) values (x'0102')", "k_bin_check");
            violates(s, "insert into k (tz) values (timestamp with time zone '2019-12-31 23:00:00+00')", "k_tz_check");
            violates(s, "insert into k (tm) values (time '07:59:59')", "k_tm_check");
            violates(s, "insert into k (ok) values (false)", "k_ok_check");
            violates(s, "insert into k (d1, d2) values (date '2021-01-01', date '2021-02-01')", "k_check");
            violates(s, "insert into k (t) values (2)", "k_n_check"); // the refused rows took 2, 3, ... (as in PostgreSQL)
            // integer arithmetic that leaves its type fails the statement as in a query, and keeps nothing
            refused(s, "insert into k (i) values (3000)", "22003", "overflow");
            assertThat(rows(s, "select t, n from k")).containsExactly(List.of((byte) 1, 1L));
        }
    }

    @Test
    void aCheckThatIsNotABooleanOfTheRowIsRefusedAtCreate() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table other (x int)");
            refused(s, "create table t (a int check (a > (select max(x) from other)))", "42P17", "subquery");
            refused(s, "create table t (a int check (exists (select 1 from other)))", "42P17", "subquery");
            refused(s, "create table t (a int check (a in (select x from other)))", "42P17", "subquery");
            refused(s, "create table t (a int check (max(a) > 0))", "42P17", "aggregate functions are not allowed");
            refused(s, "create table t (a int check (a > rand()))", "42P17", "RAND");
            refused(s, "create table t (d date check (d < current_date))", "42P17", "CURRENT_DATE");
            s.execute("create sequence q");
            refused(s, "create table t (a int check (a < nextval('q')))", "42P17", "nextval takes a sequence's next number");
            refused(s, "create table t (a int check (other.x > 0))", "42P17", "own row");
            refused(s, "create table t (a int check (b > 0))", "42703", "'b'");
            refused(s, "create table t (a int check (nosuch(a) > 0))", "42883", "nosuch");
            refused(s, "create table t (a int check (a + 1))", "42804", "argument of CHECK must be type boolean, not type integer");
            refused(s, "create table t (a int check (a >))", "42601", "syntax error in CHECK (a >): Encountered \"> <EOF>\" at line 1, column 3.");
            refused(s, "create table t (a int constraint positive check (a >))", "42601",
                    "check constraint \"positive\": syntax error in CHECK (a >): Encountered \"> <EOF>\" at line 1, column 3.");
            refused(s, "create table t (a int check ())", "42601", "CHECK needs an expression");
            refused(s, "create table t (a int check (a > 0)", "42601", "expected ')'");
            refused(s, "create table t (a int constraint small check (a > 0), constraint small check (a < 9))", "42601",
                    "constraint \"small\" is defined twice");
            refused(s, "create table t (a int constraint t_pkey check (a > 0), primary key (a))", "42601",
                    "constraint \"t_pkey\" for relation \"t\" already exists");
            assertThat(rows(s, "select count(*) from information_schema.tables where table_name = 't'")).containsExactly(List.of(0L));
        }
    }

    /** A name the statement gives is its constraint's; an unnamed check takes the next free one. */
    @Test
    void aGivenNameIsKeptAndAnUnnamedCheckGoesAroundIt() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (a int check (a > 0), constraint t_a_check check (a < 9), b int unique check (b > a))");
            assertThat(rows(s, "select table_name, constraint_name, constraint_type from information_schema.table_constraints "
                    + "where table_schema = 'main'")).containsExactly(List.of("t", "t_b_key", "UNIQUE"),
                    List.of("t", "t_a_check1", "CHECK"), List.of("t", "t_a_check", "CHECK"), List.of("t", "t_check", "CHECK"));
            // a key's name is chosen without looking at the checks': the same name twice is refused
            refused(s, "create table u (x int, constraint u_x_key check (x > 0), unique (x))", "42601",
                    "constraint \"u_x_key\" for relation \"u\" already exists");
        }
    }

    @Test
    void alterTableAddsChecksOnlyWhereEveryRowPassesAndDropsThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int constraint t_id_key unique, v int, w int)");
            s.executeUpdate("insert into t values (1, 5, 1), (2, -3, 2)");
            refused(s, "alter table t add constraint v_positive check (v > 0)", "23514",
                    "check constraint \"v_positive\" of relation \"t\" is violated by some row");
            s.executeUpdate("insert into t values (3, -1, 3)"); // nothing was added
            s.executeUpdate("update t set v = -v where v < 0");
            s.execute("alter table t add constraint v_positive check (v > 0)");
            s.execute("alter table t add check (w < 10)");
            s.execute("alter table t add check (v >= w - 2)");
            violates(s, "insert into t values (4, 0, 0)", "v_positive");
            violates(s, "insert into t values (4, 20, 10)", "t_w_check");
            violates(s, "insert into t values (4, 2, 5)", "t_check");
            refused(s, "alter table t add constraint v_positive check (v > 1)", "42710",
                    "constraint \"v_positive\" for relation \"t\" already exists");
            refused(s, "alter table t add check (v > (select 1))", "42P17", "subquery");
            refused(s, "alter table t add column x int constraint t_w_check check (x > 0)", "42710",
                    "constraint \"t_w_check\" for relation \"t\" already exists");

            s.execute("alter table t drop constraint v_positive");
            s.executeUpdate("insert into t values (4, 0, -1)");
            s.execute("alter table t drop constraint if exists v_positive");
            refused(s, "alter table t drop constraint v_positive", "42704",
                    "constraint \"v_positive\" of relation \"t\" does not exist");
            // a UNIQUE constraint goes by its name too
            s.execute("alter table t drop constraint t_id_key");
            s.executeUpdate("insert into t values (4, 5, 1)");
            assertThat(rows(s, "select constraint_name from sys.constraints where table_name = 't'"))
                    .containsExactly(List.of("t_w_check"), List.of("t_check"));
        }
    }

    @Test
    void checksFollowARenamedColumnAndGoWithADroppedOne() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (a int check (a > 0), b int, \"Mixed Case\" int, constraint ab check (a < b), "
                    + "check (\"Mixed Case\" <> a + b))");
            s.executeUpdate("insert into t values (1, 2, 0)");
            s.execute("alter table t rename column a to first");
            s.execute("alter table t rename column \"Mixed Case\" to \"select\"");
            assertThat(rows(s, "select constraint_name, check_clause from information_schema.check_constraints order by 1"))
                    .containsExactly(List.of("ab", "first < b"), List.of("t_a_check", "first > 0"),
                            List.of("t_check", "\"select\" <> first + b"));
            violates(s, "insert into t values (0, 2, 0)", "t_a_check");
            violates(s, "insert into t values (3, 2, 0)", "ab");
            violates(s, "insert into t values (1, 2, 3)", "t_check");
            refused(s, "alter table t add column z int default 0 check (z <> 0)", "23514",
                    "check constraint \"t_z_check\" of relation \"t\" is violated by some row");
            s.execute("alter table t add column z int check (z <> 0)");
            violates(s, "insert into t values (1, 2, 0, 0)", "t_z_check");
            s.execute("alter table t rename to u");
            violates(s, "insert into u values (1, 2, 0, 0)", "t_z_check");
            // PostgreSQL drops a check with a column it reads
            s.execute("alter table u drop column b");
            assertThat(rows(s, "select constraint_name from information_schema.check_constraints order by 1"))
                    .containsExactly(List.of("t_a_check"), List.of("t_z_check"));
            s.executeUpdate("insert into u values (5, 7, 1)");
            violates(s, "insert into u values (-5, 7, 1)", "t_a_check");
            assertThat(rows(s, "select count(*) from u")).containsExactly(List.of(2L));
        }
    }

    @Test
    void aFileDatabaseKeepsItsChecksAndEnforcesThemAfterReopening() throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db") + ";topology=fake:2";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(ITEMS);
            s.execute("alter table items add constraint cheap check (price < 100)");
            s.executeUpdate("insert into items values (1, 9.50, 3, 1, 2)");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            violates(s, "insert into items values (2, 1, 0, 1, 2)", "qty_positive");
            violates(s, "insert into items values (2, 200, 1, 1, 2)", "cheap");
            s.execute("checkpoint");
            s.execute("alter table items drop constraint lo_hi");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("insert into items values (2, 1, 1, 3, 2)"); // lo_hi was dropped
            violates(s, "insert into items values (3, -1, 1, 1, 2)", "items_price_check");
            assertThat(rows(s, "select constraint_name from information_schema.check_constraints order by 1"))
                    .containsExactly(List.of("cheap"), List.of("items_check"), List.of("items_price_check"), List.of("qty_positive"));
            assertThat(rows(s, "select id from items order by id")).containsExactly(List.of(1), List.of(2));
        }
    }
}
