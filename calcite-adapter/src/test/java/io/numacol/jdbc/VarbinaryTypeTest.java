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
import java.util.HexFormat;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * VARBINARY (BLOB, BYTEA) columns through every load path (literal INSERT, INSERT ... SELECT,
 * prepared parameters, a batch, COPY's {@code \x} hex text, the Appender, UPDATE) and back
 * (getBytes, getObject, metadata, sys, information_schema), ordered as unsigned bytes, with
 * lengths checked in bytes.
 */
class VarbinaryTypeTest {
    @TempDir
    Path dir;

    private static byte[] hex(String digits) {
        return HexFormat.of().parseHex(digits);
    }

    /** Column 1 of each row as hex digits (null for NULL). */
    private static List<String> hexes(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                byte[] b = rs.getBytes(1);
                out.add(b == null ? null : HexFormat.of().formatHex(b));
            }
        }
        return out;
    }

    @Test
    void everyLoadPathStoresTheBytesAndRefusesWhatDoesNotFit() throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, b VARBINARY(4))");
            s.execute("INSERT INTO e VALUES (1, X'0102'), (2, X''), (3, NULL), (4, X'ff00ff80')");
            s.execute("INSERT INTO e SELECT id + 100, b FROM e WHERE id = 4");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO e VALUES (?, ?)")) {
                p.setInt(1, 5);
                p.setBytes(2, hex("00"));
                p.execute();
                p.setInt(1, 6);
                p.setBytes(2, hex("0102030405"));
                assertThatThrownBy(p::execute).isInstanceOf(SQLException.class).hasMessageContaining("5 bytes")
                        .hasMessageContaining("VARBINARY(4)");
                p.setInt(1, 7);
                p.setString(2, "text");
                assertThatThrownBy(p::execute).isInstanceOf(SQLException.class).hasMessageContaining("setBytes");
                p.setInt(1, 8);
                p.setBytes(2, hex("7f"));
                p.addBatch();
                p.setInt(1, 9);
                p.setNull(2, Types.VARBINARY);
                p.addBatch();
                p.executeBatch();
            }
            Path csv = dir.resolve("e.csv");
            Files.writeString(csv, "10,\\xDEADbeef\n11,\n12,\\x\n");
            s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'");
            Database db = NumacolDriver.database(c);
            try (Appender a = db.appender("e")) {
                a.append(13, hex("80"));
            }
            assertThat(hexes(s, "SELECT b FROM e ORDER BY id")).containsExactly(
                    "0102", "", null, "ff00ff80", "00", "7f", null, "deadbeef", null, "", "80", "ff00ff80");
            try (ResultSet rs = s.executeQuery("SELECT b FROM e WHERE id = 1")) {
                assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.VARBINARY);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1)).isEqualTo(hex("0102"));
                assertThat(rs.getObject(1, byte[].class)).isEqualTo(hex("0102"));
            }

            assertThatThrownBy(() -> s.execute("INSERT INTO e VALUES (20, X'01'), (21, X'0102030405')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("X'0102030405'").hasMessageContaining("VARBINARY(4)");
            assertThatThrownBy(() -> s.execute("INSERT INTO e SELECT 22, X'0102030405' FROM e WHERE id = 1"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("5 bytes").hasMessageContaining("VARBINARY(4)");
            Files.writeString(csv, "23,\\x01\n24,0102\n");
            assertThatThrownBy(() -> s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column b").hasMessageContaining("0102");
            Files.writeString(csv, "25,\\x0g\n");
            assertThatThrownBy(() -> s.execute("COPY e FROM '" + csv.toString().replace("'", "''") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("hex");
            assertThat(rows(s, "SELECT COUNT(*) FROM e")).as("the failed loads stored nothing").containsExactly(List.of(12L));

            assertThat(s.executeUpdate("UPDATE e SET b = X'aa' WHERE id = 3")).isEqualTo(1);
            assertThatThrownBy(() -> s.execute("UPDATE e SET b = X'0102030405' WHERE id = 1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("VARBINARY(4)");
            assertThat(hexes(s, "SELECT b FROM e WHERE id IN (1, 3) ORDER BY id")).containsExactly("0102", "aa");
        }
    }

    @Test
    void spellingsLengthsAndMetadata() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE p (id INT, v VARBINARY(3), l BLOB, y BYTEA, w BINARY VARYING(2), u VARBINARY)");
            assertThatThrownBy(() -> s.execute("CREATE TABLE q (b BINARY(4))")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("VARBINARY(n)");
            byte[] big = new byte[100_000];
            for (int i = 0; i < big.length; i++) {
                big[i] = (byte) i;
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO p (id, l) VALUES (?, ?)")) {
                p.setInt(1, 1);
                p.setBytes(2, big);
                p.execute();
            }
            try (ResultSet rs = s.executeQuery("SELECT l, OCTET_LENGTH(l) FROM p")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBytes(1)).isEqualTo(big);
                assertThat(rs.getInt(2)).isEqualTo(big.length);
            }
            assertThat(rows(s, "SELECT column_name, type FROM sys.columns WHERE table_name = 'p' AND part = 0 ORDER BY \"ordinal\""))
                    .containsExactly(List.of("id", "INTEGER"), List.of("v", "VARBINARY(3)"), List.of("l", "VARBINARY(2147483647)"),
                            List.of("y", "VARBINARY(2147483647)"), List.of("w", "VARBINARY(2)"), List.of("u", "VARBINARY(2147483647)"));
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, "main", "p", "v")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.VARBINARY);
            }
            assertThat(rows(s, "SELECT data_type, character_maximum_length FROM information_schema.columns"
                    + " WHERE table_name = 'p' AND column_name = 'v'")).containsExactly(List.of("VARBINARY", 3));
            s.execute("CREATE TABLE c AS SELECT id, l, X'0a0b' AS lit FROM p");
            assertThat(rows(s, "SELECT column_name, type FROM sys.columns WHERE table_name = 'c' AND part = 0 ORDER BY \"ordinal\""))
                    .containsExactly(List.of("id", "INTEGER"), List.of("l", "VARBINARY(2147483647)"), List.of("lit", "VARBINARY(2)"));
            assertThat(hexes(s, "SELECT lit FROM c")).containsExactly("0a0b");
            s.execute("ALTER TABLE c ADD COLUMN tag VARBINARY(2) DEFAULT X'beef'");
            assertThat(hexes(s, "SELECT tag FROM c")).containsExactly("beef");
        }
    }

    @Test
    void queriesFilterGroupJoinAndOrderThemAsUnsignedBytes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=3");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE e (id INT, b VARBINARY(8))");
            s.execute("INSERT INTO e VALUES (1, X'01'), (2, X'80'), (3, NULL), (4, X''), (5, X'0100'), (6, X'80'), (7, X'ff')");
            assertThat(rows(s, "SELECT id FROM e WHERE b > X'7f' ORDER BY id")).as("0x80 is 128, not -128")
                    .containsExactly(List.of(2), List.of(6), List.of(7));
            assertThat(rows(s, "SELECT id FROM e WHERE b = X'80' ORDER BY id")).containsExactly(List.of(2), List.of(6));
            assertThat(rows(s, "SELECT id FROM e WHERE b IN (X'', X'0100') ORDER BY id")).containsExactly(List.of(4), List.of(5));
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM e WHERE b < ? ORDER BY id")) {
                p.setBytes(1, hex("0101"));
                try (ResultSet rs = p.executeQuery()) {
                    List<Integer> ids = new ArrayList<>();
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                    assertThat(ids).containsExactly(1, 4, 5);
                }
            }
            assertThat(hexes(s, "SELECT b FROM e GROUP BY b ORDER BY b NULLS FIRST"))
                    .containsExactly(null, "", "01", "0100", "80", "ff");
            assertThat(hexes(s, "SELECT MAX(b) FROM e")).containsExactly("ff");
            assertThat(hexes(s, "SELECT MIN(b) FROM e WHERE id <> 4")).containsExactly("01");
            assertThat(rows(s, "SELECT a.id, b.id FROM e a JOIN e b ON a.b = b.b AND a.id < b.id")).containsExactly(List.of(2, 6));
            assertThat(rows(s, "SELECT id FROM e ORDER BY b DESC NULLS LAST, id LIMIT 3"))
                    .containsExactly(List.of(7), List.of(2), List.of(6));
            assertThat(hexes(s, "SELECT SUBSTRING(b FROM 2 FOR 1) FROM e WHERE id = 5")).containsExactly("00");
            assertThat(hexes(s, "SELECT b || X'aa' FROM e WHERE id = 2")).containsExactly("80aa");
        }
    }
}
