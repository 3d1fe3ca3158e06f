package io.numacol.jdbc;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TIMESTAMP WITH TIME ZONE columns: instants, read from text in the session's zone (the {@code
 * timeZone} property) unless the text has an offset, and shown in it. Every load path, the
 * daylight saving gap and overlap of New York, filters, grouping, joins, sorts, and the getters.
 */
class TimestampTzTypeTest {
    private static final String NEW_YORK = "jdbc:numacol:mem:tz;timeZone=America/New_York";

    @TempDir
    Path dir;

    private static Instant at(String iso) {
        return Instant.parse(iso);
    }

    /** Column 2 of each row (ordered by column 1) as its instant. */
    private static List<Instant> instants(Statement s, String sql) throws SQLException {
        List<Instant> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getObject(2, Instant.class));
            }
        }
        return out;
    }

    @Test
    void everyLoadPathStoresTheInstantReadInTheSessionsZone() throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection(NEW_YORK); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, ts TIMESTAMP WITH TIME ZONE, t0 TIMESTAMPTZ(0))");
            // no offset: New York's; an offset or a zone name: that one; the DST gap moves forward, the overlap takes the later
            assertThat(s.executeUpdate("INSERT INTO e VALUES (1, '2024-01-01 10:00:00', '2024-01-01 10:00:00.6+01'),"
                    + " (2, '2024-03-10 02:30:00', NULL), (3, '2024-11-03 01:30:00', '2024-11-03 01:30:00 UTC'),"
                    + " (4, '1960-07-01 12:00:00.125', '1960-01-01 00:00:00Z')")).isEqualTo(4);
            s.execute("INSERT INTO e VALUES (5, TIMESTAMP '2024-07-01 12:00:00', TIMESTAMP WITH LOCAL TIME ZONE '2024-07-01 16:00:00')");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO e VALUES (?, ?, ?)")) {
                p.setInt(1, 6);
                p.setTimestamp(2, Timestamp.from(at("2024-05-05T05:05:05.005Z")));
                p.setObject(3, OffsetDateTime.parse("2024-05-05T05:05:05+02:00"));
                p.executeUpdate();
                p.setInt(1, 7);
                p.setString(2, "2024-05-05 05:05:05");
                p.setObject(3, ZonedDateTime.of(2024, 5, 5, 5, 5, 5, 0, ZoneId.of("Asia/Tokyo")));
                p.executeUpdate();
                p.setInt(1, 8);
                p.setObject(2, LocalDateTime.parse("2024-05-05T05:05:05"));
                p.setObject(3, at("2024-05-05T05:05:05Z"));
                p.addBatch();
                p.setInt(1, 9);
                p.setString(2, "2024-05-05 05:05:05-07:00");
                p.setNull(3, java.sql.Types.TIMESTAMP);
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1, 1);
            }
            Path csv = dir.resolve("e.csv");
            Files.writeString(csv, "10,2024-12-24 18:00:00,2024-12-24T18:00:00+01:00\n");
            s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'");
            Database db = NumacolDriver.database(c);
            try (Appender a = db.appender("e")) {
                a.append(11, at("2000-01-01T00:00:00Z"), "2000-01-01 00:00:00+00");
            }
            s.execute("INSERT INTO e SELECT id + 100, ts, t0 FROM e WHERE id = 1");
            assertThat(instants(s, "SELECT id, ts FROM e ORDER BY id")).containsExactly(
                    at("2024-01-01T15:00:00Z"), at("2024-03-10T07:30:00Z"), at("2024-11-03T06:30:00Z"),
                    at("1960-07-01T16:00:00.125Z"), at("2024-07-01T16:00:00Z"), at("2024-05-05T05:05:05.005Z"),
                    at("2024-05-05T09:05:05Z"), at("2024-05-05T09:05:05Z"), at("2024-05-05T12:05:05Z"),
                    at("2024-12-24T23:00:00Z"), at("2000-01-01T00:00:00Z"), at("2024-01-01T15:00:00Z"));
            assertThat(instants(s, "SELECT id, t0 FROM e ORDER BY id")).containsExactly(
                    at("2024-01-01T09:00:01Z"), null, at("2024-11-03T01:30:00Z"), at("1960-01-01T00:00:00Z"),
                    at("2024-07-01T16:00:00Z"), at("2024-05-05T03:05:05Z"), at("2024-05-04T20:05:05Z"),
                    at("2024-05-05T05:05:05Z"), null, at("2024-12-24T17:00:00Z"), at("2000-01-01T00:00:00Z"),
                    at("2024-01-01T09:00:01Z"));
        }
    }

    @Test
    void valuesAreShownInTheSessionsZoneAndReadAsJdbcNamesThem() throws SQLException {
        try (Connection ny = DriverManager.getConnection(NEW_YORK);
             Connection kolkata = DriverManager.getConnection("jdbc:numacol:mem:tz;timeZone=Asia/Kolkata");
             Statement s = ny.createStatement()) {
            s.execute("CREATE TABLE e (id INT, ts TIMESTAMP WITH TIME ZONE)");
            s.execute("INSERT INTO e VALUES (1, '2024-01-01 10:00:00.5'), (2, '2024-07-01 12:00:00'), (3, NULL)");
            assertThat(rows(s, "SELECT id, CAST(ts AS VARCHAR(40)) IS NOT NULL FROM e WHERE id = 1")).hasSize(1);
            try (ResultSet rs = s.executeQuery("SELECT id, ts FROM e ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(2)).isEqualTo("2024-01-01 10:00:00.5-05");
                assertThat(rs.getObject(2, OffsetDateTime.class)).isEqualTo(OffsetDateTime.parse("2024-01-01T10:00:00.5-05:00"));
                assertThat(rs.getObject(2, ZonedDateTime.class)).isEqualTo(ZonedDateTime.of(2024, 1, 1, 10, 0, 0, 500_000_000,
                        ZoneId.of("America/New_York")));
                assertThat(rs.getObject(2, Instant.class)).isEqualTo(at("2024-01-01T15:00:00.5Z"));
                assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(LocalDateTime.parse("2024-01-01T10:00:00.5"));
                assertThat(rs.getObject(2, LocalDate.class)).isEqualTo(LocalDate.parse("2024-01-01"));
                assertThat(rs.getTimestamp(2).toInstant()).as("a Timestamp is the instant").isEqualTo(at("2024-01-01T15:00:00.5Z"));
                assertThat(rs.getObject(2)).as("JDBC 4.2's table B-3").isEqualTo(OffsetDateTime.parse("2024-01-01T10:00:00.5-05:00"));
                assertThat(rs.getObject(2, String.class)).isEqualTo("2024-01-01 10:00:00.5-05");
                assertThatThrownBy(() -> rs.getObject(2, Integer.class)).isInstanceOf(SQLException.class).hasMessageContaining("Integer");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(2)).isEqualTo("2024-07-01 12:00:00-04");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(2)).isNull();
                assertThat(rs.getObject(2, OffsetDateTime.class)).isNull();
                assertThat(rs.getTimestamp(2)).isNull();
            }
            // the same instant in another session's zone, with the same statement text (plans are per zone)
            try (Statement k = kolkata.createStatement(); ResultSet rs = k.executeQuery("SELECT id, ts FROM e ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(2)).isEqualTo("2024-01-01 20:30:00.5+05:30");
            }
            String filter = "SELECT id FROM e WHERE ts < '2024-07-01 20:00:00' ORDER BY id";
            assertThat(rows(s, filter)).containsExactly(List.of(1), List.of(2));
            try (Statement k = kolkata.createStatement()) {
                assertThat(rows(k, filter)).as("20:00 in Kolkata is 10:30 in New York").containsExactly(List.of(1));
            }
        }
    }

    @Test
    void filtersGroupingJoinsAndSortsRunOnTheInstants() throws SQLException {
        try (Connection c = DriverManager.getConnection(NEW_YORK); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, ts TIMESTAMPTZ)");
            s.execute("INSERT INTO e VALUES (1, '2024-11-03 01:30:00-04'), (2, '2024-11-03 01:30:00-05'), (3, '2024-11-03 05:30:00Z'),"
                    + " (4, '1969-12-31 23:59:59.999Z'), (5, NULL), (6, '2262-04-12 00:00:00Z')");
            assertThat(rows(s, "SELECT id FROM e WHERE ts = '2024-11-03 01:30:00' ORDER BY id")).as("the later 01:30, as DuckDB")
                    .containsExactly(List.of(2));
            assertThat(rows(s, "SELECT id FROM e WHERE ts > TIMESTAMP WITH LOCAL TIME ZONE '2024-11-03 05:30:00' ORDER BY id"))
                    .containsExactly(List.of(2), List.of(6));
            assertThat(rows(s, "SELECT id FROM e WHERE ts BETWEEN '1969-12-31 18:59:59' AND '2024-11-03 01:00:00' ORDER BY id"))
                    .as("the later 01:00 is 06:00Z").containsExactly(List.of(1), List.of(3), List.of(4));
            assertThat(rows(s, "SELECT id FROM e WHERE ts BETWEEN '1969-12-31 18:59:59' AND '2024-11-03 00:59:59' ORDER BY id"))
                    .containsExactly(List.of(4));
            assertThat(rows(s, "SELECT id FROM e WHERE ts >= TIMESTAMP '2024-11-03 01:45:00' ORDER BY id")).as("wall clock in New York")
                    .containsExactly(List.of(6));
            assertThat(rows(s, "SELECT id FROM e WHERE ts >= TIMESTAMP '2024-11-03 01:15:00' ORDER BY id"))
                    .containsExactly(List.of(2), List.of(6));
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM e WHERE ts <= ? ORDER BY id")) {
                p.setObject(1, OffsetDateTime.parse("2024-11-03T01:30:00-04:00"));
                assertThat(rows(p.executeQuery())).containsExactly(List.of(1), List.of(3), List.of(4));
                p.setTimestamp(1, Timestamp.from(at("1970-01-01T00:00:00Z")));
                assertThat(rows(p.executeQuery())).containsExactly(List.of(4));
                p.setString(1, "2024-11-03 01:30:00-05");
                assertThat(rows(p.executeQuery())).containsExactly(List.of(1), List.of(2), List.of(3), List.of(4));
            }
            assertThat(rows(s, "SELECT COUNT(DISTINCT ts), COUNT(ts) FROM e")).containsExactly(List.of(4L, 5L));
            assertThat(rows(s, "SELECT MIN(id), COUNT(*) FROM e GROUP BY ts ORDER BY MIN(id)"))
                    .containsExactly(List.of(1, 2L), List.of(2, 1L), List.of(4, 1L), List.of(5, 1L), List.of(6, 1L));
            assertThat(rows(s, "SELECT a.id, b.id FROM e a JOIN e b ON a.ts = b.ts AND a.id < b.id")).containsExactly(List.of(1, 3));
            assertThat(rows(s, "SELECT id FROM e ORDER BY ts DESC NULLS LAST, id LIMIT 3")).containsExactly(List.of(6), List.of(2), List.of(1));
            try (ResultSet rs = s.executeQuery("SELECT MIN(ts), MAX(ts) FROM e")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("1969-12-31 18:59:59.999-05");
                assertThat(rs.getObject(2, Instant.class)).isEqualTo(at("2262-04-12T00:00:00Z"));
            }
            assertThat(rows(s, "SELECT CAST(CAST(ts AS DATE) AS VARCHAR(10)) FROM e WHERE id = 4")).as("the date in New York")
                    .containsExactly(List.of("1969-12-31"));
        }
    }

    @Test
    void badValuesZonesAndSpellingsAreRefusedAndStoreNothing() throws SQLException {
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;timeZone=Mars/Olympus"))
                .isInstanceOf(SQLException.class).hasMessageContaining("unknown time zone 'Mars/Olympus'");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;timeZone=+05:30"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, ts TIMESTAMP WITH TIME ZONE)");
            s.execute("INSERT INTO e VALUES (1, '2024-01-01 00:00:00')");
            assertThat(instants(s, "SELECT id, ts FROM e")).containsExactly(at("2023-12-31T18:30:00Z"));
            assertThatThrownBy(() -> s.execute("INSERT INTO e VALUES (2, 'soon')")).hasMessageContaining("'soon'")
                    .hasMessageContaining("is not a valid TIMESTAMP WITH TIME ZONE");
            assertThatThrownBy(() -> s.execute("INSERT INTO e VALUES (2, '2024-01-01 10:00:00+25')"))
                    .hasMessageContaining("has no valid time zone: +25");
            assertThatThrownBy(() -> s.execute("INSERT INTO e VALUES (2, '10000-01-01 00:00:00Z')")).isInstanceOf(SQLException.class);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO e VALUES (?, ?)")) {
                p.setInt(1, 2);
                assertThatThrownBy(() -> p.setString(2, "yesterday")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("parameter 2 (TIMESTAMP WITH TIME ZONE)").hasMessageContaining("'yesterday'");
            }
            assertThatThrownBy(() -> s.execute("CREATE TABLE t (t TIME WITH TIME ZONE)")).hasMessageContaining("TIME WITH TIME ZONE is not supported");
            assertThat(rows(s, "SELECT COUNT(*) FROM e")).containsExactly(List.of(1L));
            s.execute("ALTER TABLE e ADD COLUMN d TIMESTAMPTZ DEFAULT TIMESTAMP WITH TIME ZONE '2024-06-01 00:00:00'");
            assertThat(rows(s, "SELECT data_type FROM information_schema.columns WHERE table_name = 'e' AND column_name = 'd'"))
                    .containsExactly(List.of("TIMESTAMP WITH TIME ZONE"));
            assertThat(rows(s, "SELECT DISTINCT type FROM sys.columns WHERE table_name = 'e' AND column_name = 'd'"))
                    .containsExactly(List.of("TIMESTAMP(3) WITH TIME ZONE"));
            assertThat(instants(s, "SELECT id, d FROM e")).as("the default read in the session's zone").containsExactly(at("2024-05-31T18:30:00Z"));
            s.execute("CREATE TABLE copy AS SELECT id, ts FROM e");
            assertThat(instants(s, "SELECT id, ts FROM copy")).containsExactly(at("2023-12-31T18:30:00Z"));
        }
    }

    /**
     * The standard's and DuckDB's spellings in queries are numacol's instant (Calcite's own
     * TIMESTAMP WITH TIME ZONE has no runtime), and casts, EXTRACT and interval arithmetic work in
     * the session's zone: days and months on its wall clock.
     */
    @Test
    void queriesSpellInstantsAsDuckDbAndComputeInTheSessionsZone() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;timeZone=America/New_York"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE w (id INT, wall TIMESTAMP, d DATE, txt VARCHAR)");
            s.execute("INSERT INTO w VALUES (1, TIMESTAMP '2024-03-10 02:30:00', DATE '1880-01-01', '2024-03-10 02:30:00+01')");
            assertThat(rows(s, "SELECT CAST(CAST(wall AS TIMESTAMP WITH TIME ZONE) AS VARCHAR), CAST(CAST(txt AS TIMESTAMPTZ) AS VARCHAR),"
                    + " CAST(CAST(d AS TIMESTAMP(0) WITH TIME ZONE) AS VARCHAR), CAST(TIMESTAMP WITH TIME ZONE '2024-11-03 01:30' AS VARCHAR)"
                    + " FROM w")).as("the gap moves forward, 1880 is local mean time, the overlap takes the later")
                    .containsExactly(List.of("2024-03-10 03:30:00-04", "2024-03-09 20:30:00-05", "1880-01-01 00:00:00-04:56",
                            "2024-11-03 01:30:00-05"));
            assertThat(rows(s, "SELECT EXTRACT(HOUR FROM i), EXTRACT(MINUTE FROM i), CAST(i AS TIMESTAMP), CAST(i AS DATE),"
                    + " CAST(i + INTERVAL '1' DAY AS VARCHAR), CAST(i + INTERVAL '24' HOUR AS VARCHAR), CAST(i - INTERVAL '1' MONTH AS VARCHAR)"
                    + " FROM (SELECT TIMESTAMP WITH TIME ZONE '2024-03-09 23:45:00.25' AS i FROM w)"))
                    .containsExactly(List.of(23L, 45L, Timestamp.valueOf("2024-03-09 23:45:00.25"), java.sql.Date.valueOf("2024-03-09"),
                            "2024-03-10 23:45:00.25-04", "2024-03-11 00:45:00.25-04", "2024-02-09 23:45:00.25-05"));
            try (PreparedStatement p = c.prepareStatement("SELECT id, CAST(wall AS TIMESTAMPTZ) FROM w")) {
                assertThat(p.getMetaData().getColumnType(2)).as("as JDBC and DuckDB name it").isEqualTo(java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
                    assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("TIMESTAMP WITH TIME ZONE");
                    assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(java.sql.Types.INTEGER);
                }
            }
            s.execute("CREATE TABLE z (i TIMESTAMPTZ NOT NULL, j TIMESTAMP(0) WITH TIME ZONE, t TIMESTAMP)");
            List<List<Object>> columns = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getColumns(null, "main", "z", "%")) {
                while (rs.next()) {
                    columns.add(List.of(rs.getString("COLUMN_NAME"), rs.getInt("DATA_TYPE"), rs.getString("TYPE_NAME")));
                }
            }
            assertThat(columns).as("DatabaseMetaData names them as result sets do").containsExactly(
                    List.of("i", java.sql.Types.TIMESTAMP_WITH_TIMEZONE, "TIMESTAMP WITH TIME ZONE"),
                    List.of("j", java.sql.Types.TIMESTAMP_WITH_TIMEZONE, "TIMESTAMP WITH TIME ZONE"),
                    List.of("t", java.sql.Types.TIMESTAMP, "TIMESTAMP"));
            assertThatThrownBy(() -> s.executeQuery("SELECT CAST(wall AS TIME WITH TIME ZONE) FROM w"))
                    .hasMessageContaining("TIME WITH TIME ZONE is not supported");
            assertThatThrownBy(() -> s.executeQuery("SELECT TIME WITH TIME ZONE '10:00:00' FROM w"))
                    .hasMessageContaining("TIME WITH TIME ZONE is not supported");
        }
    }
}
