package io.numacol.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.numacol.database.Appender;
import io.numacol.database.Database;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;

class StatementTest {
    /** A query that runs for minutes unless stopped: a cross product of 20k x 20k rows. */
    private static final String ENDLESS = "select count(*) from t a, t b where a.x + b.x > -1";

    /** ENDLESS running on another thread: what it threw, or null if it ended. */
    private static CompletableFuture<Throwable> endless(Statement s) {
        return CompletableFuture.supplyAsync(() -> {
            try (ResultSet rs = s.executeQuery(ENDLESS)) {
                rs.next();
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
    }

    private static long tasksRun(Database db) {
        return (long) db.scheduler().meterRegistry().find("numacol.scheduler.tasks.run").functionCounters().stream()
                .mapToDouble(FunctionCounter::count).sum();
    }

    /** Returns once the database's workers have run a task more than {@code before}. */
    private static void awaitTasks(Database db, long before) {
        while (tasksRun(db) <= before) {
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static void load(Connection c, int rows) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("create table t (x int not null)");
        }
        try (Appender a = NumacolDriver.database(c).appender("t")) {
            for (int i = 0; i < rows; i++) {
                a.append(i);
            }
        }
    }

    @Test
    void preparedOnceExecutedWithManyParameters() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:")) {
            load(c, 1000);
            try (PreparedStatement p = c.prepareStatement("select count(*) from t where x between ? and ?")) {
                Random random = new Random(7);
                for (int i = 0; i < 20; i++) {
                    int lo = random.nextInt(1200) - 100;
                    int hi = lo + random.nextInt(500) - 50;
                    p.setInt(1, lo);
                    p.setInt(2, hi);
                    long expected = Math.max(0, Math.min(hi, 999) - Math.max(lo, 0) + 1);
                    try (ResultSet rs = p.executeQuery()) {
                        assertThat(rows(rs)).as("between %d and %d", lo, hi).containsExactly(List.of(expected));
                    }
                }
            }
        }
    }

    @Test
    void cancelStopsARunningQuery() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            load(c, 20_000);
            CompletableFuture<Throwable> run = endless(s);
            // cancel until the query notices: a cancel before it started would be lost on a fresh execution
            while (!run.isDone()) {
                s.cancel();
                try {
                    run.get(20, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillRunning) {
                    // cancel again
                }
            }
            Throwable failure = run.get(60, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(SQLException.class).hasMessageContaining("cancel");
            try (Statement again = c.createStatement()) {
                assertThat(rows(again, "select count(*) from t")).containsExactly(List.of(20_000L));
            }
        }
    }

    @Test
    void closingTheConnectionStopsItsRunningQuery() throws Exception {
        try (Connection keep = DriverManager.getConnection("jdbc:numacol:mem:closing")) {
            load(keep, 20_000);
            Connection c = DriverManager.getConnection("jdbc:numacol:mem:closing");
            Statement s = c.createStatement();
            long tasks = tasksRun(NumacolDriver.database(keep));
            CompletableFuture<Throwable> run = endless(s);
            awaitTasks(NumacolDriver.database(keep), tasks); // the query runs: its scans have started
            c.close();
            assertThat(run.get(60, TimeUnit.SECONDS)).isInstanceOf(SQLException.class).hasMessageContaining("cancel");
            try (Statement again = keep.createStatement()) {
                assertThat(rows(again, "select count(*) from t")).containsExactly(List.of(20_000L));
            }
        }
    }

    @Test
    void queryTimeoutStopsARunningQuery() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            load(c, 20_000);
            s.setQueryTimeout(1);
            Throwable failure = endless(s).get(60, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(SQLException.class).hasMessageContaining("timeout");
        }
    }

    @Test
    void metaDataListsTablesAndColumnsOfMain() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table items (id bigint not null, name varchar(20), price decimal(8,2))");
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getTables(null, "main", "%", null)) {
                List<String> names = new ArrayList<>();
                while (rs.next()) {
                    names.add(rs.getString("TABLE_NAME"));
                }
                assertThat(names).containsExactly("items");
            }
            try (ResultSet rs = md.getTables(null, null, "%", new String[] {"TABLE"})) {
                List<String> names = new ArrayList<>();
                while (rs.next()) {
                    names.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
                }
                assertThat(names).as("sys tables are SYSTEM TABLEs").containsExactly("main.items");
            }
            try (ResultSet rs = md.getTables(null, "sys", "indexes", new String[] {"SYSTEM TABLE"})) {
                assertThat(rs.next()).isTrue();
            }
            try (ResultSet rs = md.getColumns(null, "main", "items", "%")) {
                List<String> columns = new ArrayList<>();
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("DATA_TYPE") + " " + rs.getString("IS_NULLABLE"));
                }
                assertThat(columns).containsExactly("id " + Types.BIGINT + " NO",
                        "name " + Types.VARCHAR + " YES", "price " + Types.DECIMAL + " YES");
            }
        }
    }
}
