package io.numacol.tpch;

import io.numacol.calcite.cache.SqlTemplate;
import io.numacol.jdbc.NumacolDriver;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.time.LocalDate;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * numacol's plans for the TPC-H queries at SF 0.1 (printed, with planning times): every join of
 * the many-way queries has an equi-join key, none is a nested loop over a cross product as
 * Calcite's default plans for Q7 and Q19 were.
 */
class TpchPlanTest {
    private static final double SCALE_FACTOR = 0.1;
    private static Connection connection;

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:");
        TpchLoader.LoadResult loaded = TpchLoader.load(NumacolDriver.database(connection), SCALE_FACTOR);
        System.out.printf("TPC-H SF %s loaded into numacol: %,d rows in %,d ms, %,.0f rows/s%n", SCALE_FACTOR,
                loaded.totalRows(), loaded.nanos() / 1_000_000, loaded.rowsPerSecond());
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    static String explain(int query) throws Exception {
        return explainSql(TpchQuery.load(query, SCALE_FACTOR).sql());
    }

    @ParameterizedTest(name = "Q{0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
    void explainAll(int query) throws Exception {
        long start = System.nanoTime();
        String plan = explain(query);
        System.out.printf("Q%02d planned in %,d ms%n%s%n", query, (System.nanoTime() - start) / 1_000_000, plan);
        assertThat(plan).as("every TPC-H table is scanned by numacol").contains("NumacolTableScan").doesNotContain("EnumerableTableScan");
    }

    /** Every join of these has keys: none is a nested loop. */
    @ParameterizedTest(name = "Q{0}")
    @ValueSource(ints = {2, 3, 5, 7, 8, 9, 10, 19, 21})
    void manyWayJoinsJoinOnKeys(int query) throws Exception {
        assertThat(explain(query)).doesNotContain("NestedLoopJoin").contains("Join(condition=[");
    }

    /** All 22 run wholly in numacol's operators: Calcite only converts their rows. */
    @ParameterizedTest(name = "Q{0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
    void runsWhollyInNumacol(int query) throws Exception {
        String plan = explain(query);
        assertThat(plan).startsWith("NumacolToEnumerableConverter");
        assertThat(plan.substring("NumacolToEnumerableConverter".length())).doesNotContain("Enumerable");
    }

    /**
     * Also as the plan cache plans them: its template has parameters for the literals of the
     * WHERE clause, and Q7's and Q19's conditions on nations and parts, compared with parameters
     * beside a join's keys, ran in Calcite's operators.
     */
    @ParameterizedTest(name = "Q{0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
    void runsWhollyInNumacolAsTheCachedTemplate(int query) throws Exception {
        SqlTemplate template = SqlTemplate.of(TpchQuery.load(query, SCALE_FACTOR).sql(), SqlParser.config());
        StringBuilder plan = new StringBuilder();
        try (PreparedStatement s = connection.prepareStatement("explain plan for " + template.sql())) {
            for (int i = 0; i < template.values().size(); i++) {
                Object value = template.values().get(i);
                if (s.getParameterMetaData().getParameterType(i + 1) == Types.DATE) {
                    s.setDate(i + 1, Date.valueOf(LocalDate.ofEpochDay(((Number) value).longValue())));
                } else {
                    s.setObject(i + 1, value);
                }
            }
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1));
                }
            }
        }
        assertThat(plan.toString()).startsWith("NumacolToEnumerableConverter");
        assertThat(plan.substring("NumacolToEnumerableConverter".length())).doesNotContain("Enumerable");
    }

    /**
     * Join sizes estimated from distinct counts: Q5 probes with lineitem instead of joining
     * customers to suppliers on their nation key first (12 million rows at SF 1), and Q9 joins
     * lineitem to the few green parts (a hash join of lineitem's scan with part's) before
     * partsupp and orders.
     */
    @Test
    void joinOrdersFollowDistinctCounts() throws Exception {
        List<String> q5 = scans(explain(5));
        assertThat(q5.getFirst()).isEqualTo("lineitem");
        String q9 = explain(9);
        assertThat(q9).containsPattern("NumacolJoin\\([^\n]*\\)\\s+NumacolProject\\(l_orderkey[^\n]*\\s+NumacolTableScan\\(table=\\[\\[main, lineitem]]\\)"
                + "\\s+NumacolProject\\(p_partkey[^\n]*\\s+NumacolFilter\\(condition=\\[LIKE");
    }

    /**
     * Selectivities of conditions on scans from the dictionaries: Q8's one part type of 150
     * (ECONOMY ANODIZED STEEL) filters lineitem first, before orders, customers and nations.
     */
    @Test
    void joinOrdersFollowSelectivitiesFromTheDictionaries() throws Exception {
        String q8 = explain(8);
        assertThat(q8).containsPattern("NumacolJoin\\([^\n]*\\)\\s+NumacolProject\\(l_orderkey[^\n]*\\s+NumacolTableScan\\(table=\\[\\[main, lineitem]]\\)"
                + "\\s+NumacolProject\\(p_partkey[^\n]*\\s+NumacolFilter\\(condition=\\[=\\(\\$4, 'ECONOMY ANODIZED STEEL'");
    }

    /**
     * A hash join builds the side estimated smaller in the final plan, not in the plan it was
     * first made in: Q2's top join builds the few filtered parts (whose keys then filter both
     * scans of partsupp), not the rows of its other side.
     */
    @Test
    void joinsBuildTheSideEstimatedSmallerInTheFinalPlan() throws Exception {
        String plan = explain(2);
        String top = plan.substring(plan.indexOf("NumacolJoin"));
        assertThat(top).containsPattern("^NumacolJoin\\([^\n]*build=\\[left\\]\\)\\s+NumacolProject\\(p_partkey=");
    }

    /** What an OR implies on single columns filters their scans: Q7's two nations, Q19's parts. */
    @Test
    void columnConditionsImpliedByAnOrFilterScans() throws Exception {
        String q7 = explain(7);
        assertThat(q7.split("NumacolFilter\\(condition=\\[OR\\(=\\(\\$1, 'FRANCE'\\), =\\(\\$1, 'GERMANY'\\)\\)\\]\\)", -1)).hasSize(3);
        assertThat(explain(19)).contains("NumacolFilter(condition=[AND(OR(=($3, 'Brand#12'), =($3, 'Brand#23'), =($3, 'Brand#34'))");
    }

    /**
     * Correlated EXISTS and NOT EXISTS are SEMI and ANTI joins on the subquery's correlated
     * conditions (ExistsJoins): Q21 scans lineitem three times, not seven as its decorrelation did.
     */
    @Test
    void existsSubqueriesAreSemiAndAntiJoins() throws Exception {
        String q21 = explain(21);
        assertThat(q21).contains("joinType=[semi]").contains("joinType=[anti]");
        assertThat(scans(q21).stream().filter("lineitem"::equals)).hasSize(3);
        assertThat(explain(4)).contains("joinType=[semi]").doesNotContain("NumacolAggregate(group=[{0}])");
        assertThat(explain(22)).contains("joinType=[anti]");
    }

    /**
     * An EXISTS whose correlated condition reads only the outer row is that condition and whether
     * the subquery has rows (ExistsJoins): as a join it was a nested loop without keys.
     */
    @Test
    void existsOverTheOuterRowOnlyIsAConditionAndAnUncorrelatedExists() throws Exception {
        String notExists = "SELECT COUNT(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM nation n WHERE o.o_comment > LOWER('T'))";
        String exists = "SELECT COUNT(*) FROM orders o WHERE EXISTS (SELECT 1 FROM nation n WHERE n.n_regionkey = 1 AND o.o_comment > LOWER('T'))";
        String none = "SELECT COUNT(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM nation n WHERE n.n_regionkey < 0 AND o.o_comment > LOWER('T'))";
        for (String sql : List.of(notExists, exists, none)) {
            assertThat(explainSql(sql)).doesNotContain("NestedLoopJoin").doesNotContain("Correlate");
        }
        assertThat(count(notExists)).isEqualTo(count("SELECT COUNT(*) FROM orders WHERE o_comment <= 't'"));
        assertThat(count(exists)).isEqualTo(count("SELECT COUNT(*) FROM orders WHERE o_comment > 't'")).isPositive();
        assertThat(count(none)).isEqualTo(count("SELECT COUNT(*) FROM orders"));
    }

    /**
     * Calls of constants in projections and join conditions are folded before numacol takes the
     * plan: numacol's operators do not evaluate EXTRACT of a literal or LOWER, and Calcite's row
     * operators ran everything above them (a random query held a join's product on the heap).
     */
    @Test
    void constantCallsAreFoldedForNumacol() throws Exception {
        String sql = "SELECT o_orderstatus, MIN(EXTRACT(MONTH FROM DATE '2022-02-10')) AS m FROM orders o JOIN nation n "
                + "ON o.o_comment > LOWER('T') AND n.n_nationkey = o.o_custkey GROUP BY o_orderstatus";
        assertThat(explainSql(sql)).doesNotContainPattern("(?<!To)Enumerable").contains("2:BIGINT").contains(", 't')");
    }

    private static String explainSql(String sql) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("explain plan for " + sql)) {
            while (rs.next()) {
                plan.append(rs.getString(1));
            }
        }
        return plan.toString();
    }

    private static long count(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /** The tables a plan scans, in the order it prints them (a join's probe side first). */
    private static List<String> scans(String plan) {
        List<String> tables = new ArrayList<>();
        Matcher m = Pattern.compile("TableScan\\(table=\\[\\[main, (\\w+)]]").matcher(plan);
        while (m.find()) {
            tables.add(m.group(1));
        }
        return tables;
    }
}
