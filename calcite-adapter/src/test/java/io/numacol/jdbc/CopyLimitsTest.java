package io.numacol.jdbc;

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
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What COPY may read and how long: an embedding application turns file access off or confines it
 * to directories; devices and pipes are refused; a record past its size fails naming its line; a
 * COPY stops on cancel() and at its timeout, storing nothing.
 */
class CopyLimitsTest {
    @TempDir
    Path dir;

    private static SQLException sqlFailure(Statement s, String sql) {
        try {
            s.execute(sql);
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("no failure: " + sql);
    }

    @Test
    void fileAccessCanBeTurnedOffOrConfined() throws IOException, SQLException {
        Path inside = Files.createDirectories(dir.resolve("in"));
        Path csv = Files.writeString(inside.resolve("t.csv"), "1\n2\n");
        Path outside = Files.writeString(dir.resolve("secret.csv"), "3\n");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;externalAccess=false");
             Statement s = c.createStatement()) {
            s.execute("create table t (x integer)");
            SQLException e = sqlFailure(s, "copy t from '" + csv + "'");
            assertThat(e.getSQLState()).isEqualTo("42501");
            assertThat(e.getMessage()).contains("externalAccess=false");
        }
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;allowedDirectories=" + inside);
             Statement s = c.createStatement()) {
            s.execute("create table t (x integer)");
            assertThat(s.executeUpdate("copy t from '" + csv + "'")).isEqualTo(2);
            for (String path : List.of(outside.toString(), inside + "/../secret.csv", "/etc/passwd")) {
                SQLException e = sqlFailure(s, "copy t from '" + path + "' (delimiter ':')");
                assertThat(e.getSQLState()).as(path).isEqualTo("42501");
                assertThat(e.getMessage()).contains("outside the directories");
            }
            Files.createSymbolicLink(inside.resolve("link.csv"), outside);
            assertThat(sqlFailure(s, "copy t from '" + inside.resolve("link.csv") + "'").getSQLState()).isEqualTo("42501");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(2L));
        }
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;allowedDirectories=" + dir.resolve("none")))
                .isInstanceOf(SQLException.class).hasMessageContaining("does not exist");
    }

    @Test
    void onlyRegularFilesAreReadAndRecordsHaveABound() throws IOException, SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (a varchar(100), b integer)");
            for (String device : List.of("/dev/zero", dir.toString())) {
                SQLException e = sqlFailure(s, "copy t from '" + device + "'");
                assertThat(e.getSQLState()).as(device).isEqualTo("42501");
                assertThat(e.getMessage()).contains("no regular file");
            }
            Path wide = Files.writeString(dir.resolve("wide.csv"), "ok,1\n" + "x".repeat(5_000) + ",2\nok,3\n");
            SQLException e = sqlFailure(s, "copy t from '" + wide + "' (max_line_size 1000)");
            assertThat(e.getMessage()).contains("line 2: the record is longer than 1000 characters");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(0L));
            assertThat(sqlFailure(s, "copy t from '" + wide + "' (max_line_size 0)").getSQLState()).isEqualTo("42601");
        }
    }

    /** A big file, so that a COPY runs long enough to be stopped. */
    private Path bigCsv() throws IOException {
        Path big = dir.resolve("big.csv");
        try (Writer w = Files.newBufferedWriter(big)) {
            for (int i = 0; i < 3_000_000; i++) {
                w.write("row number " + i + "," + i + "\n");
            }
        }
        return big;
    }

    @Test
    void aCopyStopsAtItsTimeoutAndOnCancel() throws Exception {
        Path big = bigCsv();
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (a varchar(100), b integer)");
            s.setQueryTimeout(1);
            long start = System.nanoTime();
            // one load of the file takes seconds here, longer than the timeout
            assertThatThrownBy(() -> {
                for (int i = 0; i < 3; i++) {
                    s.execute("copy t from '" + big + "'");
                    s.execute("truncate table t");
                }
            }).isInstanceOf(SQLTimeoutException.class).hasMessageContaining("timeout");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(20_000);
            s.setQueryTimeout(0);
            try (Statement copy = c.createStatement()) {
                JdbcTesting.Running running = JdbcTesting.start(() -> {
                    for (int i = 0; i < 20; i++) {
                        copy.execute("copy t from '" + big + "'");
                    }
                });
                running.awaitExecuting();
                copy.cancel();
                assertThatThrownBy(() -> running.done().get(20, TimeUnit.SECONDS)).hasRootCauseInstanceOf(CancellationException.class);
            }
        }
    }
}
