package io.numacol.crash;

import io.numacol.crash.CrashModel.Generator;
import io.numacol.crash.CrashModel.TableContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Kills a process writing to a database at a random moment and checks what survives: a child
 * JVM runs {@link CrashWorkload} against the URL under test, printing {@code COMMITTED n} after
 * each commit returns; after a seeded delay it gets SIGKILL ({@link Process#destroyForcibly}),
 * and the database, opened again here, must hold exactly what the first k or k + 1 commits made
 * ({@link CrashModel#stateAfter}), k the last number printed: the (k + 1)-th commit may have
 * become durable just before the kill, between its commit returning and its line being printed.
 * Anything else is a lost commit, a torn transaction or rolled-back data that came back. It is
 * opened a second time to see that recovery left the same content (recovery is idempotent).
 *
 * <p>A kill loses no OS page cache, so this checks that the log is written and replayed whole,
 * not that it is forced to the disk (durability=fsync against flush needs a power cut).
 *
 * <p>{@code -Dcrash.url} is the URL template, {@code {dir}} a fresh directory per round;
 * {@code -Dcrash.rounds} and {@code -Dcrash.seed} the rest (round r runs seed + r).
 *
 * <p>DuckDB 2.0.0.1 itself fails it for seed 780 ({@code -Dcrash.seed=777 -Dcrash.rounds=4}):
 * killed after commit 77 (seen at 77, 85, 86, 97 and 98; commit 77 is a transaction of three UPDATE ... SET name and an INSERT
 * batch, after a CHECKPOINT and an ALTER TABLE ADD COLUMN), it reopens with the right rows but
 * some of the rows that UPDATE set have a NULL name; reopened without a kill they are right.
 * The default seeds do not reach that (checked by stopping them at every 6th commit to 180).
 */
class CrashRecoveryTest {
    /** DuckDB's file mode, the peer the harness was first checked against: {@code -Dcrash.url=jdbc:duckdb:{dir}/db.duckdb}. */
    static final String DUCKDB_URL = "jdbc:duckdb:{dir}/db.duckdb";
    /** numacol's file database (durability=fsync by default), what the test is for. */
    static final String NUMACOL_URL = "jdbc:numacol:file:{dir}/db";

    private static final String URL = System.getProperty("crash.url", NUMACOL_URL);
    private static final int ROUNDS = Integer.getInteger("crash.rounds", 3);
    private static final long SEED = Long.getLong("crash.seed", 20261129);
    /** The kill comes this long after the first COMMITTED line, at random between the two. */
    private static final long MIN_KILL_MILLIS = 300;
    private static final long MAX_KILL_MILLIS = 3000;

    @TempDir
    Path temp;

    @Test
    void killedWorkloadRecoversToACommittedState() throws Exception {
        List<String> report = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            long seed = SEED + round;
            Path dir = Files.createDirectories(temp.resolve("round-" + round));
            String url = URL.replace("{dir}", dir.resolve("data").toString());
            Files.createDirectories(dir.resolve("data"));
            long delay = MIN_KILL_MILLIS + new Random(seed).nextLong(MAX_KILL_MILLIS - MIN_KILL_MILLIS + 1);

            long k = runAndKill(url, seed, dir, delay);
            assertThat(k).as("round %d: commits before the kill", round).isPositive();

            // one replay gives both candidates: stop after k, take its state, go on to k + 1
            Generator g = CrashModel.replay(seed, k);
            Map<String, TableContent> atK = g.state().content();
            while (g.committed() < k + 1) {
                g.next();
            }
            Map<String, TableContent> atNext = g.state().content();
            int tableNumbers = g.state().nextTable; // every name t0..tN-1 the workload may have used

            Map<String, TableContent> first = read(url, tableNumbers);
            String matched = first.equals(atK) ? "k" : first.equals(atNext) ? "k+1" : null;
            if (matched == null) {
                fail("round %d (seed %d, killed %d ms after the first commit, k = %d): the database holds%n%s%n"
                        + "which is neither stateAfter(k)%n%s%nnor stateAfter(k+1)%n%s%nagainst stateAfter(k):%s%nagainst stateAfter(k+1):%s",
                        round, seed, delay, k, first, atK, atNext, differences(first, atK), differences(first, atNext));
            }
            // recovery again, from whatever the first recovery left on disk: the same content
            assertThat(read(url, tableNumbers)).as("round %d: opened a second time", round).isEqualTo(first);
            long rows = first.values().stream().mapToLong(t -> t.rows().size()).sum();
            report.add(String.format(Locale.ROOT, "round %d: seed %d, 1 kill %d ms after the first commit, k = %d, matched stateAfter(%s), %d tables, %d rows",
                    round, seed, delay, k, matched, first.size(), rows));
        }
        System.out.println("crash recovery against " + URL + ":\n  " + String.join("\n  ", report));
        assertThat(report).hasSize(ROUNDS);
    }

    /** Runs the workload until {@code delay} ms after its first commit, kills it, and gives the last commit it printed. */
    private static long runAndKill(String url, long seed, Path dir, long delay) throws Exception {
        Path stderr = dir.resolve("workload.err");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(childJvmOptions());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(CrashWorkload.class.getName());
        command.add(url);
        command.add(Long.toString(seed));
        command.add(dir.resolve("csv").toString());
        // stdout to a file, not a pipe: a pipe's reader can meet "Stream closed" when the JDK reaps the
        // killed child, and lose the last lines; what the child wrote before SIGKILL is in the file
        Path stdout = stderr.resolveSibling(stderr.getFileName() + ".out");
        Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).redirectOutput(stdout.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.readString(stdout).contains("COMMITTED ") && child.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            if (!Files.readString(stdout).contains("COMMITTED ") || !child.isAlive()) {
                // it died (or hung) before its first commit, or right after: nothing to test, say why
                child.destroyForcibly().waitFor();
                fail("the workload stopped before it was killed (exit %s); stderr:%n%s%nstdout:%n%s",
                        child.isAlive() ? "none" : child.exitValue(), Files.readString(stderr), Files.readString(stdout));
            }
            Thread.sleep(delay);
            assertThat(child.isAlive()).as("the workload still running when killed; stderr:%n%s", Files.readString(stderr)).isTrue();
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no finally blocks, no close()
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the killed workload is gone").isTrue();
        }
        long last = 0;
        List<String> other = new ArrayList<>();
        String printed = Files.readString(stdout, StandardCharsets.UTF_8);
        // a line the kill cut (no newline yet) was never printed whole: its commit counts as not reported
        String whole = printed.endsWith("\n") ? printed : printed.substring(0, printed.lastIndexOf('\n') + 1);
        for (String line : whole.lines().toList()) {
            if (line.startsWith("COMMITTED ")) {
                long n = Long.parseLong(line.substring("COMMITTED ".length()).strip());
                // the numbers come in order, one by one: a gap would mean the workload is wrong
                if (n != last + 1) {
                    other.add("out of order: " + line);
                }
                last = n;
            } else if (!line.isEmpty() && !line.startsWith("COMMITTED")) {
                other.add(line);
            }
        }
        assertThat(other).as("the workload's other output").isEmpty();
        return last;
    }

    /**
     * The JVM options the child needs: this JVM's (surefire's argLine: numacol needs native
     * access and the vector module), without agents and debuggers, which would clash or wait.
     */
    private static List<String> childJvmOptions() {
        List<String> options = new ArrayList<>();
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-javaagent") && !arg.startsWith("-agentlib") && !arg.startsWith("-Xrunjdwp")
                    && !arg.startsWith("-Xdebug")) {
                options.add(arg);
            }
        }
        // when run without surefire's argLine (an IDE), what numacol cannot start without
        if (options.stream().noneMatch(o -> o.startsWith("--enable-native-access"))) {
            options.add("--enable-native-access=ALL-UNNAMED");
        }
        if (options.stream().noneMatch(o -> o.startsWith("--add-modules"))) {
            options.add("--add-modules=jdk.incubator.vector");
        }
        return options;
    }

    /** Every table t0..tN-1 that exists, as the model holds tables: a missing one is left out. */
    static Map<String, TableContent> read(String url, int tableNumbers) throws SQLException {
        Map<String, TableContent> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            for (int i = 0; i < tableNumbers; i++) {
                String table = "t" + i;
                if (!exists(c, table)) {
                    continue;
                }
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
                    out.put(table, content(rs));
                }
            }
        }
        return out;
    }

    private static boolean exists(Connection c, String table) throws SQLException {
        for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
            try (ResultSet rs = c.getMetaData().getTables(null, null, name, new String[]{"TABLE"})) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static TableContent content(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            columns.add(md.getColumnLabel(i).toLowerCase(Locale.ROOT));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(columns.size());
            for (int i = 1; i <= columns.size(); i++) {
                // the model's classes: Long, Double, String, LocalDate
                Object v = switch (md.getColumnType(i)) {
                    case Types.BIGINT, Types.INTEGER -> rs.getLong(i);
                    case Types.DOUBLE, Types.FLOAT, Types.REAL -> rs.getDouble(i);
                    case Types.DATE -> rs.getDate(i) == null ? null : rs.getDate(i).toLocalDate();
                    default -> rs.getString(i);
                };
                row.add(rs.wasNull() ? null : v);
            }
            rows.add(row);
        }
        return new TableContent(columns, rows);
    }

    /** Where two contents part, table by table, the first differing row of each: the start of a diagnosis. */
    private static String differences(Map<String, TableContent> actual, Map<String, TableContent> expected) {
        StringBuilder out = new StringBuilder();
        TreeSet<String> tables = new TreeSet<>(actual.keySet());
        tables.addAll(expected.keySet());
        for (String table : tables) {
            TableContent a = actual.get(table);
            TableContent e = expected.get(table);
            if (a == null || e == null) {
                out.append("\n  ").append(table).append(a == null ? " missing" : " should not exist");
            } else if (!a.columns().equals(e.columns())) {
                out.append("\n  ").append(table).append(" columns ").append(a.columns()).append(" expected ").append(e.columns());
            } else if (!a.rows().equals(e.rows())) {
                int i = 0;
                while (i < Math.min(a.rows().size(), e.rows().size()) && a.rows().get(i).equals(e.rows().get(i))) {
                    i++;
                }
                out.append("\n  ").append(table).append(": ").append(a.rows().size()).append(" rows, expected ")
                        .append(e.rows().size()).append("; first difference at row ").append(i).append(": ")
                        .append(i < a.rows().size() ? a.rows().get(i) : "none").append(" expected ")
                        .append(i < e.rows().size() ? e.rows().get(i) : "none");
            }
        }
        return out.toString();
    }
}
