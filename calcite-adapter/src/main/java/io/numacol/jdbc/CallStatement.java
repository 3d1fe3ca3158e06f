package io.numacol.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code prepareCall} gives: numacol has functions, no stored procedures, so a call is the
 * query of the function's value. {@code {call f(a, ?)}}, {@code call f(a, ?)} and {@code
 * call current_schema} (JDBC's escape or plain) run as {@code SELECT f(a, ?)} (a name without
 * parentheses as {@code SELECT name}, which is how SQL writes CURRENT_SCHEMA and its kind), and
 * {@code executeQuery} answers that query's row, as Liquibase reads {@code call current_schema}.
 * {@code {? = call f(?)}} registers the value as OUT parameter 1, read by the getters after
 * {@code execute}; the call's own parameters then count from 2. Anything else prepared through
 * {@code prepareCall} runs as it would through {@code prepareStatement} ({@code CALL dbgen(...)}
 * among it). What numacol cannot run is refused with 0A000: OUT parameters of the function's
 * arguments, parameters by name.
 */
final class CallStatement implements InvocationHandler {
    /** JDBC's call escape with or without its braces: {@code [?=] call name [(arguments)]}. */
    private static final Pattern CALL = Pattern.compile(
            "(?is)\\s*(\\{)?\\s*(\\?\\s*=\\s*)?call\\s+((?:\"(?:[^\"]|\"\")+\"|[\\p{L}_][\\p{L}\\p{N}_$]*)"
                    + "(?:\\s*\\.\\s*(?:\"(?:[^\"]|\"\")+\"|[\\p{L}_][\\p{L}\\p{N}_$]*))?)\\s*(\\((.*)\\))?\\s*(})?\\s*;?\\s*");

    private final PreparedStatement query;
    /** Whether the call's value is OUT parameter 1 ({@code {? = call ...}}): the call's parameters then count from 2. */
    private final boolean returnsValue;
    private Object value;
    private boolean valueRead;

    private CallStatement(PreparedStatement query, boolean returnsValue) {
        this.query = query;
        this.returnsValue = returnsValue;
    }

    /**
     * {@code connection.prepareCall(args...)}: the query the call is, prepared on the user's
     * {@code connection} as any statement (so that the proxies there see it), behind a
     * CallableStatement.
     */
    static CallableStatement prepare(Connection connection, Object[] args) throws SQLException {
        String sql = (String) args[0];
        if (sql == null) {
            throw new SQLException("prepareCall of no SQL: give the call, as {call f(?)} or {? = call f(?)}", "42601");
        }
        Matcher m = CALL.matcher(sql);
        boolean call = m.matches() && (m.group(1) != null) == (m.group(6) != null)
                && !m.group(3).equalsIgnoreCase("dbgen"); // numacol's own CALL statement
        boolean returnsValue = call && m.group(2) != null;
        if (!call && sql.stripLeading().startsWith("{")) {
            throw new SQLException("prepareCall of '" + sql + "': numacol reads the escapes {call f(...)} and {? = call f(...)}",
                    SqlStates.SYNTAX_ERROR);
        }
        String runs = call ? "SELECT " + m.group(3) + (m.group(4) == null ? "" : "(" + m.group(5) + ")") : sql;
        Object[] prepareArgs = args.clone();
        prepareArgs[0] = runs;
        PreparedStatement query = switch (prepareArgs.length) {
            case 1 -> connection.prepareStatement(runs);
            case 3 -> connection.prepareStatement(runs, (Integer) prepareArgs[1], (Integer) prepareArgs[2]);
            default -> connection.prepareStatement(runs, (Integer) prepareArgs[1], (Integer) prepareArgs[2], (Integer) prepareArgs[3]);
        };
        return (CallableStatement) Proxy.newProxyInstance(CallStatement.class.getClassLoader(), new Class<?>[]{CallableStatement.class},
                new CallStatement(query, returnsValue));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "equals" -> {
                return proxy == args[0];
            }
            case "hashCode" -> {
                return System.identityHashCode(proxy);
            }
            case "unwrap" -> {
                return ((Class<?>) args[0]).isInstance(proxy) ? proxy : query.unwrap((Class<?>) args[0]);
            }
            case "isWrapperFor" -> {
                return ((Class<?>) args[0]).isInstance(proxy) || query.isWrapperFor((Class<?>) args[0]);
            }
            case "registerOutParameter" -> {
                outParameter(args[0]);
                return null;
            }
            case "wasNull" -> {
                readValue();
                return value == null;
            }
            case "execute" -> {
                if (args == null || args.length == 0) {
                    valueRead = false;
                    value = null;
                    return query.execute();
                }
            }
            case "executeQuery" -> {
                if (args == null || args.length == 0) {
                    valueRead = false; // the value of this run, not the last one's
                    value = null;
                }
            }
            case "executeUpdate", "executeLargeUpdate" -> {
                if (args == null || args.length == 0) {
                    valueRead = false;
                    value = null;
                    boolean rows = query.execute(); // a function's value: no rows changed
                    return name.equals("executeLargeUpdate") ? (Object) (rows ? 0L : query.getLargeUpdateCount())
                            : (Object) (rows ? 0 : query.getUpdateCount());
                }
            }
            default -> {
                // below
            }
        }
        if (method.getDeclaringClass() == CallableStatement.class) {
            if (name.startsWith("get") && args != null && args.length >= 1 && args[0] instanceof Integer index) {
                return get(name, index, args);
            }
            throw new SQLFeatureNotSupportedException("CallableStatement." + name + " with parameters by name: numacol's calls take"
                    + " parameters by position", "0A000");
        }
        Object[] shifted = args;
        if (returnsValue && name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index) {
            if (index == 1) {
                throw new SQLException("parameter 1 of {? = call ...} is the function's value: register it with registerOutParameter;"
                        + " the call's own parameters count from 2", "07009");
            }
            shifted = args.clone();
            shifted[0] = index - 1;
        }
        try {
            return method.invoke(query, shifted);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private void outParameter(Object index) throws SQLException {
        if (!(index instanceof Integer i && i == 1 && returnsValue)) {
            throw new SQLFeatureNotSupportedException("registerOutParameter(" + index + "): numacol's functions have no OUT arguments;"
                    + " the one value a call gives is parameter 1 of {? = call f(...)}", "0A000");
        }
    }

    /** The call's value, read from the row of its query once, after execute. */
    private void readValue() throws SQLException {
        if (!returnsValue) {
            throw new SQLException("this call registered no OUT parameter: prepare it as {? = call f(...)} to read its value", "07009");
        }
        if (!valueRead) {
            ResultSet rs = query.getResultSet();
            if (rs == null) {
                throw new SQLException("the call has not run: execute() it before reading its value", "HY010");
            }
            value = rs.next() ? rs.getObject(1) : null;
            valueRead = true;
        }
    }

    /** A getter of the call's value (OUT parameter 1). */
    private Object get(String getter, int index, Object[] args) throws SQLException {
        if (index != 1) {
            outParameter(index);
        }
        readValue();
        Object v = value;
        String type = getter.substring(3).toLowerCase(Locale.ROOT);
        if (v == null) {
            return switch (type) {
                case "int", "long", "short", "byte", "double", "float" -> convert(type, 0);
                case "boolean" -> false;
                default -> null;
            };
        }
        if (type.equals("object") && args.length == 2 && args[1] instanceof Class<?> c) {
            if (c.isInstance(v)) {
                return v;
            }
            throw new SQLException("the call's value is a " + v.getClass().getName() + ", not a " + c.getName(), "22023");
        }
        return switch (type) {
            case "object" -> v;
            case "string", "nstring" -> v.toString();
            case "boolean" -> v instanceof Boolean b ? b : Boolean.parseBoolean(v.toString());
            case "bigdecimal" -> v instanceof BigDecimal d ? d : new BigDecimal(v.toString());
            case "int", "long", "short", "byte", "double", "float" -> {
                if (!(v instanceof Number n)) {
                    throw new SQLException("the call's value " + v + " is no number: read it with getString or getObject", "22023");
                }
                yield convert(type, n);
            }
            default -> throw new SQLFeatureNotSupportedException("CallableStatement." + getter + Arrays.toString(args)
                    + ": read the call's value with getObject, getString or a number's getter", "0A000");
        };
    }

    private static Object convert(String type, Number n) {
        return switch (type) {
            case "int" -> n.intValue();
            case "long" -> n.longValue();
            case "short" -> n.shortValue();
            case "byte" -> n.byteValue();
            case "double" -> n.doubleValue();
            default -> n.floatValue();
        };
    }
}
