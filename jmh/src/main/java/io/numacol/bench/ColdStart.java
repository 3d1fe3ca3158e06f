package io.numacol.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A cold start: a fresh JVM creates a table, inserts a row and selects it, for numacol (without
 * and with an ahead-of-time cache), H2 and DuckDB. Per engine the median of {@code runs} JVMs of
 * the wall time (from starting the process to its exit, measured here) and the CPU time (user and
 * system of the whole process, all its threads, which the child reads from its
 * OperatingSystemMXBean as it ends: the JVM's exit after it is not counted). The ahead-of-time
 * cache (JDK 25, JEPs 483, 514, 515) is made once by a training run of the same three statements,
 * as an embedder would make one for its service. Not a JMH benchmark: each sample is a JVM's only
 * run, and a machine's other work shows in the wall time; the CPU time is the steadier figure.
 *
 * <p>Run: {@code src/bin/numacol-bench ColdStart [runs]} (5 by default). The first run's stderr of
 * each engine is printed, so that a warning on a plain start shows.
 */
public final class ColdStart {
    private static final String CHILD = "child";

    private ColdStart() {
    }

    /** One engine's JVM: its name, its JDBC URL and its JVM flags. */
    private record Engine(String name, String url, List<String> jvmArgs) {
    }

    /** One JVM's run: its wall and CPU seconds and what it wrote to stderr. */
    private record Run(double wall, double cpu, String stderr) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals(CHILD)) {
            child(args[1]);
            return;
        }
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        List<String> numacolArgs = BenchMain.numacolJvmArgs();
        // the peers get what DuckDB's JNI library needs to load without a warning, nothing more
        List<String> peerArgs = List.of("--enable-native-access=ALL-UNNAMED");
        Path dir = Files.createTempDirectory("coldstart");
        Path aot = dir.resolve("numacol.aot");
        List<String> withCache = new ArrayList<>(numacolArgs);
        withCache.add("-XX:AOTCache=" + aot);
        List<Engine> engines = List.of(
                new Engine("numacol", "jdbc:numacol:", numacolArgs),
                new Engine("numacol, AOT cache", "jdbc:numacol:", withCache),
                new Engine("H2", "jdbc:h2:mem:", peerArgs),
                new Engine("DuckDB", "jdbc:duckdb:", peerArgs));
        List<String> training = new ArrayList<>(numacolArgs);
        training.add("-XX:AOTCacheOutput=" + aot);
        Run trained = run(training, "jdbc:numacol:");
        if (!Files.exists(aot)) {
            throw new IllegalStateException("the training run made no AOT cache:\n" + trained.stderr());
        }
        System.out.printf(Locale.ROOT, "AOT cache: %,d MB from a training run of %.2f s%n", Files.size(aot) >> 20, trained.wall());
        System.out.printf(Locale.ROOT, "%-20s %9s %9s   (median of %d fresh JVMs; each run: wall/cpu)%n", "engine", "wall s", "cpu s", runs);
        for (Engine engine : engines) {
            List<Run> samples = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                samples.add(run(engine.jvmArgs(), engine.url()));
            }
            StringBuilder each = new StringBuilder();
            for (Run r : samples) {
                each.append(String.format(Locale.ROOT, " %.2f/%.2f", r.wall(), r.cpu()));
            }
            System.out.printf(Locale.ROOT, "%-20s %9.2f %9.2f  %s%n", engine.name(),
                    median(samples.stream().mapToDouble(Run::wall).toArray()),
                    median(samples.stream().mapToDouble(Run::cpu).toArray()), each);
            String stderr = samples.getFirst().stderr().strip();
            if (!stderr.isEmpty()) {
                System.out.println("  stderr of its first run:\n  " + stderr.replace("\n", "\n  "));
            }
        }
        Files.deleteIfExists(aot);
        Files.deleteIfExists(dir);
    }

    /** A fresh JVM with these flags running {@link #child} on the URL, on this JVM's class path. */
    private static Run run(List<String> jvmArgs, String url) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(Arrays.asList("-cp", System.getProperty("java.class.path"), ColdStart.class.getName(), CHILD, url));
        Path err = Files.createTempFile("coldstart", ".err");
        try {
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            int exit = p.waitFor();
            double wall = (System.nanoTime() - start) / 1e9;
            String stderr = Files.readString(err);
            // a training run's JVM writes what it does with the cache to stdout before the CPU time
            String cpu = out.lines().filter(line -> line.startsWith("cpu ")).findFirst().orElse(null);
            if (exit != 0 || cpu == null) {
                throw new IllegalStateException(url + " exited with " + exit + ": " + out + "\n" + stderr);
            }
            return new Run(wall, Long.parseLong(cpu.substring(4)) / 1e9, stderr);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** The three statements, then the process's CPU nanoseconds on stdout ({@code cpu N}). */
    private static void child(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, name varchar(20))");
            s.executeUpdate("insert into t values (1, 'one')");
            try (ResultSet rs = s.executeQuery("select id, name from t")) {
                if (!rs.next() || rs.getLong(1) != 1 || !"one".equals(rs.getString(2))) {
                    throw new IllegalStateException(url + " did not answer the row it was given");
                }
            }
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println("cpu " + os.getProcessCpuTime());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
