package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

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
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fresh JVM with numacol's flags (numacol.jvm.args, as surefire starts this one) that creates
 * a table, inserts a row and selects it writes nothing to stderr but the JDK's note on the
 * incubating Vector API module: no SLF4J line (Calcite's logging has a provider), no
 * {@code sun.misc.Unsafe} warning (protobuf, initialized by Avatica for every connection), no
 * log line of numacol's own.
 */
class QuietStartTest {
    /** The three statements of a cold start, in a process of its own; prints the row it read. */
    public static final class Child {
        public static void main(String[] args) throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
                s.execute("create table t (id bigint not null, name varchar(20))");
                s.executeUpdate("insert into t values (1, 'one')");
                try (ResultSet rs = s.executeQuery("select id, name from t")) {
                    rs.next();
                    System.out.println("ROW " + rs.getLong(1) + " " + rs.getString(2));
                }
            }
        }
    }

    @Test
    void aPlainStartWritesNoWarning() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-javaagent") && !arg.startsWith("-agentlib")) {
                command.add(arg);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName()));
        Path err = Files.createTempFile("quiet-start", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(Files.readString(err)).isZero();
            assertThat(out.lines()).contains("ROW 1 one");
            // where libnuma is missing or refused, numacol's one line saying it runs as one node (and
            // java.util.logging's line naming where it logged from) is the designed exception
            List<String> lines = Files.readAllLines(err);
            boolean oneNode = lines.stream().anyMatch(line -> line.contains("numacol runs as one NUMA node"));
            assertThat(lines).as("stderr of a plain start").allMatch(line -> line.equals("WARNING: Using incubator modules: jdk.incubator.vector")
                    || (oneNode && (line.contains("numacol runs as one NUMA node") || line.contains("io.numacol.topology.Topology"))));
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
