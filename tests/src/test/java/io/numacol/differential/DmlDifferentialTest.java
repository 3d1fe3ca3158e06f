package io.numacol.differential;

import io.numacol.tpch.ResultComparison;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded sequences of UPDATE, DELETE and INSERT ... SELECT on {@link RandomTables}, run on numacol
 * and on DuckDB: after each statement both give the same update count (or both refuse it) and
 * the changed table holds the same rows, and queries over it (each way numacol's executors read
 * a part: its deleted rows must never show) answer the same. Tables of several parts
 * (rowsPerPart=700), conditions with NULLs, LIKE, dates and subqueries (correlated too).
 */
class DmlDifferentialTest {
    private static final int STATEMENTS = Integer.getInteger("dml.statements", 40);

    private static final String[] CONDITIONS = {
            "ia > %d", "ia IS NULL", "ib BETWEEN %d AND 10", "vs LIKE 'a%%'", "vs IS NULL OR vs = 'b'",
            "dd < DATE '2022-03-01' + INTERVAL '%d' DAY", "MOD(k, 7) = MOD(%d, 7)", "fd < %d OR dm > 0",
            "ia IN (SELECT s.ib FROM t3 AS s WHERE s.ia > %d)",
            "EXISTS (SELECT 1 FROM t3 AS s WHERE s.k2 = x.k AND s.ib < %d)",
            "NOT (ib > %d) AND dm IS NOT NULL", "k2 > (SELECT AVG(s.k2) FROM t3 AS s) - %d"};

    private static final String[] ASSIGNMENTS = {
            "ib = ib + 1", "ia = ia * 200000", "ib = NULL", "vs = 'u'", "vs = SUBSTRING(vs FROM 1 FOR 1)", "dd = dd + INTERVAL '3' DAY",
            "dm = dm - 1.25", "fd = fd * 2, ib = %d", "k3 = k2, k2 = k3", "ia = (SELECT MAX(s.ib) FROM t3 AS s WHERE s.k = x.k)",
            "ib = CASE WHEN ia > 0 THEN 1 ELSE -1 END"};

    /**
     * Queries over the changed table after each statement, one per way numacol's executors read a
     * part (each must skip the deleted rows): COUNT(*) alone and with a vid filter (summed on the
     * IndexVector where no row is deleted), a vectorized GROUP BY, a row-at-a-time projection, a
     * top-N, a join's build and probe sides, a join with a pushed-down key filter.
     */
    private static final String[] QUERIES = {
            "SELECT COUNT(*), COUNT(ia), SUM(ib) FROM $t",
            "SELECT COUNT(*), SUM(k2) FROM $t WHERE k2 BETWEEN 10 AND 900",
            "SELECT ib, COUNT(*), SUM(dm), MIN(vs), MAX(dd) FROM $t GROUP BY ib",
            "SELECT k, ia + ib, UPPER(vs) FROM $t WHERE fd > 0 OR ia IS NULL",
            "SELECT k, dm FROM $t ORDER BY dm DESC NULLS LAST, k LIMIT 7",
            "SELECT a.k, b.k FROM $t AS a JOIN t3 AS b ON a.k2 = b.k WHERE b.ib > 0",
            "SELECT b.k, COUNT(a.k) FROM t3 AS b LEFT JOIN $t AS a ON a.k3 = b.k3 GROUP BY b.k",
            "SELECT COUNT(*) FROM $t AS a WHERE a.k IN (SELECT s.k2 FROM t3 AS s WHERE s.ia > 0)"};

    @ParameterizedTest
    @ValueSource(longs = {3, 11, 29})
    void updatesAndDeletesLeaveWhatDuckDbLeaves(long seed) throws SQLException {
        try (Connection numacol = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=700");
             Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
            RandomTables.load(numacol, seed, 2500, 1200, 400);
            RandomTables.load(duckdb, seed, 2500, 1200, 400);
            SplittableRandom random = new SplittableRandom(seed);
            long changed = 0;
            int refused = 0;
            for (int i = 0; i < STATEMENTS; i++) {
                String table = random.nextInt(3) == 0 ? "t2" : "t1";
                String where = String.format(CONDITIONS[random.nextInt(CONDITIONS.length)], random.nextInt(-40, 40));
                String sql = switch (random.nextInt(5)) {
                    case 0, 1 -> "DELETE FROM " + table + " AS x WHERE " + where;
                    case 2, 3 -> "UPDATE " + table + " AS x SET "
                            + String.format(ASSIGNMENTS[random.nextInt(ASSIGNMENTS.length)], random.nextInt(-40, 40)) + " WHERE " + where;
                    default -> "INSERT INTO " + table + " SELECT * FROM t3 AS x WHERE " + where;
                };
                String expected = count(duckdb, sql);
                String actual = count(numacol, sql);
                assertThat(actual).as("update count of %s", sql).isEqualTo(expected);
                if (actual.equals("refused")) {
                    refused++;
                } else {
                    changed += Long.parseLong(actual);
                }
                String contents = "SELECT * FROM " + table;
                ResultComparison.assertSameResult(ResultComparison.rows(numacol, contents), ResultComparison.rows(duckdb, contents),
                        new int[0]);
                for (String query : QUERIES) {
                    String q = query.replace("$t", table);
                    ResultComparison.assertSameResult(ResultComparison.rows(numacol, q), ResultComparison.rows(duckdb, q), new int[0]);
                }
            }
            System.out.printf("DML differential, seed %d: %d statements, %d rows changed, %d refused by both%n",
                    seed, STATEMENTS, changed, refused);
            assertThat(changed).as("rows the statements changed").isPositive();
        }
    }

    /** The statement's update count, or "refused" when it fails (then it must fail on both). */
    private static String count(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            return String.valueOf(s.executeLargeUpdate(sql));
        } catch (SQLException e) {
            System.out.println("refused (" + c.getClass().getSimpleName() + "): " + sql + "\n    " + e.getMessage());
            return "refused";
        }
    }
}
