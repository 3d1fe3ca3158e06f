package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** NOT NULL as 23502, column DEFAULTs, identity columns (GENERATED ... AS IDENTITY, serial, AUTO_INCREMENT). */
class ColumnDefaultsTest {

    private static void notNull(Statement s, String sql) {
        assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLIntegrityConstraintViolationException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23502"))
                .hasMessageContaining("null value in column \"id\" of relation \"t\" violates not-null constraint");
    }

    @Test
    void notNullViolationsAre23502() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int not null, v int)");
            notNull(s, "insert into t values (null, 1)");
            notNull(s, "insert into t (v) values (1)");
            notNull(s, "insert into t values (cast(null as int), 1)");
            s.executeUpdate("insert into t values (1, 1)");
            notNull(s, "update t set id = null");
            try (PreparedStatement p = c.prepareStatement("insert into t values (?, ?)")) {
                p.setInt(1, 2);
                p.setInt(2, 1);
                p.addBatch();
                p.setNull(1, Types.INTEGER);
                p.setInt(2, 1);
                p.addBatch();
                assertThatThrownBy(p::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23502"))
                        .hasMessageContaining("null value in column \"id\"");
            }
            assertThat(rows(s, "select id, v from t")).containsExactly(List.of(1, 1));
        }
    }

    @Test
    void literalDefaultsFillOmittedColumns() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table d (x int default 5, y int, d date default date '2024-01-02', "
                    + "s varchar(5) not null default 'ab', n decimal(5,2) default 1.5)");
            s.executeUpdate("insert into d (y) values (1), (2)"); // stored without planning
            s.executeUpdate("insert into d (y) values (1 + 2)"); // planned
            s.executeUpdate("insert into d values (default, 4, default, default, default)");
            s.executeUpdate("insert into d (y, x) values (5, 6)");
            assertThat(rows(s, "select x, y, cast(d as varchar(10)), s, n from d order by y")).containsExactly(
                    List.of(5, 1, "2024-01-02", "ab", new java.math.BigDecimal("1.50")),
                    List.of(5, 2, "2024-01-02", "ab", new java.math.BigDecimal("1.50")),
                    List.of(5, 3, "2024-01-02", "ab", new java.math.BigDecimal("1.50")),
                    List.of(5, 4, "2024-01-02", "ab", new java.math.BigDecimal("1.50")),
                    List.of(6, 5, "2024-01-02", "ab", new java.math.BigDecimal("1.50")));

            s.execute("create table a (id int not null)");
            s.executeUpdate("insert into a values (1)");
            s.execute("alter table a add column z int default 9");
            s.executeUpdate("insert into a (id) values (2)");
            assertThat(rows(s, "select id, z from a order by id")).containsExactly(List.of(1, 9), List.of(2, 9));
            assertThatThrownBy(() -> s.execute("create table bad (x int default 'abc')")).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void identityColumns() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table g (id int generated always as identity, y int)");
            s.executeUpdate("insert into g (y) values (1), (2)");
            s.executeUpdate("insert into g (y) values (1 + 2)");
            assertThatThrownBy(() -> s.executeUpdate("insert into g values (7, 2)"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("428C9"))
                    .hasMessageContaining("GENERATED ALWAYS");
            c.setAutoCommit(false);
            s.executeUpdate("insert into g (y) values (5)");
            c.rollback();
            s.executeUpdate("insert into g (y) values (6)");
            c.commit();
            c.setAutoCommit(true);
            // the number the rolled-back row took is not given again
            assertThat(rows(s, "select id, y from g order by y")).containsExactly(
                    List.of(1, 1), List.of(2, 2), List.of(3, 3), List.of(5, 6));

            s.execute("create table b (id bigserial primary key, y int)");
            s.executeUpdate("insert into b (y) values (1)");
            s.executeUpdate("insert into b values (10, 2)"); // BY DEFAULT takes a value given
            assertThat(rows(s, "select id, y from b order by y")).containsExactly(List.of(1L, 1), List.of(10L, 2));

            s.execute("create table m (id int auto_increment, y int)");
            s.executeUpdate("insert into m (y) values (1)");
            assertThat(rows(s, "select id from m")).containsExactly(List.of(1));
        }
    }

    @Test
    void defaultInValuesFillsItsOwnColumn() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table g (id int generated always as identity, v int)");
            s.executeUpdate("insert into g values (default, 4)");
            s.executeUpdate("insert into g (v) values (5)");
            s.executeUpdate("insert into g (id, v) values (default, 6)");
            s.executeUpdate("insert into g values (default, 7), (default, 8)");
            s.executeUpdate("insert into g (v, id) values (9, default)");
            assertThat(rows(s, "select id, v from g order by v")).containsExactly(
                    List.of(1, 4), List.of(2, 5), List.of(3, 6), List.of(4, 7), List.of(5, 8), List.of(6, 9));

            s.execute("create table b (id int generated by default as identity, v int, w int default 3)");
            s.executeUpdate("insert into b values (default, 4, default)");
            s.executeUpdate("insert into b (v) values (5)");
            s.executeUpdate("insert into b (id, v) values (default, 6)");
            s.executeUpdate("insert into b values (default, 7, 1), (20, 8, default)");
            s.executeUpdate("insert into b (w, v) values (default, 9)");
            s.executeUpdate("insert into b (v, id, w) values (10, default, 2)");
            assertThat(rows(s, "select id, v, w from b order by v")).containsExactly(
                    List.of(1, 4, 3), List.of(2, 5, 3), List.of(3, 6, 3), List.of(4, 7, 1), List.of(20, 8, 3),
                    List.of(5, 9, 3), List.of(6, 10, 2));
        }
    }

    @Test
    void alwaysIdentityRefusesEveryGivenValue() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table g (id int generated always as identity, v int)");
            for (String sql : List.of("insert into g values (7, 1)", "insert into g (id, v) values (1 + 1, 1)",
                    "insert into g values (default, 1), (3, 2)", "insert into g select 1, 2 from (values (0)) as x (z)",
                    "insert into g (v, id) values (1, cast(null as int))")) {
                assertThatThrownBy(() -> s.executeUpdate(sql)).as(sql)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("428C9"))
                        .hasMessageContaining("GENERATED ALWAYS");
            }
            s.executeUpdate("insert into g (v) select 8 from (values (0)) as x (z)");
            assertThat(rows(s, "select v from g")).containsExactly(List.of(8));
            // nor may an UPDATE set it, as PostgreSQL refuses
            assertThatThrownBy(() -> s.executeUpdate("update g set id = 5, v = 9"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("428C9"))
                    .hasMessageContaining("can only be updated to DEFAULT");
            assertThat(s.executeUpdate("update g set v = 9")).isEqualTo(1);
            assertThat(rows(s, "select v from g")).containsExactly(List.of(9));
        }
    }

    @Test
    void batchesFillDefaultsAndIdentities() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table g (id bigint generated always as identity, v int, w varchar(5) not null default 'x', "
                    + "n int generated by default as identity (start with 100))");
            try (PreparedStatement p = c.prepareStatement("insert into g (v) values (?)")) {
                for (int v = 1; v <= 3; v++) {
                    p.setInt(1, v);
                    p.addBatch();
                }
                assertThat(p.executeBatch()).containsExactly(1, 1, 1);
            }
            try (PreparedStatement p = c.prepareStatement("insert into g (v, n) values (?, ?)")) {
                p.setInt(1, 4);
                p.setInt(2, 7);
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1);
            }
            try (PreparedStatement p = c.prepareStatement("insert into g values (default, ?, default, default)")) {
                p.setInt(1, 5);
                p.addBatch();
                p.setInt(1, 6);
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1, 1);
            }
            // a value for the GENERATED ALWAYS column is refused as the statement is prepared, as PostgreSQL does
            assertThatThrownBy(() -> c.prepareStatement("insert into g (id, v) values (?, ?)"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("428C9"));
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("insert into g (v, w) values (?, ?)")) {
                p.setInt(1, 10);
                p.setString(2, "y");
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1);
            }
            c.commit();
            c.setAutoCommit(true);
            assertThat(rows(s, "select id, v, w, n from g order by v")).containsExactly(
                    List.of(1L, 1, "x", 100), List.of(2L, 2, "x", 101), List.of(3L, 3, "x", 102), List.of(4L, 4, "x", 7),
                    List.of(5L, 5, "x", 103), List.of(6L, 6, "x", 104), List.of(7L, 10, "y", 105));
        }
    }

    @Test
    void startWithAndIncrementBy() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table u (id int generated always as identity (start with 10 increment by 5), v int)");
            s.executeUpdate("insert into u (v) values (1), (2)"); // stored without planning
            s.executeUpdate("insert into u (v) values (1 + 2)"); // planned
            s.executeUpdate("insert into u values (default, 4)");
            try (PreparedStatement p = c.prepareStatement("insert into u (v) values (?)")) {
                p.setInt(1, 5);
                p.addBatch();
                p.executeBatch();
            }
            assertThat(rows(s, "select id, v from u order by v")).containsExactly(
                    List.of(10, 1), List.of(15, 2), List.of(20, 3), List.of(25, 4), List.of(30, 5));

            s.execute("create table d (id bigint generated by default as identity (increment by -2 start with -1), v int)");
            s.executeUpdate("insert into d (v) values (1), (2)");
            s.executeUpdate("insert into d values (default, 3)");
            assertThat(rows(s, "select id, v from d order by v")).containsExactly(List.of(-1L, 1), List.of(-3L, 2), List.of(-5L, 3));

            s.execute("create table sm (id smallint generated by default as identity (start with 7), v int)");
            s.executeUpdate("insert into sm (v) values (1)");
            assertThat(rows(s, "select id from sm")).containsExactly(List.of((short) 7));

            assertThatThrownBy(() -> s.execute("create table z (id int generated always as identity (increment by 0))"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("INCREMENT");
            assertThatThrownBy(() -> s.execute("create table z (id int generated always as identity (start with 1.5))"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("START WITH");
        }
    }
}
