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
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * UUID columns through every load path (literal INSERT, INSERT ... SELECT, prepared parameters,
 * a batch, COPY, the Appender, UPDATE) and back (getObject as UUID and String, getString,
 * metadata, sys, information_schema), ordered as unsigned 128-bit numbers, bad values named.
 */
class UuidTypeTest {
    private static final UUID A = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    /** Above A unsigned, below it as java.util.UUID compares (signed). */
    private static final UUID HIGH = UUID.fromString("f0000000-0000-4000-8000-000000000001");
    private static final UUID LOW = UUID.fromString("00000000-0000-0000-0000-000000000000");

    @TempDir
    Path dir;

    /** Column 1 of each row as UUID. */
    private static List<UUID> uuids(Statement s, String sql) throws SQLException {
        List<UUID> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getObject(1, UUID.class));
            }
        }
        return out;
    }

    @Test
    void everyLoadPathStoresTheUuidAndRefusesWhatIsNone() throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, u UUID)");
            s.execute("INSERT INTO e VALUES (1, UUID '" + A + "'), (2, '" + HIGH.toString().toUpperCase(Locale.ROOT) + "'), (3, NULL)");
            s.execute("INSERT INTO e VALUES (4, '{00000000000000000000000000000000}')");
            s.execute("INSERT INTO e SELECT id + 100, u FROM e WHERE id = 1");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO e VALUES (?, ?)")) {
                p.setInt(1, 5);
                p.setObject(2, A);
                p.execute();
                p.setInt(1, 6);
                p.setString(2, HIGH.toString());
                p.execute();
                p.setInt(1, 7);
                p.setString(2, "not-a-uuid");
                assertThatThrownBy(p::execute).isInstanceOf(SQLException.class).hasMessageContaining("not-a-uuid")
                        .hasMessageContaining("UUID");
                p.setInt(1, 8);
                p.setObject(2, LOW);
                p.addBatch();
                p.setInt(1, 9);
                p.setNull(2, Types.OTHER);
                p.addBatch();
                p.executeBatch();
            }
            Path csv = dir.resolve("e.csv");
            Files.writeString(csv, "10," + HIGH + "\n11,\n");
            s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'");
            Database db = NumacolDriver.database(c);
            try (Appender a = db.appender("e")) {
                a.append(12, A);
                a.append(13, LOW.toString());
            }
            assertThat(uuids(s, "SELECT u FROM e ORDER BY id")).containsExactly(
                    A, HIGH, null, LOW, A, HIGH, LOW, null, HIGH, null, A, LOW, A);
            try (ResultSet rs = s.executeQuery("SELECT u FROM e WHERE id = 2")) {
                assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("UUID");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(HIGH.toString());
                assertThat(rs.getObject(1)).isEqualTo(HIGH);
                assertThat(rs.getObject(1, String.class)).isEqualTo(HIGH.toString());
            }

            assertThatThrownBy(() -> s.execute("INSERT INTO e VALUES (20, UUID '" + A + "'), (21, '123e4567')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("'123e4567' is not a valid UUID");
            Files.writeString(csv, "22," + A + "\n23,123e4567-e89b-12d3-a456-42661417400g\n");
            assertThatThrownBy(() -> s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column u").hasMessageContaining("42661417400g");
            assertThat(rows(s, "SELECT COUNT(*) FROM e")).as("the failed loads stored nothing").containsExactly(List.of(13L));

            assertThat(s.executeUpdate("UPDATE e SET u = '" + LOW + "' WHERE id = 1")).isEqualTo(1);
            assertThatThrownBy(() -> s.execute("UPDATE e SET u = 'zzz' WHERE id = 2")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("zzz");
            assertThat(uuids(s, "SELECT u FROM e WHERE id IN (1, 2) ORDER BY id")).containsExactly(LOW, HIGH);
        }
    }

    @Test
    void theTypeShowsInMetadataAndTakesDefaults() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE p (id INT, u UUID NOT NULL)");
            s.execute("INSERT INTO p VALUES (1, '" + A + "')");
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, "main", "p", "u")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.OTHER);
                assertThat(rs.getString("TYPE_NAME")).startsWith("UUID");
            }
            assertThat(rows(s, "SELECT DISTINCT type FROM sys.columns WHERE table_name = 'p' AND column_name = 'u'"))
                    .containsExactly(List.of("UUID"));
            assertThat(rows(s, "SELECT data_type FROM information_schema.columns WHERE table_name = 'p' AND column_name = 'u'"))
                    .containsExactly(List.of("UUID"));
            s.execute("CREATE TABLE c AS SELECT id, u, CAST('" + HIGH + "' AS UUID) AS lit FROM p");
            assertThat(rows(s, "SELECT DISTINCT column_name, type FROM sys.columns WHERE table_name = 'c' ORDER BY column_name"))
                    .containsExactly(List.of("id", "INTEGER"), List.of("lit", "UUID"), List.of("u", "UUID"));
            assertThat(uuids(s, "SELECT lit FROM c")).containsExactly(HIGH);
            s.execute("ALTER TABLE c ADD COLUMN origin UUID DEFAULT UUID '" + LOW + "'");
            assertThat(uuids(s, "SELECT origin FROM c")).containsExactly(LOW);
        }
    }

    @Test
    void queriesFilterGroupJoinAndOrderThemAsUnsignedNumbers() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=3");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, u UUID)");
            s.execute("INSERT INTO e VALUES (1, '" + A + "'), (2, '" + HIGH + "'), (3, NULL), (4, '" + LOW + "'),"
                    + " (5, '" + A + "'), (6, '" + HIGH + "')");
            assertThat(rows(s, "SELECT id FROM e WHERE u > UUID '" + A + "' ORDER BY id")).containsExactly(List.of(2), List.of(6));
            assertThat(rows(s, "SELECT id FROM e WHERE u = '" + A.toString().toUpperCase(Locale.ROOT) + "' ORDER BY id"))
                    .as("a string compares as the UUID it reads as").containsExactly(List.of(1), List.of(5));
            assertThat(rows(s, "SELECT id FROM e WHERE u IN (UUID '" + LOW + "', UUID '" + HIGH + "') ORDER BY id"))
                    .containsExactly(List.of(2), List.of(4), List.of(6));
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM e WHERE u < ? ORDER BY id")) {
                p.setObject(1, HIGH);
                try (ResultSet rs = p.executeQuery()) {
                    List<Integer> ids = new ArrayList<>();
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                    assertThat(ids).containsExactly(1, 4, 5);
                }
            }
            assertThat(uuids(s, "SELECT u FROM e GROUP BY u ORDER BY u NULLS FIRST")).containsExactly(null, LOW, A, HIGH);
            assertThat(uuids(s, "SELECT MAX(u) FROM e")).containsExactly(HIGH);
            assertThat(uuids(s, "SELECT MIN(u) FROM e WHERE id <> 4")).containsExactly(A);
            assertThat(rows(s, "SELECT COUNT(DISTINCT u) FROM e")).containsExactly(List.of(3L));
            assertThat(rows(s, "SELECT a.id, b.id FROM e a JOIN e b ON a.u = b.u AND a.id < b.id ORDER BY 1"))
                    .containsExactly(List.of(1, 5), List.of(2, 6));
            assertThat(rows(s, "SELECT id FROM e ORDER BY u DESC NULLS LAST, id LIMIT 3"))
                    .containsExactly(List.of(2), List.of(6), List.of(1));
            assertThat(rows(s, "SELECT CAST(u AS VARCHAR) FROM e WHERE id = 1")).containsExactly(List.of(A.toString()));
        }
    }
}
