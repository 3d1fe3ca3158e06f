package io.numacol.crash;

import io.numacol.crash.CrashModel.Dialect;
import io.numacol.crash.CrashModel.Generator;
import io.numacol.crash.CrashModel.Mode;
import io.numacol.crash.CrashModel.Op;
import io.numacol.crash.CrashModel.Step;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The process {@link CrashRecoveryTest} kills: runs {@link CrashModel}'s steps for a seed
 * against a JDBC URL, one connection, and prints {@code COMMITTED n} (and flushes) after the
 * n-th commit has returned, so that whoever reads its output knows a lower bound of what the
 * database has promised to keep.
 *
 * <p>Arguments: URL, seed, a directory for the CSV files COPY loads, and optionally the number
 * of commits after which to stop (else it runs until killed).
 */
public final class CrashWorkload {
    /** -Dcrash.trace=true: each step, its time and its statements on stderr, to see where the time goes. */
    private static final boolean TRACE = Boolean.getBoolean("crash.trace");

    private CrashWorkload() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: CrashWorkload <jdbc-url> <seed> <scratch-dir> [max-commits]");
            System.exit(2);
        }
        String url = args[0];
        long seed = Long.parseLong(args[1]);
        Path scratch = Files.createDirectories(Path.of(args[2]));
        long max = args.length > 3 ? Long.parseLong(args[3]) : Long.MAX_VALUE;
        Dialect dialect = Dialect.of(url);
        Generator generator = new Generator(seed);
        try (Connection c = DriverManager.getConnection(url)) {
            while (generator.committed() < max) {
                Step step = generator.next();
                long start = System.nanoTime();
                try {
                    run(c, dialect, scratch, step);
                } catch (SQLException e) {
                    // the model cannot follow a statement the database refused: stop loudly, the test fails on it
                    throw new IllegalStateException("step for commit " + generator.committed() + " (" + step.mode() + ") failed: "
                            + step.ops().stream().map(Op::describe).toList(), e);
                }
                if (TRACE) {
                    System.err.printf("%s %.1f ms %s%n", step.mode(), (System.nanoTime() - start) / 1e6,
                            step.ops().stream().map(Op::describe).toList());
                }
                if (step.mode() != Mode.ROLLBACK) {
                    System.out.println("COMMITTED " + generator.committed());
                    System.out.flush();
                }
            }
        }
    }

    private static void run(Connection c, Dialect dialect, Path scratch, Step step) throws Exception {
        boolean autocommit = step.mode() == Mode.AUTOCOMMIT;
        if (c.getAutoCommit() != autocommit) {
            c.setAutoCommit(autocommit);
        }
        for (Op op : step.ops()) {
            op.run(c, dialect, scratch);
        }
        switch (step.mode()) {
            case COMMIT -> c.commit();
            case ROLLBACK -> c.rollback();
            case AUTOCOMMIT -> {
                // committed when the statement returned
            }
        }
    }
}
