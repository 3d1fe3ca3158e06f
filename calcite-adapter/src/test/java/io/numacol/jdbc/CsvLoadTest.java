package io.numacol.jdbc;

import io.numacol.database.CsvFormat;
import io.numacol.database.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvLoadTest {

    @TempDir
    Path dir;

    @Test
    void copyFromSqlWithHeaderQuotesAndNulls() throws SQLException, IOException {
        Path csv = dir.resolve("items.csv");
        Files.writeString(csv, """
                id;name;price;shipped;ok
                1;"semi;colon";1.50;2024-01-02;true
                2;"say ""hi""\r\nagain";;;false
                3;;2;2024-03-04;
                """);
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table items (id int not null, name varchar(20), price decimal(6,2), shipped date, ok boolean)");
            s.execute("COPY items FROM '" + csv.toString().replace("'", "''") + "' WITH (HEADER true, DELIMITER ';')");
            assertThat(rows(s, "select id, name, price, shipped, ok from items order by id")).containsExactly(
                    List.of(1, "semi;colon", new BigDecimal("1.50"), Date.valueOf("2024-01-02"), true),
                    Arrays.asList(2, "say \"hi\"\r\nagain", null, null, false),
                    Arrays.asList(3, null, new BigDecimal("2.00"), Date.valueOf("2024-03-04"), null));
        }
    }

    @Test
    void aMalformedLineFailsTheWholeLoad() throws SQLException, IOException {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "1,10\n2,20\n3,x3\n4,40\n");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint, qty int)");
            assertThatThrownBy(() -> s.execute("copy t from '" + csv + "'")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("line 3: column qty: value 'x3' is not a valid INTEGER");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(0L));
            assertThatThrownBy(() -> s.execute("copy t from '" + dir.resolve("missing.csv") + "'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("missing.csv");
            assertThatThrownBy(() -> s.execute("copy t from '" + csv + "' with (colour red)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("unknown COPY option 'colour'");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 1000})
    void copyAnswersTheRowsItLoaded(int rows) throws SQLException, IOException {
        Path csv = dir.resolve("n.csv");
        StringBuilder text = new StringBuilder("id,qty\n");
        for (int i = 0; i < rows; i++) {
            text.append(i).append(',').append(i % 7).append('\n');
        }
        Files.writeString(csv, text);
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint, qty int)");
            String copy = "copy t from '" + csv + "' with (header true)";
            assertThat(s.executeUpdate(copy)).isEqualTo(rows);
            assertThat(s.execute(copy)).isFalse();
            assertThat(s.getUpdateCount()).isEqualTo(rows);
            s.addBatch(copy);
            s.addBatch("insert into t values (-1, -1)");
            s.addBatch(copy);
            assertThat(s.executeBatch()).containsExactly(rows, 1, rows);
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(4L * rows + 1));
            // other DDL still answers 0
            assertThat(s.executeUpdate("create table u (x int)")).isZero();
            assertThat(s.executeUpdate("drop table u")).isZero();
        }
    }

    /** Tools prepare every statement: prepared DDL runs when executed, once per execution, never when prepared. */
    @Test
    void preparedDdlRunsWhenExecuted() throws SQLException, IOException {
        Path csv = dir.resolve("two.csv");
        Files.writeString(csv, "1,10\n2,20\n");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            try (PreparedStatement create = c.prepareStatement("create table t (id bigint, qty int)")) {
                assertThat(NumacolDriver.database(c).catalog().find("t")).as("not at prepare").isEmpty();
                create.executeUpdate();
            }
            try (PreparedStatement copy = c.prepareStatement("copy t from '" + csv + "'")) {
                assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(0L));
                assertThat(copy.executeUpdate()).isEqualTo(2);
                assertThat(copy.executeUpdate()).isEqualTo(2);
            }
            assertThat(rows(s, "select count(*), sum(qty) from t")).containsExactly(List.of(4L, 60L));
            assertThatThrownBy(() -> c.prepareStatement("copy t frm 'x.csv'")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("frm");
        }
    }

    @Test
    void loadFromJava() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint, qty int)");
            Database db = NumacolDriver.database(c);
            long n = db.appender("t").appendCsv(new StringReader("id,qty\n1,2\n3,4\n"), CsvFormat.defaults().withHeader(true));
            assertThat(n).isEqualTo(2);
            assertThatThrownBy(() -> db.appender("t").appendCsv(new StringReader("5,6\n7,3000000000\n"), CsvFormat.defaults()))
                    .hasMessageContaining("line 2").hasMessageContaining("column qty").hasMessageContaining("3000000000");
            assertThatThrownBy(() -> db.appender("t").appendCsv(new StringReader("5,6\n7\n"), CsvFormat.defaults()))
                    .hasMessageContaining("line 2: table t has 2 columns but the line has 1 fields");
            assertThat(rows(s, "select sum(id), sum(qty) from t")).containsExactly(List.of(new BigDecimal("4"), 6L));
        }
    }
}
