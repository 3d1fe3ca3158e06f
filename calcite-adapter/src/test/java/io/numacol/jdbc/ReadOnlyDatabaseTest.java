package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code access_mode=read_only}: a file database read by several processes at once, each
 * refusing every change with 25006, while none may open it to write (08001), and a writer again
 * once the readers are gone.
 */
class ReadOnlyDatabaseTest {

    /** A process of its own: opens {@code args[0]}, runs {@code args[1]}, prints the first value or the SQLState. */
    public static final class Child {
        public static void main(String[] args) {
            try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
                if (s.execute(args[1])) {
                    try (ResultSet rs = s.getResultSet()) {
                        rs.next();
                        System.out.println("VALUE " + rs.getObject(1));
                    }
                } else {
                    System.out.println("COUNT " + s.getUpdateCount());
                }
            } catch (SQLException e) {
                System.out.println("STATE " + e.getSQLState() + " " + e.getMessage());
            }
        }
    }

    private static String inChild(String url, String sql) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-javaagent") && !arg.startsWith("-agentlib")) {
                command.add(arg);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName(), url, sql));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return out.lines().filter(l -> l.startsWith("VALUE ") || l.startsWith("STATE ") || l.startsWith("COUNT ")).findFirst()
                .orElse(out);
    }

    @Test
    void severalProcessesReadNoneWrites(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("db");
        String url = "jdbc:numacol:file:" + db;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, name varchar(5))");
            s.execute("create sequence q");
            s.executeUpdate("insert into t values (1, 'a'), (2, 'b')");
        }
        String readOnly = url + ";access_mode=read_only";
        try (Connection c = DriverManager.getConnection(readOnly); Statement s = c.createStatement()) {
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(2L));
            for (String change : List.of("insert into t values (3, 'c')", "update t set name = 'z'", "delete from t",
                    "create table u (x int)", "drop table t", "alter table t add column y int", "truncate t", "checkpoint",
                    "copy t from 'nothing.csv'", "/* a comment */ (insert into t values (4, 'd'))")) {
                assertThatThrownBy(() -> s.execute(change)).as(change).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"))
                        .hasMessageContaining("read-only");
            }
            assertThatThrownBy(() -> {
                try (PreparedStatement p = c.prepareStatement("insert into t values (?, ?)")) { // refused here, or when run
                    p.setInt(1, 5);
                    p.setString(2, "e");
                    p.executeUpdate();
                }
            }).isInstanceOf(SQLException.class).satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
            assertThatThrownBy(() -> {
                try (PreparedStatement p = c.prepareStatement("insert into t values (?, 'u') on conflict (id) do update set name = 'v'")) {
                    p.setInt(1, 1);
                    p.executeUpdate();
                }
            }).isInstanceOf(SQLException.class).satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
            assertThatThrownBy(() -> rows(s, "select nextval('q')")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
            assertThat(rows(s, "select id, name from t order by id")).containsExactly(List.of(1, "a"), List.of(2, "b"));

            // another process reads it too, and cannot open it to write while this one reads
            assertThat(inChild(readOnly, "select count(*) from t")).isEqualTo("VALUE 2");
            assertThat(inChild(url, "select count(*) from t")).startsWith("STATE 08001").contains("LOCK");
        }
        assertThat(inChild(url, "insert into t values (3, 'c')")).isEqualTo("COUNT 1"); // the readers are gone
        try (Connection c = DriverManager.getConnection(readOnly); Statement s = c.createStatement()) {
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(3L));
        }
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:file:" + dir.resolve("none") + ";access_mode=read_only"))
                .isInstanceOf(SQLException.class).hasMessageContaining("no numacol database");
        assertThat(Files.exists(dir.resolve("none"))).isFalse(); // a read-only open creates nothing
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:mem:x;access_mode=read_only"))
                .isInstanceOf(SQLException.class).hasMessageContaining("access_mode is a file database's");
        assertThatThrownBy(() -> DriverManager.getConnection(url + ";access_mode=sometimes"))
                .isInstanceOf(SQLException.class).hasMessageContaining("access_mode=sometimes");
    }
}
