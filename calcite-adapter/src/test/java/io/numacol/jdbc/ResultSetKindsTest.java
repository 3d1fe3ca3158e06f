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
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Result sets are forward-only and read-only, and say so: a scrollable or updatable one asked
 * for is made forward-only and read-only with a warning on the connection, as JDBC allows, and
 * its {@code getType()} and {@code getConcurrency()} tell; scrolling or changing a row fails with
 * SQLSTATE 0A000 and a message naming the method, as every unsupported JDBC method does.
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
    void scrollableAndUpdatableAreMadeForwardOnlyAndReadOnlyWithAWarning() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement plain = c.createStatement()) {
            plain.execute("CREATE TABLE t (a INT)");
            plain.execute("INSERT INTO t VALUES (1), (2), (3)");
            assertThat((Object) c.getWarnings()).isNull();
            try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE)) {
                assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
                assertThat(s.getResultSetConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
                assertThat(warnings(c)).hasSize(2).anySatisfy(w -> assertThat(w).contains("TYPE_SCROLL_INSENSITIVE", "TYPE_FORWARD_ONLY"))
                        .anySatisfy(w -> assertThat(w).contains("CONCUR_UPDATABLE", "CONCUR_READ_ONLY"));
                try (ResultSet rs = s.executeQuery("SELECT a FROM t ORDER BY a")) {
                    assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
                    assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
                    List<Integer> read = new ArrayList<>();
                    while (rs.next()) {
                        read.add(rs.getInt(1));
                    }
                    assertThat(read).containsExactly(1, 2, 3);
                }
            }
            c.clearWarnings();
            assertThat((Object) c.getWarnings()).isNull();
            // the metadata says the same of what numacol gives
            assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY)).isTrue();
            assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE)).isFalse();
            assertThat(c.getMetaData().supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE)).isFalse();
            try (PreparedStatement p = c.prepareStatement("SELECT a FROM t WHERE a > ?", ResultSet.TYPE_SCROLL_SENSITIVE,
                    ResultSet.CONCUR_READ_ONLY, ResultSet.HOLD_CURSORS_OVER_COMMIT)) {
                assertThat(warnings(c)).singleElement().asString().contains("TYPE_SCROLL_SENSITIVE");
                p.setInt(1, 1);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
                    assertThat(JdbcTesting.rows(rs)).containsExactly(List.of(2), List.of(3));
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
            SQLWarning first = c.getWarnings();
            assertThat(warnings(c)).hasSize(2);
            assertThat(warnings(c)).as("read twice: the same two, no cycle").hasSize(2);
            c.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_READ_ONLY).close();
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
}
