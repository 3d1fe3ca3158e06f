package io.numacol.calcite.plan;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Subqueries correlated only through a condition on the outer row ({@link OuterOnlyConditions})
 * answer as SQL says and run as joins, not once per outer row: the random differential tester's
 * {@code 4 NOT IN (SELECT k FROM t0 WHERE outer.k IS NOT DISTINCT FROM 5)} over 600,000 outer rows
 * ran past its 60 s timeout.
 */
class OuterOnlyConditionsTest {
    private static Connection connection;
    /** t0: k = 0..999 (k = 4 absent), c = 'x' for even k; t1: k = 0..299. */
    private static final int T0 = 1000;
    private static final int T1 = 300;

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:");
        try (Statement s = connection.createStatement()) {
            s.execute("create table t0 (k bigint not null, c varchar(2))");
            s.execute("create table t1 (k bigint not null)");
            StringBuilder rows = new StringBuilder("insert into t0 values ");
            for (int k = 0; k < T0; k++) {
                rows.append(k == 0 ? "" : ", ").append("(").append(k == 4 ? -4 : k).append(", ").append(k % 2 == 0 ? "'x'" : "null").append(")");
            }
            s.execute(rows.toString());
            rows = new StringBuilder("insert into t1 values ");
            for (int k = 0; k < T1; k++) {
                rows.append(k == 0 ? "" : ", ").append("(").append(k).append(")");
            }
            s.execute(rows.toString());
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    private static List<List<Object>> rows(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(sql)) {
            List<List<Object>> out = new ArrayList<>();
            while (r.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                    row.add(r.getObject(i));
                }
                out.add(row);
            }
            return out;
        }
    }

    private static String plan(String sql) throws SQLException {
        return rows("explain plan for " + sql).getFirst().getFirst().toString();
    }

    @Test
    void notInGatedByTheOuterRow() throws SQLException {
        // t0 has no k = 4: NOT IN holds for every outer row, gated or not, and the gate passes k = 5 only
        String sql = "select count(*) from t0 a, t1 b where 4 not in (select s.k from t0 s where a.k is not distinct from 5)";
        assertThat(rows(sql)).containsExactly(List.of((long) T0 * T1));
        assertThat(plan(sql)).doesNotContain("Correlate");
        // 6 is in t0: NOT IN is false where the gate passes (a.k = 5), true elsewhere
        assertThat(rows("select count(*) from t0 a, t1 b where 6 not in (select s.k from t0 s where a.k = 5)"))
                .containsExactly(List.of((long) (T0 - 1) * T1));
    }

    @Test
    void existsAndInGatedByTheOuterRow() throws SQLException {
        String exists = "select count(*) from t0 a where exists (select 1 from t1 b where a.k < 10 order by b.k limit 1)";
        assertThat(rows(exists)).containsExactly(List.of(10L)); // 0..9, with -4 in the place of 4
        assertThat(plan(exists)).doesNotContain("Correlate");
        String in = "select count(*) from t0 a where a.k in (select b.k from t1 b where a.c = 'x')";
        // even k below 300 (0 included), 4 absent
        assertThat(rows(in)).containsExactly(List.of(149L));
        String notExists = "select count(*) from t0 a where not exists (select 1 from t1 b where a.c is null)";
        assertThat(rows(notExists)).containsExactly(List.of((long) T0 / 2));
    }

    /** A grand total answers a row even over none: its subquery keeps its correlation, and its answers. */
    @Test
    void aGrandTotalIsNotGated() throws SQLException {
        assertThat(rows("select a.k, (select max(b.k) from t1 b where a.k = 3) from t0 a where a.k between 1 and 3 order by a.k"))
                .containsExactly(Arrays.asList(1L, null), Arrays.asList(2L, null), Arrays.asList(3L, 299L));
        assertThat(rows("select a.k, (select count(*) from t1 b where a.k = 3) from t0 a where a.k between 2 and 3 order by a.k"))
                .containsExactly(List.of(2L, 0L), List.of(3L, 300L));
    }
}
