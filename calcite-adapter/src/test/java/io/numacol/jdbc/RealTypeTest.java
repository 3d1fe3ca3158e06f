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
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * REAL (and FLOAT(p) for p &lt;= 24) columns through every load path and back: values round to
 * the nearest float whichever way they come, read back as Float, and a finite value beyond the
 * float range is refused naming it.
 */
class RealTypeTest {
    @TempDir
    Path dir;

    private static List<Float> floats(Statement s, String sql) throws SQLException {
        List<Float> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                Object v = rs.getObject(1);
                assertThat(v == null || v instanceof Float).as("%s is a Float", v).isTrue();
                out.add((Float) v);
            }
        }
        return out;
    }

    @Test
    void everyLoadPathRoundsToAFloatAndRefusesWhatIsNone() throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE f (id INT, r REAL)");
            s.execute("INSERT INTO f VALUES (1, 0.1), (2, -1.5e10), (3, NULL), (4, 3.4028234e38), (5, 1e-45)");
            s.execute("INSERT INTO f VALUES (6, '2.5')");
            s.execute("INSERT INTO f SELECT id + 100, r FROM f WHERE id = 1");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO f VALUES (?, ?)")) {
                p.setInt(1, 7);
                p.setFloat(2, 1.25f);
                p.execute();
                p.setInt(1, 8);
                p.setDouble(2, 0.2);
                p.execute();
                p.setInt(1, 9);
                p.setBigDecimal(2, new BigDecimal("123456789"));
                p.addBatch();
                p.setInt(1, 10);
                p.setNull(2, Types.REAL);
                p.addBatch();
                p.executeBatch();
                p.setInt(1, 11);
                p.setDouble(2, 1e300);
                assertThatThrownBy(p::execute).isInstanceOf(SQLException.class).hasMessageContaining("1.0E300")
                        .hasMessageContaining("REAL");
            }
            Path csv = dir.resolve("f.csv");
            Files.writeString(csv, "12,0.3\n13,\n14,-0\n15,NaN\n");
            s.execute("COPY f FROM '" + csv.toString().replace("'", "''") + "'");
            Database db = NumacolDriver.database(c);
            try (Appender a = db.appender("f")) {
                a.append(16, 0.7);
                a.append(17, Float.NEGATIVE_INFINITY);
            }
            assertThat(floats(s, "SELECT r FROM f ORDER BY id")).containsExactly(0.1f, -1.5e10f, null, Float.MAX_VALUE,
                    Float.MIN_VALUE, 2.5f, 1.25f, 0.2f, 1.2345679e8f, null, 0.3f, null, 0f, Float.NaN, 0.7f,
                    Float.NEGATIVE_INFINITY, 0.1f);
            try (ResultSet rs = s.executeQuery("SELECT r FROM f WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getFloat(1)).isEqualTo(0.1f);
                assertThat(rs.getDouble(1)).isEqualTo((double) 0.1f);
                assertThat(rs.getString(1)).isEqualTo("0.1");
            }

            assertThatThrownBy(() -> s.execute("INSERT INTO f VALUES (20, 1.5), (21, 1e39)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("1E+39").hasMessageContaining("REAL");
            Files.writeString(csv, "22,1.5\n23,4e38\n");
            assertThatThrownBy(() -> s.execute("COPY f FROM '" + csv.toString().replace("'", "''") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column r").hasMessageContaining("4.0E38");
            Files.writeString(csv, "24,many\n");
            assertThatThrownBy(() -> s.execute("COPY f FROM '" + csv.toString().replace("'", "''") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("many").hasMessageContaining("REAL");
            assertThat(rows(s, "SELECT COUNT(*) FROM f")).as("the failed loads stored nothing").containsExactly(List.of(17L));

            assertThat(s.executeUpdate("UPDATE f SET r = r * 2 WHERE id = 7")).isEqualTo(1);
            assertThat(s.executeUpdate("UPDATE f SET r = 0.4 WHERE id = 3")).isEqualTo(1);
            assertThatThrownBy(() -> s.execute("UPDATE f SET r = r * 1e10 WHERE id = 4")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("3.4028234663852886E48").hasMessageContaining("REAL");
            s.execute("CREATE TABLE d (x DOUBLE)");
            s.execute("INSERT INTO d VALUES (1e300)");
            assertThatThrownBy(() -> s.execute("INSERT INTO f SELECT 30, x FROM d")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("1.0E300").hasMessageContaining("REAL");
            assertThat(floats(s, "SELECT r FROM f WHERE id IN (1, 3, 4, 7) ORDER BY id")).as("untouched rows keep their values")
                    .containsExactly(0.1f, 0.4f, Float.MAX_VALUE, 2.5f);
        }
    }

    @Test
    void spellingsMetadataAndComputedTypes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a REAL, b FLOAT4, c FLOAT(24), d FLOAT(25), e FLOAT)");
            s.execute("INSERT INTO t VALUES (0.1, 0.1, 0.1, 0.1, 0.1)");
            assertThat(rows(s, "SELECT DISTINCT column_name, type FROM sys.columns WHERE table_name = 't' ORDER BY column_name"))
                    .containsExactly(List.of("a", "REAL"), List.of("b", "REAL"), List.of("c", "REAL"), List.of("d", "DOUBLE"),
                            List.of("e", "DOUBLE"));
            assertThat(rows(s, "SELECT data_type FROM information_schema.columns WHERE table_name = 't' AND column_name = 'a'"))
                    .containsExactly(List.of("REAL"));
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, "main", "t", "a")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.REAL);
            }
            try (ResultSet rs = s.executeQuery("SELECT a, d, SUM(a), AVG(a), MIN(a) FROM t GROUP BY a, d")) {
                assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.REAL);
                assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(Types.DOUBLE);
                assertThat(rs.getMetaData().getColumnType(3)).as("SUM of a REAL is a DOUBLE").isEqualTo(Types.DOUBLE);
                assertThat(rs.getMetaData().getColumnType(4)).as("AVG of a REAL is a DOUBLE").isEqualTo(Types.DOUBLE);
                assertThat(rs.getMetaData().getColumnType(5)).isEqualTo(Types.REAL);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1)).isEqualTo(0.1f);
                assertThat(rs.getObject(2)).isEqualTo(0.1);
                assertThat(rs.getObject(3)).isEqualTo((double) 0.1f);
                assertThat(rs.getObject(5)).isEqualTo(0.1f);
            }
            assertThat(rows(s, "SELECT COUNT(*) FROM t WHERE a = d")).as("0.1 as a float is not 0.1 as a double")
                    .containsExactly(List.of(0L));
            assertThat(rows(s, "SELECT COUNT(*) FROM t WHERE a = b AND b = c AND d = e")).containsExactly(List.of(1L));
            assertThatThrownBy(() -> s.execute("CREATE TABLE u (x FLOAT(54))")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("FLOAT");
            s.execute("CREATE TABLE ct AS SELECT a, a * 2 AS twice, CAST(1.5 AS REAL) AS lit FROM t");
            assertThat(rows(s, "SELECT DISTINCT column_name, type FROM sys.columns WHERE table_name = 'ct' ORDER BY column_name"))
                    .containsExactly(List.of("a", "REAL"), List.of("lit", "REAL"), List.of("twice", "REAL"));
            assertThat(rows(s, "SELECT a, twice, lit FROM ct")).containsExactly(List.of(0.1f, 0.2f, 1.5f));
            s.execute("ALTER TABLE ct ADD COLUMN z REAL DEFAULT 0.3");
            assertThat(rows(s, "SELECT z FROM ct")).containsExactly(List.of(0.3f));
        }
    }

    @Test
    void queriesFilterGroupJoinAndOrderThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=3");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, r REAL, d DOUBLE)");
            s.execute("INSERT INTO e VALUES (1, 0.1, 0.1), (2, 0.25, 0.25), (3, NULL, NULL), (4, -7.5, -7.5), (5, 0.1, 0.3),"
                    + " (6, 1e30, 1e30)");
            assertThat(rows(s, "SELECT id FROM e WHERE r > 0.1 ORDER BY id")).containsExactly(List.of(2), List.of(6));
            assertThat(rows(s, "SELECT id FROM e WHERE r = 0.1 ORDER BY id")).as("0.1 rounds to the float as the column's values do")
                    .containsExactly(List.of(1), List.of(5));
            assertThat(rows(s, "SELECT id FROM e WHERE r <= 0.1 ORDER BY id")).containsExactly(List.of(1), List.of(4), List.of(5));
            assertThat(rows(s, "SELECT id FROM e WHERE r BETWEEN -10 AND 0.25 ORDER BY id"))
                    .containsExactly(List.of(1), List.of(2), List.of(4), List.of(5));
            assertThat(rows(s, "SELECT id FROM e WHERE r IN (0.25, -7.5) ORDER BY id")).containsExactly(List.of(2), List.of(4));
            assertThat(rows(s, "SELECT id FROM e WHERE r = d ORDER BY id")).as("exact in both").containsExactly(
                    List.of(2), List.of(4));
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM e WHERE r < ? ORDER BY id")) {
                p.setFloat(1, 0.1f);
                try (ResultSet rs = p.executeQuery()) {
                    List<Integer> ids = new ArrayList<>();
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                    assertThat(ids).containsExactly(4);
                }
            }
            assertThat(rows(s, "SELECT r, COUNT(*) FROM e GROUP BY r ORDER BY r NULLS FIRST")).containsExactly(
                    Arrays.asList(null, 1L), List.of(-7.5f, 1L), List.of(0.1f, 2L), List.of(0.25f, 1L), List.of(1e30f, 1L));
            assertThat(rows(s, "SELECT MIN(r), MAX(r), COUNT(r), SUM(r) FROM e WHERE id <> 6"))
                    .containsExactly(List.of(-7.5f, 0.25f, 4L, (double) 0.1f * 2 + 0.25 - 7.5));
            assertThat(rows(s, "SELECT a.id, b.id FROM e a JOIN e b ON a.r = b.r AND a.id < b.id")).containsExactly(List.of(1, 5));
            assertThat(rows(s, "SELECT id FROM e ORDER BY r DESC NULLS LAST, id LIMIT 3")).containsExactly(List.of(6), List.of(2), List.of(1));
            assertThat(rows(s, "SELECT id, r * 2, r + d FROM e WHERE id = 4")).containsExactly(List.of(4, -15f, -15.0));
            assertThat(rows(s, "SELECT CAST(r AS DOUBLE), CAST(d AS REAL) FROM e WHERE id = 5"))
                    .containsExactly(List.of((double) 0.1f, 0.3f));
        }
    }
}
