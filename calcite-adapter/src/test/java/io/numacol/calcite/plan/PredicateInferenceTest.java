package io.numacol.calcite.plan;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Calcite's check of the predicates it infers ("Comparison with NULL in pulledUpPredicates",
 * defect 23) no longer fails a statement through numacol's metadata ({@link
 * KeyMetadata.AcyclicPredicates}): found by the random differential tester's long run (seed
 * 4343), where the join planner asked whether a join's columns are unique above a CASE that
 * folds to a NULL TIMESTAMP WITH TIME ZONE.
 */
class PredicateInferenceTest {
    @Test
    void aComparisonWithANullCaseStillPlans() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t0 (k bigint not null, c0 timestamp)");
            s.execute("create table t2 (k bigint not null, c0 double, c6 timestamp with time zone)");
            s.execute("insert into t0 values (1, timestamp '2022-01-01 00:00:00')");
            s.execute("insert into t2 values (1, 1.0, null), (2, 2.0, timestamp with time zone '2022-01-01 00:00:00+00')");
            try (ResultSet r = s.executeQuery("SELECT (SELECT SUM(3) FROM t2 AS s4 WHERE s4.c0 = a0.k) AS c2 FROM t2 AS a0 "
                    + "LEFT JOIN (SELECT MAX(CAST(TIMESTAMP '2021-12-31 17:13:00' AS TIMESTAMP WITH TIME ZONE)) AS c1, MAX(a2.c0) AS c2 "
                    + "FROM t0 AS a2 FULL JOIN t2 AS a3 ON TRUE GROUP BY a3.k) AS a1 ON a1.c2 IS NULL "
                    + "WHERE a0.c6 <> CASE WHEN TIMESTAMP '2022-01-02 10:32:00' = TIMESTAMP '2022-01-01 15:25:00' THEN a1.c1 "
                    + "ELSE CAST(NULL AS TIMESTAMP WITH TIME ZONE) END")) {
                assertThat(r.next()).as("a comparison with NULL holds for no row").isFalse();
            }
        }
    }
}
