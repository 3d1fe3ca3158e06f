package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * getObject and JDBC 4.2's java.time classes: a TIMESTAMP WITH TIME ZONE is an OffsetDateTime
 * (plain getObject too, as table B-3 maps it), a TIMESTAMP an Instant, OffsetDateTime or
 * ZonedDateTime in the session's zone, a TIME an OffsetTime at the session zone's offset; a
 * conversion that cannot be made is SQLSTATE 22018 naming the column.
 */
class GetObjectJavaTimeTest {
    @Test
    void timestampsAndTimesConvertInTheSessionZone() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;timeZone=+02:00"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (ts TIMESTAMP, tz TIMESTAMP WITH TIME ZONE, tm TIME, d DATE, v VARCHAR(10), u UUID)");
            s.execute("INSERT INTO t VALUES (TIMESTAMP '2024-07-01 12:00:00.5', TIMESTAMP WITH TIME ZONE '2024-07-01 12:00:00.25+00:00',"
                    + " TIME '13:14:15.5', DATE '2024-07-01', 'abc', UUID '123e4567-e89b-12d3-a456-426614174000')");
            s.execute("INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL, NULL)");
            ZoneOffset plus2 = ZoneOffset.ofHours(2);
            try (ResultSet rs = s.executeQuery("SELECT * FROM t ORDER BY d NULLS LAST")) {
                assertThat(rs.next()).isTrue();
                // TIMESTAMP WITH TIME ZONE: OffsetDateTime, plain getObject included
                OffsetDateTime tz = OffsetDateTime.of(2024, 7, 1, 14, 0, 0, 250_000_000, plus2);
                assertThat(rs.getObject("tz")).isEqualTo(tz);
                assertThat(rs.getObject(2, Object.class)).isEqualTo(tz);
                assertThat(rs.getObject(2, OffsetDateTime.class)).isEqualTo(tz);
                assertThat(rs.getObject(2, Instant.class)).isEqualTo(Instant.parse("2024-07-01T12:00:00.25Z"));
                assertThat(rs.getObject(2, ZonedDateTime.class)).isEqualTo(tz.atZoneSameInstant(ZoneId.of("+02:00")));
                assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(LocalDateTime.of(2024, 7, 1, 14, 0, 0, 250_000_000));
                assertThat(rs.getObject(2, LocalTime.class)).isEqualTo(LocalTime.of(14, 0, 0, 250_000_000));
                assertThat(rs.getObject(2, Timestamp.class)).isEqualTo(Timestamp.from(Instant.parse("2024-07-01T12:00:00.25Z")));
                assertThat(rs.getObject(2, String.class)).isEqualTo(rs.getString(2));
                // TIMESTAMP: a wall clock, an instant in the session's zone
                assertThat(rs.getObject(1, Instant.class)).isEqualTo(Instant.parse("2024-07-01T10:00:00.5Z"));
                assertThat(rs.getObject(1, OffsetDateTime.class)).isEqualTo(OffsetDateTime.of(2024, 7, 1, 12, 0, 0, 500_000_000, plus2));
                assertThat(rs.getObject(1, ZonedDateTime.class).toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 7, 1, 12, 0, 0, 500_000_000));
                assertThat(rs.getObject(1, LocalTime.class)).isEqualTo(LocalTime.of(12, 0, 0, 500_000_000));
                assertThat(rs.getObject(1, LocalDate.class)).isEqualTo(LocalDate.of(2024, 7, 1));
                assertThat(rs.getObject(1)).isInstanceOf(Timestamp.class);
                // TIME: OffsetTime at the session zone's offset
                assertThat(rs.getObject(3, OffsetTime.class)).isEqualTo(OffsetTime.of(13, 14, 15, 500_000_000, plus2));
                assertThat(rs.getObject(3, LocalTime.class)).isEqualTo(LocalTime.of(13, 14, 15, 500_000_000));
                assertThat(rs.getObject(4, LocalDateTime.class)).isEqualTo(LocalDateTime.of(2024, 7, 1, 0, 0));
                assertThat(rs.getObject(6, UUID.class)).isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
                // conversions that cannot be made: 22018, naming the column
                for (Class<?> type : new Class<?>[]{Instant.class, OffsetTime.class, LocalDate.class, Integer.class}) {
                    assertThatThrownBy(() -> rs.getObject(5, type)).as("VARCHAR as %s", type.getSimpleName())
                            .isInstanceOf(SQLException.class).hasMessageContaining("column 5 (v")
                            .hasMessageContaining(type.getName())
                            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22018"));
                }
                assertThatThrownBy(() -> rs.getObject(2, OffsetTime.class)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("tz").satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22018"));
                assertThatThrownBy(() -> rs.getObject(3, Instant.class)).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("22"));
                assertThat(rs.getObject(2, new java.util.HashMap<>())).as("the empty type map").isEqualTo(tz);
                assertThatThrownBy(() -> rs.getObject(2, java.util.Map.of("t", Object.class))).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(2)).isNull();
                assertThat(rs.getObject(1, Instant.class)).isNull();
                assertThat(rs.getObject(3, OffsetTime.class)).isNull();
            }
            try (ResultSet rs = s.executeQuery("SELECT tz FROM t WHERE tz IS NOT NULL")) {
                assertThat(rs.getMetaData().getColumnClassName(1)).as("the class getObject gives")
                        .isEqualTo(OffsetDateTime.class.getName());
            }
        }
    }

    /** A wall clock in a repeated hour is the later (standard time) instant, as a CAST to TIMESTAMP WITH TIME ZONE takes it. */
    @Test
    void aTimestampInTheRepeatedHourIsTheInstantTheCastGives() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;timeZone=America/New_York"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (ts TIMESTAMP)");
            s.execute("INSERT INTO t VALUES (TIMESTAMP '2024-11-03 01:30:00')");
            try (ResultSet rs = s.executeQuery("SELECT ts, CAST(ts AS TIMESTAMP WITH TIME ZONE) FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1, Instant.class)).isEqualTo(Instant.parse("2024-11-03T06:30:00Z"))
                        .isEqualTo(rs.getObject(2, Instant.class));
            }
        }
    }
}
