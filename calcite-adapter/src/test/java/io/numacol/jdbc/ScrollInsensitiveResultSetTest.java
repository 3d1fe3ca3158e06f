package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TYPE_SCROLL_INSENSITIVE result sets move as JDBC says (the positions H2's and PostgreSQL's
 * drivers give), read every type as a forward-only result set reads it, show the rows of their
 * query's snapshot whatever commits later, and say 24000 for a getter off the rows.
 */
class ScrollInsensitiveResultSetTest {
    private static Connection withRows(int n) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:numacol:");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (i INT, s VARCHAR(10), d DECIMAL(8, 2), dd DATE)");
            for (int i = 1; i <= n; i++) {
                s.execute("INSERT INTO t VALUES (" + i + ", 's" + i + "', " + i + ".25, DATE '2026-01-0" + i + "')");
            }
        }
        return c;
    }

    private static Statement scrolling(Connection c) throws SQLException {
        return c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
    }

    @Test
    void movesEveryWayJdbcNames() throws SQLException {
        try (Connection c = withRows(5); Statement s = scrolling(c); ResultSet rs = s.executeQuery("SELECT i FROM t ORDER BY i")) {
            assertThat(rs.isBeforeFirst()).isTrue();
            assertThat(rs.getRow()).isZero();
            assertThat(rs.last()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(5);
            assertThat(rs.getRow()).isEqualTo(5);
            assertThat(rs.isLast()).isTrue();
            assertThat(rs.previous()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(4);
            assertThat(rs.absolute(2)).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
            assertThat(rs.absolute(-1)).isTrue();
            assertThat(rs.getInt(1)).as("-1 is the last row").isEqualTo(5);
            assertThat(rs.absolute(-5)).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
            assertThat(rs.isFirst()).isTrue();
            assertThat(rs.relative(3)).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(4);
            assertThat(rs.relative(-2)).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
            assertThat(rs.relative(10)).isFalse();
            assertThat(rs.isAfterLast()).isTrue();
            assertThat(rs.getRow()).isZero();
            assertThat(rs.previous()).isTrue();
            assertThat(rs.getInt(1)).as("back from after the last").isEqualTo(5);
            assertThat(rs.absolute(6)).isFalse();
            assertThat(rs.isAfterLast()).isTrue();
            assertThat(rs.absolute(-6)).isFalse();
            assertThat(rs.isBeforeFirst()).isTrue();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
            assertThat(rs.first()).isTrue();
            assertThat(rs.previous()).isFalse();
            assertThat(rs.isBeforeFirst()).isTrue();
            rs.afterLast();
            assertThat(rs.next()).isFalse();
            rs.beforeFirst();
            List<Integer> read = new ArrayList<>();
            while (rs.next()) {
                read.add(rs.getInt(1));
            }
            assertThat(read).containsExactly(1, 2, 3, 4, 5);
            rs.afterLast();
            read.clear();
            while (rs.previous()) {
                read.add(rs.getInt(1));
            }
            assertThat(read).containsExactly(5, 4, 3, 2, 1);
            rs.setFetchDirection(ResultSet.FETCH_REVERSE);
            assertThat(rs.getFetchDirection()).isEqualTo(ResultSet.FETCH_REVERSE);
        }
    }

    /** Random moves read what a list of the forward-only result set's values holds at that index, column by column and getter by getter. */
    @Test
    void everyGetterReadsTheRowMovedToAsAForwardOnlyResultSetReadsIt() throws SQLException {
        String query = "SELECT i, s, d, dd, i * 2 AS twice, CAST(NULL AS INT) AS nothing FROM t ORDER BY i DESC";
        try (Connection c = withRows(9)) {
            List<List<Object>> expected = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
                while (rs.next()) {
                    expected.add(readRow(rs));
                }
            }
            try (Statement s = scrolling(c); ResultSet rs = s.executeQuery(query)) {
                SplittableRandom random = new SplittableRandom(7);
                for (int step = 0; step < 200; step++) {
                    int to = 1 + random.nextInt(expected.size());
                    boolean on = switch (random.nextInt(3)) {
                        case 0 -> rs.absolute(to);
                        case 1 -> rs.absolute(to - expected.size() - 1);
                        default -> rs.relative(to - Math.max(rs.getRow(), 0));
                    };
                    assertThat(on).isTrue();
                    assertThat(rs.getRow()).isEqualTo(to);
                    assertThat(readRow(rs)).as("row %d", to).isEqualTo(expected.get(to - 1));
                }
            }
        }
    }

    private static List<Object> readRow(ResultSet rs) throws SQLException {
        List<Object> row = new ArrayList<>();
        row.add(rs.getInt(1));
        row.add(rs.getString("s"));
        row.add(rs.getBigDecimal(3));
        row.add(rs.getObject(4, LocalDate.class));
        row.add(rs.getDate(4).toString());
        row.add(rs.getLong("twice"));
        row.add(rs.getString(2).length());
        row.add(rs.getObject(6));
        row.add(rs.wasNull());
        return row;
    }

    @Test
    void showsTheRowsOfItsQuerysSnapshotNotLaterCommits() throws SQLException {
        try (Connection c = withRows(3); Connection other = DriverManager.getConnection("jdbc:numacol:")) {
            try (Statement s = scrolling(c); ResultSet rs = s.executeQuery("SELECT i, d FROM t ORDER BY i")) {
                try (Statement w = c.createStatement()) {
                    w.execute("UPDATE t SET d = 0 WHERE i = 1");
                    w.execute("INSERT INTO t VALUES (4, 's4', 4, DATE '2026-01-04')");
                }
                assertThat(rs.last()).isTrue();
                assertThat(rs.getRow()).as("the row inserted after the query does not show").isEqualTo(3);
                assertThat(rs.first()).isTrue();
                assertThat(rs.getBigDecimal(2)).as("nor the update").isEqualByComparingTo(new BigDecimal("1.25"));
            }
            assertThat(other).isNotNull();
        }
    }

    @Test
    void aGetterOffTheRowsIsAnInvalidCursorState() throws SQLException {
        try (Connection c = withRows(2); Statement s = scrolling(c)) {
            try (ResultSet rs = s.executeQuery("SELECT i FROM t ORDER BY i")) {
                assertThatThrownBy(() -> rs.getInt(1)).isInstanceOf(SQLException.class).hasMessageContaining("before the first row")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("24000"));
                rs.afterLast();
                assertThatThrownBy(() -> rs.getString("i")).isInstanceOf(SQLException.class).hasMessageContaining("after the last row");
                assertThatThrownBy(rs::wasNull).isInstanceOf(SQLException.class);
                assertThat(rs.previous()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(2);
                assertThat(rs.getMetaData().getColumnCount()).as("what is not a column's value reads anywhere").isEqualTo(1);
            }
            try (ResultSet empty = s.executeQuery("SELECT i FROM t WHERE i > 10")) {
                assertThat(empty.isBeforeFirst()).as("false without rows, as JDBC says").isFalse();
                assertThat(empty.first()).isFalse();
                assertThat(empty.last()).isFalse();
                assertThat(empty.next()).isFalse();
                assertThat(empty.isAfterLast()).isFalse();
                assertThatThrownBy(() -> empty.getInt(1)).isInstanceOf(SQLException.class).hasMessageContaining("without rows");
            }
        }
    }

    @Test
    void maxRowsBoundsTheRowsHeld() throws SQLException {
        try (Connection c = withRows(5); Statement s = scrolling(c)) {
            s.setMaxRows(2);
            try (ResultSet rs = s.executeQuery("SELECT i FROM t ORDER BY i")) {
                assertThat(rs.last()).isTrue();
                assertThat(rs.getRow()).isEqualTo(2);
                assertThat(rs.getInt(1)).isEqualTo(2);
            }
        }
    }

    @Test
    void aPreparedStatementScrollsEachExecutionsRows() throws SQLException {
        try (Connection c = withRows(5); PreparedStatement p = c.prepareStatement("SELECT i FROM t WHERE i >= ? ORDER BY i",
                ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY)) {
            p.setInt(1, 4);
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rs.last()).isTrue();
                assertThat(rs.getRow()).isEqualTo(2);
            }
            p.setInt(1, 2);
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rs.last()).isTrue();
                assertThat(rs.getRow()).isEqualTo(4);
                assertThat(rs.absolute(1)).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(2);
            }
        }
    }
}
