package io.numacol.jdbc;

import io.numacol.database.Database;
import io.numacol.storage.CatalogView;
import io.numacol.storage.Transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One connection's transaction state: auto-commit (each statement commits as it ends, the
 * default), or a {@link Transaction} open from the first statement after {@code
 * setAutoCommit(false)} or {@code BEGIN} until {@code commit()}/{@code rollback()} or {@code
 * COMMIT}/{@code ROLLBACK}. DDL commits the open transaction first, as MySQL's does: a table's
 * schema is not versioned with its data.
 */
final class ConnectionTransaction {
    /** BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK (with their optional WORK/TRANSACTION words), as PostgreSQL spells them. */
    private static final Pattern CONTROL = Pattern.compile(
            "\\s*(BEGIN|START\\s+TRANSACTION|COMMIT|END|ROLLBACK|ABORT)(?:\\s+(?:WORK|TRANSACTION))?\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);
    /** Statements that change the catalog: they commit the open transaction first. */
    private static final Pattern DDL = Pattern.compile(
            "\\s*(CREATE|DROP|ALTER|TRUNCATE|COMMENT|RENAME)\\b.*", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** What a transaction-control statement asks. */
    enum Control { BEGIN, COMMIT, ROLLBACK }

    private boolean autoCommit = true;
    /** A BEGIN in auto-commit mode: a transaction until the next COMMIT or ROLLBACK. */
    private boolean explicit;
    private Transaction.Isolation isolation = Transaction.Isolation.REPEATABLE_READ;
    private Transaction open;

    /** The control statement {@code sql} is, or null. */
    static Control control(String sql) {
        Matcher m = CONTROL.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        String word = m.group(1).toUpperCase(Locale.ROOT);
        return word.startsWith("BEGIN") || word.startsWith("START") ? Control.BEGIN
                : word.equals("COMMIT") || word.equals("END") ? Control.COMMIT : Control.ROLLBACK;
    }

    static boolean isDdl(String sql) {
        return DDL.matcher(sql).matches();
    }

    synchronized boolean autoCommit() {
        return autoCommit;
    }

    /** JDBC's setAutoCommit: turning it on commits the open transaction, as the JDBC specification says. */
    synchronized void setAutoCommit(boolean on) throws SQLException {
        if (on && !autoCommit) {
            commit();
        }
        autoCommit = on;
        explicit = false;
    }

    /** The JDBC isolation level transactions begin with. */
    synchronized int isolationLevel() {
        return isolation == Transaction.Isolation.READ_COMMITTED ? Connection.TRANSACTION_READ_COMMITTED
                : Connection.TRANSACTION_REPEATABLE_READ;
    }

    /**
     * Sets the level of the transactions that begin from now on. READ UNCOMMITTED gives READ
     * COMMITTED (a stronger level, as PostgreSQL does); SERIALIZABLE is refused: numacol's
     * strongest level is snapshot isolation.
     */
    synchronized void setIsolationLevel(int level) throws SQLException {
        isolation = switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED, Connection.TRANSACTION_READ_COMMITTED -> Transaction.Isolation.READ_COMMITTED;
            case Connection.TRANSACTION_REPEATABLE_READ -> Transaction.Isolation.REPEATABLE_READ;
            case Connection.TRANSACTION_SERIALIZABLE -> throw new SQLFeatureNotSupportedException(
                    "numacol's strongest isolation is snapshot isolation (TRANSACTION_REPEATABLE_READ, as PostgreSQL's "
                            + "REPEATABLE READ): TRANSACTION_SERIALIZABLE is not supported", "0A000");
            default -> throw new SQLException("unknown transaction isolation level " + level, "HY024");
        };
    }

    /** The view the connection's next statement runs in when a transaction is (or now begins) open, else null. */
    synchronized CatalogView statementView(Database database) {
        if (autoCommit && !explicit) {
            return null;
        }
        if (open == null || open.isEnded()) {
            open = database.catalog().begin(isolation);
        }
        return open.statementView();
    }

    /** Runs a control statement. */
    synchronized void run(Control control) throws SQLException {
        switch (control) {
            case BEGIN -> {
                if (autoCommit) {
                    explicit = true; // a BEGIN inside a transaction goes on with it, as PostgreSQL's does (with a warning)
                }
            }
            case COMMIT -> commit();
            case ROLLBACK -> rollback();
        }
    }

    /** Commits the open transaction, if any; a write conflict is SQLState 40001 and leaves nothing of it. */
    synchronized void commit() throws SQLException {
        Transaction t = open;
        open = null;
        explicit = false;
        if (t != null && !t.isEnded()) {
            try {
                t.commit();
            } catch (RuntimeException e) {
                throw SqlStates.of(e);
            }
        }
    }

    /** Drops the open transaction's changes, if any. */
    synchronized void rollback() {
        Transaction t = open;
        open = null;
        explicit = false;
        if (t != null) {
            t.rollback();
        }
    }

    /** Before DDL: the open transaction commits, and the DDL runs on its own. */
    synchronized void commitBeforeDdl() throws SQLException {
        if (open != null) {
            commit();
            explicit = false;
        }
    }
}
