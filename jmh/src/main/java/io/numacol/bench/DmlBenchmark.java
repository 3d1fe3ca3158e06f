package io.numacol.bench;

import io.numacol.database.Appender;
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
import org.openjdk.jmh.infra.Blackhole;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * UPDATE and DELETE on a large table, and a scan of a table with a tenth of its rows deleted,
 * numacol beside DuckDB (and H2 with {@code -p engine=h2}), each engine in its own fork. Before
 * every measured operation (not measured) the table {@code t (id BIGINT NOT NULL, k INTEGER NOT
 * NULL, v DOUBLE NOT NULL)} is loaded afresh with {@code rows} rows through the engine's appender
 * ({@code k = id % 10}, {@code v} a hash of the id); the operation {@code op} is then timed once:
 * <ul>
 *   <li>{@code delete}: {@code DELETE FROM t WHERE k = 3}, a tenth of the rows;</li>
 *   <li>{@code update}: {@code UPDATE t SET v = v + 1 WHERE k = 3}, a tenth of the rows;</li>
 *   <li>{@code scan}: {@link #SCANS} times {@code SELECT COUNT(*), SUM(v) FROM t WHERE v < ?};</li>
 *   <li>{@code scan_deleted}: the same, after (not measured) {@code DELETE FROM t WHERE k = 3}.</li>
 * </ul>
 * Rows per second of a DELETE or UPDATE are {@code rows / 10} over its time; the cost of deleted
 * rows to a scan is {@code scan_deleted} against {@code scan} of the same engine. Run: {@code
 * src/bin/numacol-bench DmlBenchmark}; ratios within one run are what to read, the machine is noisy.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsPrepend = "-Xmx8g") // BenchMain fills jvmArgsAppend with numacol's flags
public class DmlBenchmark {
    /** Scans per measured {@code scan} operation: one scan of 10M rows is too short to time alone. */
    static final int SCANS = 10;

    @Param({"numacol", "duckdb"})
    public String engine;

    @Param({"delete", "update", "scan", "scan_deleted"})
    public String op;

    @Param({"10000000"})
    public int rows;

    private Connection connection;

    @Setup(Level.Trial)
    public void open() throws SQLException {
        connection = switch (engine) {
            case "numacol" -> DriverManager.getConnection("jdbc:numacol:");
            case "duckdb" -> DriverManager.getConnection("jdbc:duckdb:");
            case "h2" -> DriverManager.getConnection("jdbc:h2:mem:dml;DB_CLOSE_DELAY=-1");
            default -> throw new IllegalArgumentException("unknown engine '" + engine + "'");
        };
        if (!op.equals("delete") && !op.equals("update") && !op.equals("scan") && !op.equals("scan_deleted")) {
            throw new IllegalArgumentException("unknown op '" + op + "'");
        }
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        connection.close();
    }

    /** A fresh table before each timed operation, and for {@code scan_deleted} its tenth deleted. */
    @Setup(Level.Iteration)
    public void load() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("DROP TABLE IF EXISTS t");
            s.execute("CREATE TABLE t (id BIGINT NOT NULL, k INTEGER NOT NULL, v DOUBLE NOT NULL)");
        }
        switch (engine) {
            case "numacol" -> {
                try (Appender a = NumacolDriver.database(connection).appender("t")) {
                    for (int i = 0; i < rows; i++) {
                        a.append((long) i, i % 10, value(i));
                    }
                }
            }
            case "duckdb" -> {
                try (DuckDBAppender a = connection.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, "t")) {
                    for (int i = 0; i < rows; i++) {
                        a.beginRow();
                        a.append((long) i);
                        a.append(i % 10);
                        a.append(value(i));
                        a.endRow();
                    }
                }
            }
            default -> {
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                    for (int i = 0; i < rows; i++) {
                        insert.setLong(1, i);
                        insert.setInt(2, i % 10);
                        insert.setDouble(3, value(i));
                        insert.addBatch();
                        if ((i + 1) % 10_000 == 0 || i == rows - 1) {
                            insert.executeBatch();
                        }
                    }
                }
            }
        }
        if (op.equals("scan_deleted")) {
            expectChanged(change("DELETE FROM t WHERE k = 3"));
        }
    }

    private static double value(int i) {
        return ((i * 2_654_435_761L) & 0xffff_ffffL) / 1024.0;
    }

    @Benchmark
    public void run(Blackhole bh) throws SQLException {
        switch (op) {
            case "delete" -> expectChanged(change("DELETE FROM t WHERE k = 3"));
            case "update" -> expectChanged(change("UPDATE t SET v = v + 1 WHERE k = 3"));
            default -> {
                try (PreparedStatement scan = connection.prepareStatement("SELECT COUNT(*), SUM(v) FROM t WHERE v < ?")) {
                    for (int i = 0; i < SCANS; i++) {
                        scan.setDouble(1, 4_000_000.0 - i); // about 95% of the rows qualify
                        try (ResultSet rs = scan.executeQuery()) {
                            rs.next();
                            bh.consume(rs.getLong(1));
                            bh.consume(rs.getDouble(2));
                        }
                    }
                }
            }
        }
    }

    private long change(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            return s.executeLargeUpdate(sql);
        }
    }

    /** Not measured as such: a statement that changed the wrong number of rows would make its time meaningless. */
    private void expectChanged(long changed) {
        if (changed != rows / 10) {
            throw new IllegalStateException(engine + " " + op + " changed " + changed + " rows, not " + rows / 10);
        }
    }
}
