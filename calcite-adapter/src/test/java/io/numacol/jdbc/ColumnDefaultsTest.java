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
}
