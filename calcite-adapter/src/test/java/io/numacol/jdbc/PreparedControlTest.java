package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Transaction control and SHUTDOWN through prepareStatement, as Flyway and Liquibase run every
 * statement: each behaves as through a plain Statement, at each execution.
 */
class PreparedControlTest {
    private static Connection open(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:numacol:mem:" + name);
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            assertThat(p.executeUpdate()).isZero();
        }
    }

    @Test
    void beginCommitAndRollbackPrepared() throws SQLException {
        try (Connection a = open("pc_tx"); Connection b = open("pc_tx"); Statement sa = a.createStatement();
             Statement sb = b.createStatement()) {
            sa.execute("create table t (v int)");
            run(a, "BEGIN");
            sa.executeUpdate("insert into t values (1)");
            assertThat(rows(sb, "select count(*) from t")).as("not yet committed").containsExactly(List.of(0L));
            run(a, "COMMIT");
            assertThat(rows(sb, "select count(*) from t")).containsExactly(List.of(1L));
            try (PreparedStatement begin = a.prepareStatement("start transaction");
                 PreparedStatement rollback = a.prepareStatement("rollback")) {
                for (int round = 0; round < 2; round++) { // each execution runs it again
                    assertThat(begin.execute()).isFalse();
                    sa.executeUpdate("insert into t values (2)");
                    assertThat(rollback.execute()).isFalse();
                }
            }
            assertThat(rows(sa, "select count(*) from t")).containsExactly(List.of(1L));
            assertThat(a.getAutoCommit()).isTrue();
        }
    }

    @Test
    void savepointsPrepared() throws SQLException {
        try (Connection c = open("pc_sp"); Statement s = c.createStatement()) {
            s.execute("create table t (v int)");
            run(c, "begin");
            s.executeUpdate("insert into t values (1)");
            run(c, "SAVEPOINT s1");
            s.executeUpdate("insert into t values (2)");
            run(c, "ROLLBACK TO SAVEPOINT s1");
            run(c, "RELEASE SAVEPOINT s1");
            run(c, "commit");
            assertThat(rows(s, "select v from t")).containsExactly(List.of(1));
            try (PreparedStatement p = c.prepareStatement("rollback to savepoint nope")) {
                assertThatThrownBy(p::execute).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getSQLState()).isEqualTo("25P01"));
            }
        }
    }

    @Test
    void shutdownPrepared() throws SQLException {
        try (Connection c = open("pc_shutdown"); Connection other = open("pc_shutdown")) {
            try (PreparedStatement p = c.prepareStatement("SHUTDOWN")) {
                p.execute();
            }
            assertThat(other.isValid(1)).isFalse();
            assertThatThrownBy(() -> other.createStatement().executeQuery("select 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08003"));
        }
    }
}
