package io.numacol.cli;

import sqlline.SqlLine;
import sqlline.SqlLineOpts;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.sql.SQLException;
import java.sql.SQLWarning;

/**
 * The SQL prompt of {@code src/bin/numacol-shell}: sqlline, printing an error as its message
 * alone unless {@code !set verbose true} asks for the stack and its causes.
 *
 * <p>sqlline itself treats every error before its prompt starts as verbose, and the statements of
 * {@code -e} and {@code -f}/{@code --run} run then: each bad statement came with a 40-line stack.
 */
public final class Shell extends SqlLine {
    public static void main(String[] args) throws IOException {
        Status status = new Shell().begin(args, null, true);
        if (!Boolean.getBoolean(SqlLineOpts.PROPERTY_NAME_EXIT)) {
            // sqlline's codes: 0 success, 1 bad arguments, 2 any other failure
            System.exit(switch (status) {
                case OK -> 0;
                case ARGS -> 1;
                default -> 2;
            });
        }
    }

    @Override
    public void handleException(Throwable e) {
        Throwable cause = e;
        while (cause instanceof InvocationTargetException invocation && invocation.getTargetException() != null) {
            cause = invocation.getTargetException();
        }
        // sqlline wraps a failure while it fetches rows in its own (package-private) RuntimeException
        if (!(cause instanceof SQLException) && cause.getCause() instanceof SQLException wrapped
                && cause.getClass().getPackageName().equals("sqlline")) {
            cause = wrapped;
        }
        if (getOpts().getVerbose() || !(cause instanceof SQLException sql)) {
            super.handleException(e);
            return;
        }
        if (sql instanceof SQLWarning && !getOpts().getShowWarnings()) {
            return;
        }
        for (SQLException next = sql; next != null; next = next == next.getNextException() ? null : next.getNextException()) {
            String state = next.getSQLState() == null ? "" : " (state " + next.getSQLState() + ")";
            error((next instanceof SQLWarning ? "Warning: " : "Error: ") + next.getMessage() + state);
            if (!getOpts().getShowNestedErrs()) {
                break;
            }
        }
    }
}
