package io.numacol.bench;

import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * How late each kind of statement stops: per kind, the milliseconds from its deadline
 * ({@code setQueryTimeout(1)}) and from {@code cancel()} (sent after 700 ms) to the exception,
 * the median of {@code rounds} runs, and the CPU time numacol's workers spent in the second
 * after (tasks that run on for nobody). Every statement here would run for minutes unstopped.
 * Not a JMH benchmark: a latency per event.
 *
 * <p>Run: {@code src/bin/numacol-bench StopLatency [rounds]} (5 by default).
 */
public final class StopLatency {
    private StopLatency() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path csv = Files.createTempFile("stop-latency", ".csv");
        try (Writer w = Files.newBufferedWriter(csv)) {
            for (int i = 0; i < 4_000_000; i++) {
                w.write("row " + i + "," + i + "\n");
            }
        }
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            in.append(i == 0 ? "" : ", ").append(i);
        }
        Map<String, List<String>> kinds = new LinkedHashMap<>();
        String join = "select a.g, count(*), sum(b.v) from t a join t b on a.k = b.k join t c on b.k = c.k group by a.g";
        kinds.put("query, numacol's joins and aggregate", List.of(join));
        kinds.put("query, Calcite's nested loop", List.of("select count(*) from t a, t b where a.v + b.v = 7"));
        kinds.put("INSERT ... SELECT", List.of("insert into sink select a.v from t a join t b on a.k = b.k join t c on b.k = c.k"));
        kinds.put("CREATE TABLE AS", List.of("create table made as " + join));
        kinds.put("COPY (4M lines, repeated)", List.of("copy c from '" + csv + "'", "copy c from '" + csv + "'", "copy c from '" + csv + "'"));
        kinds.put("planning, IN of 100,000 (new text each time)", List.of("select count(*) from t where v + %d in (" + in + ")"));
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;planCache=false")) {
            try (Statement s = c.createStatement()) {
                s.execute("create table t (k integer, g integer, v bigint)");
                s.execute("insert into t select x % 50, x % 1000, x from (select row_number() over () as x from "
                        + "(values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) a, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) b, "
                        + "(values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) c, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) d, "
                        + "(values (1),(2)) e) q");
                s.execute("create table sink (v bigint)");
                s.execute("create table c (a varchar(20), b integer)");
            }
            System.out.printf(Locale.ROOT, "%-46s %12s %12s %16s%n", "statement kind", "timeout (ms)", "cancel (ms)", "worker CPU after");
            int[] round = {0};
            for (Map.Entry<String, List<String>> kind : kinds.entrySet()) {
                List<Long> timeouts = new ArrayList<>();
                List<Long> cancels = new ArrayList<>();
                long cpuAfter = 0;
                for (int r = 0; r < rounds; r++) {
                    timeouts.add(late(c, kind.getValue(), round, false));
                    cpuAfter = Math.max(cpuAfter, workerCpuMillisInNextSecond());
                    cancels.add(late(c, kind.getValue(), round, true));
                    cpuAfter = Math.max(cpuAfter, workerCpuMillisInNextSecond());
                }
                System.out.printf(Locale.ROOT, "%-46s %12d %12d %13d ms%n", kind.getKey(), median(timeouts), median(cancels), cpuAfter);
            }
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    /**
     * Milliseconds from the deadline or the cancel (at 700 ms) to the failure of {@code
     * statements}, run in turn. A timeout is each execution's own (JDBC's setQueryTimeout limits
     * one execution), so the deadline is 1 s after the start of the execution that failed: a run
     * of three COPYs whose first ends at 875 ms meets its deadline 1 s after the second began.
     */
    private static long late(Connection c, List<String> statements, int[] round, boolean cancel) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("drop table if exists made");
            if (!cancel) {
                s.setQueryTimeout(1);
            }
            long start = System.nanoTime();
            long[] executionStart = {start};
            CompletableFuture<Long> failed = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String sql : statements) {
                        executionStart[0] = System.nanoTime();
                        if (s.execute(String.format(Locale.ROOT, sql, round[0]++))) {
                            try (ResultSet rs = s.getResultSet()) {
                                while (rs.next()) {
                                    rs.getObject(1);
                                }
                            }
                        }
                    }
                    throw new IllegalStateException("it ended by itself: " + statements);
                } catch (SQLException e) {
                    return System.nanoTime();
                }
            });
            long event = 0;
            if (cancel) {
                Thread.sleep(700);
                event = System.nanoTime();
                s.cancel();
            }
            long failure = failed.get(60, TimeUnit.SECONDS);
            if (!cancel) {
                event = executionStart[0] + TimeUnit.SECONDS.toNanos(1); // written before the execution began: seen by now
            }
            return TimeUnit.NANOSECONDS.toMillis(failure - event);
        }
    }

    /** The CPU milliseconds numacol's worker threads spend in the next second. */
    private static long workerCpuMillisInNextSecond() throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long before = workerCpuNanos(threads);
        Thread.sleep(1_000);
        return TimeUnit.NANOSECONDS.toMillis(workerCpuNanos(threads) - before);
    }

    private static long workerCpuNanos(ThreadMXBean threads) {
        long total = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("numacol-worker")) {
                long cpu = threads.getThreadCpuTime(t.threadId());
                total += Math.max(0, cpu);
            }
        }
        return total;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
