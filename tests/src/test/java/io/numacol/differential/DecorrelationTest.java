package io.numacol.differential;

import io.numacol.tpch.ResultComparison;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * numacol's decorrelator ({@code io.numacol.calcite.plan.Decorrelator}) over every operator it
 * pushes the correlation values through, each query answered as DuckDB answers it and planned
 * without a Correlate: filters that bind every value by =, some of them, or none (a comparison,
 * a floating =), projections, grouped and scalar aggregates with and without COUNT, joins of
 * every kind with the variable on either side or in the condition, set operations, a sort,
 * subqueries inside subqueries, and correlation values that are NULL.
 */
class DecorrelationTest {
    private static Connection numacol;
    private static Connection duckdb;

    @BeforeAll
    static void load() throws SQLException {
        numacol = DriverManager.getConnection("jdbc:numacol:mem:decorrelation;rowsPerPart=700");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        RandomTables.load(numacol, 11, 1200, 900, 600);
        RandomTables.load(duckdb, 11, 1200, 900, 600);
    }

    @AfterAll
    static void close() throws SQLException {
        numacol.close();
        duckdb.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // a filter binding the value by = (no D), a scalar aggregate without COUNT (the join goes LEFT)
            "SELECT t1.k, (SELECT MAX(s.ia) FROM t2 s WHERE s.k2 = t1.k2) AS m FROM t1",
            "SELECT t1.k FROM t1 WHERE t1.ia > (SELECT AVG(s.dm) FROM t2 s WHERE s.ib = t1.ib)", // AVG of integers truncates in Calcite
            "SELECT t1.k, (SELECT 2 * SUM(s.dm) FROM t2 s WHERE s.k3 = t1.k3) AS m FROM t1",
            // COUNT over no rows is 0: D left-joined with the grouped aggregate
            "SELECT t1.k, (SELECT COUNT(*) FROM t2 s WHERE s.k2 = t1.k2) AS n FROM t1",
            "SELECT t1.k FROM t1 WHERE (SELECT COUNT(s.ia) FROM t2 s WHERE s.ib = t1.ib AND s.ia > 0) = 0",
            "SELECT t1.k, (SELECT COALESCE(MAX(s.ia), -1) FROM t2 s WHERE s.k2 = t1.k2) AS m FROM t1",
            // some values bound by =, one compared otherwise: joined with D on the bound one
            "SELECT t1.k FROM t1 WHERE EXISTS (SELECT 1 FROM t2 s WHERE s.k2 = t1.k2 AND s.ia <> t1.ia)",
            "SELECT t1.k, (SELECT COUNT(*) FROM t2 s WHERE s.ib = t1.ib AND s.ia < t1.ia) AS n FROM t1",
            // no = at all: a product with D
            "SELECT t1.k FROM t1 WHERE t1.ia < (SELECT MIN(s.ia) FROM t3 s WHERE s.ib > t1.ib)",
            // a floating =: not bound (-0.0 = 0.0), still right
            "SELECT t1.k FROM t1 WHERE EXISTS (SELECT 1 FROM t2 s WHERE s.fd = t1.fd)",
            // NULL correlation values: an empty subquery, NOT IN TRUE (Decorrelator)
            "SELECT t1.k FROM t1 WHERE t1.ia NOT IN (SELECT s.ia FROM t2 s WHERE s.k3 = t1.k3 AND s.ia IS NOT NULL)",
            "SELECT a0.k FROM t1 a0 LEFT JOIN t2 a1 ON a0.k3 = a1.k3 WHERE a1.k NOT IN (SELECT s.k FROM t3 s WHERE s.k3 = a0.k3)",
            "SELECT t1.k, t1.k3 IN (SELECT s.k3 FROM t2 s WHERE s.ib = t1.ib) AS i FROM t1",
            // the variable in a projection and a grouped aggregate
            "SELECT t1.k FROM t1 WHERE t1.ia IN (SELECT s.ia + t1.ib FROM t2 s WHERE s.k2 = t1.k2)",
            "SELECT t1.k FROM t1 WHERE EXISTS (SELECT s.ib, COUNT(*) FROM t2 s WHERE s.k3 = t1.k3 GROUP BY s.ib HAVING COUNT(*) > 1)",
            // joins inside the subquery: correlated on one side, the other, or in the condition
            "SELECT t1.k FROM t1 WHERE EXISTS (SELECT 1 FROM t2 s JOIN t3 u ON s.k = u.k2 WHERE s.k2 = t1.k2)",
            "SELECT t1.k FROM t1 WHERE EXISTS (SELECT 1 FROM t2 s JOIN t3 u ON s.k = u.k2 AND u.ib = t1.ib)",
            "SELECT t1.k, (SELECT COUNT(u.k) FROM t2 s LEFT JOIN t3 u ON s.k = u.k2 AND u.ia > t1.ia WHERE s.ib = t1.ib) AS n FROM t1",
            "SELECT t1.k, (SELECT COUNT(*) FROM t2 s RIGHT JOIN t3 u ON s.k = u.k2 AND s.ib = t1.ib) AS n FROM t1 WHERE t1.k < 50",
            "SELECT t1.k FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 s WHERE s.k3 = t1.k3 AND s.k NOT IN (SELECT u.k2 FROM t3 u WHERE u.k2 IS NOT NULL))",
            // set operations and a sort
            "SELECT t1.k FROM t1 WHERE t1.ia IN (SELECT s.ia FROM t2 s WHERE s.k3 = t1.k3 UNION SELECT u.ib FROM t3 u WHERE u.k3 = t1.k3)",
            "SELECT t1.k, (SELECT COUNT(*) FROM (SELECT s.ib FROM t2 s WHERE s.k3 = t1.k3 INTERSECT SELECT u.ib FROM t3 u) AS x) AS n FROM t1",
            "SELECT t1.k, (SELECT COUNT(*) FROM (SELECT s.ib FROM t2 s WHERE s.k3 = t1.k3 EXCEPT SELECT u.ib FROM t3 u WHERE u.ia > t1.ia) AS x) AS n FROM t1",
            "SELECT t1.k FROM t1 WHERE t1.ib IN (SELECT s.ib FROM t2 s WHERE s.k2 = t1.k2 ORDER BY s.ib)",
            // a subquery in a subquery, each correlated with its own outer row, and with the outermost
            "SELECT t1.k FROM t1 WHERE EXISTS (SELECT 1 FROM t2 s WHERE s.k2 = t1.k2 AND s.ia > (SELECT AVG(u.dm) FROM t3 u WHERE u.ib = s.ib))",
            "SELECT t1.k FROM t1 WHERE t1.ia > (SELECT MIN(s.ia) FROM t2 s WHERE s.ib = t1.ib AND EXISTS (SELECT 1 FROM t3 u WHERE u.k3 = s.k3))",
            // two variables bound to one column (Decorrelator), and two values of one row
            "SELECT t1.k, (SELECT COUNT(*) FROM t2 s WHERE s.k3 = t1.k3 AND t1.k2 = s.k3) AS n FROM t1",
            "SELECT t1.k, (SELECT SUM(s.ia) FROM t2 s WHERE s.k3 = t1.k3 AND s.ib = t1.ib AND s.dd = t1.dd) AS n FROM t1",
    })
    void agreesWithDuckDbWithoutACorrelate(String sql) throws SQLException {
        try (Statement s = numacol.createStatement(); ResultSet plan = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            plan.next();
            assertThat(plan.getString(1)).as(sql).doesNotContain("Correlate");
        }
        List<List<Object>> expected = ResultComparison.rows(duckdb, sql);
        List<List<Object>> actual = ResultComparison.rows(numacol, sql);
        System.out.printf("%d rows (DuckDB %d): %s%n", actual.size(), expected.size(), sql);
        ResultComparison.assertSameResult(actual, expected, new int[0]);
    }
}
