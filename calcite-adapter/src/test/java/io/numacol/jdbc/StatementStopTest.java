package io.numacol.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Statements that would run for minutes stop at their timeout, on cancel() and on close() from
 * another thread, and the statement runs again afterwards. The bounds here only tell "stopped"
 * from "ran on" (these queries run for minutes); the latencies themselves are measured by
 * {@code StatementStop} in the closing note, not by a test.
 */
class StatementStopTest {
    private static Connection connection;

    /** Queries over 20,000 rows whose joins make billions of rows: they never end by themselves. */
    private static final String[] ENDLESS = {
        // numacol's hash joins and aggregation: one block of a probe makes millions of rows
        "select a.g, count(*), sum(b.v) from t a join t b on a.k = b.k join t c on b.k = c.k group by a.g",
        // Calcite's nested loop over numacol's rows
        "select count(*) from t a, t b where a.v + b.v = 7",
        // DML and DDL that run such a query
        "insert into sink select a.v from t a join t b on a.k = b.k join t c on b.k = c.k",
        "create table made as select a.g, count(*) as n from t a join t b on a.k = b.k join t c on b.k = c.k group by a.g",
    };

    /** Runs {@code sql} and reads its rows, if it has any. */
    private static void run(Statement s, String sql) throws SQLException {
        if (s.execute(sql)) {
            try (ResultSet rs = s.getResultSet()) {
                while (rs.next()) {
                    rs.getObject(1);
                }
            }
        }
    }

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:");
        try (Statement s = connection.createStatement()) {
            s.execute("create table t (k integer, g integer, v bigint)");
            s.execute("create table sink (v bigint)");
            s.execute("insert into t select x % 50, x % 1000, x from (select row_number() over () as x from "
                    + "(values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) a, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) b, "
                    + "(values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) c, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) d, "
                    + "(values (1),(2)) e) q");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void aTimeoutStopsIt(int query) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.setQueryTimeout(1);
            long start = System.nanoTime();
            assertThatThrownBy(() -> run(s, ENDLESS[query])).isInstanceOf(SQLTimeoutException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
            assertThat(millisSince(start)).as("stopped, not run on").isLessThan(15_000);
            s.setQueryTimeout(0);
            assertThat(rows(s, "select count(*) from t")).as("the statement runs again").containsExactly(List.of(20_000L));
            assertThat(rows(s, "select count(*) from sink")).as("nothing of a stopped INSERT is stored").containsExactly(List.of(0L));
            assertThat(rows(s, "select count(*) from sys.tables where table_name = 'made'"))
                    .as("a stopped CREATE TABLE AS leaves no table").containsExactly(List.of(0L));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void cancelAndCloseStopIt(int query) throws Exception {
        for (boolean close : new boolean[]{false, true}) {
            Statement s = connection.createStatement();
            JdbcTesting.Running running = JdbcTesting.start(() -> run(s, ENDLESS[query]));
            running.awaitExecuting();
            long start = System.nanoTime();
            if (close) {
                s.close();
            } else {
                s.cancel();
            }
            assertThatThrownBy(() -> running.done().get(15, TimeUnit.SECONDS)).as(close ? "close" : "cancel")
                    .hasCauseInstanceOf(IllegalStateException.class)
                    .satisfies(e -> assertThat(((SQLException) e.getCause().getCause()).getSQLState()).isEqualTo("57014"));
            assertThat(millisSince(start)).isLessThan(15_000);
            if (!close) {
                assertThat(rows(s, "select count(*) from t")).as("a cancel stops one execution").containsExactly(List.of(20_000L));
                s.close();
            }
        }
    }

    /**
     * A statement that is all planning (300,000 IN-list elements: parsed, typed, converted and
     * simplified element by element, some 15 s unstopped) stops at its timeout in each phase:
     * numacol's parser stream, validator and RexBuilder ask, where Calcite's do not.
     */
    @Test
    void aTimeoutStopsPlanning() throws SQLException {
        StringBuilder in = new StringBuilder("select count(*) from t where v in (");
        for (int i = 0; i < 300_000; i++) {
            in.append(i == 0 ? "" : ", ").append(7 * i + 1);
        }
        String sql = in.append(')').toString();
        try (Statement s = connection.createStatement()) {
            s.setQueryTimeout(1);
            long start = System.nanoTime();
            assertThatThrownBy(() -> run(s, sql)).isInstanceOf(SQLTimeoutException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
            assertThat(millisSince(start)).as("stopped while planned, not after").isLessThan(3_000);
        }
    }

    /** A cancel() while nothing runs stops nothing: Avatica kept the flag raised, and every later execution failed. */
    @Test
    void aCancelBetweenExecutionsStopsNothing() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.cancel();
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(20_000L));
            assertThat(rows(s, "select count(*) from t where k = 3")).containsExactly(List.of(400L));
        }
    }
}
