package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BatchInsertTest {

    @Test
    void batchedInsertsGoThroughTheAppender() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int, name varchar(10), shipped date)");
            PreparedStatement p = c.prepareStatement("insert into t (name, id, shipped) values (?, ?, ?)");
            for (int i = 0; i < 5; i++) {
                p.setString(1, "n" + i);
                p.setLong(2, i);
                p.setDate(3, java.sql.Date.valueOf("2024-01-0" + (i + 1)));
                p.addBatch();
            }
            assertThat(p.executeBatch()).containsExactly(1, 1, 1, 1, 1);
            assertThat(rows(s, "select id, qty, name, shipped from t where id = 4"))
                    .containsExactly(Arrays.asList(4L, null, "n4", java.sql.Date.valueOf("2024-01-05")));
            // one part per batch, not one per row
            assertThat(NumacolDriver.database(c).catalog().get("t").parts()).hasSize(1);
        }
    }

    @Test
    void aBadRowFailsTheWholeBatchNamingIt() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int)");
            PreparedStatement p = c.prepareStatement("insert into t values (?, ?)");
            p.setLong(1, 1);
            p.setInt(2, 1);
            p.addBatch();
            p.setLong(1, 2);
            p.setLong(2, 3_000_000_000L);
            p.addBatch();
            assertThatThrownBy(p::executeBatch).isInstanceOf(SQLException.class)
                    .hasMessageContaining("row 2 of table t: parameter 2 (INTEGER, column qty): value 3000000000 is out of range");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(0L));
            // the statement stays usable, and a plain execute takes the planned path
            p.setLong(1, 7);
            p.setInt(2, 8);
            assertThat(p.executeUpdate()).isEqualTo(1);
            assertThat(rows(s, "select id, qty from t")).containsExactly(List.of(7L, 8));
        }
    }

    @Test
    void otherBatchesRunAsCalciteRunsThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint, qty int)");
            PreparedStatement p = c.prepareStatement("insert into t values (?, ? + 1)");
            for (int i = 0; i < 3; i++) {
                p.setLong(1, i);
                p.setInt(2, i);
                p.addBatch();
            }
            assertThat(p.executeBatch()).containsExactly(1, 1, 1);
            assertThat(rows(s, "select sum(qty) from t")).containsExactly(List.of(6));
        }
    }

    /** Not a benchmark: prints the rows per second of a narrow batched load, for the record. */
    @Test
    void narrowRowsPerSecond() throws SQLException {
        int rows = 200_000;
        int batch = 50_000;
        Random random = new Random(42);
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint, qty int)");
            PreparedStatement p = c.prepareStatement("insert into t values (?, ?)");
            long start = System.nanoTime();
            for (int i = 0; i < rows; i++) {
                p.setLong(1, i);
                p.setInt(2, random.nextInt(1000));
                p.addBatch();
                if ((i + 1) % batch == 0) {
                    p.executeBatch();
                }
            }
            long nanos = System.nanoTime() - start;
            System.out.printf("numacol batched insert: %d rows of (BIGINT, INT) in %.2f s = %.0f rows/s%n",
                    rows, nanos / 1e9, rows / (nanos / 1e9));
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of((long) rows));
        }
    }
}
