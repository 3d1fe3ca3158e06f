package io.numacol.jdbc;

import io.numacol.database.Database;
import io.numacol.storage.CatalogView;
import io.numacol.storage.Transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One connection's transaction state: auto-commit (each statement commits as it ends, the
 * default), or a {@link Transaction} open from the first statement after {@code
 * setAutoCommit(false)} or {@code BEGIN} until {@code commit()}/{@code rollback()} or {@code
 * COMMIT}/{@code ROLLBACK}. DDL commits the open transaction first, as MySQL's does: a table's
 * schema is not versioned with its data.
 *
 * <p>Savepoints ({@code setSavepoint}, {@code SAVEPOINT name}) mark points of the open
 * transaction to roll back to ({@code rollback(Savepoint)}, {@code ROLLBACK TO SAVEPOINT name});
 * named and unnamed ones share one list, newest last, and a name (compared ignoring case, as
 * numacol's identifiers are) names the newest savepoint that has it, as in PostgreSQL.
 */
final class ConnectionTransaction {
    /** BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK (with their optional WORK/TRANSACTION words), as PostgreSQL spells them. */
    private static final Pattern CONTROL = Pattern.compile(
            "\\s*(BEGIN|START\\s+TRANSACTION|COMMIT|END|ROLLBACK|ABORT)(?:\\s+(?:WORK|TRANSACTION))?\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);
    /** SAVEPOINT name, ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] name, RELEASE [SAVEPOINT] name. */
    private static final Pattern SAVEPOINT_CONTROL = Pattern.compile(
            "\\s*(SAVEPOINT|ROLLBACK(?:\\s+(?:WORK|TRANSACTION))?\\s+TO(?:\\s+SAVEPOINT)?|RELEASE(?:\\s+SAVEPOINT)?)"
                    + "\\s+(\"(?:[^\"]|\"\")+\"|[\\p{L}_][\\p{L}\\p{N}_$]*)\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);
    /**
     * Statements that change the catalog: they commit the open transaction first. CALL dbgen too,
     * which creates the eight TPC-H tables: run in the transaction, it made tables the
     * transaction's snapshot could not see, and rows its rollback dropped from them.
     */
    private static final Pattern DDL = Pattern.compile(
            "\\s*(CREATE|DROP|ALTER|TRUNCATE|COMMENT|RENAME|CALL\\s+dbgen)\\b.*", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** What a transaction-control statement asks. */
    enum Control { BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO, RELEASE }

    /** A transaction-control statement: what it asks, and the savepoint it names (or null). */
    record ControlStatement(Control control, String savepoint) {
    }

    /** A savepoint of a connection's transaction, as JDBC hands it out. */
    static final class NumacolSavepoint implements Savepoint {
        private final ConnectionTransaction owner;
        private final int id;
        private final String name;
        private final Transaction.Savepoint token;

        private NumacolSavepoint(ConnectionTransaction owner, int id, String name, Transaction.Savepoint token) {
            this.owner = owner;
            this.id = id;
            this.name = name;
            this.token = token;
        }

        @Override
        public int getSavepointId() throws SQLException {
            if (name != null) {
                throw new SQLException("savepoint " + name + " is named: it has no id (getSavepointName())", "HY024");
            }
            return id;
        }

        @Override
        public String getSavepointName() throws SQLException {
            if (name == null) {
                throw new SQLException("savepoint " + id + " is unnamed: it has no name (getSavepointId())", "HY024");
            }
            return name;
        }

        @Override
        public String toString() {
            return name == null ? "savepoint " + id : "savepoint " + name;
        }
    }

    private boolean autoCommit = true;
    /** A BEGIN in auto-commit mode: a transaction until the next COMMIT or ROLLBACK. */
    private boolean explicit;
    private Transaction.Isolation isolation = Transaction.Isolation.REPEATABLE_READ;
    private Transaction open;
    /** Set when the connection closed: no transaction begins any more. */
    private boolean closed;
    /** The savepoints of the open transaction not released, oldest first. */
    private final List<NumacolSavepoint> savepoints = new ArrayList<>();
    private int nextSavepointId = 1;

    /** The control statement {@code sql} is, or null. */
    static ControlStatement control(String sql) {
        Matcher m = CONTROL.matcher(sql);
        if (m.matches()) {
            String word = m.group(1).toUpperCase(Locale.ROOT);
            return new ControlStatement(word.startsWith("BEGIN") || word.startsWith("START") ? Control.BEGIN
                    : word.equals("COMMIT") || word.equals("END") ? Control.COMMIT : Control.ROLLBACK, null);
        }
        Matcher sp = SAVEPOINT_CONTROL.matcher(sql);
        if (!sp.matches()) {
            return null;
        }
        String word = sp.group(1).toUpperCase(Locale.ROOT);
        String name = sp.group(2);
        if (name.startsWith("\"")) {
            name = name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        return new ControlStatement(word.startsWith("SAVEPOINT") ? Control.SAVEPOINT
                : word.startsWith("RELEASE") ? Control.RELEASE : Control.ROLLBACK_TO, name);
    }

    static boolean isDdl(String sql) {
        return DDL.matcher(sql).matches();
    }

    synchronized boolean autoCommit() {
        return autoCommit;
    }

    /** JDBC's setAutoCommit: turning it on commits the open transaction, as the JDBC specification says. */
    synchronized void setAutoCommit(boolean on) throws SQLException {
        if (on && (!autoCommit || explicit)) {
            commit(); // a transaction begun by setAutoCommit(false) or by BEGIN
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
        if (closed || !inTransaction()) {
            return null;
        }
        return transaction(database).statementView();
    }

    /** Whether the connection's statements run in a transaction: auto-commit is off, or a BEGIN began one. */
    private boolean inTransaction() {
        return !autoCommit || explicit;
    }

    /** The open transaction, begun now if none is. */
    private Transaction transaction(Database database) {
        if (open == null || open.isEnded()) {
            savepoints.clear();
            open = database.catalog().begin(isolation);
        }
        return open;
    }

    /** Runs a control statement; {@code database} is the connection's (for a SAVEPOINT that begins the transaction). */
    synchronized void run(ControlStatement statement, Database database) throws SQLException {
        switch (statement.control()) {
            case BEGIN -> {
                if (autoCommit) {
                    explicit = true; // a BEGIN inside a transaction goes on with it, as PostgreSQL's does (with a warning)
                }
            }
            case COMMIT -> commit();
            case ROLLBACK -> rollback();
            case SAVEPOINT -> setSavepoint(statement.savepoint(), database);
            case ROLLBACK_TO -> rollbackTo(find(statement.savepoint(), "ROLLBACK TO SAVEPOINT"));
            case RELEASE -> release(find(statement.savepoint(), "RELEASE SAVEPOINT"));
        }
    }

    /**
     * A new savepoint of the open transaction (begun now if the connection's first statement is
     * yet to come), named, or numbered when {@code name} is null.
     *
     * @throws SQLException 25P01 in auto-commit mode: there is no transaction to mark
     */
    synchronized NumacolSavepoint setSavepoint(String name, Database database) throws SQLException {
        checkInTransaction("SAVEPOINT");
        if (database == null) {
            throw new SQLException("the connection is closed", "08003");
        }
        Transaction t = transaction(database);
        NumacolSavepoint savepoint = new NumacolSavepoint(this, name == null ? nextSavepointId++ : 0, name, t.savepoint());
        savepoints.add(savepoint);
        return savepoint;
    }

    /** Drops what the transaction changed after {@code savepoint}, and the savepoints set after it; it stays. */
    synchronized void rollbackTo(Savepoint savepoint) throws SQLException {
        NumacolSavepoint own = checkOwn(savepoint, "ROLLBACK TO SAVEPOINT");
        open.rollbackTo(own.token);
        savepoints.subList(savepoints.indexOf(own) + 1, savepoints.size()).clear();
    }

    /** Forgets {@code savepoint} and the savepoints set after it; what the transaction changed stays. */
    synchronized void release(Savepoint savepoint) throws SQLException {
        NumacolSavepoint own = checkOwn(savepoint, "RELEASE SAVEPOINT");
        open.release(own.token);
        savepoints.subList(savepoints.indexOf(own), savepoints.size()).clear();
    }

    private void checkInTransaction(String what) throws SQLException {
        if (!inTransaction()) {
            throw new SQLException(what + " can only be used in a transaction: no transaction in progress "
                    + "(auto-commit is on: setAutoCommit(false) or BEGIN first)", "25P01");
        }
    }

    /** The newest savepoint of the open transaction named {@code name} (ignoring case). */
    private NumacolSavepoint find(String name, String what) throws SQLException {
        checkInTransaction(what);
        for (int i = savepoints.size() - 1; i >= 0; i--) {
            NumacolSavepoint s = savepoints.get(i);
            if (s.name != null && s.name.equalsIgnoreCase(name) && live(s)) {
                return s;
            }
        }
        throw new SQLException("savepoint " + name + " does not exist", "3B001");
    }

    private NumacolSavepoint checkOwn(Savepoint savepoint, String what) throws SQLException {
        checkInTransaction(what);
        if (!(savepoint instanceof NumacolSavepoint own) || own.owner != this) {
            throw new SQLException(savepoint + " is not a savepoint of this connection", "3B001");
        }
        if (!savepoints.contains(own) || !live(own)) {
            throw new SQLException(own + " does not exist any more: it was released, rolled back past, or its transaction ended",
                    "3B001");
        }
        return own;
    }

    /** Whether {@code s} is a savepoint of the open transaction, not released. */
    private boolean live(NumacolSavepoint s) {
        return open != null && !open.isEnded() && s.token.transaction() == open && !s.token.isReleased();
    }

    /** Commits the open transaction, if any; a write conflict is SQLState 40001 and leaves nothing of it. */
    synchronized void commit() throws SQLException {
        Transaction t = open;
        open = null;
        explicit = false;
        savepoints.clear();
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
        savepoints.clear();
        if (t != null) {
            t.rollback();
        }
    }

    /** The connection closed: its open transaction rolls back, and none begins after (a statement racing the close runs on its own). */
    synchronized void close() {
        closed = true;
        rollback();
    }

    /** Before DDL: the open transaction commits, and the DDL runs on its own. */
    synchronized void commitBeforeDdl() throws SQLException {
        if (open != null) {
            commit();
            explicit = false;
        }
    }
}
