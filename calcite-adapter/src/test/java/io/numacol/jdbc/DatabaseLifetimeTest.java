package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How long a named in-memory database lives: until its last connection closes (the default,
 * close_delay=0), a number of seconds after that, or until SHUTDOWN (close_delay=-1), as H2's
 * DB_CLOSE_DELAY; the way Spring's DriverManagerDataSource uses a database, a connection per
 * piece of work, needs one of the latter.
 */
class DatabaseLifetimeTest {
    private static boolean hasTable(Connection c, String table) throws SQLException {
        return !rows(c.createStatement(), "select table_name from sys.tables where table_name = '" + table + "'").isEmpty();
    }

    /** An H2 URL's DB_CLOSE_DELAY=-1 (any case) is close_delay; both at once are refused. */
    @Test
    void h2sDbCloseDelayIsCloseDelay() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:life-h2;DB_CLOSE_DELAY=-1")) {
            c.createStatement().execute("create table t (x int)");
        }
        assertThat(NumacolDriver.isOpen("life-h2")).isTrue();
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:life-h2;db_close_delay=-1")) {
            assertThat(hasTable(c, "t")).isTrue();
            c.createStatement().execute("SHUTDOWN");
        }
        assertThat(NumacolDriver.isOpen("life-h2")).isFalse();
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:mem:life-h2;DB_CLOSE_DELAY=-1;close_delay=0"))
                .isInstanceOf(SQLException.class).hasMessageContaining("give one")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY024"));
    }

    /** Spring's non-pooled pattern: open, create a table, close; open again: the table is there. */
    @Test
    void closeDelayMinusOneKeepsTheDatabaseUntilShutdown() throws SQLException {
        String url = "jdbc:numacol:mem:life-keep;close_delay=-1";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table t (x int)");
            s.executeUpdate("insert into t values (1), (2)");
        }
        assertThat(NumacolDriver.isOpen("life-keep")).isTrue();
        try (Connection c = DriverManager.getConnection(url)) {
            assertThat(rows(c.createStatement(), "select count(*) from t")).containsExactly(List.of(2L));
        }
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:life-keep")) { // without the property: as it was set
            c.createStatement().executeUpdate("insert into t values (3)");
        }
        try (Connection other = DriverManager.getConnection(url)) {
            Statement os = other.createStatement();
            assertThat(rows(os, "select count(*) from t")).containsExactly(List.of(3L));
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
                assertThat(NumacolDriver.isOpen("life-keep")).isFalse();
                assertThatThrownBy(() -> s.executeQuery("select 1")).isInstanceOf(SQLNonTransientConnectionException.class)
                        .hasMessageContaining("closed (SHUTDOWN)")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
            }
            assertThatThrownBy(() -> os.executeQuery("select count(*) from t")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
            assertThatThrownBy(() -> other.prepareStatement("select count(*) from t")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
            assertThat(other.isValid(1)).isFalse();
        }
        try (Connection c = DriverManager.getConnection(url)) {
            assertThat(hasTable(c, "t")).isFalse(); // a new database of the name
            c.createStatement().execute("SHUTDOWN");
        }
        assertThat(NumacolDriver.isOpen("life-keep")).isFalse();
    }

    @Test
    void closeDelayInSecondsKeepsTheDatabaseThatLongAfterTheLastClose() throws SQLException {
        Properties props = new Properties();
        props.setProperty("close_delay", "1");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:life-delay", props)) {
            c.createStatement().execute("create table t (x int)");
        }
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:life-delay")) { // back within the delay
            assertThat(hasTable(c, "t")).isTrue();
        }
        assertThat(NumacolDriver.isOpen("life-delay")).isTrue();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (NumacolDriver.isOpen("life-delay") && System.nanoTime() < deadline) {
            LockSupport.parkNanos(50_000_000);
        }
        assertThat(NumacolDriver.isOpen("life-delay")).isFalse();
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:life-delay")) {
            assertThat(hasTable(c, "t")).isFalse();
        }
        assertThat(NumacolDriver.isOpen("life-delay")).isFalse(); // the default: dropped with its last connection
    }

    @Test
    void theDefaultDropsTheDatabaseWithItsLastConnectionAndABadDelayIsRefused() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:life-default")) {
            c.createStatement().execute("create table t (x int)");
            assertThat(NumacolDriver.isOpen("life-default")).isTrue();
        }
        assertThat(NumacolDriver.isOpen("life-default")).isFalse();
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:mem:life-bad;close_delay=-2"))
                .isInstanceOf(SQLException.class).hasMessageContaining("close_delay=-2")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY024"));
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:mem:life-bad;close_delay=soon"))
                .isInstanceOf(SQLException.class).hasMessageContaining("close_delay=soon");
        assertThat(NumacolDriver.isOpen("life-bad")).isFalse();
    }

    @Test
    void shutdownOfAPrivateDatabaseClosesIt() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (x int)");
            c.setAutoCommit(false);
            s.executeUpdate("insert into t values (1)");
            s.execute("shutdown;");
            assertThat(NumacolDriver.database(c).isClosed()).isTrue();
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (2)")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
            assertThatThrownBy(c::setSavepoint).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
        }
    }
}
