package io.numacol.jdbc;

import io.numacol.database.Appender;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InsertTest {

    @Test
    void insertValuesAndSelect() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int, price decimal(8,2), shipped date, name varchar(5))");
            assertThat(s.executeUpdate("insert into t values (1, 10, 1.5, date '2024-02-29', 'a'), (2, null, 2, null, null)"))
                    .isEqualTo(2);
            assertThat(s.executeUpdate("insert into t (name, id) values ('bb', 3)")).isEqualTo(1);
            assertThat(rows(s, "select id, qty, price, shipped, name from t order by id")).containsExactly(
                    List.of(1L, 10, new BigDecimal("1.50"), Date.valueOf("2024-02-29"), "a"),
                    Arrays.asList(2L, null, new BigDecimal("2.00"), null, null),
                    Arrays.asList(3L, null, null, null, "bb"));

            s.execute("create table u (id bigint not null, qty int, price decimal(8,2), shipped date, name varchar(5))");
            assertThat(s.executeUpdate("insert into u select id + 10, qty, price, shipped, name from t where id < 3")).isEqualTo(2);
            assertThat(s.executeUpdate("insert into u select * from u")).isEqualTo(2);
            assertThat(rows(s, "select count(*), sum(id) from u")).containsExactly(List.of(4L, new BigDecimal("46")));
        }
    }

    @Test
    void readersSeeAllOfAStatementOrNoneOfIt() throws Exception {
        // 1000 rows a part: each 5000-row INSERT publishes five parts, which a reader sees together or not at all
        String url = "jdbc:numacol:mem:atomicInsert;rowsPerPart=1000";
        try (Connection writer = DriverManager.getConnection(url); Statement w = writer.createStatement();
             Connection reader = DriverManager.getConnection(url); Statement r = reader.createStatement()) {
            w.execute("create table src (x int)");
            try (Appender a = NumacolDriver.database(writer).appender("src")) {
                for (int i = 0; i < 5000; i++) {
                    a.append(i);
                }
            }
            w.execute("create table t (x int)");
            CompletableFuture<Void> inserts = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < 10; i++) {
                        w.executeUpdate("insert into t select x from src");
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            List<Long> seen = new ArrayList<>();
            while (!inserts.isDone()) {
                seen.add((Long) rows(r, "select count(*) from t").getFirst().getFirst());
            }
            inserts.join();
            assertThat(seen).allSatisfy(n -> assertThat(n % 5000).isZero());
            assertThat(rows(r, "select count(*) from t")).containsExactly(List.of(50_000L));
        }
    }

    @Test
    void aBadValueFailsTheStatementAndStoresNothing() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int, name varchar(3))");
            s.executeUpdate("insert into t values (1, 1, 'a')");
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (2, 2, 'b'), (null, 3, 'c')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("null value in column \"id\" of relation \"t\" violates not-null constraint");
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (2, 2, 'b'), (3, 3, 'toolong')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("value 'toolong' is longer than VARCHAR(3)");
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (2, 'abc', 'b')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("'abc' is not a number");
            // INSERT ... SELECT: numacol checks the values themselves, so a long one is refused, not cut
            s.execute("create table src (id bigint, name varchar(10))");
            s.executeUpdate("insert into src values (5, 'ok'), (6, 'too long')");
            assertThatThrownBy(() -> s.executeUpdate("insert into t (id, name) select id, name from src"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("row 2 of table t: column name: 'too long'");
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (2, 3000000000, 'b')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("3000000000");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(1L));
        }
    }

    /**
     * 5,000 rows of literals in one statement are stored as they are (Calcite's plan for them
     * compiled too large a method and failed), every type, NULLs and negative numbers included;
     * statements of literal rows also run in a batch and as prepared statements.
     */
    @Test
    void manyLiteralRowsInOneStatement() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int, price decimal(8,2), shipped date, name varchar(5), "
                    + "ok boolean, x double)");
            StringBuilder insert = new StringBuilder("insert into t values ");
            long ids = 0;
            long qty = 0;
            BigDecimal prices = BigDecimal.ZERO;
            for (int i = 0; i < 5000; i++) {
                int q = i % 3 == 0 ? -i : i;
                String price = (i % 100) + "." + (i % 10);
                insert.append(i == 0 ? "" : ", ").append("(").append(i).append(", ").append(i % 7 == 0 ? "null" : q)
                        .append(", ").append(price).append(", date '2024-01-").append(String.format("%02d", 1 + i % 28))
                        .append("', 'n").append(i % 1000).append("', ").append(i % 2 == 0).append(", ").append(i).append(".25e0)");
                ids += i;
                qty += i % 7 == 0 ? 0 : q;
                prices = prices.add(new BigDecimal(price));
            }
            assertThat(s.executeUpdate(insert.toString())).isEqualTo(5000);
            assertThat(rows(s, "select count(*), sum(id), sum(qty), sum(price), count(qty), count(*) filter (where ok), "
                    + "max(shipped), max(name), sum(x) from t")).containsExactly(List.of(5000L, BigDecimal.valueOf(ids), qty, prices.setScale(2),
                    5000L - 715, 2500L, Date.valueOf("2024-01-28"), "n999", 5000 * 4999 / 2 + 1250.0));

            s.addBatch("insert into t (id, name) values (-1, 'b1'), (-2, 'b2')");
            s.addBatch("insert into t (id) values (-3)");
            assertThat(s.executeBatch()).containsExactly(2, 1);
            try (var p = c.prepareStatement("insert into t (name, id) values ('p', -4)")) {
                assertThat(p.executeUpdate()).isEqualTo(1);
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            assertThat(rows(s, "select count(*), sum(id), count(name) from t where id < 0"))
                    .containsExactly(List.of(5L, new BigDecimal("-14"), 4L));
            try (var p = c.prepareStatement("insert into t (id) values (-5)")) {
                s.execute("drop table t");
                s.execute("create table t (id bigint not null)");
                // planned again against the table of that name now, as PostgreSQL does
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            assertThat(rows(s, "select count(*), sum(id) from t")).containsExactly(List.of(1L, new BigDecimal("-5")));
        }
    }

    /** Literal rows take the connection's schema and the validator's limits, as planned ones do. */
    @Test
    void literalRowsKeepThePlannersRules() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (x double, y decimal(6,2))");
            assertThat(s.executeUpdate("insert into t values (-1.5, -2), (-2.5e0, 3.25), (0, null)")).isEqualTo(3);
            assertThat(rows(s, "select sum(x), sum(y) from t")).containsExactly(List.of(-4.0, new BigDecimal("1.25")));
            assertThatThrownBy(() -> s.executeUpdate("insert into t (x) values (3.14159265358979323846264338327950288419)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("out of range");
            c.setSchema("sys");
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (1, 1)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("'t' not found");
            c.setSchema("main");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(3L));
        }
    }

    @Test
    void longerLiteralsInQueriesAreComparisonsNotAssignments() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (name varchar(5), code char(3))");
            s.executeUpdate("insert into t values ('abc', 'x')");
            assertThat(rows(s, "select count(*) from t where name = 'toolongvalue'")).containsExactly(List.of(0L));
            assertThat(rows(s, "select count(*) from t where code = 'abcdef'")).containsExactly(List.of(0L));
            assertThat(rows(s, "select count(*) from t where code <> 'abcdef'")).containsExactly(List.of(1L));
        }
    }

}
