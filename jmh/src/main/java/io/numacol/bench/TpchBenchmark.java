package io.numacol.bench;

import io.numacol.database.Appender;
import io.numacol.jdbc.NumacolDriver;
import io.numacol.tpch.TpchLoader;
import io.numacol.tpch.TpchQuery;
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
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The 22 TPC-H queries on numacol and DuckDB over the same data (generated once by numacol's
 * generator and appended to both engines in one pass), through the same JDBC PreparedStatements.
 * It runs in the JMH process ({@code @Fork(0)}) so that the two databases are loaded once for
 * all 44 trials; {@link BenchMain} then prints each query's ratio numacol/DuckDB and their
 * geometric mean ({@link #printComparison}).
 * Run: {@code src/bin/numacol-bench TpchBenchmark} (SF 1; {@code -p sf=0.1}, {@code -p query=3,5}).
 * Above SF 1 DuckDB keeps its database in a temporary file with a buffer pool of {@link
 * #DUCKDB_MEMORY}, its usual mode: both engines' tables in memory in one process do not fit a
 * 24 GiB machine at SF 10 (at SF 1 numacol holds 0.65 GB of table data, in-memory DuckDB 1 GiB).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// three seconds of warm-up: after one, a query's later iterations still fell by a third in some
// runs (Q5 105 -> 62 ms) as the JIT settled, and one run's ratio said as much of the JIT as of it
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(0)
public class TpchBenchmark {
    /**
     * {@code numacol-pp} is numacol with two table groups (thesis §6.3): orders and lineitem
     * {@code PP(4) BY HASH} on the order key, part and partsupp on the part key, so that their
     * joins on those keys run partition by partition; loaded on first use in a second pass.
     */
    @Param({"numacol", "duckdb"})
    public String engine;

    @Param({"1"})
    public double sf;

    @Param({"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20",
            "21", "22"})
    public int query;

    /** The loaded engines of a scale factor, kept across trials: loading SF 1 takes about a minute. */
    private static final Map<Double, Connection[]> LOADED = new TreeMap<>();

    private PreparedStatement statement;

    @Setup(Level.Trial)
    public void prepare() throws SQLException {
        Connection[] engines = engines(sf);
        Connection c = switch (engine) {
            case "numacol" -> engines[0];
            case "duckdb" -> engines[1];
            case "numacol-pp" -> tableGroups(sf);
            default -> throw new IllegalArgumentException("unknown engine '" + engine + "': numacol, numacol-pp or duckdb");
        };
        statement = c.prepareStatement(TpchQuery.load(query, sf).sql());
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        statement.close();
    }

    @Benchmark
    public void run(Blackhole bh) throws SQLException {
        try (ResultSet rs = statement.executeQuery()) {
            Results.drain(rs, bh);
        }
    }

    /** numacol and DuckDB with TPC-H at {@code sf}, loaded once (also for {@link TpchSession}). */
    static synchronized Connection[] engines(double sf) throws SQLException {
        Connection[] known = LOADED.get(sf);
        if (known != null) {
            return known;
        }
        for (Connection[] other : LOADED.values()) { // one scale factor at a time
            for (Connection c : other) {
                c.close();
            }
        }
        LOADED.clear();
        Connection numacol = DriverManager.getConnection("jdbc:numacol:");
        DuckDBConnection duckdb = DriverManager.getConnection(duckDbUrl(sf)).unwrap(DuckDBConnection.class);
        if (sf > 1) {
            try (Statement s = duckdb.createStatement()) {
                s.execute("SET memory_limit = '" + DUCKDB_MEMORY + "'");
            }
        }
        var db = NumacolDriver.database(numacol);
        long start = System.nanoTime();
        TpchLoader.generate(sf, table -> {
            db.catalog().create(table.name(), table.schema());
            Appender numacolRows = db.appender(table.name());
            DuckDBAppender duckRows;
            try (Statement s = duckdb.createStatement()) {
                s.execute(table.createTableSql());
                duckRows = duckdb.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table.name());
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return new TpchLoader.TableSink() {
                @Override
                public void accept(Object[] row) {
                    numacolRows.append(row);
                    try {
                        appendDuckDb(duckRows, row);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public void close() {
                    numacolRows.close();
                    try {
                        duckRows.close();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
        });
        System.out.printf("%nTPC-H SF %s loaded into numacol and DuckDB in %,d ms; numacol holds %,d bytes of table data, DuckDB %s%n",
                sf, (System.nanoTime() - start) / 1_000_000, db.memory().accounting().totalBytes(), duckDbMemory(duckdb));
        Connection[] loaded = {numacol, duckdb};
        LOADED.put(sf, loaded);
        return loaded;
    }

    private static final Map<Double, Connection> GROUPED = new TreeMap<>();

    /** numacol with the TPC-H table groups, loaded once per scale factor. */
    private static synchronized Connection tableGroups(double sf) throws SQLException {
        Connection known = GROUPED.get(sf);
        if (known != null) {
            return known;
        }
        for (Connection other : GROUPED.values()) {
            other.close();
        }
        GROUPED.clear();
        Connection numacol = DriverManager.getConnection("jdbc:numacol:");
        var db = NumacolDriver.database(numacol);
        long start = System.nanoTime();
        TpchLoader.generate(sf, table -> {
            db.catalog().create(table.name(), table.schema());
            return TpchLoader.TableSink.appendingTo(db.appender(table.name()));
        });
        try (Statement s = numacol.createStatement()) {
            s.execute("ALTER TABLE orders SET PLACEMENT PP(4) BY HASH (o_orderkey)");
            s.execute("ALTER TABLE lineitem SET PLACEMENT PP(4) BY HASH (l_orderkey)");
            s.execute("ALTER TABLE part SET PLACEMENT PP(4) BY HASH (p_partkey)");
            s.execute("ALTER TABLE partsupp SET PLACEMENT PP(4) BY HASH (ps_partkey)");
        }
        System.out.printf("%nTPC-H SF %s loaded into numacol with table groups in %,d ms%n", sf, (System.nanoTime() - start) / 1_000_000);
        GROUPED.put(sf, numacol);
        return numacol;
    }

    /** DuckDB's buffer pool above SF 1. */
    static final String DUCKDB_MEMORY = "6GB";

    /** In memory up to SF 1, else a new temporary database file, removed when the JVM ends. */
    private static String duckDbUrl(double sf) {
        if (sf <= 1) {
            return "jdbc:duckdb:";
        }
        try {
            Path dir = Files.createTempDirectory("numacol-tpch-duckdb");
            Path file = dir.resolve("tpch.duckdb");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (var files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                } catch (IOException ignored) {
                    // a temporary directory left behind
                }
            }));
            return "jdbc:duckdb:" + file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** DuckDB's own account of the memory its database uses. */
    private static String duckDbMemory(Connection duckdb) throws SQLException {
        try (Statement s = duckdb.createStatement();
             ResultSet r = s.executeQuery("SELECT memory_usage FROM pragma_database_size()")) {
            return r.next() ? r.getString(1) : "(unknown)";
        }
    }

    /** Appends a generated row with the DuckDB appender overload of each value's Java type. */
    static void appendDuckDb(DuckDBAppender appender, Object[] row) throws SQLException {
        appender.beginRow();
        for (Object v : row) {
            switch (v) {
                case Integer i -> appender.append(i.intValue());
                case Long l -> appender.append(l.longValue());
                case BigDecimal d -> appender.append(d);
                case LocalDate d -> appender.append(d);
                case String s -> appender.append(s);
                default -> throw new IllegalArgumentException("no DuckDB appender for " + v.getClass());
            }
        }
        appender.endRow();
    }

    /** Per query: ms of each engine, numacol/DuckDB, and the geometric mean of the ratios. */
    static void printComparison(Collection<RunResult> results) {
        Map<String, Map<Integer, Double>> ms = new TreeMap<>();
        for (RunResult r : results) {
            if (!r.getParams().getBenchmark().endsWith("TpchBenchmark.run")) {
                continue;
            }
            String engine = r.getParams().getParam("engine");
            int query = Integer.parseInt(r.getParams().getParam("query"));
            ms.computeIfAbsent(engine, e -> new TreeMap<>()).put(query, r.getPrimaryResult().getScore());
        }
        Map<Integer, Double> numacol = ms.getOrDefault("numacol", Map.of());
        Map<Integer, Double> duckdb = ms.getOrDefault("duckdb", Map.of());
        if (numacol.isEmpty() || duckdb.isEmpty()) {
            return;
        }
        Map<Integer, Double> grouped = ms.getOrDefault("numacol-pp", Map.of());
        boolean pp = !grouped.isEmpty();
        System.out.printf("%n| query | numacol ms | DuckDB ms | numacol / DuckDB |%s%n|---|---|---|---|%s%n",
                pp ? " numacol-pp ms | numacol-pp / numacol |" : "", pp ? "---|---|" : "");
        double logSum = 0;
        double ppLogSum = 0;
        int n = 0;
        int ppN = 0;
        for (var e : new TreeMap<>(numacol).entrySet()) {
            Double d = duckdb.get(e.getKey());
            if (d == null) {
                continue;
            }
            double ratio = e.getValue() / d;
            logSum += Math.log(ratio);
            n++;
            Double g = grouped.get(e.getKey());
            if (g != null) {
                ppLogSum += Math.log(g / e.getValue());
                ppN++;
            }
            System.out.printf("| Q%d | %.1f | %.1f | %.2f |%s%n", e.getKey(), e.getValue(), d, ratio,
                    g == null ? "" : String.format(" %.1f | %.2f |", g, g / e.getValue()));
        }
        System.out.printf("| geometric mean | | | %.2f |%s%n", Math.exp(logSum / n), ppN == 0 ? "" : String.format(" | %.2f |", Math.exp(ppLogSum / ppN)));
    }
}
