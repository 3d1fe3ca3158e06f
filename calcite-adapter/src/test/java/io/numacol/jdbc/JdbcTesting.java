package io.numacol.jdbc;

import io.numacol.calcite.QueryCancel;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/** Helpers the JDBC tests share. */
final class JdbcTesting {
    private JdbcTesting() {
    }

    /** JDBC work to run on a thread of its own. */
    @FunctionalInterface
    interface SqlWork {
        void run() throws SQLException;
    }

    /**
     * Work running on a thread of its own: {@code done} completes when it ends, exceptionally with
     * what it threw (an SQLException inside an IllegalStateException).
     */
    record Running(Thread thread, CompletableFuture<Void> done) {
        /** The frame a statement's execution runs under once its cancel flag was lowered for it. */
        private static final String EXECUTING = QueryCancel.class.getName();

        /**
         * Returns once the thread executes a statement (or the work ended): a cancel() or close() sent
         * before an execution starts stops nothing, so a test stops a statement only after this. It
         * waits on the thread's stack, not on a time.
         */
        void awaitExecuting() {
            while (!done.isDone() && Arrays.stream(thread.getStackTrace())
                    .noneMatch(f -> f.getClassName().equals(EXECUTING) && f.getMethodName().equals("runAs"))) {
                LockSupport.parkNanos(1_000_000); // each look at the stack stops the thread a moment
            }
        }
    }

    /** Starts {@code work} on a thread of its own. */
    static Running start(SqlWork work) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                work.run();
                done.complete(null);
            } catch (SQLException e) {
                done.completeExceptionally(new IllegalStateException(e));
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        }, "jdbc-test-statement");
        thread.setDaemon(true);
        thread.start();
        return new Running(thread, done);
    }

    /** Every row of a query, each as a list of its values (getObject). */
    static List<List<Object>> rows(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            return rows(rs);
        }
    }

    static List<List<Object>> rows(ResultSet rs) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                row.add(rs.getObject(i));
            }
            out.add(row);
        }
        return out;
    }
}
