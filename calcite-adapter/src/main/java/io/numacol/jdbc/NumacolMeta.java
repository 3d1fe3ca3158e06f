package io.numacol.jdbc;

import io.numacol.calcite.PrepareContexts;
import io.numacol.calcite.QueryCancel;
import io.numacol.calcite.ddl.DdlOutcome;
import io.numacol.calcite.ddl.NumacolParserFactory;
import io.numacol.calcite.dml.InsertBatch;
import io.numacol.calcite.dml.OnConflict;
import io.numacol.calcite.dml.Upsert;
import io.numacol.database.Database;
import io.numacol.export.DatabaseExport;
import io.numacol.export.DatabaseImport;
import io.numacol.storage.CatalogView;
import io.numacol.storage.Table;
import io.numacol.storage.Transaction;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteMetaImpl;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalciteMetaTableFactoryImpl;
import org.apache.calcite.server.CalciteServer;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Savepoint;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Calcite's Meta (made by its public factory and wrapped) with numacol's batch path: a prepared
 * {@code INSERT INTO t [(columns)] VALUES (?, ...)} run with addBatch/executeBatch goes straight
 * to one Appender (checked per value, published at once) instead of one planned statement per
 * row; any other prepared batch runs entry by entry as Calcite runs it, its inserted rows
 * published together at the end. Either way a failed batch stores nothing and fails with a
 * BatchUpdateException naming the entry. DDL that loads rows (COPY, CALL dbgen) answers their
 * number as its update count; a failure while rows are computed is an SQLException ({@link
 * QueryFailures}).
 */
final class NumacolMeta extends ForwardingMeta {
    private final AvaticaConnection connection;
    private final NumacolJdbcFactory factory;
    private final ConnectionTransaction transaction = new ConnectionTransaction();
    private final StatementViews views = new StatementViews(transaction);
    /** The prepared INSERT ... ON CONFLICT statements, by statement id ({@link UpsertStatement}). */
    private final Map<Integer, UpsertStatement> upserts = new ConcurrentHashMap<>();
    /** The rows of each TYPE_SCROLL_INSENSITIVE statement's last query, by statement id, for its result set to move through. */
    private final Map<Integer, ScrollableRows> scrolling = new ConcurrentHashMap<>();

    NumacolMeta(AvaticaConnection connection, NumacolJdbcFactory factory) {
        super(CalciteMetaImpl.create((CalciteConnection) connection, CalciteMetaTableFactoryImpl.INSTANCE, InstantMetaData.COLUMNS));
        this.connection = connection;
        this.factory = factory;
        // auto-commit and snapshot isolation until the application says otherwise
        super.connectionSync(connection.handle, new ConnectionPropertiesImpl().setAutoCommit(true)
                .setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ));
    }

    /**
     * Auto-commit on or off (turning it on commits the open transaction) and the isolation level
     * of the transactions that begin next; SERIALIZABLE is refused (SQLFeatureNotSupportedException).
     */
    @Override
    public ConnectionProperties connectionSync(ConnectionHandle ch, ConnectionProperties props) {
        try {
            if (props.getTransactionIsolation() != null) {
                transaction.setIsolationLevel(props.getTransactionIsolation());
            }
            if (props.isAutoCommit() != null) {
                transaction.setAutoCommit(props.isAutoCommit());
            }
        } catch (SQLException e) {
            throw QueryFailures.<RuntimeException>sneaky(e);
        }
        return super.connectionSync(ch, props);
    }

    /** Commits the open transaction (nothing to do in auto-commit, as in H2 and DuckDB); a write conflict fails with SQLState 40001. */
    @Override
    public void commit(ConnectionHandle ch) {
        try {
            transaction.commit();
        } catch (SQLException e) {
            throw QueryFailures.<RuntimeException>sneaky(e);
        }
    }

    @Override
    public void rollback(ConnectionHandle ch) {
        transaction.rollback();
    }

    /**
     * Calcite's, except that the update count of numacol DDL is the rows it loaded, not Calcite's 0
     * for any DDL, and that SET SCHEMA moves this connection to its schema.
     */
    @Override
    public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
                                           PrepareCallback callback) throws NoSuchStatementException {
        checkDatabaseOpen();
        checkWritable(sql);
        if (SHUTDOWN.matcher(sql).matches()) {
            transaction.rollback();
            NumacolDriver.shutdown(connection);
            return noRows(h, sql, callback);
        }
        if (CHECKPOINT.matcher(sql).matches()) {
            try {
                NumacolDriver.openDatabase(connection).checkpoint(); // what is committed; an open transaction's changes are not
            } catch (RuntimeException e) {
                throw QueryFailures.<RuntimeException>sneaky(new SQLException("CHECKPOINT failed: " + e.getMessage(), SqlStates.state(e), e));
            }
            return noRows(h, sql, callback);
        }
        OnConflict clause = onConflict(sql);
        if (clause != null) {
            return upsertOnce(h, sql, clause, callback);
        }
        Matcher transfer = TRANSFER.matcher(sql);
        if (transfer.matches()) {
            Path dir = Path.of(transfer.group(2).replace("''", "'"));
            long rows;
            try {
                if (transfer.group(1).equalsIgnoreCase("EXPORT")) {
                    rows = DatabaseExport.write(NumacolDriver.openDatabase(connection), dir); // what is committed, as CHECKPOINT
                } else {
                    transaction.commitBeforeDdl(); // it runs DDL
                    rows = DatabaseImport.run(connection, dir);
                }
            } catch (SQLException | RuntimeException e) {
                String state = SqlStates.state(e);
                throw QueryFailures.<RuntimeException>sneaky(e instanceof SQLException s && s.getSQLState() != null ? s
                        : new SQLException(transfer.group(1).toUpperCase(Locale.ROOT) + " DATABASE failed: " + e.getMessage(), state, e));
            }
            return count(h, sql, callback, rows);
        }
        ConnectionTransaction.ControlStatement control = ConnectionTransaction.control(sql);
        if (control != null) {
            try {
                transaction.run(control, NumacolDriver.openDatabase(connection));
            } catch (SQLException e) {
                throw QueryFailures.<RuntimeException>sneaky(e);
            }
            return noRows(h, sql, callback);
        }
        boolean ddl = ConnectionTransaction.isDdl(sql);
        if (ddl) {
            try {
                transaction.commitBeforeDdl();
            } catch (SQLException e) {
                throw QueryFailures.<RuntimeException>sneaky(e);
            }
        }
        DdlOutcome outcome = new DdlOutcome();
        // Calcite runs the DDL inside parseQuery, before it assigns the count to the statement.
        PrepareCallback counting = new PrepareCallback() {
            @Override
            public Object getMonitor() {
                return callback.getMonitor();
            }

            @Override
            public void clear() throws SQLException {
                callback.clear();
            }

            @Override
            public void assign(Signature signature, Frame firstFrame, long updateCount) throws SQLException {
                refuseParameters(signature);
                callback.assign(signature, firstFrame, outcome.count() >= 0 ? outcome.count() : updateCount);
            }

            @Override
            public void execute() throws SQLException {
                callback.execute();
            }
        };
        CatalogView view = views.begin(h, NumacolDriver.openDatabase(connection), !ddl);
        QueryCancel cancel = cancelOf(h);
        ExecuteResult result;
        try {
            result = stoppable(cancel, () -> CatalogView.runIn(view, () -> DdlOutcome.capture(outcome,
                    () -> super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, counting))));
        } catch (RuntimeException | Error e) {
            views.end(h, view);
            throw e;
        }
        if (!returnsRows(result.resultSets.getFirst().signature)) {
            views.end(h, view);
        } else {
            stoppedWhileOpened(h, view, cancel);
        }
        if (outcome.schema() != null) {
            try {
                connection.setSchema(outcome.schema());
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        if (outcome.count() < 0) {
            return result;
        }
        MetaResultSet r = result.resultSets.getFirst();
        return new ExecuteResult(List.of(MetaResultSet.create(r.connectionId, r.statementId, r.ownStatement, r.signature,
                r.firstFrame, outcome.count())));
    }

    /**
     * CHECKPOINT (DuckDB's FORCE CHECKPOINT too): a file database writes its tables to part files
     * and drops the log they cover; one in memory has nothing to write.
     */
    private static final Pattern CHECKPOINT = Pattern.compile("\\s*(FORCE\\s+)?CHECKPOINT\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    /**
     * EXPORT DATABASE 'dir' (DuckDB's optional (FORMAT CSV) taken) and IMPORT DATABASE 'dir':
     * {@link DatabaseExport} and {@link DatabaseImport}; the update count is the rows written or loaded.
     */
    private static final Pattern TRANSFER = Pattern.compile(
            "\\s*(EXPORT|IMPORT)\\s+DATABASE\\s+'((?:[^']|'')*)'\\s*(?:\\(\\s*FORMAT\\s+'?CSV'?\\s*\\))?\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);

    /** SHUTDOWN, as H2 spells it: closes the database, whatever connections it has. */
    private static final Pattern SHUTDOWN = Pattern.compile("\\s*SHUTDOWN\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    /**
     * Refuses a statement once the database was shut down (SHUTDOWN on any of its connections):
     * SQLState 08003, as a statement of a closed connection.
     */
    private void checkDatabaseOpen() {
        Database db = NumacolDriver.openDatabase(connection);
        if (db != null && db.isClosed()) {
            throw QueryFailures.<RuntimeException>sneaky(databaseClosed());
        }
    }

    /**
     * Refuses a statement that would change a database opened read-only (25006, before anything
     * runs: DDL changes the catalog in memory before it is logged); a query runs, and a change
     * one makes anyway (a sequence's nextval) the database itself refuses.
     */
    private void checkWritable(String sql) {
        Database db = NumacolDriver.openDatabase(connection);
        if (db != null && db.isReadOnly() && sql != null && CHANGES.matcher(sql).lookingAt()) {
            Matcher m = CHANGES.matcher(sql);
            String verb = m.lookingAt() ? m.group(1).toUpperCase(Locale.ROOT) : "this statement";
            throw QueryFailures.<RuntimeException>sneaky(new SQLException("cannot execute " + verb + " in a read-only database "
                    + "(access_mode=read_only): open it without access_mode, in one process, to change it", "25006"));
        }
    }

    /** The first word of a statement that changes a database, after spaces, comments and parentheses. */
    private static final Pattern CHANGES = Pattern.compile("(?is)(?:\\s|--[^\\n]*\\n?|/\\*.*?\\*/|\\()*"
            + "(INSERT|UPDATE|DELETE|MERGE|UPSERT|REPLACE|COPY|CALL|CREATE|DROP|ALTER|TRUNCATE|CHECKPOINT|FORCE|IMPORT|COMMENT)\\b");

    static SQLException databaseClosed() {
        return new SQLNonTransientConnectionException("the numacol database of this connection was closed (SHUTDOWN): "
                + "the connection can only be closed; open a new one", "08003");
    }

    /** Sets a savepoint of the connection's transaction (JDBC's setSavepoint: the connection does not pass it to the Meta). */
    ConnectionTransaction.NumacolSavepoint setSavepoint(String name) throws SQLException {
        Database db = NumacolDriver.openDatabase(connection);
        if (db != null && db.isClosed()) {
            throw databaseClosed();
        }
        return transaction.setSavepoint(name, db);
    }

    void rollbackTo(Savepoint savepoint) throws SQLException {
        transaction.rollbackTo(savepoint);
    }

    void releaseSavepoint(Savepoint savepoint) throws SQLException {
        transaction.release(savepoint);
    }

    /** The Meta of a connection of numacol's driver, or null. */
    static NumacolMeta of(AvaticaConnection connection) {
        return META.get(connection) instanceof NumacolMeta meta ? meta : null;
    }

    /** {@code meta}, which Avatica keeps protected. */
    private static final VarHandle META;

    static {
        try {
            META = MethodHandles.privateLookupIn(AvaticaConnection.class, MethodHandles.lookup())
                    .findVarHandle(AvaticaConnection.class, "meta", Meta.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A statement run here that answers no rows and counts none (BEGIN, SAVEPOINT, SHUTDOWN...): Calcite's parser knows none of them. */
    private static ExecuteResult noRows(StatementHandle h, String sql, PrepareCallback callback) {
        return count(h, sql, callback, 0);
    }

    /** A statement run here that answers no rows and counts {@code rows} (EXPORT DATABASE, IMPORT DATABASE). */
    private static ExecuteResult count(StatementHandle h, String sql, PrepareCallback callback, long rows) {
        try {
            Signature signature = Signature.create(List.of(), sql, List.of(), Meta.CursorFactory.ARRAY, Meta.StatementType.OTHER_DDL);
            synchronized (callback.getMonitor()) {
                callback.clear();
                callback.assign(signature, null, rows);
            }
            callback.execute();
            return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, rows)));
        } catch (SQLException e) {
            throw QueryFailures.<RuntimeException>sneaky(e);
        }
    }

    /**
     * Fails a query stopped while its result was being opened: a close() on another thread closes
     * that result, and execute() then answered "no result" instead of failing (a DML or DDL
     * statement that finished is not failed here: what it stored is stored).
     */
    private void stoppedWhileOpened(StatementHandle h, CatalogView view, QueryCancel cancel) {
        if (cancel.shouldStop()) {
            views.end(h, view);
            throw QueryFailures.<RuntimeException>sneaky(stopped(cancel, null));
        }
    }

    /** The failure of a statement that {@code cancel} stopped: its timeout's, or its cancel's, with what it threw as the cause. */
    private static SQLException stopped(QueryCancel cancel, Throwable cause) {
        return cancel.timedOut() ? new SQLTimeoutException(cancel.timeout().getMessage(), "57014", cause)
                : new SQLException("query canceled (Statement.cancel())", "57014", cause);
    }

    /** Whether a statement's rows are read after its execution returns (a query), so that its view stays open for them. */
    private static boolean returnsRows(Signature signature) {
        return signature != null && signature.statementType == StatementType.SELECT;
    }

    /**
     * The signature statement {@code h} runs with now: the one it was prepared with while the
     * catalog is as it was then; else one planned again against {@code view} (as PostgreSQL plans
     * a prepared statement again after DDL: the table it read may be another now), installed for
     * the executions after. A plan whose columns would change fails: the application holds the
     * old columns.
     */
    private Signature current(StatementHandle h, Signature signature, CatalogView view) throws SQLException {
        long planned = factory.catalogVersion(h);
        if (view == null || planned < 0 || planned == view.version()) {
            return signature;
        }
        // a failure (the column it reads was dropped) is the statement's, as if it were prepared now
        StatementHandle fresh = super.prepare(connection.handle, signature.sql, -1);
        try {
            Signature replanned = fresh.signature;
            if (!sameColumns(signature, replanned)) {
                throw new SQLException("the prepared statement's columns changed: a table it reads was altered since it was "
                        + "prepared; prepare it again", "0A000");
            }
            try {
                server().getStatement(h).setSignature(replanned);
            } catch (NoSuchStatementException e) {
                throw new SQLException("statement " + h.id + " is closed", "HY010", e);
            }
            factory.replanned(h, replanned, view.version());
            return replanned;
        } finally {
            super.closeStatement(fresh);
        }
    }

    /**
     * {@code sql} planned now against the latest catalog, for its columns alone: the statement
     * made for it is closed at once ({@link RowsResult} answers its own rows under them).
     */
    CalciteSignature<?> plan(String sql) throws SQLException {
        Database database = NumacolDriver.openDatabase(connection);
        if (database == null || database.isClosed()) {
            throw databaseClosed();
        }
        try (CatalogView view = database.catalog().beginRead()) {
            StatementHandle h = CatalogView.runIn(view, () -> super.prepare(connection.handle, sql, -1));
            try {
                return (CalciteSignature<?>) h.signature;
            } finally {
                super.closeStatement(h);
            }
        } catch (RuntimeException e) {
            throw SqlStates.of(e);
        }
    }

    /** Whether two plans answer the same columns (names and types), so that a result's readers cannot tell them apart. */
    private static boolean sameColumns(Signature a, Signature b) {
        if (a.columns.size() != b.columns.size() || a.statementType != b.statementType) {
            return false;
        }
        for (int i = 0; i < a.columns.size(); i++) {
            var x = a.columns.get(i);
            var y = b.columns.get(i);
            if (!Objects.equals(x.label, y.label) || x.type.id != y.type.id || x.precision != y.precision || x.scale != y.scale
                    || x.nullable != y.nullable) {
                return false;
            }
        }
        return true;
    }

    /** Calcite's server, which holds each statement's plan; Calcite keeps it package-private. */
    private CalciteServer server() {
        return (CalciteServer) SERVER.get(connection);
    }

    private static final VarHandle SERVER;

    static {
        try {
            Class<?> impl = Class.forName("org.apache.calcite.jdbc.CalciteConnectionImpl");
            SERVER = MethodHandles.privateLookupIn(impl, MethodHandles.lookup()).findVarHandle(impl, "server", CalciteServer.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Refuses a plain statement's {@code ?}, before it runs: Calcite bound each to NULL, so that
     * {@code UPDATE t SET b = ? WHERE a = 2} nulled a value and {@code WHERE a = ?} matched nothing.
     * PostgreSQL, H2 and DuckDB refuse it too.
     */
    private static void refuseParameters(Signature signature) throws SQLException {
        int count = signature.parameters == null ? 0 : signature.parameters.size();
        if (count > 0) {
            throw new SQLException("the statement has " + count + " parameter marker" + (count == 1 ? "" : "s")
                    + " (?) and a plain Statement gives no values for them: use a PreparedStatement and set "
                    + (count == 1 ? "it" : "each") + ", or write the value" + (count == 1 ? "" : "s") + " in the SQL", "07001");
        }
    }

    /**
     * Each command run as {@link #prepareAndExecute} runs it, so that DDL answers the rows it
     * loaded (Calcite's runs its own); DML answers the count its one row holds.
     */
    @Override
    public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
            throws NoSuchStatementException {
        long[] counts = new long[sqlCommands.size()];
        for (int i = 0; i < counts.length; i++) {
            int entry = i;
            prepareAndExecute(h, sqlCommands.get(i), -1, -1, new PrepareCallback() {
                private Signature signature;

                @Override
                public Object getMonitor() {
                    return this;
                }

                @Override
                public void clear() {
                }

                @Override
                public void assign(Signature signature, Frame firstFrame, long updateCount) {
                    this.signature = signature;
                    counts[entry] = updateCount;
                }

                @Override
                public void execute() {
                    if (signature.statementType.canUpdate()) {
                        Iterable<Object> rows = createIterable(h, new QueryState(), signature, List.of(), null);
                        counts[entry] = ((Number) rows.iterator().next()).longValue();
                    }
                }
            });
        }
        return new ExecuteBatchResult(counts);
    }

    /**
     * Runs {@code body} as the statement {@code cancel} stops: its cancel flag raised at its
     * deadline, so that planning (Calcite's planner polls the flag) stops at a timeout as a
     * query's rows and a COPY do; a failure past the deadline is the timeout's.
     */
    private static <T, E extends Exception> T stoppable(QueryCancel cancel, QueryCancel.Body<T, E> body) throws E {
        Runnable disarm = cancel.deadlineAlarm();
        Warmup.statementStarted();
        try {
            return QueryCancel.runAs(cancel, body);
        } catch (Exception e) { // an SQLException thrown undeclared comes here too
            // a failure past the deadline is the timeout's; one after a cancel while planned is the
            // cancel's (Calcite's planner stops its search and then fails for want of a plan)
            if (cancel.timedOut() || (cancel.shouldStop() && !"57014".equals(SqlStates.state(e)))) {
                throw QueryFailures.<RuntimeException>sneaky(stopped(cancel, e));
            }
            throw e;
        } finally {
            Warmup.statementEnded();
            disarm.run();
        }
    }

    /** {@code cancelFlag}, which Avatica keeps protected: cancel() sets it and nothing else reads it outside a query's rows. */
    private static final VarHandle CANCEL_FLAG;
    /** AvaticaStatement's protected getParameterValues(): the values a prepared statement holds. */
    private static final MethodHandle PARAMETER_VALUES;

    static {
        try {
            MethodHandles.Lookup avatica = MethodHandles.privateLookupIn(AvaticaStatement.class, MethodHandles.lookup());
            CANCEL_FLAG = avatica.findVarHandle(AvaticaStatement.class, "cancelFlag", AtomicBoolean.class);
            PARAMETER_VALUES = avatica.findVirtual(AvaticaStatement.class, "getParameterValues", MethodType.methodType(List.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Cancels what {@code statement} runs by raising its cancel flag, which everything it runs
     * polls: Avatica's cancel() takes the statement's monitor, which a running DDL statement
     * (CREATE TABLE AS, COPY) holds, so cancel() waited for the statement to end by itself.
     */
    static void cancel(AvaticaStatement statement) {
        ((AtomicBoolean) CANCEL_FLAG.get(statement)).set(true);
    }

    /**
     * The stop conditions of the statement of {@code h}: its cancel flag and its timeout, from
     * now. They stop what runs before or outside a query's rows (COPY), which Calcite's
     * DataContext does not reach.
     */
    private QueryCancel cancelOf(StatementHandle h) {
        AvaticaStatement statement = connection.statementMap.get(h.id);
        if (statement == null) {
            return QueryCancel.current();
        }
        AtomicBoolean flag = (AtomicBoolean) CANCEL_FLAG.get(statement);
        // a cancel() that came after the statement's last execution ended stops nothing: Avatica
        // never lowers the flag, so every later execution of the statement failed as canceled
        flag.set(false);
        // a statement run for another (a prepared COPY runs as a plain one) stops when either is stopped
        int timeout;
        try {
            timeout = statement.getQueryTimeout();
        } catch (SQLException e) {
            timeout = 0; // closed: nothing runs long
        }
        return QueryCancel.of(flag, timeout * 1000L).within(QueryCancel.current());
    }

    private ZoneId zone() {
        return PrepareContexts.zone(((CalciteConnection) connection).config());
    }

    /** Calcite's, with the parameters first made to fit their types or refused (see {@link ParameterValues}). */
    @Override
    public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, int maxRowsInFirstFrame)
            throws NoSuchStatementException {
        checkDatabaseOpen();
        UpsertStatement upsert = upserts.get(h.id);
        if (upsert != null) {
            return upsert(h, upsert, parameterValues);
        }
        Signature signature = factory.signature(h);
        checkWritable(signature == null ? null : signature.sql);
        QueryCancel cancel = cancelOf(h);
        if (signature != null && signature.statementType == StatementType.OTHER_DDL
                && (NumacolParserFactory.isDdl(signature.sql) || runsHere(signature.sql))) {
            // prepared numacol DDL was only parsed (see NumacolDdlExecutor), and transaction control only
            // recorded (see prepare): it runs now, at each execution, stopped by this statement's cancel and timeout
            try (Statement s = connection.createStatement()) {
                long count = stoppable(cancel, () -> s.executeLargeUpdate(signature.sql));
                return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, count)));
            } catch (SQLException e) {
                throw QueryFailures.<RuntimeException>sneaky(e);
            }
        }
        CatalogView view = views.begin(h, NumacolDriver.openDatabase(connection));
        try {
            Signature runs;
            try {
                runs = signature == null ? null : CatalogView.runIn(view, () -> current(h, signature, view));
            } catch (SQLException e) {
                throw QueryFailures.<RuntimeException>sneaky(e);
            }
            List<TypedValue> values = ParameterValues.fit(runs, parameterValues, zone());
            ExecuteResult result = stoppable(cancel, () -> CatalogView.runIn(view, () -> super.execute(h, values, maxRowsInFirstFrame)));
            if (!returnsRows(runs)) {
                views.end(h, view);
            } else {
                stoppedWhileOpened(h, view, cancel);
            }
            return result;
        } catch (RuntimeException | Error e) {
            views.end(h, view);
            throw e;
        }
    }

    @Override
    public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValueLists)
            throws NoSuchStatementException {
        checkDatabaseOpen();
        Database database = NumacolDriver.openDatabase(connection);
        UpsertStatement upsert = upserts.get(h.id);
        if (upsert != null) {
            return upsertBatch(h, upsert, parameterValueLists, database);
        }
        Signature signature = factory.signature(h);
        checkWritable(signature == null ? null : signature.sql);
        BatchInsert insert = signature == null || database == null ? null
                : BatchInsert.recognize(signature.sql, database, defaultSchema());
        // in a transaction, the batch's rows go to it (its view bound while they are stored)
        CatalogView view = database == null ? null : transaction.statementView(database);
        CatalogView.Binding binding = CatalogView.binding();
        CatalogView before = view == null ? null : binding.enter(view);
        // a batch into several tables hands the transaction one change per table: all of them, or none
        Transaction.Savepoint start = view == null ? null : view.transaction().savepoint();
        boolean stored = false;
        try {
            ExecuteBatchResult result = insert == null ? plannedBatch(h, parameterValueLists)
                    : new ExecuteBatchResult(insert.run(signature, parameterValueLists, zone()));
            stored = true;
            return result;
        } catch (BatchUpdateException e) {
            // Meta's executeBatch cannot declare it; PreparedStatement's executeBatch does
            throw QueryFailures.<RuntimeException>sneaky(e);
        } finally {
            if (start != null) {
                if (!stored && !view.transaction().isEnded()) {
                    view.transaction().rollbackTo(start);
                }
                view.transaction().release(start);
            }
            if (view != null) {
                binding.exit(before);
            }
        }
    }

    /** The primary key's columns of the table named, from the catalog ({@link KeyMetaData}); Calcite's are none. */
    @Override
    public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog, String schema, String table) {
        return KeyMetaData.resultSet(delegate(), KeyMetaData.primaryKeys(NumacolDriver.openDatabase(connection), catalogName(),
                catalog, schema, table), MetaImpl.MetaPrimaryKey.class, KeyMetaData.PRIMARY_KEY_COLUMNS);
    }

    /**
     * The columns of the table's PRIMARY KEY and UNIQUE constraints and of its CREATE INDEXes,
     * from the catalog ({@link KeyMetaData}); Calcite's are none.
     */
    @Override
    public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog, String schema, String table, boolean unique,
                                      boolean approximate) {
        return KeyMetaData.resultSet(delegate(), KeyMetaData.indexInfo(NumacolDriver.openDatabase(connection), catalogName(),
                catalog, schema, table, unique), MetaImpl.MetaIndexInfo.class, KeyMetaData.INDEX_INFO_COLUMNS);
    }

    /**
     * The foreign keys of the tables named (getImportedKeys: those a table holds; getExportedKeys:
     * those that name it as their parent; getCrossReference: both), from the catalog ({@link
     * KeyMetaData#foreignKeys}).
     */
    @Override
    public MetaResultSet getImportedKeys(ConnectionHandle ch, String catalog, String schema, String table) {
        return foreignKeys(null, null, null, catalog, schema, table, false);
    }

    @Override
    public MetaResultSet getExportedKeys(ConnectionHandle ch, String catalog, String schema, String table) {
        return foreignKeys(catalog, schema, table, null, null, null, true);
    }

    @Override
    public MetaResultSet getCrossReference(ConnectionHandle ch, String parentCatalog, String parentSchema, String parentTable,
                                           String foreignCatalog, String foreignSchema, String foreignTable) {
        return foreignKeys(parentCatalog, parentSchema, parentTable, foreignCatalog, foreignSchema, foreignTable, true);
    }

    private MetaResultSet foreignKeys(String parentCatalog, String parentSchema, String parentTable, String foreignCatalog,
                                      String foreignSchema, String foreignTable, boolean byChild) {
        return KeyMetaData.resultSet(delegate(), KeyMetaData.foreignKeys(NumacolDriver.openDatabase(connection), catalogName(),
                new KeyMetaData.Named(parentCatalog, parentSchema, parentTable),
                new KeyMetaData.Named(foreignCatalog, foreignSchema, foreignTable), byChild),
                KeyMetaData.ForeignKeyRow.class, KeyMetaData.FOREIGN_KEY_COLUMNS);
    }

    /** Every TABLE_TYPE getTables gives ({@link CatalogMetaData#tableTypes}); Calcite's omitted SYSTEM TABLE. */
    @Override
    public MetaResultSet getTableTypes(ConnectionHandle ch) {
        return KeyMetaData.resultSet(delegate(), CatalogMetaData.tableTypes(), CatalogMetaData.TableTypeRow.class,
                CatalogMetaData.TABLE_TYPE_COLUMNS);
    }

    /** The types CREATE TABLE takes ({@link CatalogMetaData#typeInfo}), not Calcite's 49. */
    @Override
    public MetaResultSet getTypeInfo(ConnectionHandle ch) {
        return KeyMetaData.resultSet(delegate(), CatalogMetaData.typeInfo(), CatalogMetaData.TypeInfoRow.class,
                CatalogMetaData.TYPE_INFO_COLUMNS);
    }

    /** The functions a statement of this connection can call ({@link CatalogMetaData#functions}); Calcite's lists none. */
    @Override
    public MetaResultSet getFunctions(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat functionNamePattern) {
        return KeyMetaData.resultSet(delegate(), CatalogMetaData.functions(((CalciteConnection) connection).config(), catalog,
                schemaPattern == null ? null : schemaPattern.s, functionNamePattern == null ? null : functionNamePattern.s), CatalogMetaData.FunctionRow.class, CatalogMetaData.FUNCTION_COLUMNS);
    }

    /** The TABLE_CAT that getTables gives this connection's tables. */
    private String catalogName() {
        try {
            return connection.getCatalog();
        } catch (SQLException e) {
            throw QueryFailures.<RuntimeException>sneaky(e);
        }
    }

    /** Calcite's, refused once the database was shut down. */
    @Override
    public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
        checkDatabaseOpen();
        checkWritable(sql);
        return super.prepare(ch, sql, maxRowCount);
    }

    /**
     * A prepared statement of one this Meta runs itself (BEGIN, COMMIT, SAVEPOINT, SHUTDOWN...),
     * which Calcite's parser does not know: only recorded, each execution runs it as a plain
     * statement would ({@link #execute}), so that tools that prepare everything (Flyway,
     * Liquibase) can control transactions.
     */
    PreparedStatement prepareRunHere(String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkDatabaseOpen();
        StatementHandle h = super.createStatement(connection.handle);
        // Calcite's statements take its own kind of signature; nothing runs its (absent) code
        h.signature = new CalciteSignature<>(sql, List.of(), Map.of(), null, List.of(), Meta.CursorFactory.ARRAY, null,
                List.of(), -1, null, Meta.StatementType.OTHER_DDL);
        return factory.newPreparedStatement(connection, h, h.signature, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    /**
     * A prepared INSERT ... ON CONFLICT ({@link UpsertStatement}), which Calcite's parser does not
     * know: its INSERT and DO UPDATE's values are planned apart, each execution runs them here
     * ({@link #execute}, {@link #executeBatch}).
     */
    PreparedStatement prepareUpsert(String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkDatabaseOpen();
        OnConflict clause = onConflict(sql);
        StatementHandle h = super.createStatement(connection.handle);
        try {
            UpsertStatement upsert = prepareUpsert(sql, clause);
            upserts.put(h.id, upsert);
            h.signature = upsert.signature();
            return factory.newPreparedStatement(connection, h, h.signature, resultSetType, resultSetConcurrency, resultSetHoldability);
        } catch (RuntimeException e) {
            closeStatement(h);
            throw SqlStates.of(e);
        }
    }

    /** Whether {@code sql} is an INSERT ... ON CONFLICT (or fails as a malformed one). */
    static boolean isUpsert(String sql) {
        try {
            return OnConflict.parse(sql) != null;
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    /** Whether this Meta runs {@code sql} itself, without Calcite: SHUTDOWN, CHECKPOINT, EXPORT/IMPORT and transaction control. */
    static boolean runsHere(String sql) {
        return sql != null && (SHUTDOWN.matcher(sql).matches() || CHECKPOINT.matcher(sql).matches()
                || TRANSFER.matcher(sql).matches() || ConnectionTransaction.control(sql) != null);
    }

    @Override
    public void closeStatement(StatementHandle h) {
        scrolling.remove(h.id);
        UpsertStatement upsert = upserts.remove(h.id);
        if (upsert != null) {
            closeUpsert(upsert);
        }
        views.end(h);
        factory.closed(h);
        super.closeStatement(h);
    }

    @Override
    public void closeConnection(ConnectionHandle ch) {
        transaction.close(); // a transaction not committed when its connection closes is rolled back, as JDBC leaves it to drivers and PostgreSQL does
        views.endAll();
        factory.closed(ch);
        super.closeConnection(ch);
    }

    /**
     * Calcite's rows, whose failures reach {@code ResultSet.next()} as SQLExceptions ({@link QueryFailures}).
     * A query's rows are made here, and Avatica gives no values for them: Calcite then reads those
     * the statement holds, not those {@link #execute} fitted. They are fitted again here (a LIMIT's
     * Long made the Integer Calcite's code casts it to, a LocalDate the epoch day of a DATE).
     */
    @Override
    public Iterable<Object> createIterable(StatementHandle h, QueryState state, Signature signature,
                                           List<TypedValue> parameterValues, Frame firstFrame) {
        Iterable<Object> rows;
        CatalogView view = views.of(h);
        // a statement without parameters (most queries) pays neither the fitting nor the session zone's lookup
        List<TypedValue> values = signature == null || signature.parameters.isEmpty() ? parameterValues
                : ParameterValues.fit(signature, heldValues(h, signature, parameterValues), zone());
        try {
            rows = views.reading(h, view, CatalogView.runIn(view, () -> super.createIterable(h, state, signature, values, firstFrame)));
        } catch (ExceptionInInitializerError e) { // a constant of the generated code failed to evaluate
            throw QueryFailures.<RuntimeException>sneaky(QueryFailures.failed(e));
        } catch (OutOfMemoryError e) {
            throw QueryFailures.<RuntimeException>sneaky(QueryFailures.outOfHeap(e));
        }
        rows = QueryFailures.reported(rows);
        if (!scrolls(h)) {
            return rows;
        }
        // read to the end now, in the statement's snapshot: what a scroll-insensitive result set shows
        try {
            ScrollableRows held = ScrollableRows.of(rows);
            scrolling.put(h.id, held);
            return held;
        } catch (OutOfMemoryError e) {
            throw QueryFailures.<RuntimeException>sneaky(QueryFailures.outOfHeap(e));
        } catch (Exception e) {
            throw QueryFailures.<RuntimeException>sneaky(e);
        }
    }

    /** Whether the statement of {@code h} asked for TYPE_SCROLL_INSENSITIVE result sets. */
    private boolean scrolls(StatementHandle h) {
        AvaticaStatement statement = connection.statementMap.get(h.id);
        try {
            return statement != null && statement.getResultSetType() == ResultSet.TYPE_SCROLL_INSENSITIVE;
        } catch (SQLException e) {
            return false; // closed meanwhile: its result set is never read
        }
    }

    /** The rows the last query of the statement of {@code h} read for its scroll-insensitive result set, or null. */
    ScrollableRows scrollableRows(StatementHandle h) {
        return scrolling.get(h.id);
    }

    /** {@code given}, or the values the statement of {@code h} holds where Avatica gave none for a statement that has parameters. */
    @SuppressWarnings("unchecked")
    private List<TypedValue> heldValues(StatementHandle h, Signature signature, List<TypedValue> given) {
        if ((given != null && !given.isEmpty()) || signature == null || signature.parameters == null || signature.parameters.isEmpty()) {
            return given;
        }
        AvaticaStatement statement = connection.statementMap.get(h.id);
        if (statement == null) {
            return given;
        }
        try {
            return (List<TypedValue>) PARAMETER_VALUES.invoke(statement);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The schema a name without one is looked up in. */
    private String defaultSchema() {
        try {
            return connection.getSchema();
        } catch (SQLException e) {
            return null; // a closed connection: the planned path reports it
        }
    }

    /**
     * Each entry planned and run as Calcite runs it, except that the rows the entries insert
     * wait in one {@link InsertBatch} and are stored together at the end: a failing entry leaves
     * every table as it was.
     */
    private ExecuteBatchResult plannedBatch(StatementHandle h, List<List<TypedValue>> entries)
            throws NoSuchStatementException, BatchUpdateException {
        InsertBatch rows = new InsertBatch();
        long[] counts = new long[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            List<TypedValue> parameters = entries.get(i);
            try {
                ExecuteResult result = rows.run(() -> execute(h, parameters, -1));
                counts[i] = result.resultSets.size() == 1 ? result.resultSets.getFirst().updateCount : -1;
            } catch (RuntimeException e) {
                rows.discard();
                throw BatchInsert.entryFailed(i, entries.size(), e);
            } catch (NoSuchStatementException | Error e) {
                rows.discard();
                throw e;
            }
        }
        try {
            rows.publish();
        } catch (RuntimeException e) {
            throw BatchInsert.storeFailed(entries.size(), e);
        }
        return new ExecuteBatchResult(counts);
    }

    /** {@code sql}'s ON CONFLICT clause, or null; a malformed one fails with 42601. */
    private static OnConflict onConflict(String sql) {
        try {
            return OnConflict.parse(sql);
        } catch (IllegalArgumentException e) {
            throw QueryFailures.<RuntimeException>sneaky(new SQLException(e.getMessage(), SqlStates.SYNTAX_ERROR, e));
        }
    }

    /**
     * Plans an INSERT ... ON CONFLICT ({@link UpsertStatement}): its INSERT always through
     * numacol's modify (see {@link Upsert#planning}), its conflict target checked against the
     * table now, and DO UPDATE's values as a query.
     */
    private UpsertStatement prepareUpsert(String sql, OnConflict written) {
        checkWritable(sql); // an upsert is an INSERT: refused on a read-only database before it is planned
        Database database = NumacolDriver.openDatabase(connection);
        StatementHandle insert = Upsert.planning(() -> super.prepare(connection.handle, written.insert(), -1));
        StatementHandle assignments = null;
        try {
            List<String> name = written.table();
            String schema = name.size() == 2 ? name.getFirst() : defaultSchema();
            Table table = database == null || schema == null ? null : database.catalog().find(schema, name.getLast()).orElse(null);
            if (table == null) {
                throw new SQLException("relation \"" + String.join(".", name) + "\" does not exist", "42P01");
            }
            OnConflict clause = written.replacing(table.schema());
            Upsert.keys(table.schema(), clause);
            int width = table.schema().size();
            if (clause.update()) {
                assignments = super.prepare(connection.handle, UpsertStatement.assignmentsQuery(clause, table.schema()), -1);
            }
            CalciteSignature<?> in = (CalciteSignature<?>) insert.signature;
            Signature signature = new CalciteSignature<>(sql,
                    UpsertStatement.parameters(in, assignments == null ? null : assignments.signature, width),
                    in.internalParameters, in.rowType, in.columns, in.cursorFactory, in.rootSchema, in.getCollationList(), -1,
                    null, in.statementType);
            return new UpsertStatement(clause, insert, assignments, width, signature);
        } catch (RuntimeException | SQLException e) {
            super.closeStatement(insert);
            if (assignments != null) {
                super.closeStatement(assignments);
            }
            throw QueryFailures.<RuntimeException>sneaky(SqlStates.of(e));
        }
    }

    private void closeUpsert(UpsertStatement upsert) {
        super.closeStatement(upsert.insert());
        if (upsert.assignments() != null) {
            super.closeStatement(upsert.assignments());
        }
    }

    /** Runs one execution of an upsert in {@code view}: the rows inserted and updated. */
    private long runUpsert(UpsertStatement upsert, List<TypedValue> values, CatalogView view, QueryCancel cancel)
            throws NoSuchStatementException {
        List<TypedValue> given = values == null ? List.of() : values;
        List<TypedValue> insertValues = ParameterValues.fit(upsert.insert().signature, upsert.insertValues(given), zone());
        Upsert run = new Upsert(upsert.clause(), upsert.assignments(given, zone()));
        ExecuteResult result = stoppable(cancel, () -> CatalogView.runIn(view,
                () -> run.run(() -> super.execute(upsert.insert(), insertValues, -1))));
        return result.resultSets.getFirst().updateCount;
    }

    /** An execution of prepared upsert {@code h}, in the statement's view (its transaction's, if one is open). */
    private ExecuteResult upsert(StatementHandle h, UpsertStatement upsert, List<TypedValue> values) throws NoSuchStatementException {
        CatalogView view = views.begin(h, NumacolDriver.openDatabase(connection));
        try {
            long count = runUpsert(current(h, upsert, view), values, view, cancelOf(h));
            return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, count)));
        } finally {
            views.end(h, view);
        }
    }

    /**
     * The upsert {@code h} runs now: the one prepared while the catalog is as it was then, else
     * one planned again against {@code view} (a table it reads was altered, dropped or created
     * again), as {@link #current(StatementHandle, Signature, CatalogView)} does for other statements.
     */
    private UpsertStatement current(StatementHandle h, UpsertStatement upsert, CatalogView view) {
        long planned = factory.catalogVersion(h);
        if (view == null || planned < 0 || planned == view.version()) {
            return upsert;
        }
        String sql = upsert.signature().sql;
        UpsertStatement fresh = CatalogView.runIn(view, () -> prepareUpsert(sql, onConflict(sql)));
        if (fresh.signature().parameters.size() != upsert.signature().parameters.size()) {
            closeUpsert(fresh);
            throw QueryFailures.<RuntimeException>sneaky(new SQLException("the prepared statement's parameters changed: a table it "
                    + "reads was altered since it was prepared; prepare it again", "0A000"));
        }
        upserts.put(h.id, fresh);
        closeUpsert(upsert);
        factory.replanned(h, fresh.signature(), view.version());
        return fresh;
    }

    /** An upsert run as a plain statement: planned, run once, forgotten. */
    private ExecuteResult upsertOnce(StatementHandle h, String sql, OnConflict clause, PrepareCallback callback) {
        Database database = NumacolDriver.openDatabase(connection);
        CatalogView view = views.begin(h, database);
        try {
            UpsertStatement upsert = CatalogView.runIn(view, () -> prepareUpsert(sql, clause));
            try {
                return count(h, sql, callback, runUpsert(upsert, List.of(), view, cancelOf(h)));
            } finally {
                closeUpsert(upsert);
            }
        } catch (NoSuchStatementException e) {
            throw QueryFailures.<RuntimeException>sneaky(e);
        } finally {
            views.end(h, view);
        }
    }

    /**
     * A batch of upsert executions, each seeing the ones before (a key the first inserts, the
     * second updates), all kept or none: in the connection's transaction (to a savepoint on
     * failure), or in auto-commit in a transaction of their own that commits at the end.
     */
    private ExecuteBatchResult upsertBatch(StatementHandle h, UpsertStatement upsert, List<List<TypedValue>> entries,
                                           Database database) {
        CatalogView open = database == null ? null : transaction.statementView(database);
        Transaction own = open == null && database != null ? database.catalog().begin(Transaction.Isolation.READ_COMMITTED) : null;
        Transaction.Savepoint start = open == null ? null : open.transaction().savepoint();
        boolean stored = false;
        try {
            long[] counts = new long[entries.size()];
            for (int i = 0; i < entries.size(); i++) {
                try {
                    CatalogView view = own != null ? own.statementView() : open;
                    counts[i] = runUpsert(upsert, entries.get(i), view, cancelOf(h));
                } catch (RuntimeException | NoSuchStatementException e) {
                    throw BatchInsert.entryFailed(i, entries.size(), e);
                }
            }
            if (own != null) {
                try {
                    own.commit();
                } catch (RuntimeException e) {
                    throw BatchInsert.storeFailed(entries.size(), e);
                }
            }
            stored = true;
            return new ExecuteBatchResult(counts);
        } catch (BatchUpdateException e) {
            throw QueryFailures.<RuntimeException>sneaky(e);
        } finally {
            if (own != null && !stored && !own.isEnded()) {
                own.rollback();
            }
            if (start != null) {
                if (!stored && !open.transaction().isEnded()) {
                    open.transaction().rollbackTo(start);
                }
                open.transaction().release(start);
            }
        }
    }
}
