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
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TINYINT and SMALLINT columns through every load path (literal INSERT, prepared parameters,
 * COPY, the Appender) and back (getObject as Byte and Short, metadata, sys), with their ranges
 * checked and named, and read by filters, grouping, joins and sums.
 */
class SmallIntegerTypesTest {
    @TempDir
    Path dir;

    @Test
    void everyLoadPathStoresTheRangeAndRefusesWhatLiesBeyondIt() throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT, s SMALLINT, b TINYINT)");
            s.execute("INSERT INTO t VALUES (1, 32767, -128), (2, -32768, 127), (3, NULL, NULL)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                p.setInt(1, 4);
                p.setShort(2, (short) -7);
                p.setByte(3, (byte) 9);
                p.execute();
                p.setInt(1, 5);
                p.setObject(2, 300);
                p.setLong(3, -1);
                p.execute();
                p.setInt(1, 6);
                p.setInt(2, 40000);
                p.setNull(3, Types.TINYINT);
                assertThatThrownBy(p::execute).isInstanceOf(SQLException.class).hasMessageContaining("40000")
                        .hasMessageContaining("out of range");
            }
            Path csv = dir.resolve("t.csv");
            Files.writeString(csv, "7,12,-3\n8,,\n");
            s.execute("COPY t FROM '" + csv.toString().replace("'", "''") + "'");
            Database db = NumacolDriver.database(c);
            try (Appender a = db.appender("t")) {
                a.append(9, (short) 1000, (byte) 100);
                a.append(10, 2000L, 5);
            }
            assertThat(rows(s, "SELECT id, s, b FROM t ORDER BY id")).containsExactly(
                    List.of(1, (short) 32767, (byte) -128), List.of(2, (short) -32768, (byte) 127), Arrays.asList(3, null, null),
                    List.of(4, (short) -7, (byte) 9), List.of(5, (short) 300, (byte) -1), List.of(7, (short) 12, (byte) -3),
                    Arrays.asList(8, null, null), List.of(9, (short) 1000, (byte) 100), List.of(10, (short) 2000, (byte) 5));

            assertThatThrownBy(() -> s.execute("INSERT INTO t VALUES (11, 1, 1), (12, 1, 128)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("row 2 of table t: column b: value 128 is out of range for TINYINT");
            Files.writeString(csv, "13,1,1\n14,32768,1\n");
            assertThatThrownBy(() -> s.execute("COPY t FROM '" + csv.toString().replace("'", "''") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column s")
                    .hasMessageContaining("value 32768 is out of range for SMALLINT");
            assertThatThrownBy(() -> s.execute("UPDATE t SET b = b + 100 WHERE id = 2")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("out of range");
            assertThat(rows(s, "SELECT COUNT(*), MIN(b), MAX(s) FROM t")).containsExactly(List.of(9L, (byte) -128, (short) 32767));
        }
    }

    @Test
    void queriesFilterGroupJoinAndSumThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=3");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT, s SMALLINT, b TINYINT)");
            s.execute("INSERT INTO t VALUES (1, 30000, 100), (2, 30000, -100), (3, 5, 5), (4, NULL, 5), (5, -2, 127), (6, 100, 1)");
            assertThat(rows(s, "SELECT id FROM t WHERE s > 10 AND b < 50 ORDER BY id")).containsExactly(List.of(2), List.of(6));
            assertThat(rows(s, "SELECT id FROM t WHERE b IN (127, 5, 1000) ORDER BY id")).containsExactly(List.of(3), List.of(4), List.of(5));
            assertThat(rows(s, "SELECT id FROM t WHERE s = 40000")).isEmpty();
            assertThat(rows(s, "SELECT s, COUNT(*) FROM t GROUP BY s ORDER BY s NULLS FIRST")).containsExactly(
                    Arrays.asList(null, 1L), List.of((short) -2, 1L), List.of((short) 5, 1L), List.of((short) 100, 1L),
                    List.of((short) 30000, 2L));
            // a sum of SMALLINTs is a BIGINT: 60000 is beyond a SMALLINT
            assertThat(rows(s, "SELECT SUM(s), SUM(b) FROM t")).containsExactly(List.of(60103L, 138L));
            try (ResultSet rs = s.executeQuery("SELECT SUM(s) FROM t")) {
                assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.BIGINT);
            }
            assertThat(rows(s, "SELECT a.id, b.id FROM t a JOIN t b ON a.s = b.b ORDER BY a.id, b.id")).containsExactly(
                    List.of(3, 3), List.of(3, 4), List.of(6, 1));
            assertThat(rows(s, "SELECT s * 2, s * CAST(2 AS SMALLINT) FROM t WHERE id = 3")).containsExactly(List.of(10, (short) 10));
            assertThatThrownBy(() -> rows(s, "SELECT s + s FROM t WHERE id = 1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("SMALLINT overflow");
        }
    }

    /**
     * Arithmetic under a window function, and window sums, run in Calcite's generated code, which
     * added Java ints and shorts and wrapped: 2000000000 + 2000000000 gave -294967296 ({@code
     * CheckedArithmetic}).
     */
    @Test
    void integerArithmeticThatCalciteRunsFailsOnOverflowAsNumacolsDoes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT, i INT, s SMALLINT, b BIGINT)");
            s.execute("INSERT INTO t VALUES (1, 2000000000, 30000, 9000000000000000000)");
            for (String e : List.of("i + i", "s + CAST(s AS SMALLINT)", "b * 2", "i * i", "-b - b")) {
                String sql = "SELECT " + e + ", ROW_NUMBER() OVER (ORDER BY id) FROM t";
                assertThatThrownBy(() -> rows(s, sql)).as(sql).isInstanceOf(SQLException.class).hasMessageContaining("overflow");
                assertThatThrownBy(() -> rows(s, "SELECT " + e + " FROM t")).as(e).isInstanceOf(SQLException.class)
                        .hasMessageContaining("overflow");
            }
            assertThat(rows(s, "SELECT i - 1, s * 1, -s, i / 2, ROW_NUMBER() OVER (ORDER BY id) FROM t"))
                    .containsExactly(List.of(1999999999, 30000, (short) -30000, 1000000000, 1L));
            // constants the planner folds: its generated code folded -CAST(-2147483648 AS INTEGER) to itself
            assertThatThrownBy(() -> rows(s, "SELECT -CAST(-2147483648 AS INTEGER)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("overflow");
            assertThat(rows(s, "SELECT 5 + 3, -CAST(-2147483647 AS INTEGER), 7 / 2")).containsExactly(List.of(8, 2147483647, 3));
            // window sums: Calcite's window code added in the argument's type and wrapped; a SUM of INTEGERs is a BIGINT
            s.execute("INSERT INTO t VALUES (2, 2000000000, 30000, 1)");
            assertThat(rows(s, "SELECT SUM(i) OVER () FROM t")).containsExactly(List.of(4000000000L), List.of(4000000000L));
            assertThat(rows(s, "SELECT SUM(s) OVER (), SUM(i) OVER (PARTITION BY id), AVG(i) OVER (PARTITION BY id) FROM t ORDER BY id"))
                    .containsExactly(List.of(60000L, 2000000000L, 2.0E9), List.of(60000L, 2000000000L, 2.0E9));
        }
    }

    @Test
    void metadataAndSysNameTheTypes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (s INT2, b INT1 NOT NULL)");
            s.execute("INSERT INTO t VALUES (1, 2)"); // sys.columns shows the columns of parts
            DatabaseMetaData meta = c.getMetaData();
            try (ResultSet rs = meta.getColumns(null, null, "t", null)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.SMALLINT);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.TINYINT);
            }
            assertThat(rows(s, "SELECT column_name, type FROM sys.columns WHERE table_name = 't' AND part = 0 ORDER BY \"ordinal\"")).containsExactly(
                    List.of("s", "SMALLINT"), List.of("b", "TINYINT"));
            assertThat(rows(s, "SELECT data_type FROM information_schema.columns WHERE table_name = 't' ORDER BY ordinal_position"))
                    .containsExactly(List.of("SMALLINT"), List.of("TINYINT"));
        }
    }
}
