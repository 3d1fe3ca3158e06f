package io.numacol.jdbc;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ALTER TABLE .. SET PLACEMENT and CREATE TABLE .. PLACEMENT on a fake 4-node topology, where
 * sys.placements reports numacol's own record of each page's node (the emulated NUMA guest checks
 * the kernel's, NumaVmIT): the pages of every part move, new parts follow, answers do not change.
 */
class PlacementTest {
    private static final int PARTS = 4;
    private static final int ROWS_PER_PART = 50_000;
    private static final String ANSWER = "SELECT COUNT(*), SUM(a), COUNT(DISTINCT s), MAX(s) FROM t WHERE a % 7 = 3";

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private String url;
    private Connection connection;
    private Statement s;
    private Database db;

    @BeforeEach
    void load() throws SQLException {
        url = "jdbc:numacol:mem:placement" + DATABASES.incrementAndGet();
        connection = DriverManager.getConnection(url + ";topology=fake:4;rowsPerPart=" + ROWS_PER_PART);
        s = connection.createStatement();
        db = NumacolDriver.database(connection);
        s.execute("CREATE TABLE t (a BIGINT NOT NULL, s VARCHAR(10))");
        try (Appender appender = db.appender("t")) {
            for (long i = 0; i < (long) PARTS * ROWS_PER_PART; i++) {
                appender.append(i * 3, i % 11 == 0 ? null : "v" + i % 100);
            }
        }
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
        assertThat(db.memory().accounting().totalBytes()).as("all memory back").isZero();
    }

    /** Per node, the pages sys.placements reports for {@code where}. */
    private List<List<Object>> pagesPerNode(String where) throws SQLException {
        return rows(s, "SELECT node, SUM(pages) FROM sys.placements WHERE table_name = 't'" + where + " GROUP BY node ORDER BY node");
    }

    @Test
    void everyPartMovesToOneNodeAndSoDoNewParts() throws SQLException {
        List<List<Object>> before = rows(s, ANSWER);
        assertThat(pagesPerNode("")).as("by default a part per node").hasSize(4);
        assertThat(rows(s, "SELECT DISTINCT spec FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of("DEFAULT"));

        s.execute("ALTER TABLE t SET PLACEMENT NODE(2)");
        assertThat(pagesPerNode("")).extracting(r -> r.get(0)).containsExactly(2);
        assertThat(rows(s, "SELECT DISTINCT spec FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of("NODE(2)"));
        assertThat(rows(s, ANSWER)).isEqualTo(before);
        assertThat(db.memory().accounting().bytes(2)).as("accounted where the pages went").isPositive();
        assertThat(db.memory().accounting().bytes(0) + db.memory().accounting().bytes(1) + db.memory().accounting().bytes(3)).isZero();

        s.execute("INSERT INTO t VALUES (-1, 'new')");
        assertThat(rows(s, "SELECT COUNT(DISTINCT part) FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of((long) PARTS + 1));
        assertThat(pagesPerNode("")).extracting(r -> r.get(0)).as("the new part too").containsExactly(2);

        s.execute("ALTER TABLE t SET PLACEMENT DEFAULT");
        assertThat(pagesPerNode("")).as("a part per node again").hasSize(4);
        assertThat(rows(s, "SELECT DISTINCT spec FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of("DEFAULT"));
    }

    /** Scans report their bytes and time to the node holding the rows; sys shows rates, totals and the source. */
    @Test
    void sysUtilizationShowsWhereScansRead() throws Exception {
        s.execute("ALTER TABLE t SET PLACEMENT NODE(1)");
        for (int i = 0; i < 20; i++) {
            rows(s, ANSWER);
        }
        List<List<Object>> nodes = rows(s, "SELECT node_id, bytes_total > 0, busy_seconds_total > 0, source LIKE '%no hardware counters%'"
                + " FROM sys.utilization ORDER BY node_id");
        assertThat(nodes).containsExactly(List.of(0, false, false, true), List.of(1, true, true, true),
                List.of(2, false, false, true), List.of(3, false, false, true));
        assertThat(rows(s, "SELECT DISTINCT node FROM sys.part_utilization WHERE table_name = 't' AND bytes_total > 0"))
                .containsExactly(List.of(1));
        // scans until samples taken meanwhile show them in the last second's rate
        String rate = "SELECT bytes_per_second > 0, busy_cores > 0 FROM sys.utilization WHERE node_id = 1";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!rows(s, rate).equals(List.of(List.of(true, true)))) {
            assertThat(System.nanoTime()).as("a rate within 60 s").isLessThan(deadline);
            rows(s, ANSWER);
        }
        assertThat(rows(s, "SELECT bytes_per_second > 0, busy_cores > 0 FROM sys.utilization WHERE node_id = 1"))
                .containsExactly(List.of(true, true));
        assertThat((Long) rows(s, "SELECT COUNT(*) FROM sys.task_classes WHERE bytes_per_second_average > 0").getFirst().getFirst())
                .isPositive();
    }

    /**
     * ADAPTIVE binds the task classes whose memory throughput is above its threshold: one given
     * as a property binds the scans that ran; without one, the thesis's experiment finds it.
     */
    @Test
    void adaptiveStealingBindsClassesAboveItsThreshold() throws Exception {
        assertThat(rows(s, "SELECT steal_policy, threshold_bytes_per_second IS NULL, source FROM sys.stealing"))
                .containsExactly(List.of("TARGET", true, "not used: steal policy TARGET"));
        String given = "jdbc:numacol:mem:adaptive" + DATABASES.incrementAndGet() + ";topology=fake:4;stealPolicy=ADAPTIVE;stealThreshold=1k";
        try (Connection c = DriverManager.getConnection(given); Statement st = c.createStatement()) {
            assertThat(rows(st, "SELECT steal_policy, threshold_bytes_per_second, source FROM sys.stealing"))
                    .containsExactly(List.of("ADAPTIVE", 1000.0, "connection property stealThreshold"));
            st.execute("CREATE TABLE u (a BIGINT NOT NULL)");
            try (Appender appender = NumacolDriver.database(c).appender("u")) {
                for (long i = 0; i < ROWS_PER_PART; i++) {
                    appender.append(i);
                }
            }
            assertThat(rows(st, "SELECT bound FROM sys.task_classes WHERE task_class = 'JOIN_BUILD'")).containsExactly(List.of(false));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (rows(st, "SELECT COUNT(*) FROM sys.task_classes WHERE bound").equals(List.of(List.of(0L)))) {
                assertThat(System.nanoTime()).as("a scan's throughput above 1 kB/s within 60 s").isLessThan(deadline);
                rows(st, "SELECT a FROM u WHERE a % 1000 = 1");
            }
            assertThat(rows(st, "SELECT COUNT(*) FROM sys.task_classes WHERE bound <> (bytes_per_second_average > 1000)"))
                    .containsExactly(List.of(0L));
        }
        assertThatThrownBy(() -> DriverManager.getConnection(given.replace("1k", "fast")))
                .hasMessageContaining("stealThreshold must be a positive number of bytes per second").hasMessageContaining("'fast'");
        String calibrated = "jdbc:numacol:mem:adaptive" + DATABASES.incrementAndGet() + ";topology=fake:4;nodeBandwidth=800m;stealPolicy=ADAPTIVE";
        try (Connection c = DriverManager.getConnection(calibrated); Statement st = c.createStatement()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (rows(st, "SELECT source FROM sys.stealing").getFirst().getFirst().toString().startsWith("calibrating")) {
                assertThat(System.nanoTime()).as("the calibration ends within 120 s").isLessThan(deadline);
                TimeUnit.MILLISECONDS.sleep(50); // a poll, not a wait for time to pass
            }
            assertThat(rows(st, "SELECT threshold_bytes_per_second > 0, source, decision LIKE 'stealing%' FROM sys.stealing"))
                    .containsExactly(List.of(true, "calibrated (thesis §6.4 experiment, under the bandwidth model)", true));
            assertThat(rows(st, "SELECT exponent FROM sys.steal_calibration ORDER BY exponent"))
                    .containsExactly(List.of(1), List.of(2), List.of(4), List.of(8), List.of(16), List.of(32), List.of(64), List.of(128));
            assertThat(rows(st, "SELECT COUNT(*) FROM sys.steal_calibration WHERE stealing_queries_per_second > 0"
                    + " AND bound_queries_per_second > 0 AND task_bytes_per_second > 0")).containsExactly(List.of(8L));
        }
    }

    /** The DataPlacer is off on a fake topology unless asked; when on, sys shows its parameters and actions. */
    @Test
    void theDataPlacerShowsItsParametersAndActions() throws Exception {
        assertThat(rows(s, "SELECT enabled FROM sys.placer")).containsExactly(List.of(false));
        String placed = "jdbc:numacol:mem:placer" + DATABASES.incrementAndGet()
                + ";topology=fake:4;nodeBandwidth=400m;placer=on;placerPeriod=200";
        try (Connection c = DriverManager.getConnection(placed); Statement st = c.createStatement()) {
            assertThat(rows(st, "SELECT enabled, period_ms, eligibility, imbalance, saturation, move_ns_per_page > 0,"
                    + " partition_ns_per_page > 0 FROM sys.placer")).containsExactly(List.of(true, 200L, 0.3, 0.4, 0.7, true, true));
            st.execute("CREATE TABLE hot (a BIGINT NOT NULL) PLACEMENT NODE(0)");
            try (Appender appender = NumacolDriver.database(c).appender("hot")) {
                for (long i = 0; i < 200_000; i++) {
                    appender.append(i);
                }
            }
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService clients = Executors.newFixedThreadPool(3);
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                running.add(clients.submit(() -> {
                    try (Connection cc = DriverManager.getConnection(placed); Statement q = cc.createStatement()) {
                        while (!stop.get()) {
                            assertThat(rows(q, "SELECT COUNT(*) FROM hot WHERE a BETWEEN 1000 AND 1099"))
                                    .containsExactly(List.of(100L));
                        }
                    }
                    return null;
                }));
            }
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (rows(st, "SELECT COUNT(*) FROM sys.placer_actions").getFirst().getFirst().equals(0L)) {
                    assertThat(System.nanoTime()).as("the placer acts within 60 s").isLessThan(deadline);
                    Thread.sleep(50);
                }
            } finally {
                stop.set(true);
                for (Future<?> f : running) {
                    f.get();
                }
                clients.shutdown();
            }
            assertThat(rows(st, "SELECT table_name, action IN ('move', 'partition'), row_count, from_node, to_node <> 0, why LIKE '%imbalance%', acted_at_millis > 0"
                    + " FROM sys.placer_actions ORDER BY acted_at_millis LIMIT 1"))
                    .containsExactly(List.of("hot", true, 200_000L, 0, true, true, true));
        }
    }

    @Test
    void roundRobinPutsEachColumnOnANodeOfItsOwn() throws SQLException {
        s.execute("ALTER TABLE t SET PLACEMENT RR");
        assertThat(rows(s, "SELECT DISTINCT column_name, node FROM sys.placements WHERE table_name = 't' ORDER BY 1"))
                .containsExactly(List.of("a", 0), List.of("s", 1));
    }

    @Test
    void interleavedAndIndexVectorPartitionedSpreadPagesOverAllNodes() throws SQLException {
        List<List<Object>> before = rows(s, ANSWER);
        s.execute("ALTER TABLE t SET PLACEMENT INTERLEAVED");
        assertThat(pagesPerNode(" AND part = 0 AND column_name = 'a' AND component = 'DICTIONARY'")).hasSize(4);
        assertThat(rows(s, "SELECT DISTINCT interleaved FROM sys.placements WHERE table_name = 't' AND column_name = 'a'"))
                .containsExactly(List.of(true));
        assertThat(rows(s, ANSWER)).isEqualTo(before);

        // IVP: each IndexVector in contiguous page ranges, one per node
        s.execute("alter table T set placement ivp");
        List<List<Object>> iv = pagesPerNode(" AND part = 0 AND column_name = 'a' AND component = 'INDEX_VECTOR'");
        assertThat(iv).hasSize(4);
        assertThat(rows(s, "SELECT DISTINCT interleaved FROM sys.placements WHERE table_name = 't' AND component = 'INDEX_VECTOR'"))
                .containsExactly(List.of(false));
        assertThat(rows(s, "SELECT DISTINCT spec FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of("IVP"));
        assertThat(rows(s, ANSWER)).isEqualTo(before);
    }

    @Test
    void createTableTakesAPlacement() throws SQLException {
        s.execute("CREATE TABLE u (x INTEGER) PLACEMENT NODE(3)");
        s.execute("INSERT INTO u VALUES (1), (2), (3)");
        assertThat(rows(s, "SELECT DISTINCT node, spec FROM sys.placements WHERE table_name = 'u'")).containsExactly(List.of(3, "NODE(3)"));
        assertThatThrownBy(() -> s.execute("CREATE TABLE v (x INTEGER) PLACEMENT NODE(4)")).isInstanceOf(SQLException.class)
                .hasMessageContaining("node 4");
        assertThat(rows(s, "SELECT COUNT(*) FROM sys.tables WHERE table_name = 'v'")).as("a refused CREATE creates nothing")
                .containsExactly(List.of(0L));
    }

    @Test
    void badPlacementsAreRefusedAndChangeNothing() throws SQLException {
        s.execute("ALTER TABLE t SET PLACEMENT NODE(1)");
        List<List<Object>> placed = rows(s, "SELECT part, column_name, component, node, pages FROM sys.placements ORDER BY 1, 2, 3, 4");
        assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PLACEMENT NODE(4)")).isInstanceOf(SQLException.class)
                .hasMessageContaining("node 4");
        assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PLACEMENT SOMEWHERE")).isInstanceOf(SQLException.class)
                .hasMessageContaining("unknown placement 'SOMEWHERE'").hasMessageContaining("RR, IVP, INTERLEAVED, NODE(k), DEFAULT or PP(n)");
        assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PLACEMENT NODE(x)")).isInstanceOf(SQLException.class)
                .hasMessageContaining("'X' is not a node id");
        assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PLACEMENT")).isInstanceOf(SQLException.class)
                .hasMessageContaining("expected a placement");
        assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PLACEMENT PP(4) BY HASH (nope)")).isInstanceOf(SQLException.class)
                .hasMessageContaining("table t has no column nope");
        assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PLACEMENT PP(4) BY HASH")).isInstanceOf(SQLException.class)
                .hasMessageContaining("write PP(n) BY HASH (column, ...), PP(n) BY RANGE (column) or PP(n) ROUND ROBIN");
        assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PLACEMENT PP(5000) ROUND ROBIN")).isInstanceOf(SQLException.class)
                .hasMessageContaining("PP(5000): a table has 1 to 1024 partitions");
        assertThatThrownBy(() -> s.execute("ALTER TABLE nope SET PLACEMENT RR")).isInstanceOf(SQLException.class)
                .hasMessageContaining("table nope does not exist");
        s.execute("ALTER TABLE IF EXISTS nope SET PLACEMENT RR");
        assertThat(rows(s, "SELECT part, column_name, component, node, pages FROM sys.placements ORDER BY 1, 2, 3, 4")).isEqualTo(placed);
    }

    /**
     * PP from SQL: the rows are dealt to partitions, each part of one partition on its node, as
     * sys.placements shows; answers do not change, inserts are dealt too, a key column cannot
     * be dropped but can be renamed, and another placement ends the dealing.
     */
    @Test
    void physicalPartitioningFromSql() throws SQLException {
        List<List<Object>> expected = rows(s, ANSWER);
        s.execute("ALTER TABLE t SET PLACEMENT PP(8) BY HASH (A)");
        assertThat(rows(s, ANSWER)).isEqualTo(expected);
        assertThat(rows(s, "SELECT DISTINCT spec FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of("PP(8) BY HASH (a)"));
        assertThat(rows(s, "SELECT COUNT(DISTINCT partition_id), COUNT(*) FROM sys.placements WHERE table_name = 't'"
                + " AND MOD(partition_id, 4) <> node")).containsExactly(List.of(0L, 0L));
        assertThat(rows(s, "SELECT COUNT(DISTINCT partition_id) FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of(8L));
        s.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, NULL)");
        assertThat(rows(s, "SELECT COUNT(*) FROM sys.placements WHERE table_name = 't' AND partition_id IS NULL")).containsExactly(List.of(0L));
        assertThatThrownBy(() -> s.execute("ALTER TABLE t DROP COLUMN a")).isInstanceOf(SQLException.class)
                .hasMessageContaining("column a is a partition key of table t (PP(8) BY HASH (a))");
        s.execute("ALTER TABLE t RENAME COLUMN a TO b");
        assertThat(rows(s, "SELECT DISTINCT spec FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of("PP(8) BY HASH (b)"));
        s.execute("CREATE TABLE r (x INTEGER, y VARCHAR(5)) PLACEMENT PP(3) ROUND ROBIN");
        s.execute("INSERT INTO r VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, 'f')");
        assertThat(rows(s, "SELECT partition_id, node FROM sys.placements WHERE table_name = 'r' AND column_name = 'x'"
                + " AND component = 'INDEX_VECTOR' ORDER BY 1")).containsExactly(List.of(0, 0), List.of(1, 1), List.of(2, 2));
        s.execute("ALTER TABLE t SET PLACEMENT PP(3) BY RANGE (s)");
        assertThat(rows(s, "SELECT DISTINCT spec FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of("PP(3) BY RANGE (s)"));
        s.execute("ALTER TABLE t SET PLACEMENT NODE(2)");
        assertThat(rows(s, "SELECT DISTINCT spec, node FROM sys.placements WHERE table_name = 't'")).containsExactly(List.of("NODE(2)", 2));
        assertThat(rows(s, "SELECT COUNT(*) FROM t")).containsExactly(List.of((long) PARTS * ROWS_PER_PART + 3));
    }

    /** Queries that run while the pages move see the same rows: the pages keep their addresses. */
    @Test
    void queriesRunningWhileThePagesMoveGiveTheSameAnswers() throws Exception {
        List<List<Object>> expected = rows(s, ANSWER);
        AtomicBoolean moving = new AtomicBoolean(true);
        ExecutorService readers = Executors.newFixedThreadPool(2);
        List<Future<Integer>> answers = new ArrayList<>();
        try {
            for (int r = 0; r < 2; r++) {
                answers.add(readers.submit(() -> {
                    int n = 0;
                    try (Connection reader = DriverManager.getConnection(url); Statement rs = reader.createStatement()) {
                        while (moving.get() || n == 0) {
                            assertThat(rows(rs, ANSWER)).isEqualTo(expected);
                            n++;
                        }
                    }
                    return n;
                }));
            }
            String[] specs = {"NODE(3)", "INTERLEAVED", "RR", "IVP", "NODE(0)", "DEFAULT"};
            for (int round = 0; round < 3; round++) {
                for (String spec : specs) {
                    s.execute("ALTER TABLE t SET PLACEMENT " + spec);
                }
            }
        } finally {
            moving.set(false);
            readers.shutdown();
        }
        for (Future<Integer> answered : answers) {
            assertThat(answered.get()).isPositive();
        }
        assertThat(rows(s, ANSWER)).isEqualTo(expected);
    }
}
