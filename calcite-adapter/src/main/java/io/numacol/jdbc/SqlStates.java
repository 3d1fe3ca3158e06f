package io.numacol.jdbc;

import io.numacol.calcite.ddl.DdlException;
import io.numacol.checkpoint.DamagedFileException;
import io.numacol.checkpoint.UnsupportedVersionException;
import io.numacol.calcite.InvalidCheckException;
import io.numacol.durability.DatabaseLockedException;
import io.numacol.durability.ReadOnlyDatabaseException;
import io.numacol.storage.CheckViolationException;
import io.numacol.storage.ForeignKeyViolationException;
import io.numacol.storage.IdentityViolationException;
import io.numacol.storage.KeyViolationException;
import io.numacol.storage.NotNullViolationException;
import io.numacol.storage.SequenceLimitException;
import io.numacol.storage.WriteConflictException;
import io.numacol.database.FileAccessException;
import io.numacol.memory.MemoryLimitException;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.validate.SqlValidatorException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.BatchUpdateException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.time.DateTimeException;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.regex.Pattern;

/**
 * The one place that turns whatever a statement threw into the SQLException a JDBC caller gets:
 * with an SQLSTATE (PostgreSQL's codes where it has one, the standard's class otherwise) and as
 * the JDBC 4 subclass of that state's class ({@link SQLDataException} for 22, {@link
 * SQLSyntaxErrorException} for 42, {@link SQLTimeoutException} for a timeout...), so that a
 * caller (or Spring's translator) can tell bad data from bad SQL from a canceled statement.
 *
 * <p>Where the line is drawn for Errors: a {@link StackOverflowError} is the statement's own (an
 * expression too deep to plan; its frames are gone once it unwinds), 54001; the heap running out
 * while a statement's objects were made is 53200; every other {@link VirtualMachineError} (an
 * InternalError, metaspace or threads running out) is the JVM's and passes as it is. Other Errors
 * from planning and code generation (Calcite's AssertionErrors, a failed initializer of generated
 * code) are failures of the statement: XX000, with the Error as the cause.
 */
final class SqlStates {
    static final String SYNTAX_ERROR = "42601";
    static final String INTERNAL_ERROR = "XX000";
    /** A table changed under the statement (another connection's DDL): it can only be run again. */
    static final String RUN_AGAIN = "40001";

    /** The class names Avatica writes before the message of what it wraps. */
    private static final Pattern CLASS_NAMES = Pattern.compile("\\b(?:java|javax|org\\.apache\\.calcite)\\.[\\w.$]+(?:Exception|Error): ");

    /** Calcite's complaint about a datetime literal, lower-cased: "illegal date literal '2024-13-45'". */
    private static final Pattern DATETIME_LITERAL = Pattern.compile("illegal (date|time|timestamp|interval)[a-z ]* literal");
    /**
     * Text that is no datetime, lower-cased: numacol's "'x' is not a valid date (expected ...)",
     * Calcite's "invalid date value, 'x'" from a CAST at run time.
     */
    private static final Pattern DATETIME_TEXT = Pattern.compile("not a valid (date|time|timestamp)\\b|^invalid (date|time|timestamp)[a-z ]* value");

    /** How Avatica's message of a statement that failed to prepare begins. */
    private static final String PREPARING = "Error while preparing statement";

    private SqlStates() {
    }

    /**
     * {@code thrown} as the SQLException to throw: itself when it is one with a state, else a new
     * one with its message, the state of what it says, and {@code thrown} as the cause. Throws a
     * VirtualMachineError that is not the statement's (see the class comment).
     */
    static SQLException of(Throwable thrown) {
        if (thrown instanceof SQLException e && e.getSQLState() != null) {
            return e;
        }
        if (thrown instanceof VirtualMachineError error && !(error instanceof StackOverflowError)
                && !(error instanceof OutOfMemoryError oom && "Java heap space".equals(oom.getMessage()))) {
            throw error;
        }
        if (thrown instanceof BatchUpdateException batch) {
            return batch;
        }
        String state = state(thrown);
        return create(message(thrown, state), state, thrown);
    }

    /** An SQLException of {@code state}, as the JDBC 4 subclass of its class. */
    static SQLException create(String message, String state, Throwable thrown) {
        return switch (state.substring(0, 2)) {
            case "22" -> new SQLDataException(message, state, thrown);
            case "23" -> new SQLIntegrityConstraintViolationException(message, state, thrown);
            case "42" -> new SQLSyntaxErrorException(message, state, thrown);
            case "0A" -> new SQLFeatureNotSupportedException(message, state, thrown);
            case "40" -> new SQLTransactionRollbackException(message, state, thrown);
            default -> timedOut(thrown) ? new SQLTimeoutException(message, state, thrown) : new SQLException(message, state, thrown);
        };
    }

    /** The state of the first cause that says what went wrong, {@link #INTERNAL_ERROR} if none does. */
    static String state(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String state = ownState(t);
            if (state != null) {
                return state;
            }
        }
        return INTERNAL_ERROR;
    }

    private static String ownState(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
        return switch (t) {
            case SQLException e when e.getSQLState() != null -> e.getSQLState();
            // a JDBC subclass thrown without a state says its class
            case SQLFeatureNotSupportedException e -> "0A000";
            case SQLTimeoutException e -> "57014";
            case SQLDataException e -> "22000";
            case SQLSyntaxErrorException e -> "42000";
            case SQLIntegrityConstraintViolationException e -> "23000";
            case SQLTransactionRollbackException e -> "40000";
            case SQLException e -> null;
            case SqlParseException e -> SYNTAX_ERROR;
            case SqlValidatorException e -> validation(message);
            case CalciteContextException e -> e.getCause() instanceof SqlValidatorException ? null : validation(message);
            case CancellationException e -> "57014";
            case MemoryLimitException e -> "53200";
            case FileAccessException e -> "42501";
            case OutOfMemoryError e -> "53200";
            case StackOverflowError e -> "54001";
            case ArithmeticException e -> message.contains("by zero") ? "22012" : "22003";
            case DateTimeParseException e -> "22007";
            case DateTimeException e -> "22008";
            case NumberFormatException e -> "22018";
            case UnsupportedOperationException e -> "0A000";
            // a file database's file is damaged (its checksum says so) or of a format this build does not read
            case UncheckedIOException e when e.getCause() instanceof DamagedFileException -> "XX001";
            case UncheckedIOException e when e.getCause() instanceof UnsupportedVersionException -> "0A000";
            case UncheckedIOException e when e.getCause() instanceof java.nio.file.NoSuchFileException -> "58P01";
            case UncheckedIOException e -> "58030";
            case DatabaseLockedException e -> "08001";
            case ReadOnlyDatabaseException e -> "25006";
            case IOException e -> "58030";
            case NotNullViolationException e -> "23502";
            case CheckViolationException e -> "23514";
            case InvalidCheckException e -> e.sqlState(); // null: its cause (Calcite's validator) says
            case IdentityViolationException e -> "428C9";
            case SequenceLimitException e -> "2200H";
            case IllegalStateException e when message.startsWith("currval of sequence") -> "55000";
            // Calcite's planner asserting on its own state ("Type mismatch" in a rule): an internal error, whatever words its message holds
            case IllegalArgumentException e when DATETIME_TEXT.matcher(message).find() -> "22007"; // PostgreSQL's invalid datetime format
            case IllegalArgumentException e when thrownBy(e, "org.apache.calcite.") -> INTERNAL_ERROR;
            case IllegalArgumentException e -> argument(message);
            case WriteConflictException e -> RUN_AGAIN;
            case KeyViolationException e -> "23505";
            case ForeignKeyViolationException e -> "23503";
            case DdlException e -> e.sqlState();
            case IllegalStateException e when message.contains("run it again") -> RUN_AGAIN;
            case IllegalStateException e when message.contains("the database was closed") -> "08003";
            // Calcite's own checks when another connection dropped or altered a table while this statement was planned
            case AssertionError e when message.contains("getrelopttable returned null") || message.contains("column name not found") -> RUN_AGAIN;
            default -> null;
        };
    }

    /** Whether {@code t} was thrown in a class of the package {@code prefix} names. */
    private static boolean thrownBy(Throwable t, String prefix) {
        StackTraceElement[] trace = t.getStackTrace();
        return trace.length > 0 && trace[0].getClassName().startsWith(prefix);
    }

    /** A validator's complaint: what is missing or does not fit. */
    private static String validation(String message) {
        if (DATETIME_LITERAL.matcher(message).find()) {
            return "22007"; // DATE '2024-13-45': PostgreSQL's invalid datetime format
        }
        if (message.contains("column") && message.contains("not found")) {
            return "42703";
        }
        if ((message.contains("object") || message.contains("table")) && message.contains("not found")) {
            return "42P01";
        }
        if (message.contains("no match found for function") || message.contains("cannot apply")) {
            return "42883";
        }
        return "42000";
    }

    /** numacol's own refusals of a value or a statement, by what their messages say. */
    private static String argument(String message) {
        if (message.startsWith("limit must not be negative")) {
            return "2201W"; // PostgreSQL's invalid row count in limit clause
        }
        if (message.startsWith("offset must not be negative")) {
            return "2201X"; // and in result offset clause
        }
        if (message.contains("year out of range")) {
            return "22008";
        }
        if (message.contains("not a number") || message.contains("not a valid")) {
            return "22P02";
        }
        if (message.contains("out of range") || message.contains("overflow") || message.contains("does not fit")) {
            return "22003";
        }
        if (message.contains("too long") || message.contains("longer than")) {
            return "22001";
        }
        if (message.startsWith("constraint") && message.contains("already exists")) {
            return "42710";
        }
        if (message.contains("already exists")) {
            return "42P07";
        }
        if (message.startsWith("relation") && message.contains("does not exist")) {
            return "42P01";
        }
        if (message.contains("does not exist") || message.contains("no such") || message.contains("unknown")) {
            return "42704";
        }
        if (message.startsWith("expected") || message.contains("syntax")) {
            return SYNTAX_ERROR;
        }
        if (message.contains("not null") || message.contains("null value")) {
            return "23502";
        }
        return "22023";
    }

    /** The first message under {@code thrown} that is not Avatica's wrapping of the statement, or null. */
    private static String causeMessage(Throwable thrown) {
        for (Throwable t = thrown.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank() && !t.getMessage().startsWith(PREPARING)) {
                return CLASS_NAMES.matcher(t.getMessage()).replaceAll("");
            }
        }
        return null;
    }

    private static boolean timedOut(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTimeoutException || (t instanceof CancellationException && String.valueOf(t.getMessage()).contains("timeout"))) {
                return true;
            }
        }
        return false;
    }

    /** The message a person reads: an SQLException's own, else the first cause's that has one. */
    private static String message(Throwable thrown, String state) {
        for (Throwable t = thrown; RUN_AGAIN.equals(state) && t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AssertionError) {
                return "a table this statement reads was dropped or altered by another connection while it was planned: "
                        + "run it again (" + t.getMessage() + ")";
            }
        }
        for (Throwable t = thrown; "57014".equals(state) && t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CancellationException && t.getMessage() != null) {
                // a stop thrown out of the planner comes wrapped in Calcite's "Error while applying rule ...",
                // which says nothing of the cancel or timeout that ended the statement
                return t.getMessage();
            }
        }
        if (thrown instanceof SQLException && thrown.getMessage() != null) {
            // Avatica's "Error while executing SQL "...": java.sql.SQLException: what" names the classes it wrapped
            String message = CLASS_NAMES.matcher(thrown.getMessage()).replaceAll("");
            // Avatica's "Error while preparing statement [sql]" says nothing of what is wrong: its cause does
            String cause = message.startsWith(PREPARING) ? causeMessage(thrown) : null;
            return cause == null ? message : message + ": " + cause;
        }
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return switch (state) {
            case "54001" -> "statement too complex: its expressions nest too deeply to plan even on a deep stack; flatten them";
            default -> thrown.getClass().getSimpleName();
        };
    }
}
