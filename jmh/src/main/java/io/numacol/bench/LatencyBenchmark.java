package io.numacol.bench;

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

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * The latency of short statements, numacol beside DuckDB and H2 in one run (each engine in its
 * own fork), on five tables {@code t1..t5(a, b, c, d)} of 1000 rows each:
 * <ul>
 *   <li>{@code adHoc}: the statement's text with its literal changed at every call (as a
 *       dashboard or a person sends it), run with {@code Statement.executeQuery};</li>
 *   <li>{@code prepared}: one PreparedStatement, its parameter changed at every call;</li>
 *   <li>{@code prepare}: {@code prepareStatement} and {@code close} alone.</li>
 * </ul>
 * The answer is read to the end. Run: {@code src/bin/numacol-bench LatencyBenchmark}; ratios
 * between engines of the same run are what to read, the machine is noisy.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = "-Xmx2g") // BenchMain fills jvmArgsAppend with numacol's flags
public class LatencyBenchmark {
    private static final int ROWS = 1000;

    /** The statements, {@code ?} where the literal (or the parameter) goes. */
    public enum Shape {
        point("SELECT a FROM t1 WHERE b = ?"),
        sort("SELECT a, c FROM t1 WHERE b < ? ORDER BY c, a"),
        range("SELECT COUNT(*), SUM(c), MAX(a) FROM t1 WHERE a BETWEEN ? AND 600"),
        join2("SELECT t1.a, t2.c FROM t1 JOIN t2 ON t1.a = t2.a WHERE t1.b < ? ORDER BY t2.c, t1.a LIMIT 10"),
        join5("SELECT COUNT(*) FROM t1 JOIN t2 ON t1.a = t2.a JOIN t3 ON t2.b = t3.a JOIN t4 ON t3.b = t4.a "
                + "JOIN t5 ON t4.b = t5.a WHERE t1.b < ?");

        final String sql;

        Shape(String sql) {
            this.sql = sql;
        }
    }

    /** {@code numacol-uncached}: numacol planning every statement anew (connection property {@code planCache=false}). */
    @Param({"numacol", "numacol-uncached", "duckdb", "h2"})
    public String engine;

    @Param({"point", "sort", "range", "join2", "join5"})
    public Shape shape;

    private Connection connection;
    private Statement statement;
    private PreparedStatement prepared;
    private int call;

    @Setup(Level.Trial)
    public void load() throws SQLException {
        connection = switch (engine) {
            case "numacol" -> DriverManager.getConnection("jdbc:numacol:");
            case "numacol-uncached" -> DriverManager.getConnection("jdbc:numacol:;planCache=false");
            case "duckdb" -> DriverManager.getConnection("jdbc:duckdb:");
            // H2 would otherwise answer a repeated query from its result cache.
            case "h2" -> DriverManager.getConnection("jdbc:h2:mem:latency;DB_CLOSE_DELAY=-1;QUERY_CACHE_SIZE=0;OPTIMIZE_REUSE_RESULTS=FALSE");
            default -> throw new IllegalArgumentException("unknown engine '" + engine + "': numacol, numacol-uncached, duckdb or h2");
        };
        try (Statement s = connection.createStatement()) {
            for (int t = 1; t <= 5; t++) {
                s.execute("CREATE TABLE t" + t + " (a INTEGER NOT NULL, b INTEGER, c DOUBLE, d VARCHAR(20))");
            }
        }
        for (int t = 1; t <= 5; t++) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t" + t + " VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < ROWS; i++) {
                    insert.setInt(1, i);
                    insert.setInt(2, (int) ((i * 2_654_435_761L + t) % ROWS)); // the same values in every engine
                    insert.setDouble(3, i * 0.25);
                    insert.setString(4, "v" + (i % 37));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        statement = connection.createStatement();
        prepared = connection.prepareStatement(shape.sql);
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        connection.close();
    }

    /** A literal from 100 values: the text differs from one call to the next. */
    private int literal() {
        call = (call + 1) % 100;
        return 50 + call;
    }

    @Benchmark
    public void adHoc(Blackhole bh) throws SQLException {
        try (ResultSet rs = statement.executeQuery(shape.sql.replace("?", Integer.toString(literal())))) {
            Results.drain(rs, bh);
        }
    }

    @Benchmark
    public void prepared(Blackhole bh) throws SQLException {
        prepared.setInt(1, literal());
        try (ResultSet rs = prepared.executeQuery()) {
            Results.drain(rs, bh);
        }
    }

    @Benchmark
    public void prepare(Blackhole bh) throws SQLException {
        try (PreparedStatement p = connection.prepareStatement(shape.sql)) {
            bh.consume(p);
        }
    }
}
