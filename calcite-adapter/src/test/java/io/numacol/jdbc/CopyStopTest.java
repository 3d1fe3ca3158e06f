package io.numacol.jdbc;

import io.numacol.storage.PartBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A COPY stopped while its parts are being built (a part of a million rows takes a few hundred
 * milliseconds to build, beside the reading of the next) fails as any stopped statement does
 * (57014) and leaves its table exactly as before: the old rows only, no memory held, nothing
 * logged that a file database's recovery would replay; and the table takes rows again.
 */
class CopyStopTest {
    /** Lines of the file: more than two parts at the default of 1,048,576 rows per part. */
    private static final int LINES = 2_500_000;

    @TempDir
    static Path files;
    private static Path big;

    @TempDir
    Path dir;

    @BeforeAll
    static void writeFile() throws IOException {
        big = files.resolve("big.csv");
        try (Writer w = Files.newBufferedWriter(big)) {
            for (int i = 0; i < LINES; i++) {
                w.write("row number " + i + "," + i + "\n");
            }
        }
    }

    private static void createWithOldRows(Statement s) throws SQLException {
        s.execute("create table t (a varchar(100), b integer)");
        s.executeUpdate("insert into t values ('old', -1), ('older', -2)");
    }

    private static final List<List<Object>> OLD_ROWS = List.of(List.of("old", -1), List.of("older", -2));

    private static List<List<Object>> oldRows(Statement s) throws SQLException {
        return rows(s, "select a, b from t where b < 0 order by b desc");
    }

    private static long numacolBytes(Statement s) throws SQLException {
        return ((Number) rows(s, "select sum(numacol_bytes) from sys.nodes").getFirst().getFirst()).longValue();
    }

    /** Whether a worker builds a part now (only a COPY's parts are built while these tests look). */
    private static boolean aPartIsBeingBuilt() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("numacol-worker"))
                .anyMatch(e -> Arrays.stream(e.getValue())
                        .anyMatch(f -> f.getClassName().equals(PartBuilder.class.getName()) && f.getMethodName().equals("build")));
    }

    /**
     * Starts a COPY of the big file on a thread of its own and cancels it once a worker builds one
     * of its parts; returns the SQLException it ended with. It looks at the threads' stacks, not
     * at a clock.
     */
    private static SQLException copyCanceledWhileBuilding(Connection c) throws Exception {
        try (Statement copy = c.createStatement()) {
            JdbcTesting.Running running = JdbcTesting.start(() -> copy.execute("copy t from '" + big + "'"));
            running.awaitExecuting();
            while (!running.done().isDone() && !aPartIsBeingBuilt()) {
                LockSupport.parkNanos(1_000_000);
            }
            copy.cancel();
            try {
                running.done().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasCauseInstanceOf(SQLException.class);
                return (SQLException) e.getCause().getCause();
            }
            throw new AssertionError("the COPY ended by itself before a part of it was built");
        }
    }

    @Test
    void aCopyCanceledWhileItsPartsAreBuiltLeavesTheTableAsItWas() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2;placer=off");
             Statement s = c.createStatement()) {
            createWithOldRows(s);
            long bytes = numacolBytes(s);
            SQLException e = copyCanceledWhileBuilding(c);
            assertThat(e.getSQLState()).isEqualTo("57014");
            assertThat(e.getMessage()).contains("cancel");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(2L));
            assertThat(oldRows(s)).isEqualTo(OLD_ROWS);
            assertThat(numacolBytes(s)).as("off-heap bytes after the canceled COPY").isEqualTo(bytes);

            Path small = Files.writeString(dir.resolve("small.csv"), "new,1\nnewer,2\n");
            assertThat(s.executeUpdate("copy t from '" + small + "'")).isEqualTo(2);
            assertThat(s.executeUpdate("insert into t values ('inserted', 3)")).isEqualTo(1);
            assertThat(rows(s, "select count(*), sum(b) from t")).containsExactly(List.of(5L, 3L));
        }
    }

    /**
     * COPYs of a file four times the big one run in turn under a timeout of one second until one
     * is stopped; each that ended stored its rows, the stopped one none of them. The file takes
     * seconds to load on the 2-core machines this runs on (the big one took 1.2-2.3 s, falling as
     * the JIT warms), so the first COPY is all but always the one stopped.
     */
    @Test
    void aCopyStoppedByItsTimeoutStoresNothing() throws SQLException, IOException {
        int lines = 4 * LINES;
        Path huge = dir.resolve("huge.csv");
        try (Writer w = Files.newBufferedWriter(huge)) {
            for (int i = 0; i < lines; i++) {
                w.write("row number " + i + "," + i + "\n");
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2;placer=off");
             Statement s = c.createStatement()) {
            createWithOldRows(s);
            int[] ended = {0};
            try (Statement copy = c.createStatement()) {
                copy.setQueryTimeout(1);
                assertThatThrownBy(() -> {
                    for (int i = 0; i < 20; i++) {
                        copy.execute("copy t from '" + huge + "'");
                        ended[0]++;
                    }
                }).isInstanceOf(SQLTimeoutException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"))
                        .hasMessageContaining("timeout");
            }
            long n = lines;
            assertThat(rows(s, "select count(*), sum(b) from t"))
                    .containsExactly(List.of(2 + ended[0] * n, -3 + ended[0] * (n * (n - 1) / 2)));
            assertThat(oldRows(s)).isEqualTo(OLD_ROWS);
            assertThat(s.executeUpdate("insert into t values ('inserted', 3)")).isEqualTo(1);
        }
    }

    /**
     * In a file database, a COPY canceled while its parts are built logs nothing: the log is as
     * long as before, and the database opened again has the old rows only. It takes a COPY again,
     * which the next opening has.
     */
    @Test
    void aCanceledCopyLeavesNothingForRecovery() throws Exception {
        String url = "jdbc:numacol:file:" + dir.resolve("db") + ";topology=fake:2;placer=off";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            createWithOldRows(s);
            long logged = ((Number) rows(s, "select log_bytes from sys.storage").getFirst().getFirst()).longValue();
            assertThat(copyCanceledWhileBuilding(c).getSQLState()).isEqualTo("57014");
            assertThat(rows(s, "select log_bytes from sys.storage")).as("the log after the canceled COPY")
                    .containsExactly(List.of(logged));
            assertThat(oldRows(s)).isEqualTo(OLD_ROWS);
        }
        Path small = Files.writeString(dir.resolve("small.csv"), "new,1\n");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(2L));
            assertThat(oldRows(s)).isEqualTo(OLD_ROWS);
            assertThat(s.executeUpdate("copy t from '" + small + "'")).isEqualTo(1);
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertThat(rows(s, "select a, b from t order by b")).containsExactly(List.of("older", -2), List.of("old", -1),
                    List.of("new", 1));
        }
    }
}
