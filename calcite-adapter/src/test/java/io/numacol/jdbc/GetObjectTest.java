package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Period;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * JDBC 4.2's {@code getObject(column, type)}, which Avatica's result sets refuse for every class:
 * each type converts to the classes JDBC names for it, NULL is null, and a conversion that
 * cannot be made is an SQLException naming the column. A result set's statement is the one the
 * user holds.
 */
class GetObjectTest {
    @Test
    void everyTypeConvertsToTheClassesJdbcNames() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, r REAL, d DOUBLE,"
                    + " m DECIMAL(10,2), dt DATE, ts TIMESTAMP, tm TIME, v VARCHAR(10))");
            s.execute("INSERT INTO t VALUES (TRUE, 7, -300, 123456, 9000000000, 0.5, 2.25, 12.34, DATE '1969-07-20',"
                    + " TIMESTAMP '2024-03-31 02:30:00.123', TIME '13:14:15.678', 'text')");
            s.execute("INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
            try (ResultSet rs = s.executeQuery("SELECT * FROM t ORDER BY i NULLS LAST")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1, Boolean.class)).isTrue();
                assertThat(rs.getObject("b", String.class)).isEqualTo("true");
                assertThat(rs.getObject(2, Byte.class)).isEqualTo((byte) 7);
                assertThat(rs.getObject(3, Short.class)).isEqualTo((short) -300);
                assertThat(rs.getObject(4, Integer.class)).isEqualTo(123456);
                assertThat(rs.getObject(4, Long.class)).isEqualTo(123456L);
                assertThat(rs.getObject(5, Long.class)).isEqualTo(9_000_000_000L);
                assertThat(rs.getObject(5, BigInteger.class)).isEqualTo(BigInteger.valueOf(9_000_000_000L));
                assertThat(rs.getObject(6, Float.class)).isEqualTo(0.5f);
                assertThat(rs.getObject(7, Double.class)).isEqualTo(2.25);
                assertThat(rs.getObject(8, BigDecimal.class)).isEqualTo(new BigDecimal("12.34"));
                assertThat(rs.getObject(8, String.class)).isEqualTo("12.34");
                assertThat(rs.getObject(9, LocalDate.class)).isEqualTo(LocalDate.of(1969, 7, 20));
                assertThat(rs.getObject(9, Date.class)).isEqualTo(Date.valueOf("1969-07-20"));
                assertThat(rs.getObject(9, LocalDateTime.class)).isEqualTo(LocalDateTime.of(1969, 7, 20, 0, 0));
                // a wall-clock time that a DST change skips in much of Europe: no zone touches it
                assertThat(rs.getObject(10, LocalDateTime.class)).isEqualTo(LocalDateTime.of(2024, 3, 31, 2, 30, 0, 123_000_000));
                assertThat(rs.getObject(10, LocalDate.class)).isEqualTo(LocalDate.of(2024, 3, 31));
                assertThat(rs.getObject(10, Timestamp.class)).isEqualTo(Timestamp.valueOf("2024-03-31 02:30:00.123"));
                assertThat(rs.getObject(11, LocalTime.class)).isEqualTo(LocalTime.of(13, 14, 15, 678_000_000));
                assertThat(rs.getObject(11, Time.class)).isNotNull();
                assertThat(rs.getObject(12, String.class)).isEqualTo("text");
                assertThat(rs.getObject(12, Object.class)).isEqualTo("text");
                assertThat(rs.getObject(12, CharSequence.class)).isEqualTo("text");

                assertThatThrownBy(() -> rs.getObject(12, LocalDate.class)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("column 12 (v, VARCHAR)").hasMessageContaining("'text'")
                        .hasMessageContaining("java.time.LocalDate");
                assertThatThrownBy(() -> rs.getObject(12, StringBuilder.class)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("column 12");
                assertThatThrownBy(() -> rs.getObject(8, BigInteger.class)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("12.34");

                assertThat(rs.next()).isTrue();
                for (Class<?> type : new Class<?>[] {Boolean.class, Byte.class, Short.class, Integer.class, Long.class,
                        Float.class, Double.class, BigDecimal.class, LocalDate.class, LocalDateTime.class, LocalTime.class,
                        String.class, Object.class}) {
                    for (int column = 1; column <= 12; column++) {
                        if ((type == LocalTime.class && column != 11) || (type == LocalDate.class && column < 9)) {
                            continue;
                        }
                        assertThat(rs.getObject(column, type)).as("NULL in column %d as %s", column, type).isNull();
                    }
                }
            }
        }
    }

    @Test
    void aResultSetsStatementIsTheOneTheUserHolds() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement();
             PreparedStatement p = c.prepareStatement("SELECT 1")) {
            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.getStatement()).isSameAs(s);
                assertThat(rs.getStatement().getConnection()).isSameAs(c);
                assertThat(rs.isWrapperFor(ResultSet.class)).isTrue();
            }
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rs.getStatement()).isSameAs(p);
            }
            s.execute("SELECT 2");
            try (ResultSet rs = s.getResultSet()) {
                assertThat(rs.getStatement()).isSameAs(s);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1, Integer.class)).isEqualTo(2);
            }
            try (ResultSet rs = c.getMetaData().getTables(null, "main", "%", null)) {
                assertThat(rs.next()).isFalse();
                assertThat(rs.getMetaData().getColumnCount()).isPositive();
            }
        }
    }

    @Test
    void intervalsConvertToDurationAndPeriodAndShowTheirMilliseconds() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT INTERVAL '1' DAY, INTERVAL '1-2' YEAR TO MONTH,"
                     + " (TIMESTAMP '2020-01-02 00:00:00' - TIMESTAMP '2020-01-01 10:00:00.5') DAY TO SECOND,"
                     + " INTERVAL '-1.5' SECOND, INTERVAL '61:02.25' MINUTE TO SECOND, INTERVAL '-3' MONTH,"
                     + " INTERVAL '26:00:00.001' HOUR TO SECOND, CAST(NULL AS INTERVAL DAY)")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getObject(1, Duration.class)).isEqualTo(Duration.ofDays(1));
            assertThat(rs.getString(1)).isEqualTo("+1");
            assertThat(rs.getObject(2, Period.class)).isEqualTo(Period.of(1, 2, 0));
            assertThat(rs.getString(2)).isEqualTo("+1-02");
            assertThat(rs.getObject(3, Duration.class)).isEqualTo(Duration.ofMillis(50_399_500));
            assertThat(rs.getString(3)).as("Avatica's text dropped the .5").isEqualTo("+0 13:59:59.500");
            assertThat(rs.getObject(4, Duration.class)).isEqualTo(Duration.ofMillis(-1500));
            assertThat(rs.getString(4)).isEqualTo("-1.500");
            assertThat(rs.getString(5)).isEqualTo("+61:02.250");
            assertThat(rs.getObject(6, Period.class)).isEqualTo(Period.ofMonths(-3));
            assertThat(rs.getString(7)).isEqualTo("+26:00:00.001");
            assertThat(rs.getObject(8, Duration.class)).isNull();
            assertThatThrownBy(() -> rs.getObject(1, Period.class)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("INTERVAL_DAY");
            assertThatThrownBy(() -> rs.getObject(2, Duration.class)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("INTERVAL_YEAR_TO_MONTH");
        }
    }
}
