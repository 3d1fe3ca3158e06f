package io.numacol.jdbc;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Types;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TIME columns through every load path (literal INSERT, INSERT ... SELECT, prepared parameters,
 * a batch, COPY, the Appender, UPDATE) and back (getTime, getObject as LocalTime, getString,
 * metadata, sys, information_schema), with their precision kept and bad values named.
 */
class TimeTypeTest {
    @TempDir
    Path dir;

    private static LocalTime at(String text) {
        return LocalTime.parse(text);
    }

    /** Column 1 of each row as LocalTime. */
    private static List<LocalTime> times(Statement s, String sql) throws SQLException {
        List<LocalTime> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getObject(1, LocalTime.class));
            }
        }
        return out;
    }

    @Test
    void everyLoadPathStoresTheTimeAndRefusesWhatIsNone() throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, t TIME)");
            s.execute("INSERT INTO e VALUES (1, TIME '01:59:59.123'), (2, TIME '23:59:59.999'), (3, NULL), (4, TIME '00:00:00')");
            s.execute("INSERT INTO e VALUES (5, '12:00:00.5')");
            s.execute("INSERT INTO e SELECT id + 100, t FROM e WHERE id = 1");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO e VALUES (?, ?)")) {
                p.setInt(1, 6);
                p.setTime(2, Time.valueOf("03:04:05"));
                p.execute();
                p.setInt(1, 7);
                p.setObject(2, at("00:00:00.001"));
                p.execute();
                p.setInt(1, 8);
                p.setString(2, "18:30");
                p.execute();
                p.setInt(1, 9);
                p.setString(2, "teatime");
                assertThatThrownBy(p::execute).isInstanceOf(SQLException.class).hasMessageContaining("teatime")
                        .hasMessageContaining("TIME");
                p.setInt(1, 10);
                p.setTime(2, Time.valueOf("04:05:06"));
                p.addBatch();
                p.setInt(1, 11);
                p.setNull(2, Types.TIME);
                p.addBatch();
                p.executeBatch();
            }
            Path csv = dir.resolve("e.csv");
            Files.writeString(csv, "12,23:00:00.25\n13,\n14,01:02\n");
            s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'");
            Database db = NumacolDriver.database(c);
            try (Appender a = db.appender("e")) {
                a.append(15, at("05:05:05.555"));
                a.append(16, at("10:10:10.1234"));
            }
            assertThat(times(s, "SELECT t FROM e ORDER BY id")).containsExactly(
                    at("01:59:59.123"), at("23:59:59.999"), null, at("00:00"), at("12:00:00.5"), at("03:04:05"),
                    at("00:00:00.001"), at("18:30"), at("04:05:06"), null, at("23:00:00.25"), null, at("01:02"),
                    at("05:05:05.555"), at("10:10:10.123"), at("01:59:59.123"));
            try (ResultSet rs = s.executeQuery("SELECT t FROM e WHERE id = 1")) {
                assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.TIME);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("01:59:59.123");
                assertThat(rs.getTime(1).toLocalTime()).isEqualTo(at("01:59:59"));
                assertThat(rs.getObject(1)).isInstanceOf(Time.class);
            }

            assertThatThrownBy(() -> s.execute("INSERT INTO e VALUES (20, TIME '10:00:00'), (21, 'noonish')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("noonish").hasMessageContaining("TIME");
            Files.writeString(csv, "22,10:00:00\n23,25:00:00\n");
            assertThatThrownBy(() -> s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column t").hasMessageContaining("25:00:00");
            assertThat(rows(s, "SELECT COUNT(*) FROM e")).as("the failed loads stored nothing").containsExactly(List.of(16L));

            assertThat(s.executeUpdate("UPDATE e SET t = t + INTERVAL '1' HOUR WHERE id = 2")).isEqualTo(1);
            assertThat(s.executeUpdate("UPDATE e SET t = '10:00:00.5' WHERE id = 3")).isEqualTo(1);
            assertThatThrownBy(() -> s.execute("UPDATE e SET t = 'later' WHERE id = 4")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("later");
            assertThat(times(s, "SELECT t FROM e WHERE id IN (1, 2, 3, 4) ORDER BY id")).as("a time of day wraps at midnight")
                    .containsExactly(at("01:59:59.123"), at("00:59:59.999"), at("10:00:00.5"), at("00:00"));
        }
    }

    @Test
    void precisionKeepsAsManyFractionDigitsAndTheTypeShowsInMetadata() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE p (id INT, s TIME(0), w TIME(3) WITHOUT TIME ZONE, d TIME)");
            s.execute("INSERT INTO p VALUES (1, TIME '10:11:12.987', TIME '10:11:12.9', TIME '10:11:12.987')");
            s.execute("INSERT INTO p (id, s) VALUES (2, TIME '23:59:59.4')");
            s.execute("INSERT INTO p (id, s) SELECT 3, d FROM p WHERE id = 1");
            assertThat(times(s, "SELECT s FROM p ORDER BY id")).containsExactly(at("10:11:13"), at("23:59:59"), at("10:11:13"));
            assertThat(times(s, "SELECT w FROM p WHERE id = 1")).containsExactly(at("10:11:12.9"));
            assertThatThrownBy(() -> s.execute("INSERT INTO p (id, s) VALUES (4, TIME '23:59:59.6')"))
                    .as("rounds up to 24:00").isInstanceOf(SQLException.class).hasMessageContaining("out of range for TIME(0)");
            assertThatThrownBy(() -> s.execute("CREATE TABLE q (t TIME(6))")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("millisecond");
            assertThatThrownBy(() -> s.execute("CREATE TABLE q (t TIME WITH TIME ZONE)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("TIME WITH TIME ZONE");

            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, "main", "p", "s")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.TIME);
            }
            assertThat(rows(s, "SELECT DISTINCT column_name, type FROM sys.columns WHERE table_name = 'p' ORDER BY column_name"))
                    .containsExactly(List.of("d", "TIME(3)"), List.of("id", "INTEGER"), List.of("s", "TIME(0)"), List.of("w", "TIME(3)"));
            assertThat(rows(s, "SELECT data_type FROM information_schema.columns WHERE table_name = 'p' AND column_name = 'd'"))
                    .containsExactly(List.of("TIME"));
            s.execute("CREATE TABLE c AS SELECT id, d, CAST('01:00:01.5' AS TIME) AS lit FROM p WHERE id = 1");
            assertThat(rows(s, "SELECT DISTINCT column_name, type FROM sys.columns WHERE table_name = 'c' ORDER BY column_name"))
                    .containsExactly(List.of("d", "TIME(3)"), List.of("id", "INTEGER"), List.of("lit", "TIME(3)"));
            assertThat(times(s, "SELECT lit FROM c")).containsExactly(at("01:00:01.5"));
            s.execute("ALTER TABLE c ADD COLUMN seen TIME(0) DEFAULT TIME '04:05:06.7'");
            assertThat(times(s, "SELECT seen FROM c")).containsExactly(at("04:05:07"));
        }
    }

    @Test
    void queriesFilterGroupJoinAndOrderThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=3");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, t TIME, ts TIMESTAMP)");
            s.execute("INSERT INTO e VALUES (1, TIME '10:00:00', TIMESTAMP '2024-01-01 10:00:00'),"
                    + " (2, TIME '10:00:00.001', TIMESTAMP '2024-01-02 08:00:00'), (3, NULL, NULL),"
                    + " (4, TIME '00:00:00', TIMESTAMP '1950-06-01 00:00:00'), (5, TIME '10:00:00', NULL),"
                    + " (6, TIME '23:59:59.999', TIMESTAMP '2024-01-01 23:59:59.999')");
            assertThat(rows(s, "SELECT id FROM e WHERE t > TIME '10:00:00' ORDER BY id")).containsExactly(List.of(2), List.of(6));
            assertThat(rows(s, "SELECT id FROM e WHERE t >= '10:00:00' AND t < '10:00:00.001' ORDER BY id"))
                    .containsExactly(List.of(1), List.of(5));
            assertThat(rows(s, "SELECT id FROM e WHERE t BETWEEN TIME '00:00:00' AND TIME '09:59:59.999'")).containsExactly(List.of(4));
            assertThat(rows(s, "SELECT id FROM e WHERE t IN (TIME '10:00:00', TIME '00:00:00') ORDER BY id"))
                    .containsExactly(List.of(1), List.of(4), List.of(5));
            assertThat(rows(s, "SELECT id FROM e WHERE t = CAST(ts AS TIME) ORDER BY id"))
                    .containsExactly(List.of(1), List.of(4), List.of(6));
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM e WHERE t < ? ORDER BY id")) {
                p.setTime(1, Time.valueOf("10:00:00"));
                try (ResultSet rs = p.executeQuery()) {
                    List<Integer> ids = new ArrayList<>();
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                    assertThat(ids).containsExactly(4);
                }
            }
            assertThat(times(s, "SELECT t, COUNT(*) FROM e GROUP BY t ORDER BY t NULLS FIRST")).containsExactly(
                    null, at("00:00"), at("10:00"), at("10:00:00.001"), at("23:59:59.999"));
            assertThat(rows(s, "SELECT COUNT(*) FROM e GROUP BY t ORDER BY t NULLS FIRST"))
                    .containsExactly(List.of(1L), List.of(1L), List.of(2L), List.of(1L), List.of(1L));
            assertThat(times(s, "SELECT MIN(t) FROM e")).containsExactly(at("00:00"));
            assertThat(times(s, "SELECT MAX(t) FROM e WHERE id <> 6")).containsExactly(at("10:00:00.001"));
            assertThat(rows(s, "SELECT a.id, b.id FROM e a JOIN e b ON a.t = b.t AND a.id < b.id")).containsExactly(List.of(1, 5));
            assertThat(rows(s, "SELECT id FROM e ORDER BY t DESC NULLS LAST, id LIMIT 3")).containsExactly(List.of(6), List.of(2), List.of(1));
            assertThat(rows(s, "SELECT EXTRACT(HOUR FROM t), EXTRACT(SECOND FROM t) FROM e WHERE id = 6"))
                    .containsExactly(List.of(23L, 59L));
            assertThat(times(s, "SELECT t + INTERVAL '90' MINUTE FROM e WHERE id = 6")).containsExactly(at("01:29:59.999"));
        }
    }
}
