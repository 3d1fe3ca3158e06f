package io.numacol.calcite.plan;

import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.runtime.Hook;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which statements go through Calcite's cost-based (Volcano) search: those numacol's operators do
 * not run whole as the heuristic phases leave them. Each statement is planned anew
 * (no plan cache) and the planners made for it are watched.
 */
class CostBasedPhaseTest {
    private static Connection connection;

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:;planCache=false");
        try (Statement s = connection.createStatement()) {
            for (int t = 1; t <= 3; t++) {
                s.execute("CREATE TABLE t" + t + " (a INTEGER NOT NULL, b INTEGER)");
                s.execute("INSERT INTO t" + t + " VALUES (1, 2), (2, 3), (3, 1), (4, NULL)");
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    /** The answer of {@code sql} as rows of strings, and whether a planner of it searched (had a root set). */
    @SuppressWarnings("try") // the hook watches while open
    private static Planned plan(String sql) throws SQLException {
        List<RelOptPlanner> planners = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        try (Hook.Closeable watching = Hook.PLANNER.addThread((RelOptPlanner p) -> {
                planners.add(p);
            });
             Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int c = 1; c <= columns; c++) {
                    row.append(c > 1 ? "," : "").append(rs.getString(c));
                }
                rows.add(row.toString());
            }
        }
        assertThat(planners).as("planned anew").isNotEmpty();
        return new Planned(rows, planners.stream().anyMatch(p -> p.getRoot() != null));
    }

    private record Planned(List<String> rows, boolean searched) {
    }

    /** Joins are ordered by Lopt before, and rewritten into semi-joins by rules without a search. */
    @Test
    void joinsNumacolRunsWholeAreNotSearched() throws SQLException {
        Planned p = plan("SELECT t1.a, t3.b FROM t1 JOIN t2 ON t1.b = t2.a JOIN t3 ON t2.b = t3.a WHERE t1.a < 4 ORDER BY t1.a");
        assertThat(p.rows()).containsExactly("1,1", "2,2", "3,3");
        assertThat(p.searched()).isFalse();
        Planned semi = plan("SELECT a FROM t1 WHERE b IN (SELECT a FROM t2 WHERE b > 1) ORDER BY a");
        assertThat(semi.searched()).isFalse();
    }

    @Test
    void aJoinUnderAWindowIsSearched() throws SQLException {
        Planned p = plan("SELECT t1.a, ROW_NUMBER() OVER (ORDER BY t1.a DESC) FROM t1 JOIN t2 ON t1.b = t2.a ORDER BY t1.a");
        assertThat(p.searched()).isTrue();
    }

    @Test
    void averagesNumacolRunsWholeAreNotSearched() throws SQLException {
        Planned p = plan("SELECT b, AVG(a) FROM t1 WHERE b IS NOT NULL GROUP BY b ORDER BY b");
        assertThat(p.rows()).containsExactly("1,3.0", "2,1.0", "3,2.0");
        assertThat(p.searched()).isFalse();
    }

    @Test
    void aggregatesAndTopNNumacolRunsWholeAreNotSearched() throws SQLException {
        Planned p = plan("SELECT b, COUNT(*) AS n FROM t1 WHERE a > 1 GROUP BY b ORDER BY b LIMIT 2");
        assertThat(p.rows()).containsExactly("1,1", "3,1");
        assertThat(p.searched()).isFalse();
    }

    /** A window function is no numacol operator: the cost-based phase puts Calcite's beside numacol's scan. */
    @Test
    void whatNumacolDoesNotRunIsSearched() throws SQLException {
        Planned p = plan("SELECT a, ROW_NUMBER() OVER (ORDER BY a DESC) FROM t1 ORDER BY a");
        assertThat(p.rows()).containsExactly("1,4", "2,3", "3,2", "4,1");
        assertThat(p.searched()).isTrue();
    }
}
