package io.numacol.bench;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.jdbc.NumacolDriver;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The concurrent scan workload of the VLDB'15 paper (§7) and the thesis (§5.5, §6.5): one table
 * of {@value #COLUMNS} integer columns, column {@code c} holding values in {@code [0, 2^(17+c))}
 * (a hash of the row number, the same in every engine), so that its IndexVector's bitcase is
 * {@code min(17 + c, log2(rows) + 1)}: 17-21 at 2M rows, 17-24 from 16M rows. Each of
 * {@code clients} JMH threads has its own connection and runs the prepared
 * {@code SELECT c FROM t WHERE c BETWEEN ? AND ?} with a random range of {@code selectivity} of
 * its column's domain, on a column picked {@code uniform}ly or {@code skewed} (the thesis's skew:
 * 20% of the queries on the first half of the columns, 80% on the second), reading every row of
 * the answer. The score is queries per second over all clients.
 *
 * <p>{@code engine} is {@code duckdb} or {@code numacol[/placement[/stealPolicy[/topology]]]},
 * for example {@code numacol/IVP/BOUND/fake:4}: placement is an {@code ALTER TABLE .. SET
 * PLACEMENT} spec, applied after loading (default: each part on the next node in turn), so that
 * numacol's variants do not multiply DuckDB's runs.
 *
 * <p>{@code clients} must equal JMH's thread count: {@code src/bin/numacol-bench
 * ConcurrentBenchmark} runs each value of {@code -p clients=...} with as many threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsPrepend = "-Xmx12g") // BenchMain fills jvmArgsAppend with numacol's flags
public class ConcurrentBenchmark {
    static final int COLUMNS = 8;
    private static final int FIRST_BITS = 17;

    @Param({"numacol", "duckdb"})
    public String engine;

    @Param({"1", "4", "16", "64", "256"})
    public int clients;

    @Param({"2000000"})
    public int rows;

    /** The share of a column's domain a query's range covers, 0.00001 (0.001%) to 0.1 (10%). */
    @Param({"0.001"})
    public double selectivity;

    @Param({"uniform"})
    public String pick;

    private Connection base;
    private String numacolUrl;
    private final AtomicInteger seeds = new AtomicInteger();

    @Setup(Level.Trial)
    public void load(ThreadParams threads) throws SQLException {
        if (threads.getThreadCount() != clients) {
            throw new IllegalStateException("clients=" + clients + " but JMH runs " + threads.getThreadCount()
                    + " threads: run through src/bin/numacol-bench, which sets -t from -p clients");
        }
        if (!pick.equals("uniform") && !pick.equals("skewed")) {
            throw new IllegalArgumentException("pick must be uniform or skewed, got '" + pick + "'");
        }
        String[] config = engine.split("/");
        long t0 = System.nanoTime();
        switch (config[0]) {
            case "duckdb" -> {
                base = DriverManager.getConnection("jdbc:duckdb:");
                createTable();
                try (DuckDBAppender a = base.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, "t")) {
                    for (int r = 0; r < rows; r++) {
                        a.beginRow();
                        for (int c = 0; c < COLUMNS; c++) {
                            a.append(value(r, c));
                        }
                        a.endRow();
                    }
                }
            }
            case "numacol" -> {
                numacolUrl = "jdbc:numacol:mem:concurrent"
                        + (config.length > 2 ? ";stealPolicy=" + config[2] : "")
                        + (config.length > 3 ? ";topology=" + config[3] : "");
                base = DriverManager.getConnection(numacolUrl);
                createTable();
                try (Appender a = NumacolDriver.database(base).appender("t")) {
                    Object[] row = new Object[COLUMNS];
                    for (int r = 0; r < rows; r++) {
                        for (int c = 0; c < COLUMNS; c++) {
                            row[c] = value(r, c);
                        }
                        a.append(row);
                    }
                }
                if (config.length > 1) {
                    try (Statement s = base.createStatement()) {
                        s.execute("ALTER TABLE t SET PLACEMENT " + config[1]);
                    }
                }
                // ADAPTIVE's threshold is calibrated in the background when the database opens: not during the warm-up
                Database db = NumacolDriver.database(base);
                while (db.stealCalibrating()) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
                if (!Double.isNaN(db.stealThreshold())) {
                    System.out.printf("%nstealing threshold %.0f MB/s: %s%n", db.stealThreshold() / 1e6,
                            db.stealCalibration() == null ? "given" : db.stealCalibration().how());
                }
            }
            default -> throw new IllegalArgumentException(
                    "engine must be duckdb or numacol[/placement[/stealPolicy[/topology]]], got '" + engine + "'");
        }
        System.out.printf("%n%s: loaded %,d rows x %d columns in %,d ms%n", engine, rows, COLUMNS,
                (System.nanoTime() - t0) / 1_000_000);
    }

    private void createTable() throws SQLException {
        StringBuilder ddl = new StringBuilder("CREATE TABLE t (");
        for (int c = 0; c < COLUMNS; c++) {
            ddl.append(c == 0 ? "" : ", ").append("c").append(c).append(" INTEGER NOT NULL");
        }
        try (Statement s = base.createStatement()) {
            s.execute(ddl.append(")").toString());
        }
    }

    /** Column {@code c} of row {@code r}: a mixed hash of both, in {@code [0, 2^(17+c))}. */
    static int value(long r, int c) {
        long h = r * 0x9E3779B97F4A7C15L + (c + 1) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 31)) * 0x94D049BB133111EBL;
        h ^= h >>> 29;
        return (int) (h & ((1L << (FIRST_BITS + c)) - 1));
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        base.close();
    }

    /** One client: its own connection and one prepared statement per column. */
    @State(Scope.Thread)
    public static class Client {
        private Connection connection;
        private final PreparedStatement[] byColumn = new PreparedStatement[COLUMNS];
        private SplittableRandom random;

        @Setup(Level.Trial)
        public void connect(ConcurrentBenchmark b) throws SQLException {
            connection = b.base instanceof DuckDBConnection duck ? duck.duplicate() : DriverManager.getConnection(b.numacolUrl);
            for (int c = 0; c < COLUMNS; c++) {
                byColumn[c] = connection.prepareStatement(String.format(Locale.ROOT, "SELECT c%d FROM t WHERE c%d BETWEEN ? AND ?", c, c));
            }
            random = new SplittableRandom(b.seeds.incrementAndGet());
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            connection.close();
        }
    }

    @Benchmark
    public void query(Client client, Blackhole bh) throws SQLException {
        SplittableRandom random = client.random;
        int half = COLUMNS / 2;
        int c = pick.equals("uniform") ? random.nextInt(COLUMNS)
                : random.nextInt(10) < 2 ? random.nextInt(half) : half + random.nextInt(half);
        int domain = 1 << (FIRST_BITS + c);
        int width = (int) Math.max(1, Math.round(domain * selectivity));
        int lo = random.nextInt(domain - width + 1);
        PreparedStatement query = client.byColumn[c];
        query.setInt(1, lo);
        query.setInt(2, lo + width - 1);
        try (ResultSet rs = query.executeQuery()) {
            Results.drain(rs, bh);
        }
    }

    /**
     * Queries per second per client count, numacol's configurations beside DuckDB and their
     * ratio, for each selectivity, pick and row count of the run.
     */
    static void printComparison(Collection<RunResult> results) {
        Map<String, Map<String, Map<Integer, Double>>> byWorkload = new TreeMap<>();
        for (RunResult r : results) {
            BenchmarkParams p = r.getParams();
            if (!p.getBenchmark().endsWith("ConcurrentBenchmark.query")) {
                continue;
            }
            String workload = String.format(Locale.ROOT, "%s rows, selectivity %s, %s columns",
                    p.getParam("rows"), p.getParam("selectivity"), p.getParam("pick"));
            byWorkload.computeIfAbsent(workload, w -> new TreeMap<>())
                    .computeIfAbsent(p.getParam("engine"), e -> new TreeMap<>())
                    .put(Integer.parseInt(p.getParam("clients")), r.getPrimaryResult().getScore());
        }
        byWorkload.forEach((workload, engines) -> {
            Map<Integer, Double> duckdb = engines.getOrDefault("duckdb", Map.of());
            System.out.printf("%n%s: queries/s (numacol / DuckDB)%n| engine |", workload);
            TreeSet<Integer> clients = new TreeSet<>();
            engines.values().forEach(m -> clients.addAll(m.keySet()));
            clients.forEach(c -> System.out.printf(" %d clients |", c));
            System.out.printf("%n|---|%s%n", "---|".repeat(clients.size()));
            engines.forEach((engine, score) -> {
                System.out.printf("| %s |", engine);
                for (int c : clients) {
                    Double q = score.get(c);
                    Double d = duckdb.get(c);
                    System.out.print(q == null ? " |" : d == null || engine.equals("duckdb")
                            ? String.format(Locale.ROOT, " %,.0f |", q)
                            : String.format(Locale.ROOT, " %,.0f (%.2f) |", q, q / d));
                }
                System.out.println();
            });
        });
    }
}
