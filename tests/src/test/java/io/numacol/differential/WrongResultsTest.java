package io.numacol.differential;

import io.numacol.tpch.ResultComparison;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

/**
 * Queries a random differential run once answered wrongly, minimized, over {@link RandomTables},
 * each followed by others of its class: all four were Calcite planner defects that numacol works
 * around ({@code io.numacol.calcite.plan.CalciteDefects} names them).
 */
class WrongResultsTest {
    private static Connection numacol;
    private static Connection duckdb;

    @BeforeAll
    static void load() throws SQLException {
        numacol = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=700");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        RandomTables.load(numacol, 7, 3000, 2000, 1500);
        RandomTables.load(duckdb, 7, 3000, 2000, 1500);
    }

    @AfterAll
    static void close() throws SQLException {
        numacol.close();
        duckdb.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // 1. a NULL group that the filter above the aggregate removes: a cast that drops nullability
            "SELECT q.c0 FROM (SELECT (t1.k3 + (t1.k + t1.ia)) AS c0 FROM t1 WHERE t1.vs NOT IN ('', 'd')) AS q "
                    + "WHERE COALESCE(q.c0, 14009) <= 9999 GROUP BY q.c0",
            "SELECT COUNT(*) FROM t1 WHERE COALESCE(t1.k3 + t1.ia, 14009) <= 9999",
            "SELECT COUNT(*) FROM t1 WHERE NOT (COALESCE(t1.k3 * t1.ib, 0) > 10)",
            "SELECT t1.k FROM t1 WHERE COALESCE(t1.dm + 1, 5) = 5 OR COALESCE(t1.fd, -1) < -500",
            // 2. EXTRACT compared with a value no date has: only = is false
            "SELECT SUBSTRING(q.c2 FROM 2 FOR 2) AS c0 FROM (SELECT EXTRACT(YEAR FROM t1.dd) AS c0, COUNT(DISTINCT t1.k2) AS c1, "
                    + "CASE WHEN t1.ia > (-819) THEN 'x' ELSE 'y' END AS c2 FROM t1 GROUP BY CASE WHEN t1.ia > (-819) THEN 'x' ELSE 'y' END, "
                    + "EXTRACT(YEAR FROM t1.dd)) AS q WHERE q.c0 NOT BETWEEN (-1527) AND (-1486)",
            "SELECT COUNT(*) FROM t1 WHERE EXTRACT(MONTH FROM t1.dd) <> 13",
            "SELECT COUNT(*) FROM t1 WHERE EXTRACT(YEAR FROM t1.dd) < 10000 AND EXTRACT(DAY FROM t1.dd) > 0",
            "SELECT COUNT(*) FROM t1 WHERE EXTRACT(YEAR FROM t1.dd) = 0",
            "SELECT COUNT(*), MIN(t1.dd) FROM t1 WHERE EXTRACT(YEAR FROM t1.dd) = 2022 AND EXTRACT(MONTH FROM t1.dd) >= 6",
            // 3. an uncorrelated EXISTS beside a correlated subquery: decorrelation dropped its constant key
            "SELECT t1.ib AS c0 FROM t1 LEFT JOIN t2 ON t1.k2 = t2.k WHERE (EXISTS (SELECT 1 FROM t3 AS s1 WHERE s1.ia = s1.fd) "
                    + "OR t1.dd IN (SELECT s2.dd FROM t3 AS s2 WHERE s2.fd IS NOT NULL AND s2.dd = t1.dd)) GROUP BY t1.ib",
            "SELECT COUNT(*) FROM t1 WHERE EXISTS (SELECT 1 FROM t3 AS s1 WHERE s1.ia = s1.fd + 0.5) "
                    + "OR t1.dd IN (SELECT s2.dd FROM t3 AS s2 WHERE s2.fd IS NOT NULL AND s2.dd = t1.dd)",
            "SELECT t1.ib AS c0 FROM t1 LEFT JOIN t2 ON t1.k2 = t2.k WHERE (EXISTS (SELECT 1 FROM t3 AS s1 WHERE s1.ia = s1.fd + 0.5) "
                    + "OR t1.dd IN (SELECT s2.dd FROM t3 AS s2 WHERE s2.fd IS NOT NULL AND s2.dd = t1.dd)) GROUP BY t1.ib",
            "SELECT COUNT(*) FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t3 AS s1 WHERE s1.k > 100000) "
                    + "AND t1.ia IN (SELECT s2.ia FROM t2 AS s2 WHERE s2.ib = t1.ib)",
            "SELECT COUNT(*) FROM t1 WHERE EXISTS (SELECT 1 FROM t3 AS s1 WHERE s1.k > 100000 GROUP BY 'g') "
                    + "OR EXISTS (SELECT 1 FROM t2 AS s2 WHERE s2.k = t1.k2)",
            // 4. a join with a grand total over an empty input taken for a semi-join
            "SELECT t1.dm AS c0 FROM t1 WHERE ((t1.dd + INTERVAL '45' DAY) >= DATE '2022-11-07' OR t1.ib IN (SELECT s2.k3 FROM t2 AS s2 "
                    + "WHERE (NOT (s2.dd = CAST(NULL AS DATE)) AND s2.vs NOT LIKE 'b')))",
            "SELECT t1.dm FROM t1 WHERE t1.ia > 5 OR t1.ib IN (SELECT s2.k3 FROM t2 s2 WHERE 1 = 0)",
            "SELECT t1.k FROM t1 WHERE t1.ia > 900 OR t1.ib NOT IN (SELECT s2.k3 FROM t2 s2 WHERE s2.k < 0)",
            "SELECT t1.k, s.c FROM t1, (SELECT COUNT(*) AS c FROM t2 WHERE t2.k < 0) AS s WHERE t1.ia > 990",
    })
    void agreesWithDuckDb(String sql) throws SQLException {
        List<List<Object>> expected = ResultComparison.rows(duckdb, sql);
        List<List<Object>> actual = ResultComparison.rows(numacol, sql);
        System.out.printf("%d rows (DuckDB %d): %s%n", actual.size(), expected.size(), sql);
        ResultComparison.assertSameResult(actual, expected, new int[0]);
    }
}
