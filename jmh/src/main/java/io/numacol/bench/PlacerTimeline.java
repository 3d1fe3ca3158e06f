package io.numacol.bench;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.jdbc.NumacolDriver;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The thesis's §6.5.1 experiment, in direction, on a fake topology under the bandwidth model
 * (these machines have one node; the model is what makes placement matter here): hot tables on
 * two of four nodes ({@code t0} and {@code t1} on node 0, {@code t2} on node 1), clients
 * scanning them with {@code SELECT c FROM t WHERE c BETWEEN ? AND ?} at 0.001% selectivity, the
 * DataPlacer paused for a first phase and then let act. It prints queries per second each second,
 * the placer's actions with their times, and the throughput of the last seconds against the
 * first phase's. Not a JMH benchmark: a timeline.
 *
 * <p>Run: {@code src/bin/numacol-bench PlacerTimeline [seconds before] [seconds after]
 * [clients per table] [nodeBandwidth]} (defaults 10, 30, 16, 800m).
 */
public final class PlacerTimeline {
    private static final int ROWS = 2_000_000;
    private static final int DOMAIN = 1 << 21;

    private PlacerTimeline() {
    }

    public static void main(String[] args) throws Exception {
        int before = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int after = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int clientsPerTable = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        String bandwidth = args.length > 3 ? args[3] : "800m";
        String url = "jdbc:numacol:mem:timeline;topology=fake:4;nodeBandwidth=" + bandwidth + ";placer=on;placerPeriod=1000";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            Database db = NumacolDriver.database(c);
            db.pausePlacer(true);
            String[] placements = {"NODE(0)", "NODE(0)", "NODE(1)"};
            for (int t = 0; t < placements.length; t++) {
                s.execute("CREATE TABLE t" + t + " (c INTEGER NOT NULL) PLACEMENT " + placements[t]);
                try (Appender a = db.appender("t" + t)) {
                    for (long r = 0; r < ROWS; r++) {
                        a.append(ConcurrentBenchmark.value(r + t * (long) ROWS, 4)); // bitcase 21
                    }
                }
            }
            System.out.printf(Locale.ROOT, "fake:4, nodeBandwidth=%s (a model: see README), %d tables of %,d rows on nodes 0, 0, 1,"
                    + " %d clients per table, 0.001%% selectivity%n", bandwidth, placements.length, ROWS, clientsPerTable);
            AtomicLong done = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < placements.length; t++) {
                for (int k = 0; k < clientsPerTable; k++) {
                    clients.add(client(url, "t" + t, t * 1000 + k, done, stop));
                }
            }
            Instant start = Instant.now();
            double first = phase("before (placer paused)", before, done);
            db.pausePlacer(false);
            List<Double> seconds = new ArrayList<>();
            for (int i = 0; i < after; i++) {
                seconds.add(phase("after " + (i + 1) + " s (placer acting)", 1, done));
            }
            stop.set(true);
            for (Thread t : clients) {
                t.join();
            }
            System.out.println();
            System.out.println("| at (s) | table | action | rows | from | to | why |");
            System.out.println("|---|---|---|---|---|---|---|");
            try (ResultSet rs = s.executeQuery("SELECT acted_at_millis, table_name, action, row_count, from_node, to_node, why"
                    + " FROM sys.placer_actions ORDER BY acted_at_millis")) {
                while (rs.next()) {
                    System.out.printf(Locale.ROOT, "| %.1f | %s | %s | %,d | %s | %d | %s |%n",
                            (rs.getLong(1) - start.toEpochMilli()) / 1000.0, rs.getString(2), rs.getString(3), rs.getLong(4),
                            rs.getObject(5) == null ? "" : rs.getString(5), rs.getInt(6), rs.getString(7));
                }
            }
            int tail = Math.max(1, Math.min(10, seconds.size() / 3));
            double last = seconds.subList(seconds.size() - tail, seconds.size()).stream().mapToDouble(Double::doubleValue).average()
                    .orElse(0);
            System.out.printf(Locale.ROOT, "%nbefore: %.0f queries/s; last %d s: %.0f queries/s; ratio %.2f%n", first, tail, last,
                    last / first);
        }
    }

    /** Runs for {@code seconds} and prints and returns the queries per second. */
    private static double phase(String name, int seconds, AtomicLong done) throws InterruptedException {
        long d0 = done.get();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        double qps = (done.get() - d0) / ((System.nanoTime() - t0) / 1e9);
        System.out.printf(Locale.ROOT, "%-30s %8.0f queries/s%n", name, qps);
        return qps;
    }

    private static Thread client(String url, String table, long seed, AtomicLong done, AtomicBoolean stop) {
        return Thread.ofPlatform().daemon().start(() -> {
            try (Connection c = DriverManager.getConnection(url);
                 PreparedStatement q = c.prepareStatement("SELECT c FROM " + table + " WHERE c BETWEEN ? AND ?")) {
                SplittableRandom random = new SplittableRandom(seed);
                int width = Math.max(1, DOMAIN / 100_000);
                while (!stop.get()) {
                    int lo = random.nextInt(DOMAIN - width);
                    q.setInt(1, lo);
                    q.setInt(2, lo + width - 1);
                    try (ResultSet rs = q.executeQuery()) {
                        while (rs.next()) {
                            rs.getInt(1);
                        }
                    }
                    done.incrementAndGet();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
