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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * numacol beside DuckDB and H2, same data, same JDBC PreparedStatements, one JMH run (each engine
 * in its own fork):
 * <ul>
 *   <li>{@code rangeCountSum}: {@code SELECT COUNT(*), SUM(x) FROM t WHERE x BETWEEN ? AND ?} over
 *       {@code rows} rows of x in [0, 1M) (a multiplicative hash of the row number, the same in
 *       every engine), half of them selected;</li>
 *   <li>{@code tpchQ1}, {@code tpchQ6}: TPC-H Q1 and Q6 over {@code lineitem} at scale factor
 *       {@code sf}, generated once by numacol's TPC-H generator and loaded into each engine
 *       (numacol and DuckDB through their appenders, H2 through batched inserts).</li>
 * </ul>
 * Run: {@code src/bin/numacol-bench PeerBenchmark} (defaults: 10M rows, SF 1); ratios between
 * engines of the same run are what to read, the machine is noisy.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = "-Xmx12g") // BenchMain fills jvmArgsAppend with numacol's flags
public class PeerBenchmark {
    private static final int DISTINCT = 1_000_000;

    @Param({"numacol", "duckdb", "h2"})
    public String engine;

    @Param({"10000000"})
    public int rows;

    @Param({"1"})
    public double sf;

    private Connection connection;
    private PreparedStatement range;
    private PreparedStatement q1;
    private PreparedStatement q6;

    /** Loads only what the running benchmark reads: SF 1 in H2 takes minutes. */
    @Setup(Level.Trial)
    public void load(BenchmarkParams params) throws SQLException {
        boolean tpch = !params.getBenchmark().endsWith("rangeCountSum");
        connection = switch (engine) {
            case "numacol" -> DriverManager.getConnection("jdbc:numacol:");
            case "duckdb" -> DriverManager.getConnection("jdbc:duckdb:");
            // H2 would otherwise answer a repeated query from its result cache.
            case "h2" -> DriverManager.getConnection("jdbc:h2:mem:peer;DB_CLOSE_DELAY=-1;QUERY_CACHE_SIZE=0;OPTIMIZE_REUSE_RESULTS=FALSE");
            default -> throw new IllegalArgumentException("unknown engine '" + engine + "': numacol, duckdb or h2");
        };
        long t0 = System.nanoTime();
        if (tpch) {
            loadLineitem();
            q1 = connection.prepareStatement(TpchQuery.load(1, sf).sql());
            q6 = connection.prepareStatement(TpchQuery.load(6, sf).sql());
        } else {
            loadRange();
            range = connection.prepareStatement("SELECT COUNT(*), SUM(x) FROM t WHERE x BETWEEN ? AND ?");
            range.setLong(1, DISTINCT / 4);
            range.setLong(2, DISTINCT / 4 * 3 - 1);
        }
        System.out.printf("%n%s: loaded %s in %,d ms%n", engine, tpch ? "lineitem at SF " + sf : rows + " rows of t",
                (System.nanoTime() - t0) / 1_000_000);
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        connection.close();
    }

    @Benchmark
    public void rangeCountSum(Blackhole bh) throws SQLException {
        drain(range, bh);
    }

    @Benchmark
    public void tpchQ1(Blackhole bh) throws SQLException {
        drain(q1, bh);
    }

    @Benchmark
    public void tpchQ6(Blackhole bh) throws SQLException {
        drain(q6, bh);
    }

    private static void drain(PreparedStatement query, Blackhole bh) throws SQLException {
        try (ResultSet rs = query.executeQuery()) {
            Results.drain(rs, bh);
        }
    }

    /** Row i holds a multiplicative hash of i in [0, 1M): the same values in every engine. */
    private static long x(long i) {
        return (i * 2_654_435_761L) % DISTINCT;
    }

    private void loadRange() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE t (x BIGINT NOT NULL)");
            switch (engine) {
                case "numacol" -> {
                    try (Appender a = NumacolDriver.database(connection).appender("t")) {
                        for (long i = 0; i < rows; i++) {
                            a.append(x(i));
                        }
                    }
                }
                case "duckdb" -> s.execute("INSERT INTO t SELECT (i * 2654435761) % " + DISTINCT + " FROM range(" + rows + ") r(i)");
                default -> s.execute("INSERT INTO t SELECT MOD(X * 2654435761, " + DISTINCT + ") FROM SYSTEM_RANGE(0, " + (rows - 1) + ")");
            }
        }
    }

    private void loadLineitem() throws SQLException {
        TpchLoader.TpchTableDef lineitem = TpchLoader.tables().stream().filter(t -> t.name().equals("lineitem"))
                .findFirst().orElseThrow();
        try (Statement s = connection.createStatement()) {
            s.execute(lineitem.createTableSql());
        }
        RowSink sink = switch (engine) {
            case "numacol" -> numacolSink();
            case "duckdb" -> duckdbSink();
            default -> batchSink(lineitem.schema().size());
        };
        TpchLoader.generate(sf, table -> !table.name().equals("lineitem") ? IGNORE : new TpchLoader.TableSink() {
            @Override
            public void accept(Object[] row) {
                try {
                    sink.accept(row);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void close() {
                try {
                    sink.close();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
    }

    private interface RowSink {
        void accept(Object[] row) throws SQLException;

        void close() throws SQLException;
    }

    private static final TpchLoader.TableSink IGNORE = new TpchLoader.TableSink() {
        @Override
        public void accept(Object[] row) {
        }

        @Override
        public void close() {
        }
    };

    private RowSink numacolSink() throws SQLException {
        Appender a = NumacolDriver.database(connection).appender("lineitem");
        return new RowSink() {
            @Override
            public void accept(Object[] row) {
                a.append(row);
            }

            @Override
            public void close() {
                a.close();
            }
        };
    }

    private RowSink duckdbSink() throws SQLException {
        DuckDBAppender a = connection.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, "lineitem");
        return new RowSink() {
            @Override
            public void accept(Object[] row) throws SQLException {
                TpchBenchmark.appendDuckDb(a, row);
            }

            @Override
            public void close() throws SQLException {
                a.close();
            }
        };
    }

    /** H2 has no appender: batched inserts, committed every 10k rows. */
    private RowSink batchSink(int columns) throws SQLException {
        PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO lineitem VALUES (" + "?, ".repeat(columns - 1) + "?)");
        return new RowSink() {
            private int pending;

            @Override
            public void accept(Object[] row) throws SQLException {
                for (int c = 0; c < row.length; c++) {
                    insert.setObject(c + 1, row[c]);
                }
                insert.addBatch();
                if (++pending == 10_000) {
                    insert.executeBatch();
                    pending = 0;
                }
            }

            @Override
            public void close() throws SQLException {
                insert.executeBatch();
                insert.close();
            }
        };
    }
}
