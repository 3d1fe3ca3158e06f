package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code setObject(index, value, targetSqlType[, scale])} converts a value with the checks a value
 * without a target type gets: a number at the scale given, a long too big for an INTEGER refused,
 * a datetime's text read as the wall clock it shows, not in the JVM's zone; and a plain
 * java.util.Date or a long set on a TIMESTAMP is taken as before.
 */
class TargetTypedParameterTest {
    private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return JdbcTesting.rows(s, sql);
        }
    }

    @Test
    void numbersAreConvertedAtTheScaleGivenAndCheckedAgainstTheColumn() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT, amount DECIMAL(8, 2), n INT)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                p.setInt(1, 1);
                p.setBigDecimal(2, new BigDecimal("1.11"));
                p.setInt(3, 1);
                p.executeUpdate();
                p.setInt(1, 2);
                p.setObject(2, 2.22, Types.DECIMAL, 2); // after another value: the new one is taken
                p.setObject(3, 7L, Types.INTEGER);
                p.executeUpdate();
                p.setInt(1, 3);
                p.setObject(2, 3.335, JDBCType.NUMERIC, 2);
                p.setObject(3, "12", Types.INTEGER);
                p.executeUpdate();
                assertThatThrownBy(() -> p.setObject(2, Double.NaN, Types.DECIMAL, 2)).isInstanceOf(java.sql.SQLDataException.class)
                        .hasMessageContaining("parameter 2");
                p.setObject(3, 3_000_000_000L, Types.INTEGER);
                assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
            }
            assertThat(rows(c, "SELECT id, amount, n FROM t ORDER BY id")).containsExactly(
                    List.of(1, new BigDecimal("1.11"), 1), List.of(2, new BigDecimal("2.22"), 7), List.of(3, new BigDecimal("3.34"), 12));
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE amount = ?")) {
                p.setObject(1, 2.22d, Types.DECIMAL); // the double's decimal form, not its binary value
                try (java.sql.ResultSet rs = p.executeQuery()) {
                    assertThat(JdbcTesting.rows(rs)).containsExactly(List.of(2));
                }
            }
        }
    }

    @Test
    void datetimeTextAndDatesAreTheWallClockTheyShow() throws SQLException {
        // a session zone other than the JVM's: text must not be read in either
        String zone = ZoneId.systemDefault().getId().equals("America/New_York") ? "Asia/Tokyo" : "America/New_York";
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;timeZone=" + zone); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT, ts TIMESTAMP, d DATE)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                p.setInt(1, 1);
                p.setObject(2, "2024-07-01 12:00:00", Types.TIMESTAMP);
                p.setObject(3, "2024-07-01", Types.DATE);
                p.executeUpdate();
                p.setInt(1, 2);
                LocalDateTime wall = LocalDateTime.of(2024, 7, 2, 8, 30);
                p.setObject(2, java.util.Date.from(wall.atZone(ZoneId.systemDefault()).toInstant())); // read in the JVM's zone, as a Timestamp
                p.setNull(3, Types.DATE);
                p.executeUpdate();
                p.setInt(1, 3);
                p.setLong(2, LocalDateTime.of(2024, 7, 3, 9, 0).toEpochSecond(java.time.ZoneOffset.UTC) * 1000); // the wall clock's millis
                p.executeUpdate();
            }
            assertThat(rows(c, "SELECT id, CAST(ts AS VARCHAR), CAST(d AS VARCHAR) FROM t ORDER BY id")).containsExactly(
                    List.of(1, "2024-07-01 12:00:00", "2024-07-01"),
                    java.util.Arrays.asList(2, "2024-07-02 08:30:00", null),
                    java.util.Arrays.asList(3, "2024-07-03 09:00:00", null));
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE d = ?")) {
                p.setObject(1, "2024-07-01", Types.DATE);
                try (java.sql.ResultSet rs = p.executeQuery()) {
                    assertThat(JdbcTesting.rows(rs)).containsExactly(List.of(1));
                }
            }
        }
    }
}
