package io.numacol.jdbc;

import io.numacol.calcite.PrepareContexts;
import io.numacol.calcite.dml.ChangedRows;
import io.numacol.database.Database;
import io.numacol.storage.CatalogView;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.jdbc.CalciteConnection;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLWarning;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Calendar;
import java.util.Locale;
import java.util.Set;
import java.util.TimeZone;

/**
 * The connection a user of the driver holds: Calcite's, behind a proxy, so that {@code
 * executeBatch} throws the BatchUpdateException JDBC promises. Avatica wraps whatever the Meta
 * throws from a batch in a plain SQLException, and the statement classes that could undo it are
 * package-private in Calcite; the proxies do it instead, as connection pools wrap a driver's
 * objects. Statements, prepared statements and metadata are proxied too, so that their {@code
 * getConnection()} is the connection the user holds. Result sets are wrapped in a {@link
 * NumacolResultSet}, a plain forwarding class rather than a proxy, as their getters are the hot
 * path of reading an answer: its {@code getStatement()} is the statement the user holds, and it
 * adds JDBC 4.2's {@code getObject(column, type)}. A prepared statement's TIMESTAMP WITH TIME ZONE
 * parameters are set as their instants, whatever class they are given as; its DATE, TIME and
 * TIMESTAMP parameters are read in the JVM's zone, whatever the session's. A statement's generated
 * keys and {@code RETURNING} rows, which Avatica refuses, are answered by its {@link StatementRows};
 * transaction control and SHUTDOWN are prepared by numacol's Meta, as Calcite's parser knows neither.
 */
final class ConnectionProxy implements InvocationHandler {
    /** What a proxied object's methods return that is proxied in turn. */
    private static final Set<Class<?>> PROXIED = Set.of(Statement.class, PreparedStatement.class, DatabaseMetaData.class);

    private static final ColumnType INSTANTS = ColumnType.timestampTz(ColumnType.MAX_TIMESTAMP_PRECISION);

    private final Object target;
    /** The user's connection, which every proxied object's {@code getConnection()} returns. */
    private Connection connection;
    /**
     * Per parameter (1-based) of a prepared statement, whether it is a TIMESTAMP WITH TIME ZONE;
     * made on first use.
     */
    private boolean[] instantParameters;
    /** The session's zone and a UTC calendar for instant parameters, made on first use (a statement's, not shared). */
    private ZoneId zone;
    private Calendar utc;
    /** A calendar in the JVM's zone for DATE, TIME and TIMESTAMP parameters, made on first use. */
    private Calendar local;
    /** The result set types and concurrencies a connection's statements are made with, and the warnings of what it changed. */
    private final ResultSetKinds cursors = new ResultSetKinds();
    /** A statement's generated keys and RETURNING rows; null for the connection and metadata. */
    private StatementRows rows;
    /** {@code Connection.prepareStatement(String)}: a keys argument is the proxy's, not Avatica's. */
    private static final Method PREPARE;

    static {
        try {
            PREPARE = Connection.class.getMethod("prepareStatement", String.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ConnectionProxy(Object target, Connection connection) {
        this.target = target;
        this.connection = connection;
    }

    /** {@code connection} behind a proxy that is a {@link CalciteConnection}, as Calcite's is. */
    static CalciteConnection wrap(CalciteConnection connection) {
        ConnectionProxy handler = new ConnectionProxy(connection, null);
        CalciteConnection proxy = (CalciteConnection) Proxy.newProxyInstance(ConnectionProxy.class.getClassLoader(),
                new Class<?>[]{CalciteConnection.class}, handler);
        handler.connection = proxy;
        return proxy;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] given) throws Throwable {
        // a scroll-sensitive or updatable result set asked for is made scroll-insensitive or read-only, with a warning
        Object[] args = target instanceof AvaticaConnection && given != null ? cursors.supported(method, given) : given;
        if (rows != null && target instanceof AvaticaStatement statement) {
            Object answer = rows.invoke(statement, method, args, this::invoke);
            if (answer != StatementRows.NOT_HANDLED) {
                return wrapped(proxy, method, answer);
            }
        }
        switch (method.getName()) {
            case "equals" -> {
                return proxy == args[0];
            }
            case "hashCode" -> {
                return System.identityHashCode(proxy);
            }
            case "getConnection" -> {
                return connection;
            }
            case "unwrap" -> {
                Class<?> type = (Class<?>) args[0];
                return type.isInstance(proxy) ? proxy : invoke(method, args);
            }
            case "isWrapperFor" -> {
                return ((Class<?>) args[0]).isInstance(proxy) || (Boolean) invoke(method, args);
            }
            case "cancel" -> {
                if (target instanceof AvaticaStatement statement) {
                    NumacolMeta.cancel(statement); // without Avatica's monitor, which a running statement holds
                    return null;
                }
            }
            case "close" -> {
                // closing a statement stops what it still runs on another thread (its tasks), as cancel() does
                if (target instanceof AvaticaStatement statement) {
                    NumacolMeta.cancel(statement);
                }
            }
            case "prepareStatement" -> {
                // planned against one catalog version, which the statement keeps to be planned again after DDL
                Database database = target instanceof AvaticaConnection c ? NumacolDriver.openDatabase(c) : null;
                if (database != null && database.isClosed()) {
                    throw NumacolMeta.databaseClosed();
                }
                // a RETURNING is prepared without it, and a keys argument (which Avatica refuses) is kept by the proxy
                String sql = (String) args[0];
                Returning returning = Returning.parse(sql);
                boolean keysArgument = args.length == 2;
                GeneratedKeys keys = keysArgument ? GeneratedKeys.of(args[1]) : GeneratedKeys.NONE;
                String runs = returning == null ? sql : returning.statement();
                Method prepare = keysArgument ? PREPARE : method;
                Object[] prepareArgs = keysArgument ? new Object[]{runs} : args.clone();
                prepareArgs[0] = runs;
                Object prepared;
                NumacolMeta meta = target instanceof AvaticaConnection c ? NumacolMeta.of(c) : null;
                if (meta != null && NumacolMeta.isUpsert(runs)) {
                    AvaticaConnection c = (AvaticaConnection) target;
                    try (CatalogView view = database == null ? null : database.catalog().beginRead()) {
                        prepared = CatalogView.runIn(view, () -> args.length == 4
                                ? meta.prepareUpsert(runs, (Integer) args[1], (Integer) args[2], (Integer) args[3])
                                : args.length == 3 ? meta.prepareUpsert(runs, (Integer) args[1], (Integer) args[2], c.getHoldability())
                                : meta.prepareUpsert(runs, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, c.getHoldability()));
                    }
                } else if (meta != null && NumacolMeta.runsHere(sql)) {
                    AvaticaConnection c = (AvaticaConnection) target;
                    prepared = args.length == 4 ? meta.prepareRunHere(sql, (Integer) args[1], (Integer) args[2], (Integer) args[3])
                            : args.length == 3 ? meta.prepareRunHere(sql, (Integer) args[1], (Integer) args[2], c.getHoldability())
                            : meta.prepareRunHere(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, c.getHoldability());
                } else if (database != null) {
                    try (CatalogView view = database.catalog().beginRead()) {
                        prepared = CatalogView.runIn(view, () -> invoke(prepare, prepareArgs));
                    }
                } else {
                    prepared = invoke(prepare, prepareArgs);
                }
                return proxied(PreparedStatement.class, prepared, new StatementRows(keys, returning, runs));
            }
            case "prepareCall" -> {
                if (target instanceof AvaticaConnection) {
                    return CallStatement.prepare((Connection) proxy, args); // Avatica refuses every call
                }
            }
            case "setEscapeProcessing" -> {
                // Avatica refuses it (Flyway turns it off); Calcite's parser reads the escapes either way
                if (target instanceof Statement) {
                    return null;
                }
            }
            case "getTables", "getColumns" -> {
                // COMMENT ON's texts as REMARKS, which Calcite's rows lack
                Database db = target instanceof DatabaseMetaData m ? NumacolDriver.openDatabase(m.getConnection().unwrap(AvaticaConnection.class))
                        : null;
                if (db != null) {
                    return new RemarksResultSet((ResultSet) wrapped(proxy, method, invoke(method, args)), db.catalog(),
                            method.getName().equals("getColumns"));
                }
            }
            case "setSavepoint", "releaseSavepoint", "rollback" -> {
                // Avatica's connection refuses savepoints (it does not pass them to the Meta): numacol's Meta keeps them
                if (target instanceof AvaticaConnection c && ((args != null && args.length == 1) || method.getName().equals("setSavepoint"))) {
                    return savepoint(c, method.getName(), args == null || args.length == 0 ? null : args[0]);
                }
            }
            case "isValid" -> {
                if (target instanceof AvaticaConnection c) {
                    Database db = NumacolDriver.openDatabase(c);
                    if (db != null && db.isClosed()) {
                        return false; // SHUTDOWN closed its database
                    }
                }
            }
            case "supportsTransactions", "supportsSavepoints", "dataDefinitionCausesTransactionCommit", "supportsMultipleTransactions" -> {
                if (target instanceof DatabaseMetaData) {
                    return true;
                }
            }
            case "supportsDataManipulationTransactionsOnly", "supportsDataDefinitionAndDataManipulationTransactions",
                 "dataDefinitionIgnoredInTransactions" -> {
                if (target instanceof DatabaseMetaData) {
                    return false;
                }
            }
            case "supportsResultSetType" -> {
                if (target instanceof DatabaseMetaData && args[0] instanceof Integer kind) {
                    return kind == ResultSet.TYPE_FORWARD_ONLY || kind == ResultSet.TYPE_SCROLL_INSENSITIVE; // ResultSetKinds
                }
            }
            case "supportsResultSetConcurrency" -> {
                if (target instanceof DatabaseMetaData && args[0] instanceof Integer kind && args[1] instanceof Integer concurrency) {
                    return (kind == ResultSet.TYPE_FORWARD_ONLY || kind == ResultSet.TYPE_SCROLL_INSENSITIVE)
                            && concurrency == ResultSet.CONCUR_READ_ONLY;
                }
            }
            case "getDefaultTransactionIsolation" -> {
                if (target instanceof DatabaseMetaData) {
                    return Connection.TRANSACTION_REPEATABLE_READ;
                }
            }
            case "supportsTransactionIsolationLevel" -> {
                if (target instanceof DatabaseMetaData && args[0] instanceof Integer level) {
                    // READ UNCOMMITTED is given as READ COMMITTED; SERIALIZABLE is refused (snapshot isolation is the strongest)
                    return level == Connection.TRANSACTION_READ_UNCOMMITTED || level == Connection.TRANSACTION_READ_COMMITTED
                            || level == Connection.TRANSACTION_REPEATABLE_READ;
                }
            }
            case "isReadOnly" -> {
                // a read-only file database (access_mode=read_only) is, and nothing else: Avatica said true of every database
                if (target instanceof DatabaseMetaData || target instanceof AvaticaConnection) {
                    AvaticaConnection c = target instanceof AvaticaConnection a ? a
                            : ((DatabaseMetaData) target).getConnection().unwrap(AvaticaConnection.class);
                    if (c.isClosed()) {
                        throw new SQLNonTransientConnectionException("the connection is closed", "08003");
                    }
                    Database db = NumacolDriver.openDatabase(c);
                    if (db != null && db.isReadOnly()) {
                        return true;
                    }
                    return target instanceof AvaticaConnection ? invoke(method, args) : false;
                }
            }
            case "getTypeMap", "setTypeMap" -> {
                if (target instanceof AvaticaConnection c) {
                    return ResultSetKinds.typeMap(c, method.getName(), args);
                }
            }
            case "getWarnings", "clearWarnings" -> {
                if (target instanceof AvaticaConnection) {
                    Object theirs = invoke(method, args); // checks the connection is open
                    return cursors.warnings(method.getName().equals("clearWarnings"), (SQLWarning) theirs);
                }
            }
            case "setSchema" -> {
                if (target instanceof CalciteConnection calcite && args[0] instanceof String name) {
                    checkSchema(calcite, name);
                }
            }
            case "setTimestamp", "setObject", "setString", "setDate", "setTime" -> {
                if (target instanceof PreparedStatement p && args[0] instanceof Integer index && args[1] != null) {
                    if (instantParameter(p, index)) {
                        setInstant(p, index, args[1]);
                        return null;
                    }
                    if (args.length == 2 && setWallClock(p, index, args[1])) {
                        return null;
                    }
                    if (TargetTypedParameters.applies(method.getName(), args)) {
                        if (!setWallClock(p, index, args[1])) {
                            TargetTypedParameters.set(p, args);
                        }
                        return null;
                    }
                }
            }
            default -> {
                // handled below
            }
        }
        return wrapped(proxy, method, invoke(method, args));
    }

    /** What {@code method} of {@code proxy} returned, as the user sees it: proxied or wrapped where it is a JDBC object of its own. */
    private Object wrapped(Object proxy, Method method, Object result) {
        Class<?> type = method.getReturnType();
        if (result instanceof ResultSetMetaData metaData) {
            return InstantMetaData.of(metaData); // a prepared statement's
        }
        if (result instanceof ResultSet rs && !(result instanceof NumacolResultSet)) {
            Statement statement = proxy instanceof Statement s ? s : null;
            ScrollableRows scrollable = scrollableRows(rs);
            return scrollable != null ? new ScrollInsensitiveResultSet(rs, statement, scrollable) : new NumacolResultSet(rs, statement);
        }
        return result != null && PROXIED.contains(type)
                ? proxied(type, result, result instanceof Statement ? new StatementRows() : null)
                : result;
    }

    /** The rows a scroll-insensitive result set moves through, read when its query ran; null for a forward-only one. */
    private static ScrollableRows scrollableRows(ResultSet rs) {
        try {
            if (rs.getType() != ResultSet.TYPE_SCROLL_INSENSITIVE || !(rs.getStatement() instanceof AvaticaStatement statement)) {
                return null;
            }
            NumacolMeta meta = NumacolMeta.of(statement.connection);
            return meta == null ? null : meta.scrollableRows(statement.handle);
        } catch (SQLException e) {
            return null; // closed: nothing will be read from it
        }
    }

    /** {@code result} behind a proxy of {@code type}; a statement's with {@code rows}, which answers its keys and RETURNING rows. */
    private Object proxied(Class<?> type, Object result, StatementRows rows) {
        ConnectionProxy handler = new ConnectionProxy(result, connection);
        handler.rows = rows;
        return Proxy.newProxyInstance(ConnectionProxy.class.getClassLoader(), new Class<?>[]{type}, handler);
    }

    private static boolean overflowed(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StackOverflowError) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code method} called again on a thread with a stack of {@link #DEEP_STACK_BYTES}, the
     * caller waiting: a statement whose planning overflowed the caller's stack failed before it
     * ran (numacol's statements are atomic, so nothing of it was stored), and runs deep only
     * then, so that ordinary statements pay no hand-over. What it throws comes back as an
     * InvocationTargetException; a statement that overflows even that stack fails with 54001.
     */
    private Object onDeepStack(Method method, Object[] args) throws InvocationTargetException, InterruptedException {
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        CatalogView view = CatalogView.current(); // the deep thread plans in the caller's view
        ChangedRows collecting = ChangedRows.current(); // and adds the rows it stores to the caller's keys
        Thread deep = new Thread(null, () -> {
            try {
                CatalogView.Body<Object, ReflectiveOperationException> call = () -> CatalogView.runIn(view, () -> method.invoke(target, args));
                result[0] = collecting == null ? call.run() : collecting.collect(call::run);
            } catch (InvocationTargetException e) {
                failure[0] = e.getCause();
            } catch (ReflectiveOperationException | RuntimeException | Error e) {
                failure[0] = e;
            }
        }, "numacol-deep-statement", DEEP_STACK_BYTES);
        deep.setDaemon(true);
        deep.start();
        deep.join();
        if (failure[0] != null) {
            throw new InvocationTargetException(failure[0]);
        }
        return result[0];
    }

    /** JDBC's setSavepoint, rollback(Savepoint) and releaseSavepoint, run by numacol's Meta. */
    private static Object savepoint(AvaticaConnection c, String method, Object arg) throws SQLException {
        if (c.isClosed()) {
            throw new SQLNonTransientConnectionException("the connection is closed", "08003");
        }
        NumacolMeta meta = NumacolMeta.of(c);
        if (meta == null) {
            throw new SQLFeatureNotSupportedException("savepoints", "0A000");
        }
        switch (method) {
            case "setSavepoint" -> {
                return meta.setSavepoint((String) arg);
            }
            case "rollback" -> meta.rollbackTo((Savepoint) arg);
            default -> meta.releaseSavepoint((Savepoint) arg);
        }
        return null;
    }

    /**
     * Refuses a schema that does not exist, as H2 does: Calcite took any name, and every later
     * unqualified name failed to resolve with no word of why.
     */
    private static void checkSchema(CalciteConnection calcite, String name) throws SQLException {
        Database db = NumacolDriver.openDatabase(calcite.unwrap(AvaticaConnection.class));
        if (db != null && calcite.getRootSchema().subSchemas().get(name) == null && db.catalog().findSchema(name).isEmpty()) {
            throw new SQLException("schema " + name + " does not exist: CREATE SCHEMA " + name + " first, or set one of "
                    + db.catalog().schemas(), "3F000");
        }
    }

    private boolean instantParameter(PreparedStatement p, int index) throws SQLException {
        if (instantParameters == null) {
            ParameterMetaData m = p.getParameterMetaData();
            boolean[] instants = new boolean[m.getParameterCount() + 1];
            for (int i = 1; i < instants.length; i++) {
                instants[i] = ParameterValues.INSTANT.equals(m.getParameterTypeName(i));
            }
            instantParameters = instants;
        }
        return index > 0 && index < instantParameters.length && instantParameters[index];
    }

    /**
     * An instant parameter as the epoch milliseconds Calcite computes with. Avatica would keep a
     * java.time value as it is (which the generated code cannot cast), a string too (which Calcite
     * cannot read without a zone name), and turn a Timestamp into the session's wall clock (which
     * Calcite would take for UTC): each is made its instant here, text and LocalDateTime in the
     * session's zone, and set through a UTC calendar, which keeps the milliseconds as they are.
     */
    private void setInstant(PreparedStatement p, int index, Object value) throws SQLException {
        if (zone == null) {
            zone = PrepareContexts.zone(connection.unwrap(CalciteConnection.class).config());
            utc = Calendar.getInstance(TimeZone.getTimeZone(ZoneOffset.UTC), Locale.ROOT);
        }
        long millis;
        try {
            millis = INSTANTS.toLong(value, zone);
        } catch (IllegalArgumentException e) {
            throw new SQLException("parameter " + index + " (TIMESTAMP WITH TIME ZONE): " + e.getMessage(), e);
        }
        p.setTimestamp(index, new Timestamp(millis), utc);
    }

    /**
     * A java.sql Date, Time or Timestamp set without a calendar, read in the JVM's zone as JDBC
     * says. Avatica reads it in the session's zone ({@code timeZone}), which shifted what was
     * stored: {@code Timestamp.valueOf("2024-07-01 12:00:00")} became 08:00 in a New York
     * session on a UTC JVM, and a Date the day before. False for any other value.
     */
    @SuppressWarnings("JavaUtilDate") // a caller's java.util.Date, taken as JDBC takes it
    private boolean setWallClock(PreparedStatement p, int index, Object value) throws SQLException {
        if (!(value instanceof java.util.Date)) {
            return false;
        }
        if (local == null) {
            local = Calendar.getInstance(TimeZone.getDefault(), Locale.ROOT);
        }
        switch (value) {
            case Timestamp t -> p.setTimestamp(index, t, local);
            case java.sql.Date d -> p.setDate(index, d, local);
            case java.sql.Time t -> p.setTime(index, t, local);
            // a plain java.util.Date is an instant as a Timestamp is: read the same way (Avatica's own
            // JAVA_UTIL_DATE representation reached the parameter's conversion as a bare number)
            case java.util.Date d when d.getClass() == java.util.Date.class -> p.setTimestamp(index, new Timestamp(d.getTime()), local);
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * The stack of the thread that plans a statement again after it overflowed the caller's:
     * Calcite's parser, validator and converter recurse once per level of an expression, and a
     * sum of 1,000 terms or of a wide table's 2,000 columns, or an IN list of 20,000 values,
     * needs more than a thread's usual megabyte or few. Reserved, not committed, so it costs
     * address space only while such a statement is planned.
     */
    static final long DEEP_STACK_BYTES = 1L << 30;

    private Object invoke(Method method, Object[] args) throws Throwable {
        try {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                if (!overflowed(e.getCause()) || !(method.getName().startsWith("execute") || method.getName().startsWith("prepare"))) {
                    throw e;
                }
                return onDeepStack(method, args);
            }
        } catch (InvocationTargetException e) {
            Throwable thrown = e.getCause();
            if (method.getName().startsWith("execute") && method.getName().endsWith("Batch")) {
                // Avatica's plain SQLException around the BatchUpdateException NumacolMeta threw
                for (Throwable t = thrown; t != null; t = t.getCause()) {
                    if (t instanceof BatchUpdateException batch) {
                        throw batch;
                    }
                }
            }
            if (thrown instanceof SQLFeatureNotSupportedException unsupported) {
                throw ResultSetKinds.named(unsupported, method.getDeclaringClass().getSimpleName() + "." + method.getName());
            }
            if (thrown instanceof SQLException || Arrays.asList(method.getExceptionTypes()).contains(SQLException.class)) {
                throw SqlStates.of(thrown); // nothing but an SQLException, with its state, leaves a JDBC method
            }
            throw thrown;
        }
    }
}
