package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Column DEFAULT expressions: CURRENT_TIMESTAMP, now(), nextval, gen_random_uuid, arithmetic, casts; each INSERT path, ALTER, reopen. */
class DefaultExpressionTest {

    private static final String TABLE = "create table e (id int, "
            + "ts timestamp default current_timestamp, nw timestamp default now(), d date default current_date, "
            + "u uuid default gen_random_uuid(), m int default -1, p int default 1 + 2, c varchar(10) default 'a' || 'b', "
            + "k date default cast('2020-01-01' as date), b boolean default true, z int default null)";
    private static final String CHECKED = "select id, m, p, c, cast(k as varchar(10)), b, z, ts is not null and nw is not null "
            + "and d is not null and u is not null from e order by id";

    private static void refused(Statement s, String sql, String state, String words) {
        assertThatThrownBy(() -> s.execute(sql)).as(sql).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(sql).isEqualTo(state))
                .hasMessageContaining(words);
    }

    private static List<Object> row(int id) {
        return Arrays.asList(id, -1, 3, "ab", "2020-01-01", true, null, true);
    }

    @Test
    void everyFormFillsAnOmittedColumnOnEveryInsertPath() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute(TABLE);
            s.executeUpdate("insert into e (id) values (1), (2)");
            s.executeUpdate("insert into e (id) select 3");
            s.executeUpdate("insert into e values (4, default, default, default, default, default, default, default, "
                    + "default, default, default)");
            try (PreparedStatement p = c.prepareStatement("insert into e (id) values (?)")) {
                p.setInt(1, 5);
                p.addBatch();
                p.setInt(1, 6);
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1, 1);
            }
            assertThat(rows(s, CHECKED)).containsExactly(row(1), row(2), row(3), row(4), row(5), row(6));
            // per row: a new number, a new uuid; per statement: the same timestamp for both rows of one INSERT
            assertThat(rows(s, "select count(distinct u) from e")).containsExactly(List.of(6L));
            assertThat(rows(s, "select count(distinct ts) from e where id in (1, 2)")).containsExactly(List.of(1L));
            assertThat(rows(s, "select count(*) from e where d = current_date and ts <= current_timestamp")).containsExactly(List.of(6L));
        }
    }

    @Test
    void upsertsTakeTheDefault() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table k (id int primary key, v int default 40 + 2, w varchar(5))");
            s.executeUpdate("insert into k (id, w) values (1, 'a') on conflict (id) do nothing");
            s.executeUpdate("insert into k (id, w) values (1, 'b'), (2, 'c') on conflict (id) do update set w = excluded.w");
            assertThat(rows(s, "select id, v, w from k order by id")).containsExactly(List.of(1, 42, "b"), List.of(2, 42, "c"));
        }
    }

    @Test
    void addColumnFillsExistingRowsOnceOrPerRow() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create sequence q");
            s.execute("create table a (id int)");
            s.executeUpdate("insert into a values (1), (2), (3)");
            s.execute("alter table a add column t timestamp default current_timestamp");
            s.execute("alter table a add column n bigint not null default nextval('q')");
            s.execute("alter table a add column u uuid default gen_random_uuid()");
            s.execute("alter table a add column x decimal(5, 2) default 1.5 * 2");
            assertThat(rows(s, "select count(distinct t), count(distinct n), min(n), max(n), count(distinct u), min(x) from a"))
                    .containsExactly(List.of(1L, 3L, 1L, 3L, 3L, new java.math.BigDecimal("3.00")));
        }
    }

    @Test
    void refusalsSayWhyWithPostgresCodes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table r (a int)");
            refused(s, "create table x (a int, b int default a + 1)", "42P10", "cannot use column reference in DEFAULT expression");
            refused(s, "create table x (b int default (select max(a) from r))", "0A000", "cannot use subquery in DEFAULT expression");
            refused(s, "create table x (b int default max(1))", "42803", "aggregate functions are not allowed");
            refused(s, "create table x (b int default ? + 1)", "42P02", "parameter");
            refused(s, "create table x (b int default true and false)", "42804", "default expression is of type boolean");
            refused(s, "create table x (b date default 1 + 1)", "42804", "is of type DATE");
            refused(s, "alter table r add column b int default a * 2", "42P10", "cannot use column reference");
            refused(s, "create table x (b bigint default nextval('nope'))", "42P01", "nope");
            refused(s, "create table x (b int default no_such_function())", "42883", "no_such_function");
            // nothing was created or changed
            assertThat(rows(s, "select count(*) from information_schema.tables where table_name = 'x'")).containsExactly(List.of(0L));
            assertThat(rows(s, "select count(*) from information_schema.columns where table_name = 'r'")).containsExactly(List.of(1L));
        }
    }

    @Test
    void defaultsSurviveReopenAndShowInMetadata(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create sequence s");
            s.execute("create table m (id int, n bigint default 6 * 7, c varchar(10) default 'x''y', "
                    + "ts timestamp default CURRENT_TIMESTAMP)");
            s.executeUpdate("insert into m (id) values (1)");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("insert into m (id) values (2)");
            assertThat(rows(s, "select id, n, c, ts is not null from m order by id"))
                    .containsExactly(List.of(1, 42L, "x'y", true), List.of(2, 42L, "x'y", true));
            assertThat(rows(s, "select column_name, column_default from information_schema.columns where table_name = 'm' "
                    + "order by ordinal_position")).containsExactly(Arrays.asList("id", null), List.of("n", "6 * 7"),
                    List.of("c", "'x''y'"), List.of("ts", "CURRENT_TIMESTAMP"));
            // the same through JDBC's getColumns, where schema tools read it
            List<List<Object>> described = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getColumns(null, "main", "m", "%")) {
                while (rs.next()) {
                    described.add(Arrays.asList(rs.getString("COLUMN_NAME"), rs.getString("COLUMN_DEF"), rs.getString("IS_AUTOINCREMENT")));
                }
            }
            assertThat(described).containsExactly(Arrays.asList("id", null, "NO"), List.of("n", "6 * 7", "NO"),
                    List.of("c", "'x''y'", "NO"), List.of("ts", "CURRENT_TIMESTAMP", "NO"));
            s.execute("create table g (id bigint generated always as identity primary key, v int)");
            try (ResultSet rs = c.getMetaData().getColumns(null, "main", "g", "%")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("IS_AUTOINCREMENT")).isEqualTo("YES");
                assertThat(rs.getString("IS_GENERATEDCOLUMN")).isEqualTo("YES");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("IS_AUTOINCREMENT")).isEqualTo("NO");
            }
        }
    }

    @Test
    void nextvalDefaultNumbersEachInsertedRow() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create sequence s");
            s.execute("create table n (id int, n bigint default nextval('s'))");
            s.executeUpdate("insert into n (id) values (1), (2)");
            assertThat(rows(s, "select id, n from n order by id")).containsExactly(List.of(1, 1L), List.of(2, 2L));
        }
    }
}
