package io.numacol.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.ResultSetMetaData;
import java.sql.Types;

/**
 * Result set metadata that names a TIMESTAMP WITH TIME ZONE column as JDBC and DuckDB do: type
 * {@link Types#TIMESTAMP_WITH_TIMEZONE}, named {@code TIMESTAMP WITH TIME ZONE}. Calcite's type
 * for it, TIMESTAMP WITH LOCAL TIME ZONE, is a plain {@link Types#TIMESTAMP} to Avatica, so a
 * tool (sqlline among them) read it with {@code getTimestamp} and showed the instant in the JVM's
 * zone rather than its text in the session's.
 */
final class InstantMetaData {
    static final String TYPE_NAME = "TIMESTAMP WITH TIME ZONE";

    private InstantMetaData() {
    }

    static ResultSetMetaData of(ResultSetMetaData metaData) {
        if (metaData == null) {
            return null;
        }
        return (ResultSetMetaData) Proxy.newProxyInstance(InstantMetaData.class.getClassLoader(),
                new Class<?>[]{ResultSetMetaData.class}, (proxy, method, args) -> {
                    String name = method.getName();
                    if ((name.equals("getColumnType") || name.equals("getColumnTypeName")) && args.length == 1
                            && ParameterValues.INSTANT.equals(metaData.getColumnTypeName((Integer) args[0]))) {
                        return name.equals("getColumnType") ? Types.TIMESTAMP_WITH_TIMEZONE : TYPE_NAME;
                    }
                    try {
                        return method.invoke(metaData, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
