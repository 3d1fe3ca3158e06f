package io.numacol.bench;

import org.openjdk.jmh.annotations.AuxCounters;
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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * What a file database costs a user, beside DuckDB's and H2's file databases and numacol in memory:
 * <ul>
 *   <li>{@link #commit}: single-row INSERTs in auto-commit, each a commit, per {@code engine}
 *       ({@code numacol_fsync}, {@code numacol_flush}, {@code numacol_none}, {@code numacol_memory},
 *       {@code duckdb}, {@code h2}); run with {@code -t 1} and {@code -t 16} clients (each thread its
 *       own connection) to see group commit share the forces;</li>
 *   <li>{@link #updateByKey}: {@code UPDATE t SET v = v + 1 WHERE id = ?} of a random existing row;</li>
 *   <li>{@link #selectByKey}: {@code SELECT v FROM t WHERE id = ?} of a random existing row;</li>
 * </ul>
 * and, in {@link Restart}, the time to open a checkpointed TPC-H database and answer a first
 * query, and to load it ({@code CALL dbgen}) into a file database against one in memory.
 * Run: {@code src/bin/numacol-bench DurabilityBenchmark.commit -t 1} (or {@code -t 16}),
 * {@code src/bin/numacol-bench 'DurabilityBenchmark.Restart'}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(value = 1, jvmArgsPrepend = "-Xmx4g")
public class DurabilityBenchmark {
    @Param({"numacol_fsync", "numacol_flush", "numacol_none", "numacol_memory", "duckdb", "h2"})
    public String engine;

    private Path dir;
    private String url;
    private final AtomicLong ids = new AtomicLong(1_000_000);
    /** Keeps an in-memory database alive between the clients' connections. */
    private Connection keeper;

    static final int PRELOADED = 10_000;

    @Setup(Level.Trial)
    public void open() throws IOException, SQLException {
        dir = Files.createTempDirectory("numacol-durability");
        url = switch (engine) {
            case "numacol_fsync" -> "jdbc:numacol:file:" + dir.resolve("db");
            case "numacol_flush" -> "jdbc:numacol:file:" + dir.resolve("db") + ";durability=flush";
            case "numacol_none" -> "jdbc:numacol:file:" + dir.resolve("db") + ";durability=none";
            case "numacol_memory" -> "jdbc:numacol:mem:durability-bench";
            case "duckdb" -> "jdbc:duckdb:" + dir.resolve("db.duckdb");
            case "h2" -> "jdbc:h2:file:" + dir.resolve("h2db");
            default -> throw new IllegalArgumentException("engine " + engine);
        };
        keeper = DriverManager.getConnection(url);
        try (Statement s = keeper.createStatement()) {
            s.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT)");
            keeper.setAutoCommit(false);
            try (PreparedStatement p = keeper.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                for (int i = 0; i < PRELOADED; i++) {
                    p.setLong(1, i);
                    p.setLong(2, i);
                    p.addBatch();
                }
                p.executeBatch();
            }
            keeper.commit();
            keeper.setAutoCommit(true);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        keeper.close();
        // the clients' connections may close after this (JMH orders no teardowns of two scopes), and
        // the last one checkpoints: the files go when the fork ends
        Path files = dir;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(files)));
    }

    static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One client: its connection and statements. */
    @State(Scope.Thread)
    public static class Client {
        Connection connection;
        PreparedStatement insert;
        PreparedStatement update;
        PreparedStatement select;
        long seed = System.nanoTime();

        @Setup(Level.Trial)
        public void connect(DurabilityBenchmark bench) throws SQLException {
            connection = DriverManager.getConnection(bench.url);
            insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?)");
            update = connection.prepareStatement("UPDATE t SET v = v + 1 WHERE id = ?");
            select = connection.prepareStatement("SELECT v FROM t WHERE id = ?");
        }

        @TearDown(Level.Trial)
        public void disconnect() throws SQLException {
            connection.close();
        }

        long nextKey() {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            return Math.floorMod(seed >>> 17, PRELOADED);
        }
    }

    @Benchmark
    public int commit(Client client) throws SQLException {
        client.insert.setLong(1, ids.incrementAndGet());
        client.insert.setLong(2, 7);
        return client.insert.executeUpdate();
    }

    @Benchmark
    public int updateByKey(Client client) throws SQLException {
        client.update.setLong(1, client.nextKey());
        return client.update.executeUpdate();
    }

    @Benchmark
    public long selectByKey(Client client) throws SQLException {
        client.select.setLong(1, client.nextKey());
        try (ResultSet rs = client.select.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * TPC-H at {@code sf} loaded by {@code CALL dbgen} into a file database (or one in memory, for
     * the load's ratio), and a checkpointed one opened again: each operation is one whole load or
     * one open plus {@code SELECT count(*) FROM lineitem}. The {@code bytes} counter is part-file
     * bytes read per second of an open.
     */
    @State(Scope.Benchmark)
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1)
    @Measurement(iterations = 4)
    @Fork(value = 1, jvmArgsPrepend = "-Xmx4g")
    public static class Restart {
        @Param("1")
        public double sf;

        private Path dir;
        private long partBytes;

        @State(Scope.Thread)
        @AuxCounters(AuxCounters.Type.EVENTS)
        public static class Bytes {
            public long bytes;
        }

        @Setup(Level.Trial)
        public void load() throws IOException, SQLException {
            dir = Files.createTempDirectory("numacol-restart");
            try (Connection c = DriverManager.getConnection("jdbc:numacol:file:" + dir.resolve("db"));
                 Statement s = c.createStatement()) {
                s.execute("CALL dbgen(sf = " + sf + ")");
            }
            try (Stream<Path> files = Files.list(dir.resolve("db"))) {
                partBytes = files.filter(f -> f.toString().endsWith(".part")).mapToLong(f -> {
                    try {
                        return Files.size(f);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }).sum();
            }
        }

        @TearDown(Level.Trial)
        public void remove() {
            delete(dir);
        }

        @Benchmark
        public long open(Bytes bytes) throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:numacol:file:" + dir.resolve("db"));
                 ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM lineitem")) {
                rs.next();
                bytes.bytes += partBytes;
                return rs.getLong(1);
            }
        }

        @Benchmark
        public void loadIntoFile() throws SQLException, IOException {
            Path fresh = Files.createTempDirectory(dir, "load");
            try (Connection c = DriverManager.getConnection("jdbc:numacol:file:" + fresh.resolve("db"));
                 Statement s = c.createStatement()) {
                s.execute("CALL dbgen(sf = " + sf + ")");
            }
        }

        @Benchmark
        public void loadIntoMemory() throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
                s.execute("CALL dbgen(sf = " + sf + ")");
            }
        }
    }
}
