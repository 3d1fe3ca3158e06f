package io.numacol.jdbc;

import io.numacol.calcite.ddl.NumacolParserFactory;
import io.numacol.calcite.dml.ChangedRows;
import io.numacol.calcite.dml.OnConflict;
import io.numacol.database.Database;
import io.numacol.storage.Table;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

import java.lang.reflect.Method;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The rows a statement answers besides its update count, which Avatica's statements refuse:
 * {@code getGeneratedKeys()} after an execution that asked for them (a flag, column positions or
 * names given to execute/executeUpdate or to prepareStatement, batches included), and the result
 * of an {@code INSERT/UPDATE ... RETURNING} ({@link Returning}). Each such execution runs with its
 * stored rows collected ({@link ChangedRows}), so that they are this statement's rows, whatever
 * other connections store meanwhile; the result is made of them ({@link RowsResult}). One per
 * statement proxy ({@link ConnectionProxy}), which hands it every call first.
 */
final class StatementRows {
    /** What {@link #invoke} answers for a call it leaves to the statement. */
    static final Object NOT_HANDLED = new Object();

    /** A call of the statement itself (through its proxy's error handling). */
    @FunctionalInterface
    interface Call {
        Object run(Method method, Object[] args) throws Throwable;
    }

    private static final SqlParser.Config PARSER = SqlParser.config().withParserFactory(NumacolParserFactory.FACTORY)
            .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED).withCaseSensitive(false);
    private static final Method EXECUTE_LARGE_UPDATE_SQL = method(Statement.class, "executeLargeUpdate", String.class);
    private static final Method EXECUTE_LARGE_UPDATE = method(PreparedStatement.class, "executeLargeUpdate");

    /** The keys a prepared statement asked for at prepareStatement (NONE for a plain statement). */
    private final GeneratedKeys prepared;
    /** A prepared statement's RETURNING (its statement was prepared without it), or null. */
    private final Returning returning;
    /** The SQL a prepared statement runs (without its RETURNING), or null. */
    private final String preparedSql;

    /** The keys the last execution asked for and the rows it stored, or null: getGeneratedKeys() is then empty. */
    private GeneratedKeys lastRequest;
    private ChangedRows lastRows;
    private String lastStatement;
    /** A RETURNING's rows, the statement's current result after execute(); null once getMoreResults() moved past it. */
    private ResultSet current;
    /** Set from a RETURNING's execute() until the next execution: the statement's update count is -1, as a query's. */
    private boolean answeredRows;
    /** The empty result whose metadata describes a prepared RETURNING's columns, or null. */
    private ResultSet described;
    /** Whether a prepared statement's columns asked for were checked against its table. */
    private boolean checked;
    /** The keys results handed out, closed with the statement (each reads through a statement of its own). */
    private ResultSet lastKeys;
    /** The last RETURNING list of expressions read, kept while its table and text stay (a prepared statement's, each run). */
    private ReturningExpressions expressions;

    StatementRows(GeneratedKeys prepared, Returning returning, String preparedSql) {
        this.prepared = prepared;
        this.returning = returning;
        this.preparedSql = preparedSql;
    }

    /** For a plain statement, which asks per execution. */
    StatementRows() {
        this(GeneratedKeys.NONE, null, null);
    }

    /** What {@code method} answers when this class handles it, else {@link #NOT_HANDLED}. */
    Object invoke(AvaticaStatement target, Method method, Object[] args, Call call) throws Throwable {
        String name = method.getName();
        int n = args == null ? 0 : args.length;
        switch (name) {
            case "getGeneratedKeys" -> {
                return generatedKeys(target);
            }
            case "getResultSet" -> {
                if (answeredRows) {
                    return current;
                }
            }
            case "getUpdateCount" -> {
                if (answeredRows) {
                    return -1;
                }
            }
            case "getLargeUpdateCount" -> {
                if (answeredRows) {
                    return -1L;
                }
            }
            case "getMoreResults" -> {
                if (answeredRows) {
                    closeCurrent();
                    return false;
                }
            }
            case "execute", "executeQuery", "executeUpdate", "executeLargeUpdate" -> {
                forget();
                boolean isPrepared = target instanceof PreparedStatement;
                if (isPrepared && n == 0) {
                    if (returning != null) {
                        return answer(target, name, returning, call, EXECUTE_LARGE_UPDATE, null, preparedSql);
                    }
                    return prepared.wanted() ? collected(target, prepared, method, args, call, preparedSql) : NOT_HANDLED;
                }
                if (!isPrepared && n >= 1 && args[0] instanceof String sql) {
                    if (n == 2) {
                        // the keys argument: Avatica refuses every such method, so the one without it runs
                        GeneratedKeys request = GeneratedKeys.of(args[1]);
                        Method plain = method(Statement.class, name, String.class);
                        return request.wanted() ? collected(target, request, plain, new Object[]{sql}, call, sql) : call.run(plain, new Object[]{sql});
                    }
                    Returning r = Returning.parse(sql);
                    if (r != null) {
                        return answer(target, name, r, call, EXECUTE_LARGE_UPDATE_SQL, new Object[]{r.statement()}, r.statement());
                    }
                }
            }
            case "executeBatch", "executeLargeBatch" -> {
                forget();
                if (prepared.wanted() && target instanceof PreparedStatement) {
                    return collected(target, prepared, method, args, call, preparedSql);
                }
            }
            case "getMetaData" -> {
                if (returning != null && n == 0) {
                    return returnedColumns(target); // the prepared statement's own would be the count the INSERT answers
                }
            }
            case "close" -> {
                forget();
                closeQuietly(lastKeys);
                closeQuietly(described);
            }
            default -> {
                // the statement's own
            }
        }
        return NOT_HANDLED;
    }

    /**
     * Runs {@code method} with its stored rows collected, for getGeneratedKeys() after. The columns
     * asked for are checked against the table first (42703), so that a wrong name stores nothing.
     */
    private Object collected(AvaticaStatement target, GeneratedKeys request, Method method, Object[] args, Call call,
                             String statement) throws Throwable {
        return collected(target, request, method, args, call, statement, new ChangedRows());
    }

    /** {@link #collected}, the rows kept as {@code rows} keeps them (a RETURNING's projected as they are stored). */
    private Object collected(AvaticaStatement target, GeneratedKeys request, Method method, Object[] args, Call call,
                             String statement, ChangedRows rows) throws Throwable {
        if (!checked) {
            Target into = target(target, statement);
            if (into != null) {
                request.columns(into.table());
            }
            checked = preparedSql != null; // a prepared statement's text and table stay; a plain one's change each time
        }
        Object result = rows.collect(() -> call.run(method, args));
        lastRequest = request;
        lastRows = rows;
        lastStatement = statement;
        return result;
    }

    /**
     * Runs a RETURNING's statement (without it), its stored rows collected, and answers as {@code
     * name} does: executeQuery the rows, execute true with the rows as the current result,
     * executeUpdate the count (the rows are dropped, as nothing asked for them).
     */
    private Object answer(AvaticaStatement target, String name, Returning r, Call call, Method update, Object[] args,
                          String statement) throws Throwable {
        GeneratedKeys request = GeneratedKeys.returning(r.columns());
        Target into = null;
        ChangedRows kept = new ChangedRows();
        if (r.list() != null) {
            // read before the statement runs: a list that cannot be answered stores nothing
            into = target(target, statement);
            if (into != null) {
                kept = new ChangedRows(into.table(), expressions(target, into, r.list()).projection(System.currentTimeMillis()));
            }
        }
        long count = (Long) collected(target, request, update, args, call, statement, kept);
        switch (name) {
            case "executeUpdate" -> {
                return (int) Math.min(count, Integer.MAX_VALUE);
            }
            case "executeLargeUpdate" -> {
                return count;
            }
            default -> {
                ResultSet rows = r.list() == null ? rows(target, request, lastRows, statement)
                        : returned(target, into, r.list(), lastRows);
                lastRequest = null; // the rows are the statement's result, not its keys
                current = rows;
                answeredRows = true;
                if (name.equals("execute")) {
                    return true;
                }
                return rows;
            }
        }
    }

    /** The columns a prepared RETURNING answers, before it runs: those of its result with no rows, kept open until the statement closes. */
    private Object returnedColumns(AvaticaStatement target) throws SQLException {
        if (described == null) {
            described = returning.list() == null
                    ? rows(target, GeneratedKeys.returning(returning.columns()), new ChangedRows(), preparedSql)
                    : returned(target, target(target, preparedSql), returning.list(), new ChangedRows());
        }
        return described.getMetaData();
    }

    /**
     * A RETURNING list of expressions answered for {@code rows}: read for the table they are of
     * (else {@code into}, the table the statement names); a statement whose table is unknown
     * answers no columns.
     */
    private ResultSet returned(AvaticaStatement target, Target into, String list, ChangedRows rows) throws SQLException {
        Target of = rows.table() == null ? into
                : new Target(rows.table(), into != null && into.table() == rows.table() ? into.alias() : null);
        if (of == null) {
            return RowsResult.empty(target.connection);
        }
        return expressions(target, of, list).result(target.connection, rows);
    }

    /** {@code list} read for {@code into}'s table, or the one read last if it is for the same table, text and alias. */
    private ReturningExpressions expressions(AvaticaStatement target, Target into, String list) throws SQLException {
        if (expressions == null || !expressions.isFor(into.table(), list, into.alias())) {
            expressions = ReturningExpressions.of(target.connection, into.table(), list, into.alias());
        }
        return expressions;
    }

    private ResultSet generatedKeys(AvaticaStatement target) throws SQLException {
        ResultSet keys = lastRequest == null ? RowsResult.empty(target.connection) : rows(target, lastRequest, lastRows, lastStatement);
        closeQuietly(lastKeys);
        lastKeys = keys;
        return keys;
    }

    /** The columns {@code request} asks of {@code rows}; a statement that stored none answers none, with its table's columns where it has one. */
    private static ResultSet rows(AvaticaStatement target, GeneratedKeys request, ChangedRows rows, String statement) throws SQLException {
        Target into = rows.table() != null ? null : target(target, statement);
        Table table = rows.table() != null ? rows.table() : into == null ? null : into.table();
        if (table == null) {
            return RowsResult.empty(target.connection);
        }
        return RowsResult.of(target.connection, table, request.columns(table), rows.rows());
    }

    /** The table a statement writes and the name it calls it by in its RETURNING (its alias, else null). */
    private record Target(Table table, String alias) {
    }

    /** The table an INSERT (an upsert too), UPDATE or DELETE writes, read from its text, or null. */
    private static Target target(AvaticaStatement target, String sql) throws SQLException {
        Database database = NumacolDriver.openDatabase(target.connection);
        if (database == null || sql == null) {
            return null;
        }
        List<String> names;
        String alias;
        OnConflict upsert;
        try {
            upsert = OnConflict.parse(sql);
        } catch (IllegalArgumentException e) {
            return null; // the statement's run reports it
        }
        if (upsert != null) {
            names = upsert.table();
            alias = upsert.alias();
        } else {
            SqlNode node;
            try {
                node = SqlParser.create(sql, PARSER).parseStmt();
            } catch (SqlParseException e) {
                return null;
            }
            SqlNode table = switch (node) {
                case SqlInsert insert -> insert.getTargetTable();
                case SqlUpdate update -> update.getTargetTable();
                case SqlDelete delete -> delete.getTargetTable();
                default -> null;
            };
            SqlIdentifier as = switch (node) {
                case SqlUpdate update -> update.getAlias();
                case SqlDelete delete -> delete.getAlias();
                default -> null;
            };
            if (!(table instanceof SqlIdentifier id)) {
                return null;
            }
            names = id.names;
            alias = as == null ? null : as.getSimple();
        }
        if (names.isEmpty() || names.size() > 2) {
            return null;
        }
        String schema = names.size() == 2 ? names.getFirst() : target.connection.getSchema();
        Table table = schema == null ? null : database.catalog().find(schema, names.getLast()).orElse(null);
        return table == null ? null : new Target(table, alias);
    }

    /** A new execution: what the last one answered goes. */
    private void forget() {
        closeCurrent();
        answeredRows = false;
        lastRequest = null;
        lastRows = null;
        lastStatement = null;
    }

    private void closeCurrent() {
        closeQuietly(current);
        current = null;
    }

    private static void closeQuietly(ResultSet rs) {
        if (rs != null) {
            try {
                rs.close();
            } catch (SQLException e) {
                // closing a result made here, whose statement is the result's alone: nothing to report
            }
        }
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
