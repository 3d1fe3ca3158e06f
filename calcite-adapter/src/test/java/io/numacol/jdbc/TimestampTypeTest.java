package io.numacol.jdbc;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TIMESTAMP columns through every load path (literal INSERT, INSERT ... SELECT, prepared
 * parameters, a batch, COPY, the Appender, UPDATE) and back (getTimestamp, getString, metadata,
 * sys, information_schema), with their precision kept and bad values named.
 */
class TimestampTypeTest {
    @TempDir
    Path dir;

    private static LocalDateTime at(String text) {
        return LocalDateTime.parse(text.replace(' ', 'T'));
    }

    private static Timestamp ts(String text) {
        return Timestamp.valueOf(text);
    }

    /** Column 2 of each row (ordered by column 1) as LocalDateTime. */
    private static List<LocalDateTime> times(Statement s, String sql) throws SQLException {
        List<LocalDateTime> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                Timestamp t = rs.getTimestamp(2);
                out.add(t == null ? null : t.toLocalDateTime());
            }
        }
        return out;
    }

    /**
     * DATE, TIME and TIMESTAMP are wall clocks: java.sql values in and out are read in the JVM's
     * zone, as JDBC says, whatever the session's {@code timeZone} (one that differs from the JVM's).
     */
    @Test
    void wallClocksAreTheSameWhateverTheSessionZone() throws SQLException {
        String session = java.util.TimeZone.getDefault().getID().equals("Asia/Kolkata") ? "America/New_York" : "Asia/Kolkata";
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;timeZone=" + session);
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE w (id INTEGER, ts TIMESTAMP, d DATE, t TIME)");
            s.execute("INSERT INTO w VALUES (1, TIMESTAMP '2024-03-10 02:30:00', DATE '2024-03-10', TIME '02:30:00')");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO w VALUES (?, ?, ?, ?)")) {
                p.setInt(1, 2);
                p.setTimestamp(2, ts("2024-07-01 12:00:00.5"));
                p.setDate(3, java.sql.Date.valueOf("2024-07-01"));
                p.setTime(4, java.sql.Time.valueOf("12:00:00"));
                p.execute();
                p.setInt(1, 3);
                p.setObject(2, ts("1969-12-31 23:59:59"));
                p.setObject(3, java.sql.Date.valueOf("1969-12-31"));
                p.setObject(4, java.sql.Time.valueOf("23:59:59"));
                p.addBatch();
                p.setInt(1, 4);
                p.setTimestamp(2, ts("2024-11-03 01:30:00"));
                p.setDate(3, java.sql.Date.valueOf("2024-11-03"));
                p.setTime(4, java.sql.Time.valueOf("01:30:00"));
                p.addBatch();
                p.executeBatch();
            }
            assertThat(rows(s, "SELECT id, CAST(ts AS VARCHAR), CAST(d AS VARCHAR), CAST(t AS VARCHAR) FROM w ORDER BY id"))
                    .containsExactly(List.of(1, "2024-03-10 02:30:00", "2024-03-10", "02:30:00"),
                            List.of(2, "2024-07-01 12:00:00.5", "2024-07-01", "12:00:00"),
                            List.of(3, "1969-12-31 23:59:59", "1969-12-31", "23:59:59"),
                            List.of(4, "2024-11-03 01:30:00", "2024-11-03", "01:30:00"));
            try (PreparedStatement p = c.prepareStatement("SELECT ts, d, t, TIMESTAMP '2024-01-01 10:00:00' FROM w WHERE ts = ?")) {
                p.setTimestamp(1, ts("2024-07-01 12:00:00.5"));
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getTimestamp(1)).isEqualTo(ts("2024-07-01 12:00:00.5"));
                    assertThat(rs.getObject(1)).isEqualTo(ts("2024-07-01 12:00:00.5"));
                    assertThat(rs.getDate(2)).isEqualTo(java.sql.Date.valueOf("2024-07-01"));
                    assertThat(rs.getObject(2, LocalDate.class)).isEqualTo(LocalDate.of(2024, 7, 1));
                    assertThat(rs.getTime(3)).isEqualTo(java.sql.Time.valueOf("12:00:00"));
                    assertThat(rs.getTimestamp(4)).isEqualTo(ts("2024-01-01 10:00:00"));
                    assertThat(rs.next()).isFalse();
                }
            }
        }
    }

    /**
     * DuckDB's and PostgreSQL's short spellings (a date alone, no seconds, a T), and a DATE
     * compared with a TIMESTAMP column as its midnight, also where the plan cache makes the DATE
     * literal a parameter (which failed: "not a timestamp: 19724").
     */
    @Test
    void shortSpellingsAndDatesCompareAsDuckDbReadsThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INTEGER, ts TIMESTAMP, t TIME)");
            s.execute("INSERT INTO e VALUES (1, '2024-01-01 10:00', '10:30'), (2, '2024-01-02', '9:05'), (3, TIMESTAMP '2024-01-02T03:04', TIME '23:59')");
            assertThat(rows(s, "SELECT id, CAST(ts AS VARCHAR), CAST(t AS VARCHAR) FROM e ORDER BY id")).containsExactly(
                    List.of(1, "2024-01-01 10:00:00", "10:30:00"), List.of(2, "2024-01-02 00:00:00", "09:05:00"),
                    List.of(3, "2024-01-02 03:04:00", "23:59:00"));
            for (int i = 0; i < 2; i++) { // the second time from the plan cache, the DATE a parameter
                assertThat(rows(s, "SELECT id FROM e WHERE ts >= DATE '2024-01-02' ORDER BY id")).containsExactly(List.of(2), List.of(3));
                assertThat(rows(s, "SELECT id FROM e WHERE ts < DATE '2024-01-02'")).containsExactly(List.of(1));
            }
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM e WHERE ts > CAST(? AS DATE) ORDER BY id")) {
                p.setDate(1, java.sql.Date.valueOf("2024-01-02"));
                assertThat(rows(p.executeQuery())).containsExactly(List.of(3));
            }
            assertThat(rows(s, "SELECT id FROM e WHERE ts = '2024-01-01 10:00' AND t = TIME '10:30'")).containsExactly(List.of(1));
            assertThat(rows(s, "SELECT CAST('2024-01-02 3:04' AS TIMESTAMP) = TIMESTAMP '2024-01-02T03:04:00', CAST('9:05' AS TIME) FROM e WHERE id = 1"))
                    .containsExactly(List.of(true, java.sql.Time.valueOf("09:05:00")));
        }
    }

    /** date_trunc as DuckDB's: a DATE gives a TIMESTAMP, a week starts on Monday; a bad part or type is named. */
    @Test
    void dateTruncCutsAsDuckDbAndNamesWhatItCannotCut() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (p VARCHAR, ts TIMESTAMP, d DATE, t TIME)");
            s.execute("INSERT INTO e VALUES ('quarter', '2024-05-10 12:34:56.789', '2024-03-10', '10:00'), ('bogus', '2024-01-01 10:00', NULL, NULL)");
            assertThat(rows(s, "SELECT date_trunc('week', ts), date_trunc('Month', d), date_trunc(p, ts), date_trunc('second', ts) FROM e WHERE p = 'quarter'"))
                    .containsExactly(List.of(ts("2024-05-06 00:00:00"), ts("2024-03-01 00:00:00"), ts("2024-04-01 00:00:00"),
                            ts("2024-05-10 12:34:56")));
            assertThatThrownBy(() -> s.executeQuery("SELECT date_trunc('fortnight', ts) FROM e")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("date_trunc: unknown part 'fortnight'; known: year, quarter, month, week, day");
            assertThatThrownBy(() -> s.executeQuery("SELECT date_trunc('day', t) FROM e")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("DATE_TRUNC(<STRING>, <DATE, TIMESTAMP or TIMESTAMP WITH TIME ZONE>)");
            assertThatThrownBy(() -> rows(s, "SELECT date_trunc(p, ts) FROM e")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("unknown part 'bogus'");
        }
    }

    /**
     * A date minus a date is the days apart (BIGINT); a time, timestamp or instant minus one of its
     * type is an INTERVAL DAY TO SECOND, as in DuckDB; minus an interval and numbers as before.
     */
    @Test
    void datesAndTimesSubtractToTheirDistance() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;timeZone=America/New_York"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, d DATE, ts TIMESTAMP, t TIME, z TIMESTAMPTZ, n INT)");
            s.execute("INSERT INTO e VALUES (1, '2024-03-01', '2024-01-02 01:00:00.5', '10:00', '2024-03-11 00:00', 5),"
                    + " (2, '1969-12-25', '1900-01-01 00:00', '23:00', '2024-03-09 00:00', NULL), (3, NULL, NULL, NULL, NULL, 2)");
            assertThat(rows(s, "SELECT id, d - DATE '2024-01-01', id - n, d - INTERVAL '1' DAY FROM e ORDER BY id")).containsExactly(
                    List.of(1, 60L, -4, java.sql.Date.valueOf("2024-02-29")),
                    Arrays.asList(2, -19730L, null, java.sql.Date.valueOf("1969-12-24")),
                    Arrays.asList(3, null, 1, null));
            try (ResultSet rs = s.executeQuery("SELECT ts - TIMESTAMP '2024-01-01 00:00:00', t - TIME '12:00:00',"
                    + " z - TIMESTAMP WITH TIME ZONE '2024-03-10 00:00', ts - ts FROM e WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("INTERVAL_DAY_TO_SECOND");
                assertThat(rs.getString(1)).isEqualTo("+1 01:00:00.500");
                assertThat(rs.getString(2)).isEqualTo("-0 02:00:00.000");
                assertThat(rs.getString(3)).as("elapsed time: the DST change made that day 23 hours").isEqualTo("+0 23:00:00.000");
                assertThat(rs.getString(4)).isEqualTo("+0 00:00:00.000");
            }
            assertThat(rows(s, "SELECT id FROM e WHERE d - DATE '2024-01-01' > 30")).containsExactly(List.of(1));
            assertThat(rows(s, "SELECT SUM(d - DATE '2024-01-01') FROM e")).containsExactly(List.of(new BigDecimal("-19670")));
            assertThatThrownBy(() -> s.executeQuery("SELECT d - ts FROM e")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Cannot apply '-' to arguments of type '<DATE> - <TIMESTAMP(3)>'")
                    .hasMessageContaining("'<DATETIME> - <DATETIME>'");
        }
    }

    @Test
    void everyLoadPathStoresTheTimeAndRefusesWhatIsNotOne() throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, ts TIMESTAMP)");
            s.execute("INSERT INTO e VALUES (1, TIMESTAMP '2024-03-31 01:59:59.123'), (2, TIMESTAMP '1969-12-31 23:59:59.999'),"
                    + " (3, NULL), (4, TIMESTAMP '1900-01-01 00:00:00')");
            s.execute("INSERT INTO e VALUES (5, '2300-06-15 12:00:00.5')");
            s.execute("INSERT INTO e SELECT id + 100, ts FROM e WHERE id = 1");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO e VALUES (?, ?)")) {
                p.setInt(1, 6);
                p.setTimestamp(2, Timestamp.valueOf("2024-01-02 03:04:05.678"));
                p.execute();
                p.setInt(1, 7);
                p.setObject(2, at("1970-01-01 00:00:00.001"));
                p.execute();
                p.setInt(1, 8);
                p.setString(2, "9999-12-31 23:59:59.999");
                p.execute();
                p.setInt(1, 9);
                p.setString(2, "yesterday");
                assertThatThrownBy(p::execute).isInstanceOf(SQLException.class).hasMessageContaining("yesterday")
                        .hasMessageContaining("TIMESTAMP");
                p.setInt(1, 10);
                p.setTimestamp(2, Timestamp.valueOf("2001-02-03 04:05:06"));
                p.addBatch();
                p.setInt(1, 11);
                p.setNull(2, Types.TIMESTAMP);
                p.addBatch();
                p.executeBatch();
            }
            Path csv = dir.resolve("e.csv");
            Files.writeString(csv, "12,2020-02-29 23:00:00.25\n13,\n14,2020-02-29T01:02:03\n");
            s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'");
            Database db = NumacolDriver.database(c);
            try (Appender a = db.appender("e")) {
                a.append(15, at("1600-05-05 05:05:05.555"));
                a.append(16, LocalDate.of(2010, 10, 10));
            }
            assertThat(times(s, "SELECT id, ts FROM e ORDER BY id")).containsExactly(
                    at("2024-03-31 01:59:59.123"), at("1969-12-31 23:59:59.999"), null, at("1900-01-01 00:00:00"),
                    at("2300-06-15 12:00:00.5"), at("2024-01-02 03:04:05.678"), at("1970-01-01 00:00:00.001"),
                    at("9999-12-31 23:59:59.999"), at("2001-02-03 04:05:06"), null, at("2020-02-29 23:00:00.25"), null,
                    at("2020-02-29 01:02:03"), at("1600-05-05 05:05:05.555"), at("2010-10-10 00:00:00"),
                    at("2024-03-31 01:59:59.123"));
            try (ResultSet rs = s.executeQuery("SELECT ts FROM e WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("2024-03-31 01:59:59.123");
                assertThat(rs.getTimestamp(1)).isEqualTo(ts("2024-03-31 01:59:59.123"));
            }

            assertThatThrownBy(() -> s.execute("INSERT INTO e VALUES (20, TIMESTAMP '2024-01-01 00:00:00'), (21, 'noon')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("noon").hasMessageContaining("TIMESTAMP");
            Files.writeString(csv, "22,2024-01-01 00:00:00\n23,2024-13-01 00:00:00\n");
            assertThatThrownBy(() -> s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column ts").hasMessageContaining("2024-13-01");
            assertThat(rows(s, "SELECT COUNT(*) FROM e")).as("the failed loads stored nothing").containsExactly(List.of(16L));

            assertThat(s.executeUpdate("UPDATE e SET ts = ts + INTERVAL '1' DAY WHERE id = 2")).isEqualTo(1);
            assertThat(s.executeUpdate("UPDATE e SET ts = '2000-01-01 10:00:00.5' WHERE id = 3")).isEqualTo(1);
            assertThatThrownBy(() -> s.execute("UPDATE e SET ts = 'soon' WHERE id = 4")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("soon");
            assertThat(times(s, "SELECT id, ts FROM e WHERE id IN (1, 2, 3, 4) ORDER BY id")).as("untouched rows keep their times")
                    .containsExactly(at("2024-03-31 01:59:59.123"), at("1970-01-01 23:59:59.999"), at("2000-01-01 10:00:00.5"),
                            at("1900-01-01 00:00:00"));
        }
    }

    @Test
    void precisionKeepsAsManyFractionDigitsAndTheTypeShowsInMetadata() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE p (id INT, s TIMESTAMP(0), d DATETIME, w TIMESTAMP(3) WITHOUT TIME ZONE)");
            s.execute("INSERT INTO p VALUES (1, TIMESTAMP '2024-05-05 10:11:12.987', TIMESTAMP '2024-05-05 10:11:12.987',"
                    + " TIMESTAMP '2024-05-05 10:11:12.9')");
            s.execute("INSERT INTO p (id, d) VALUES (5, '2024-05-05 10:11:12.987654')");
            // rounded half up to the column's digits, whichever path the values take
            assertThat(rows(s, "SELECT s, d, w FROM p WHERE id = 1")).containsExactly(
                    List.of(ts("2024-05-05 10:11:13"), ts("2024-05-05 10:11:12.987"), ts("2024-05-05 10:11:12.9")));
            assertThat(rows(s, "SELECT d FROM p WHERE id = 5")).containsExactly(List.of(ts("2024-05-05 10:11:12.988")));
            s.execute("INSERT INTO p (id, s) VALUES (2, TIMESTAMP '2024-05-05 10:11:12.499')");
            s.execute("INSERT INTO p (id, s) SELECT 3, d FROM p WHERE id = 1");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO p (id, s) VALUES (4, ?)")) {
                p.setTimestamp(1, ts("1969-12-31 23:59:59.5"));
                p.execute();
            }
            assertThat(rows(s, "SELECT s FROM p WHERE id BETWEEN 2 AND 4 ORDER BY id")).containsExactly(
                    List.of(ts("2024-05-05 10:11:12")), List.of(ts("2024-05-05 10:11:13")), List.of(ts("1970-01-01 00:00:00")));
            assertThatThrownBy(() -> s.execute("CREATE TABLE q (t TIMESTAMP(6))")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("millisecond");
            assertThatThrownBy(() -> s.execute("CREATE TABLE q (t TIME WITH TIME ZONE)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("TIME WITH TIME ZONE is not supported");
            assertThatThrownBy(() -> s.execute("INSERT INTO p (id, s) VALUES (2, TIMESTAMP '10000-01-01 00:00:00')"))
                    .isInstanceOf(SQLException.class);

            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, "main", "p", "s")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.TIMESTAMP);
            }
            try (ResultSet rs = s.executeQuery("SELECT d FROM p")) {
                assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.TIMESTAMP);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1)).isEqualTo(Timestamp.valueOf("2024-05-05 10:11:12.987"));
            }
            assertThat(rows(s, "SELECT DISTINCT column_name, type FROM sys.columns WHERE table_name = 'p' ORDER BY column_name"))
                    .contains(List.of("s", "TIMESTAMP(0)"), List.of("w", "TIMESTAMP(3)"));
            assertThat(rows(s, "SELECT data_type FROM information_schema.columns WHERE table_name = 'p' AND column_name = 'd'"))
                    .containsExactly(List.of("TIMESTAMP"));
            s.execute("CREATE TABLE c AS SELECT id, d, CAST('2020-01-01 00:00:01.5' AS TIMESTAMP) AS lit FROM p WHERE id = 1");
            assertThat(rows(s, "SELECT DISTINCT column_name, type FROM sys.columns WHERE table_name = 'c' ORDER BY column_name"))
                    .containsExactly(List.of("d", "TIMESTAMP(3)"), List.of("id", "INTEGER"), List.of("lit", "TIMESTAMP(3)"));
            assertThat(rows(s, "SELECT lit FROM c")).containsExactly(List.of(ts("2020-01-01 00:00:01.5")));
            s.execute("ALTER TABLE c ADD COLUMN seen TIMESTAMP(0) DEFAULT TIMESTAMP '2021-02-03 04:05:06.7'");
            assertThat(rows(s, "SELECT seen FROM c")).containsExactly(List.of(ts("2021-02-03 04:05:07")));
        }
    }

    @Test
    void queriesFilterGroupJoinAndOrderThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=3");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, ts TIMESTAMP, d DATE)");
            s.execute("INSERT INTO e VALUES (1, TIMESTAMP '2024-01-01 10:00:00', DATE '2024-01-01'),"
                    + " (2, TIMESTAMP '2024-01-01 10:00:00.001', DATE '2024-01-02'), (3, NULL, NULL),"
                    + " (4, TIMESTAMP '1950-06-01 00:00:00', DATE '1950-06-01'), (5, TIMESTAMP '2024-01-01 10:00:00', NULL),"
                    + " (6, TIMESTAMP '2024-01-01 00:00:00', DATE '2024-01-01')");
            assertThat(rows(s, "SELECT id FROM e WHERE ts > TIMESTAMP '2024-01-01 10:00:00' ORDER BY id")).containsExactly(List.of(2));
            assertThat(rows(s, "SELECT id FROM e WHERE ts >= '2024-01-01 10:00:00' AND ts < '2024-01-01 10:00:00.001' ORDER BY id"))
                    .containsExactly(List.of(1), List.of(5));
            assertThat(rows(s, "SELECT id FROM e WHERE ts BETWEEN TIMESTAMP '1900-01-01 00:00:00' AND TIMESTAMP '2000-01-01 00:00:00'"))
                    .containsExactly(List.of(4));
            assertThat(rows(s, "SELECT id FROM e WHERE ts IN (TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '1950-06-01 00:00:00') ORDER BY id"))
                    .containsExactly(List.of(1), List.of(4), List.of(5));
            assertThat(rows(s, "SELECT id FROM e WHERE ts = d ORDER BY id")).as("a DATE is its midnight")
                    .containsExactly(List.of(4), List.of(6));
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM e WHERE ts < ? ORDER BY id")) {
                p.setTimestamp(1, Timestamp.valueOf("2024-01-01 10:00:00"));
                try (ResultSet rs = p.executeQuery()) {
                    List<Integer> ids = new ArrayList<>();
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                    assertThat(ids).containsExactly(4, 6);
                }
            }
            assertThat(rows(s, "SELECT ts, COUNT(*) FROM e GROUP BY ts ORDER BY ts NULLS FIRST")).containsExactly(
                    Arrays.asList(null, 1L), List.of(ts("1950-06-01 00:00:00"), 1L), List.of(ts("2024-01-01 00:00:00"), 1L),
                    List.of(ts("2024-01-01 10:00:00"), 2L), List.of(ts("2024-01-01 10:00:00.001"), 1L));
            assertThat(rows(s, "SELECT MIN(ts), MAX(ts), COUNT(ts) FROM e"))
                    .containsExactly(List.of(ts("1950-06-01 00:00:00"), ts("2024-01-01 10:00:00.001"), 5L));
            assertThat(rows(s, "SELECT a.id, b.id FROM e a JOIN e b ON a.ts = b.ts AND a.id < b.id")).containsExactly(List.of(1, 5));
            assertThat(rows(s, "SELECT id FROM e ORDER BY ts DESC NULLS LAST, id LIMIT 3")).containsExactly(List.of(2), List.of(1), List.of(5));
            assertThat(rows(s, "SELECT EXTRACT(YEAR FROM ts), EXTRACT(HOUR FROM ts) FROM e WHERE id = 2"))
                    .containsExactly(List.of(2024L, 10L));
            assertThat(rows(s, "SELECT CAST(ts AS DATE) FROM e WHERE id = 4")).containsExactly(List.of(java.sql.Date.valueOf("1950-06-01")));
        }
    }
}
