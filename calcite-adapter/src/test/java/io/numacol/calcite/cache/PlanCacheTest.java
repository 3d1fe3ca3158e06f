package io.numacol.calcite.cache;

import io.numacol.calcite.plan.NumacolPrepare;
import io.numacol.database.Database;
import io.numacol.jdbc.NumacolDriver;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.runtime.Hook;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlanCacheTest {
    private Connection connection;
    private Database database;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:");
        database = NumacolDriver.database(connection);
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE t (a INTEGER NOT NULL, b INTEGER, c DOUBLE, d VARCHAR(10), e DATE)");
            s.execute("INSERT INTO t SELECT x, MOD(x, 10), x * 0.5, 'v' || CAST(MOD(x, 3) AS VARCHAR), "
                    + "DATE '2024-01-01' + x * INTERVAL '1' DAY FROM (SELECT ROW_NUMBER() OVER () - 1 AS x "
                    + "FROM (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) a(i), (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) b(j)) n");
        }
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private long count(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /**
     * A template is planned with its first statement's literals as the estimates' values: t's 100
     * rows filtered by {@code a < 3} (3 of 100 values) are fewer than u's 50 and are built; a
     * parameter of the statement's own is not known while planning, Calcite's guess of half of t
     * stays, and u is built. Both plans answer alike, also for the template's other values.
     */
    @Test
    @SuppressWarnings("try") // the hook watches while open
    void aTemplateIsPlannedWithItsFirstStatementsLiterals() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE u (k INTEGER NOT NULL)");
            s.execute("INSERT INTO u SELECT a FROM t WHERE a < 50");
        }
        String join = "SELECT COUNT(*) FROM t JOIN u ON t.b = u.k WHERE t.a < ";
        List<String> plans = new ArrayList<>();
        long peeked;
        try (Hook.Closeable watching = Hook.PLAN_BEFORE_IMPLEMENTATION
                .addThread((RelRoot root) -> {
                    plans.add(RelOptUtil.toString(root.rel));
                })) {
            peeked = count(join + "3");
            assertThat(plans).hasSize(1);
            assertThat(built(plans.getFirst())).isEqualTo("t");
            assertThat(count(join + "60")).as("the same plan").isEqualTo(60);
            assertThat(plans).hasSize(1);
            try (PreparedStatement p = connection.prepareStatement(join + "?")) {
                p.setInt(1, 3);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(peeked).isEqualTo(3);
                }
            }
        }
        assertThat(plans).hasSize(2);
        assertThat(built(plans.get(1))).isEqualTo("u");
    }

    /** The table a two-table join's plan builds its hash table of. */
    private static String built(String plan) {
        List<String> tables = new ArrayList<>();
        Matcher m = Pattern.compile("TableScan\\(table=\\[\\[main, (\\w+)]]").matcher(plan);
        while (m.find()) {
            tables.add(m.group(1));
        }
        assertThat(tables).hasSize(2);
        return plan.contains("build=[left]") ? tables.getFirst() : tables.getLast();
    }

    @Test
    void statementsThatDifferInTheirLiteralsShareOnePlanAndKeepTheirOwnAnswers() throws SQLException {
        PlanCache cache = PlanCache.of(database);
        long misses = cache.misses();
        long hits = cache.hits();
        for (int b = 0; b < 10; b++) {
            assertThat(count("SELECT COUNT(*) FROM t WHERE b = " + b + " AND a >= 50")).isEqualTo(5);
        }
        assertThat(count("SELECT COUNT(*) FROM t WHERE b = 12 AND a >= 50")).isZero();
        assertThat(count("SELECT COUNT(*) FROM t WHERE d = 'v1' AND e < DATE '2024-01-11'")).isEqualTo(3);
        assertThat(count("SELECT COUNT(*) FROM t WHERE d = 'v2' AND e < DATE '2024-02-01'")).isEqualTo(10);
        assertThat(cache.misses() - misses).isEqualTo(2);
        assertThat(cache.hits() - hits).isEqualTo(11);
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT entries, capacity, hits, misses, evictions, bytes, capacity_bytes FROM sys.plan_cache")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong("entries")).isPositive();
            assertThat(rs.getLong("capacity")).isEqualTo(PlanCache.ENTRIES);
            assertThat(rs.getLong("bytes")).isPositive().isLessThanOrEqualTo(rs.getLong("capacity_bytes"));
            assertThat(rs.getLong("capacity_bytes")).isEqualTo(PlanCache.BYTES);
            assertThat(rs.getLong("hits")).isEqualTo(cache.hits());
        }
    }

    /**
     * A template whose parameters let Calcite's predicate inference meet a comparison with NULL
     * (NullComparisons, found by the random tester, seed 2412) is not cached: the text plans.
     */
    @Test
    void aTemplateCalciteCannotPlanFallsBackToTheText() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE t0 (k BIGINT NOT NULL, c0 DECIMAL(18,4), c2 DOUBLE)");
            s.execute("CREATE TABLE t1 (k BIGINT NOT NULL, c0 DECIMAL(9,3) NOT NULL)");
            s.execute("INSERT INTO t0 VALUES (1, 0, 5.0)");
            s.execute("INSERT INTO t1 VALUES (1, 0)");
            String sql = "SELECT MAX('x') AS c1 FROM (SELECT -0.875E0 AS c2 FROM t0 AS a1 JOIN (SELECT CAST(0 AS DECIMAL(12,2)) AS c2 "
                    + "FROM t1 AS a3 RIGHT JOIN t0 AS a4 ON TRUE) AS a2 ON a1.c0 = a2.c2 WHERE 4.5E0 <= CASE WHEN -1 >= "
                    + "CAST(NULL AS INTEGER) THEN a1.c2 ELSE CAST(NULL AS DOUBLE) END) AS a0 GROUP BY a0.c2";
            for (int i = 0; i < 2; i++) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    assertThat(rs.next()).isFalse();
                }
            }
        }
    }

    /** A literal's own type decides the comparison, as without the cache: 7.5 is no INTEGER parameter. */
    @Test
    void literalsKeepTheirTypes() throws SQLException {
        assertThat(count("SELECT COUNT(*) FROM t WHERE b = 7")).isEqualTo(10);
        assertThat(count("SELECT COUNT(*) FROM t WHERE b = 7.5")).isZero();
        assertThat(count("SELECT COUNT(*) FROM t WHERE b = 7.0")).isEqualTo(10);
        assertThat(count("SELECT COUNT(*) FROM t WHERE b < 3000000000")).isEqualTo(100);
        assertThat(count("SELECT COUNT(*) FROM t WHERE c > 1.5E1")).isEqualTo(69);
        assertThat(count("SELECT COUNT(*) FROM t WHERE c BETWEEN 1 AND 2.5")).isEqualTo(4);
    }

    @Test
    void literalsAndParametersGiveTheSameAnswers() throws SQLException {
        try (PreparedStatement p = connection.prepareStatement("SELECT COUNT(*), SUM(a) FROM t WHERE b IN (?, ?) AND c < ?")) {
            for (int i = 0; i < 5; i++) {
                p.setInt(1, i);
                p.setInt(2, i + 3);
                p.setDouble(3, 10.0 * i);
                try (ResultSet prepared = p.executeQuery();
                     Statement s = connection.createStatement();
                     ResultSet literal = s.executeQuery("SELECT COUNT(*), SUM(a) FROM t WHERE b IN (" + i + ", " + (i + 3)
                             + ") AND c < " + 10.0 * i)) {
                    assertThat(prepared.next()).isTrue();
                    assertThat(literal.next()).isTrue();
                    assertThat(literal.getLong(1)).isEqualTo(prepared.getLong(1));
                    assertThat(literal.getObject(2)).isEqualTo(prepared.getObject(2));
                }
            }
        }
    }

    /** A plan reads the table it was planned for: after DROP and CREATE of the same name, with other columns, it plans again. */
    @Test
    void ddlPlansAgain() throws SQLException {
        assertThat(count("SELECT COUNT(*) FROM t WHERE b = 1")).isEqualTo(10);
        try (Statement s = connection.createStatement()) {
            s.execute("DROP TABLE t");
            s.execute("CREATE TABLE t (b VARCHAR(5), a INTEGER)");
            s.execute("INSERT INTO t VALUES ('1', 1), ('2', 2)");
        }
        assertThatThrownBy(() -> count("SELECT COUNT(*) FROM t WHERE c = 1")).isInstanceOf(SQLException.class)
                .hasMessageContaining("'c'").hasMessageNotContaining("CAST(?");
        assertThat(count("SELECT COUNT(*) FROM t WHERE a = 1")).isEqualTo(1);
        try (Statement s = connection.createStatement()) {
            s.execute("DROP TABLE t");
        }
        assertThatThrownBy(() -> count("SELECT COUNT(*) FROM t WHERE a = 1")).isInstanceOf(SQLException.class)
                .hasMessageContaining("'t'").hasMessageNotContaining("CAST(?");
    }

    /** Join orders follow row counts: a table that more than doubled plans again. */
    @Test
    void aTableThatGrewPlansAgain() throws SQLException {
        PlanCache cache = PlanCache.of(database);
        String sql = "SELECT COUNT(*) FROM t x JOIN t y ON x.a = y.b WHERE x.b = ";
        assertThat(count(sql + 1)).isEqualTo(10);
        long misses = cache.misses();
        assertThat(count(sql + 2)).isEqualTo(10);
        assertThat(cache.misses()).isEqualTo(misses);
        try (Statement s = connection.createStatement()) {
            for (int i = 0; i < 25; i++) {
                s.execute("INSERT INTO t SELECT a + 100, b, c, d, e FROM t WHERE a < 100");
            }
        }
        assertThat(count(sql + 2)).isEqualTo(260);
        assertThat(cache.misses()).isEqualTo(misses + 1);
    }

    @Test
    void volatileFunctionsAreNotCached() throws SQLException {
        PlanCache cache = PlanCache.of(database);
        long misses = cache.misses();
        long hits = cache.hits();
        count("SELECT COUNT(*) FROM t WHERE e < CURRENT_DATE AND b = 1");
        count("SELECT COUNT(*) FROM t WHERE e < CURRENT_DATE AND b = 1");
        assertThat(cache.misses()).isEqualTo(misses);
        assertThat(cache.hits()).isEqualTo(hits);
    }

    @Test
    void aConnectionCanTurnTheCacheOff() throws SQLException {
        PlanCache cache = PlanCache.of(database);
        try (Connection other = DriverManager.getConnection("jdbc:numacol:;planCache=false");
             Statement s = other.createStatement()) {
            long misses = PlanCache.of(NumacolDriver.database(other)).misses();
            s.execute("CREATE TABLE u (a INTEGER)");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM u WHERE a = 1")) {
                assertThat(rs.next()).isTrue();
            }
            assertThat(PlanCache.of(NumacolDriver.database(other)).misses()).isEqualTo(misses);
        }
        assertThat(cache).isNotNull();
    }

    @Test
    void connectionsOfOneDatabaseRunOnePlanAtOnceWithTheirOwnLiterals() throws Exception {
        try (Connection shared = DriverManager.getConnection("jdbc:numacol:mem:plancache");
             Statement s = shared.createStatement()) {
            s.execute("CREATE TABLE n (a INTEGER, b INTEGER)");
            s.execute("INSERT INTO n SELECT x, MOD(x, 7) FROM (SELECT ROW_NUMBER() OVER () AS x FROM "
                    + "(VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) a(i), (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) b(j)) r");
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    results.add(pool.submit(() -> {
                        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:plancache");
                             Statement st = c.createStatement()) {
                            for (int i = 0; i < 50; i++) {
                                int b = i % 7;
                                try (ResultSet rs = st.executeQuery("SELECT COUNT(*), MIN(b), MAX(b) FROM n WHERE b = " + b)) {
                                    rs.next();
                                    if (rs.getLong(1) != (b == 0 ? 14 : (b <= 2 ? 15 : 14)) || rs.getInt(2) != b || rs.getInt(3) != b) {
                                        return false;
                                    }
                                }
                            }
                            return true;
                        }
                    }));
                }
                for (Future<Boolean> r : results) {
                    assertThat(r.get()).isTrue();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** A plan holds its tables: a closed database's cache must go with it (a long random run filled the heap). */
    @Test
    void aClosedDatabaseTakesItsPlansWithIt() throws SQLException {
        count("SELECT COUNT(*) FROM t WHERE b = 1");
        int before = PlanCache.databases();
        for (int i = 0; i < 20; i++) {
            try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE x (a INTEGER)");
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM x WHERE a = " + i)) {
                    assertThat(rs.next()).isTrue();
                }
            }
        }
        assertThat(PlanCache.databases()).isEqualTo(before);
    }

    @Test
    void atMostItsEntriesAreKept() {
        PlanCache small = PlanCache.create(database, 2, PlanCache.BYTES);
        plan(small, 20, 0);
        assertThat(small.entries()).isLessThanOrEqualTo(2);
        assertThat(small.evictions()).isGreaterThanOrEqualTo(18);
        assertThat(small.misses()).isEqualTo(20);
    }

    /** Plans of 100 KB each in 250 KB: two fit, however many entries would. */
    @Test
    void atMostItsBytesAreKept() {
        PlanCache small = PlanCache.create(database, 1000, 250_000);
        plan(small, 20, 100_000);
        assertThat(small.entries()).isLessThanOrEqualTo(2);
        assertThat(small.bytes()).isLessThanOrEqualTo(250_000).isGreaterThanOrEqualTo(100_000);
        assertThat(small.evictions()).isGreaterThanOrEqualTo(18);
    }

    /** {@code statements} statements of other texts through {@code cache}, each planned as holding {@code bytes}. */
    private static void plan(PlanCache cache, int statements, long bytes) {
        for (int i = 0; i < statements; i++) {
            String sql = "SELECT a FROM t" + i + " WHERE b = 1";
            cache.signature(sql, NumacolPrepare.VIEW_PARSER, List.of("main"), java.time.ZoneOffset.UTC, -1, Object[].class,
                    text -> {
                        PlanCache.holding(bytes);
                        return new CalcitePrepare.CalciteSignature<>(text, List.of(
                                new AvaticaParameter(true, 10, 0, Types.INTEGER, "INTEGER",
                                        Integer.class.getName(), "?")), Map.of(), null, List.of(),
                                Meta.CursorFactory.ARRAY, null, List.of(), -1, null,
                                Meta.StatementType.SELECT);
                    });
        }
    }
}
