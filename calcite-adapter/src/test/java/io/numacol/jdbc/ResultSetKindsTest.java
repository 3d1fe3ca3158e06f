package io.numacol.jdbc;

import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Result sets are forward-only or scroll-insensitive, and read-only, and say so: a
 * scroll-sensitive one asked for is made scroll-insensitive, an updatable one read-only, each
 * with a warning on the connection, as JDBC 4.3 (15.1.1) asks, and {@code getType()} and {@code
 * getConcurrency()} tell; scrolling a forward-only one or changing a row fails with SQLSTATE 0A000
 * and a message naming the method, as every unsupported JDBC method does. How scroll-insensitive
 * ones move: {@link ScrollInsensitiveResultSetTest}.
 */
class ResultSetKindsTest {
    private static void refused(ThrowableAssert.ThrowingCallable call, String method) {
        assertThatThrownBy(call).isInstanceOf(SQLFeatureNotSupportedException.class).hasMessageContaining(method)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
    }

    private static List<String> warnings(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        for (SQLWarning w = c.getWarnings(); w != null; w = w.getNextWarning()) {
            assertThat(w.getSQLState()).isEqualTo("01000");
            out.add(w.getMessage());
        }
        return out;
    }

    @Test
    void sensitiveAndUpdatableAreMadeInsensitiveAndReadOnlyWithAWarning() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement plain = c.createStatement()) {
            plain.execute("CREATE TABLE t (a INT)");
            plain.execute("INSERT INTO t VALUES (1), (2), (3)");
            assertThat((Object) c.getWarnings()).isNull();
            try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE)) {
                assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
                assertThat(s.getResultSetConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
                assertThat(warnings(c)).singleElement().asString().contains("CONCUR_UPDATABLE", "CONCUR_READ_ONLY");
                try (ResultSet rs = s.executeQuery("SELECT a FROM t ORDER BY a")) {
                    assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
                    assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
                    List<Integer> read = new ArrayList<>();
                    while (rs.next()) {
                        read.add(rs.getInt(1));
                    }
                    assertThat(read).containsExactly(1, 2, 3);
                    assertThat(rs.previous()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(3);
                    refused(() -> rs.updateInt(1, 5), "CONCUR_READ_ONLY");
                }
            }
            c.clearWarnings();
            assertThat((Object) c.getWarnings()).isNull();
            // the metadata says the same of what numacol gives
            assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY)).isTrue();
            assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE)).isTrue();
            assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_SCROLL_SENSITIVE)).isFalse();
            assertThat(c.getMetaData().supportsResultSetConcurrency(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY)).isTrue();
            assertThat(c.getMetaData().supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE)).isFalse();
            try (PreparedStatement p = c.prepareStatement("SELECT a FROM t WHERE a > ?", ResultSet.TYPE_SCROLL_SENSITIVE,
                    ResultSet.CONCUR_READ_ONLY, ResultSet.HOLD_CURSORS_OVER_COMMIT)) {
                assertThat(warnings(c)).singleElement().asString().contains("TYPE_SCROLL_SENSITIVE", "TYPE_SCROLL_INSENSITIVE");
                p.setInt(1, 1);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
                    assertThat(JdbcTesting.rows(rs)).containsExactly(List.of(2), List.of(3));
                    assertThat(rs.first()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(2);
                }
            }
            c.clearWarnings();
            try (Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
                assertThat((Object) c.getWarnings()).as("what numacol gives is given without a word").isNull();
            }
        }
    }

    /** Asked again and again, the connection keeps one warning per kind, and a chain once handed out is not changed. */
    @Test
    void warningsDoNotPileUpAndValuesThatAreNoResultSetKindAreRefused() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:")) {
            for (int i = 0; i < 100; i++) {
                c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE).close();
            }
            assertThat(warnings(c)).hasSize(1);
            c.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_READ_ONLY).close();
            assertThat(warnings(c)).hasSize(2);
            assertThat(warnings(c)).as("read twice: the same two, no cycle").hasSize(2);
            SQLWarning first = c.getWarnings();
            c.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_UPDATABLE).close();
            assertThat((Object) first.getNextWarning().getNextWarning()).as("a chain handed out stays as it was").isNull();
            assertThatThrownBy(() -> c.createStatement(ResultSet.CONCUR_READ_ONLY, ResultSet.TYPE_FORWARD_ONLY))
                    .isInstanceOf(SQLException.class).hasMessageContaining("swapped")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY024"));
            assertThatThrownBy(() -> c.prepareStatement("SELECT 1", ResultSet.TYPE_FORWARD_ONLY, 42))
                    .isInstanceOf(SQLException.class).hasMessageContaining("42 is not a result set concurrency");
        }
    }

    @Test
    void scrollingAndChangingRowsFailWithAMessageNamingTheMethod() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INT)");
            s.execute("INSERT INTO t VALUES (1), (2)");
            try (ResultSet rs = s.executeQuery("SELECT a FROM t ORDER BY a")) {
                assertThat(rs.next()).isTrue();
                refused(rs::last, "ResultSet.last");
                refused(rs::first, "ResultSet.first");
                refused(rs::previous, "ResultSet.previous");
                refused(rs::beforeFirst, "ResultSet.beforeFirst");
                refused(rs::afterLast, "ResultSet.afterLast");
                refused(() -> rs.absolute(2), "ResultSet.absolute");
                refused(() -> rs.relative(1), "ResultSet.relative");
                refused(() -> rs.setFetchDirection(ResultSet.FETCH_REVERSE), "FETCH_REVERSE");
                rs.setFetchDirection(ResultSet.FETCH_FORWARD);
                refused(() -> rs.updateInt(1, 5), "ResultSet.updateInt");
                refused(() -> rs.updateString("a", "x"), "ResultSet.updateString");
                refused(rs::updateRow, "ResultSet.updateRow");
                refused(rs::insertRow, "ResultSet.insertRow");
                refused(rs::moveToInsertRow, "ResultSet.moveToInsertRow");
                refused(rs::deleteRow, "ResultSet.deleteRow");
                refused(() -> rs.getRowId(1), "ResultSet.getRowId");
                // the result set still reads on after every refusal
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(2);
                assertThat(rs.next()).isFalse();
            }
            // what Avatica refuses on a statement or connection is named too
            refused(() -> s.setCursorName("c1"), "Statement.setCursorName");
        }
    }

    /** A getter before the first row or after the last: SQLSTATE 24000 and where the cursor is, not Avatica's NoSuchElementException. */
    private static void noRow(ThrowableAssert.ThrowingCallable call, String where) {
        assertThatThrownBy(call).isInstanceOf(SQLException.class).hasMessageContaining("there is no current row")
                .hasMessageContaining(where).hasMessageContaining("next()")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("24000"));
    }

    @Test
    void aForwardOnlyGetterOffTheRowsSaysWhereTheCursorIs() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INT, b VARCHAR(10), z TIMESTAMP WITH TIME ZONE)");
            s.execute("INSERT INTO t VALUES (1, 'x', TIMESTAMP WITH TIME ZONE '2024-01-02 03:04:05+00')");
            try (ResultSet rs = s.executeQuery("SELECT a, b, z FROM t")) {
                assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
                noRow(() -> rs.getInt(1), "before the first row");
                noRow(() -> rs.getString("b"), "before the first row");
                noRow(() -> rs.getObject(3), "before the first row"); // an instant, which numacol reads itself
                noRow(() -> rs.getObject(1, Integer.class), "before the first row");
                noRow(rs::wasNull, "before the first row");
                assertThatThrownBy(() -> rs.getLong(1)).hasMessageStartingWith("ResultSet.getLong: ");
                assertThat(rs.getMetaData().getColumnCount()).as("what needs no row is answered").isEqualTo(3);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.getString("b")).isEqualTo("x");
                assertThat(rs.getObject(3, Instant.class)).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
                assertThat(rs.wasNull()).isFalse();
                assertThat(rs.next()).isFalse();
                noRow(() -> rs.getInt(1), "after the last row");
                noRow(() -> rs.getString(3), "after the last row");
                noRow(() -> rs.getTimestamp("z"), "after the last row");
            }
            try (PreparedStatement p = c.prepareStatement("SELECT a FROM t WHERE a > ?")) {
                p.setInt(1, 5);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.next()).isFalse();
                    noRow(() -> rs.getInt(1), "after the last row");
                }
            }
            // getResultSet() wraps the statement's one result set at each call: each sees where next() left it
            assertThat(s.execute("SELECT a FROM t")).isTrue();
            assertThat(s.getResultSet().next()).isTrue();
            assertThat(s.getResultSet().getInt(1)).isEqualTo(1);
            assertThat(s.getResultSet().next()).isFalse();
            noRow(() -> s.getResultSet().getInt(1), "after the last row");
            try (ResultSet tables = c.getMetaData().getTables(null, "main", "t", null)) { // the metadata's rows too
                noRow(() -> tables.getString("REMARKS"), "before the first row");
                assertThat(tables.next()).isTrue();
                assertThat(tables.getString("TABLE_NAME")).isEqualTo("t");
            }
        }
    }
}
