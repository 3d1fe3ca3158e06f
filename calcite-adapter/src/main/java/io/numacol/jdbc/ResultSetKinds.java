package io.numacol.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;

import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLWarning;
import java.util.HashMap;
import java.util.Map;

/**
 * The kinds of result set a connection makes: forward-only ones, which stream a query's rows as
 * they are computed, and scroll-insensitive ones ({@link ScrollInsensitiveResultSet}), which
 * hold them; read-only either way, since numacol changes rows by SQL only. A {@code
 * TYPE_SCROLL_SENSITIVE} request is made {@code TYPE_SCROLL_INSENSITIVE} (a statement reads one
 * snapshot: no later commit could show), and {@code CONCUR_UPDATABLE} is made {@code
 * CONCUR_READ_ONLY}, each with an SQLWarning on the connection (SQLSTATE 01000), as JDBC 4.3
 * (15.1.1) asks of a driver that cannot give the kind asked for: the statement's and its result
 * sets' {@code getType()} and {@code getConcurrency()} say what they are, and an update method
 * says why it fails (0A000). Avatica accepted both, and {@code last()} or {@code updateInt} then
 * failed with no message and no SQLSTATE. Also the connection's type map, which is always empty
 * (numacol has no user-defined types), and the message of a JDBC method numacol does not have.
 */
final class ResultSetKinds {
    /**
     * The warnings this connection gave since the last clearWarnings, one per kind (a downgraded
     * type, a downgraded concurrency), oldest first: a connection asked for scrollable statements
     * again and again keeps two, not a chain that grows. Guarded by this object: a connection may
     * be shared by threads.
     */
    private final Map<String, SQLWarning> warnings = new java.util.LinkedHashMap<>();

    /**
     * The arguments of {@code createStatement}, {@code prepareStatement} or {@code prepareCall}
     * with the result set type and concurrency numacol gives; any other call's as they are.
     */
    Object[] supported(Method method, Object[] args) throws SQLException {
        int type;
        switch (method.getName()) {
            case "createStatement" -> type = 0;
            case "prepareStatement", "prepareCall" -> type = 1;
            default -> {
                return args;
            }
        }
        if (args.length < type + 2 || !(args[type] instanceof Integer asked) || !(args[type + 1] instanceof Integer concurrency)) {
            return args;
        }
        if (asked != ResultSet.TYPE_FORWARD_ONLY && asked != ResultSet.TYPE_SCROLL_INSENSITIVE && asked != ResultSet.TYPE_SCROLL_SENSITIVE) {
            throw new SQLException(method.getName() + ": " + asked + " is not a result set type (ResultSet.TYPE_FORWARD_ONLY,"
                    + " TYPE_SCROLL_INSENSITIVE or TYPE_SCROLL_SENSITIVE); are the type and the concurrency swapped?", "HY024");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY && concurrency != ResultSet.CONCUR_UPDATABLE) {
            throw new SQLException(method.getName() + ": " + concurrency + " is not a result set concurrency"
                    + " (ResultSet.CONCUR_READ_ONLY or CONCUR_UPDATABLE)", "HY024");
        }
        Object[] given = args.clone();
        if (asked == ResultSet.TYPE_SCROLL_SENSITIVE) {
            warn("type", method.getName() + ": numacol's result sets do not show changes committed after their query ran;"
                    + " TYPE_SCROLL_SENSITIVE was asked for and TYPE_SCROLL_INSENSITIVE given (run the query again to see them)");
            given[type] = ResultSet.TYPE_SCROLL_INSENSITIVE;
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            warn("concurrency", method.getName() + ": numacol's result sets are CONCUR_READ_ONLY; CONCUR_UPDATABLE was asked for"
                    + " and CONCUR_READ_ONLY given (change rows with UPDATE, INSERT or DELETE)");
            given[type + 1] = ResultSet.CONCUR_READ_ONLY;
        }
        return given;
    }

    private synchronized void warn(String kind, String message) {
        warnings.putIfAbsent(kind, new SQLWarning(message, "01000"));
    }

    /**
     * The connection's warnings (this object's, then {@code theirs}) as a new chain on each call,
     * so that a chain handed out earlier is never changed or made circular; or none after
     * clearing them ({@code clear}).
     */
    synchronized SQLWarning warnings(boolean clear, SQLWarning theirs) {
        if (clear) {
            warnings.clear();
            return null;
        }
        SQLWarning head = null;
        SQLWarning tail = null;
        for (SQLWarning w : warnings.values()) {
            SQLWarning copy = new SQLWarning(w.getMessage(), w.getSQLState(), w.getErrorCode());
            if (head == null) {
                head = copy;
            } else {
                tail.setNextWarning(copy);
            }
            tail = copy;
        }
        if (head == null) {
            return theirs;
        }
        if (theirs != null) {
            tail.setNextWarning(theirs);
        }
        return head;
    }

    /**
     * {@code getTypeMap}: an empty map, as numacol has no user-defined types to map; {@code
     * setTypeMap}: an empty map is taken, a mapping refused (0A000).
     */
    static Object typeMap(AvaticaConnection c, String method, Object[] args) throws SQLException {
        if (c.isClosed()) {
            throw new SQLNonTransientConnectionException("the connection is closed", "08003");
        }
        if (method.equals("getTypeMap")) {
            return new HashMap<String, Class<?>>();
        }
        if (args[0] instanceof Map<?, ?> map && !map.isEmpty()) {
            throw new SQLFeatureNotSupportedException("Connection.setTypeMap: numacol has no user-defined types (structured or "
                    + "distinct) to map to Java classes; give an empty map or none", "0A000");
        }
        return null;
    }

    /**
     * An SQLFeatureNotSupportedException with a message naming {@code method} and SQLSTATE 0A000:
     * Avatica throws its own with neither.
     */
    static SQLFeatureNotSupportedException named(SQLFeatureNotSupportedException e, String method) {
        if (e.getMessage() != null && !e.getMessage().isBlank() && "0A000".equals(e.getSQLState())) {
            return e;
        }
        String message = e.getMessage();
        boolean said = message != null && !message.isBlank() && !message.equals(e.getClass().getName())
                && !message.equals(e.getClass().getSimpleName());
        String text = method + " is not supported by numacol";
        return new SQLFeatureNotSupportedException(said ? text + ": " + message : text, "0A000", e);
    }
}
