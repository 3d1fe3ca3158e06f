package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ALTER TABLE ... ALTER [COLUMN] c SET NOT NULL | DROP NOT NULL | SET DEFAULT | DROP DEFAULT |
 * [SET DATA] TYPE: stored rows are checked (or cast) first, and a refusal leaves the table as it was.
 */
class AlterColumnTest {

    private static void refused(Statement s, String sql, String state, String... words) {
        assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
                .satisfies(e -> assertThat(e.getMessage()).contains(words));
    }

    private static List<List<Object>> nullability(Statement s, String table) throws SQLException {
        return rows(s, "select column_name, is_nullable from information_schema.columns where table_name = '" + table
                + "' order by ordinal_position");
    }

    @Test
    void setAndDropNotNull() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, a int, b varchar(3))");
            s.executeUpdate("insert into t values (1, 10, 'x'), (2, null, 'y')");
            refused(s, "alter table t alter column a set not null", "23502", "column \"a\" of relation \"t\" contains null values");
            s.execute("alter table t alter b set not null");
            s.execute("alter table t alter column b set not null"); // again: nothing to do
            refused(s, "insert into t values (3, 1, null)", "23502", "b");
            refused(s, "alter table t alter column id drop not null", "42P16", "column \"id\" is in a primary key");
            refused(s, "alter table t alter column nosuch set not null", "42703", "nosuch");
            assertThat(nullability(s, "t")).containsExactly(List.of("id", "NO"), List.of("a", "YES"), List.of("b", "NO"));
            s.execute("alter table t alter column b drop not null");
            s.executeUpdate("insert into t values (3, 1, null)");
            s.execute("update t set a = 0 where a is null");
            s.execute("alter table t alter a set not null");
            assertThat(rows(s, "select id, a, b from t order by id")).containsExactly(Arrays.asList(1, 10, "x"),
                    Arrays.asList(2, 0, "y"), Arrays.asList(3, 1, null));
        }
    }

    @Test
    void setAndDropDefaultApplyToLaterInserts() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int, qty int, d date, note varchar(4) default 'n')");
            s.executeUpdate("insert into t (id) values (1)");
            s.execute("alter table t alter column qty set default 5");
            s.execute("alter table t alter d set default date '2024-02-29'");
            s.execute("alter table t alter column note drop default");
            s.executeUpdate("insert into t (id) values (2)");
            assertThat(rows(s, "select id, qty, cast(d as varchar), note from t order by id")).containsExactly(
                    Arrays.asList(1, null, null, "n"), Arrays.asList(2, 5, "2024-02-29", null));
            refused(s, "alter table t alter column qty set default 'many'", "22P02", "qty");
            refused(s, "alter table t alter column note set default 'toolong'", "22001", "note");
            s.execute("alter table t alter column qty drop default");
            s.executeUpdate("insert into t (id) values (3)");
            assertThat(rows(s, "select qty from t where id = 3")).containsExactly(Arrays.asList((Object) null));
            // an expression, as a column's DEFAULT takes it: evaluated by each later INSERT
            s.execute("create sequence q start with 40");
            s.execute("alter table t alter column qty set default nextval('q') + 1");
            s.execute("alter table t alter column d set default current_date");
            s.executeUpdate("insert into t (id) values (4), (5)");
            assertThat(rows(s, "select qty, d = current_date from t where id >= 4 order by id")).containsExactly(
                    Arrays.asList(41, true), Arrays.asList(42, true));
            refused(s, "alter table t alter column qty set default id + 1", "42P10", "id");
            refused(s, "alter table t alter column d set default 1 = 1", "42804", "d");
        }
    }

    /** A DEFAULT expression stays one through TYPE, checked against the new type; a partition key keeps its type. */
    @Test
    void setTypeKeepsADefaultExpressionAndRefusesAPartitionKey() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2"); Statement s = c.createStatement()) {
            s.execute("create table t (id int, code varchar(10) default 'a' || 'b', made timestamp default current_timestamp)");
            s.execute("alter table t alter column code type varchar(64)");
            s.execute("alter table t alter column made type timestamp with time zone");
            s.executeUpdate("insert into t (id) values (1)");
            assertThat(rows(s, "select code, made is not null from t")).containsExactly(Arrays.asList("ab", true));
            refused(s, "alter table t alter column code type int", "42804", "code");
            assertThat(rows(s, "select column_default from information_schema.columns where lower(table_name) = 't'"
                    + " and lower(column_name) = 'code'")).singleElement().satisfies(r -> assertThat((String) r.getFirst()).contains("||"));

            s.execute("create table pp (k int, v int)");
            s.executeUpdate("insert into pp values (1, 1), (50, 2), (99, 3)");
            s.execute("alter table pp set placement pp(2) by range (k)");
            refused(s, "alter table pp alter column k type varchar(5)", "0A000", "PP(2) BY RANGE");
            s.execute("alter table pp alter column v type bigint"); // not a key: altered
            assertThat(rows(s, "select count(*) from pp")).containsExactly(List.of(3L));
        }
    }

    @Test
    void setTypeCastsStoredValues() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, n int, price decimal(6, 2), code varchar(5), k int check (k > 0))");
            s.executeUpdate("insert into t values (1, 7, 2.50, '12', 1), (2, null, 3.49, 'x', 2)");
            s.execute("alter table t alter column n type bigint");
            s.execute("alter table t alter column price set data type integer"); // rounded as CAST rounds
            s.execute("alter table t alter column n type varchar(10)");
            assertThat(rows(s, "select id, n, price from t order by id")).containsExactly(Arrays.asList(1, "7", 3),
                    Arrays.asList(2, null, 3));
            refused(s, "alter table t alter column code type int", "22P02", "x");
            refused(s, "alter table t alter column price type decimal(1, 1)", "22003", "price");
            refused(s, "alter table t alter column id type bigint", "0A000", "t_pkey");
            refused(s, "alter table t alter column k type bigint", "0A000", "t_k_check");
            refused(s, "alter table t alter column n type int using n::int", "0A000", "USING");
            assertThat(rows(s, "select id, n, price, code, k from t order by id")).containsExactly(
                    Arrays.asList(1, "7", 3, "12", 1), Arrays.asList(2, null, 3, "x", 2));
            s.execute("delete from t where id = 2");
            s.execute("alter table t alter column code type decimal(4, 1)");
            assertThat(rows(s, "select code from t")).containsExactly(List.of(new BigDecimal("12.0")));
        }
    }

    @Test
    void aFileDatabaseKeepsAlteredColumns(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table t (id int, v int)");
            s.executeUpdate("insert into t values (1, 1)");
            s.execute("alter table t alter column v set not null");
            s.execute("alter table t alter column v set default 9");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            refused(s, "insert into t values (2, null)", "23502", "v");
            s.executeUpdate("insert into t (id) values (3)");
            assertThat(rows(s, "select id, v from t order by id")).containsExactly(List.of(1, 1), List.of(3, 9));
        }
    }
}
