package io.numacol.differential;

import io.numacol.tpch.ResultComparison;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INSERT, UPDATE, DELETE and upserts with RETURNING lists of expressions, run on numacol and on
 * DuckDB (which takes PostgreSQL's RETURNING): each statement answers the same rows on both (as
 * multisets: neither promises an order), and the table holds the same rows after it. Labels are
 * not compared: DuckDB labels an expression by its text, numacol as PostgreSQL does.
 */
class ReturningDifferentialTest {
    private static final String[] STATEMENTS = {
            "INSERT INTO r (id, name, price, qty) VALUES (1, 'apple', 1.25, 3), (2, 'pear', NULL, 0), (3, NULL, 9.99, -2) "
                    + "RETURNING id, price * 2 AS doubled, upper(name), id + 1, CASE WHEN qty > 0 THEN 'y' END, *",
            "INSERT INTO r (id, name, price, qty) SELECT id + 10, name || '-copy', price + 1, qty * 3 FROM r WHERE id < 3 "
                    + "RETURNING r.*, coalesce(price, -1) AS p, position('p' IN name)",
            "UPDATE r SET qty = qty + 5, name = lower(coalesce(name, 'NONE')) WHERE qty <= 3 "
                    + "RETURNING id, qty - 5 AS was, qty, name, CASE WHEN price IS NULL THEN 'no price' ELSE 'priced' END",
            "INSERT INTO r (id, name, price, qty) VALUES (1, 'dup', 5.00, 1), (4, 'new', 2.50, 4) "
                    + "ON CONFLICT (id) DO UPDATE SET qty = r.qty + excluded.qty, price = excluded.price "
                    + "RETURNING id, qty, price * qty AS total, name IS NULL",
            "INSERT INTO r (id, name, price, qty) VALUES (4, 'skip', 0, 0), (5, 'five', 5, 5) ON CONFLICT DO NOTHING "
                    + "RETURNING *, id * 100",
            "DELETE FROM r WHERE id > 10 OR price IS NULL RETURNING id, name, price, -qty, abs(qty - 10)",
    };

    @Test
    void returnedRowsAndTablesAgreeWithDuckDb() throws SQLException {
        try (Connection numacol = DriverManager.getConnection("jdbc:numacol:");
             Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
            for (Connection c : List.of(numacol, duckdb)) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE r (id INTEGER PRIMARY KEY, name VARCHAR(20), price DECIMAL(8,2), qty INTEGER)");
                }
            }
            for (String sql : STATEMENTS) {
                List<List<Object>> expected = ResultComparison.rows(duckdb, sql);
                List<List<Object>> actual = ResultComparison.rows(numacol, sql);
                System.out.printf("%d rows (DuckDB %d): %s%n", actual.size(), expected.size(), sql);
                assertThat(actual).as(sql).isNotEmpty();
                ResultComparison.assertSameResult(actual, expected, new int[0]);
                String table = "SELECT * FROM r";
                ResultComparison.assertSameResult(ResultComparison.rows(numacol, table), ResultComparison.rows(duckdb, table), new int[0]);
            }
        }
    }
}
