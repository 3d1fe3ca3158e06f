package io.numacol.cli;

import org.junit.jupiter.api.Test;
import sqlline.SqlLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shell prints a bad statement as its message, for {@code -e} and {@code --run} too (sqlline
 * alone printed the stack there); {@code --verbose=true} still gives the stack. sqlline keeps its
 * "start-up finished" flag in a static field, so only the first of these tests in a JVM runs with it
 * unset, as every statement of a real {@code -e} does; each test passes in either state.
 */
class ShellTest {
    @Test
    void printsTheMessageOfABadStatementFromMinusE() throws IOException {
        String err = run("--verbose=false", "-e", "select * from nosuch");
        assertThat(err).contains("Error: ").contains("Object 'nosuch' not found").doesNotContain("\tat ");
    }

    @Test
    void printsTheMessageOfAFailureWhileRowsAreFetched() throws IOException {
        String err = run("--verbose=false", "-e", "select 10 / (x - 1) from (values (1), (2)) as t(x)");
        assertThat(err).contains("Error: ").contains("/ by zero").doesNotContain("\tat ");
    }

    @Test
    void printsTheMessageOfABadStatementInAScript(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path script = Files.writeString(dir.resolve("q.sql"), "create table t (i int);\ninsert into t values ('x');\n");
        String err = run("--verbose=false", "--run=" + script);
        assertThat(err).contains("Error: ").contains("'x'").doesNotContain("\tat ");
    }

    @Test
    void verboseShowsTheStack() throws IOException {
        assertThat(run("--verbose=true", "-e", "select * from nosuch")).contains("Object 'nosuch' not found").contains("\tat ");
    }

    /** Runs the shell on a private database and gives what it wrote to standard error. */
    private static String run(String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("-d", "io.numacol.jdbc.NumacolDriver", "-u", "jdbc:numacol:", "-n", "", "-p", ""));
        all.addAll(List.of(args));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream systemErr = System.err;
        // sqlline prints a stack with printStackTrace(): to System.err, not its error stream
        try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            Shell shell = new Shell();
            shell.setOutputStream(new ByteArrayOutputStream());
            shell.setErrorStream(err);
            SqlLine.Status status = shell.begin(all.toArray(String[]::new), new ByteArrayInputStream(new byte[0]), false);
            assertThat(status).isNotEqualTo(SqlLine.Status.ARGS);
        } finally {
            System.setErr(systemErr);
        }
        return err.toString(StandardCharsets.UTF_8);
    }
}
