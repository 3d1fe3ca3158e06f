package io.numacol.jdbc;

import io.numacol.calcite.NumacolTable;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.avatica.MetaImpl.MetaColumn;
import org.apache.calcite.jdbc.CalciteMetaColumnFactory;
import org.apache.calcite.jdbc.CalciteMetaColumnFactoryImpl;
import org.apache.calcite.schema.Table;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.ResultSetMetaData;
import java.sql.Types;
import java.util.regex.Pattern;

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

    /**
     * The rows of {@code DatabaseMetaData.getColumns}, with an instant column typed as {@link #of}
     * types it ({@code DATA_TYPE} {@link Types#TIMESTAMP_WITH_TIMEZONE}) and every column's type
     * named and sized as JDBC says ({@link ColumnDescription}).
     */
    static final CalciteMetaColumnFactory COLUMNS = new CalciteMetaColumnFactoryImpl() {
        @Override
        public MetaColumn createColumn(Table table, String tableCat, String tableSchem, String tableName, String columnName,
                                       int dataType, String typeName, Integer columnSize, Integer decimalDigits, int numPrecRadix,
                                       int nullable, Integer charOctetLength, int ordinalPosition, String isNullable) {
            TableSchema.ColumnDef column = table instanceof NumacolTable n && ordinalPosition - 1 < n.table().schema().size()
                    ? n.table().schema().column(ordinalPosition - 1) : null;
            // a table's CHAR(n) is a VARCHAR to Calcite (see CharCodec): the table says which it is
            boolean fixed = column != null && column.type().kind() == ColumnType.Kind.CHAR;
            int type = INSTANT_TYPE.matcher(typeName).matches() ? Types.TIMESTAMP_WITH_TIMEZONE : fixed ? Types.CHAR : dataType;
            ColumnDescription d = ColumnDescription.of(type, fixed ? "CHAR" : typeName, columnSize == null ? -1 : columnSize,
                    decimalDigits);
            return new DescribedColumn(tableCat, tableSchem, tableName, columnName, type, d.typeName(), d.columnSize(),
                    d.decimalDigits(), d.numPrecRadix(), nullable, d.charOctetLength(), ordinalPosition, isNullable, column);
        }

        @Override
        public Class<? extends MetaColumn> getMetaColumnClass() {
            return DescribedColumn.class;
        }
    };

    /** Calcite's full name of an instant type: the precision, then NOT NULL or nothing. */
    private static final Pattern INSTANT_TYPE = Pattern.compile(Pattern.quote(ParameterValues.INSTANT) + "(\\(\\d+\\))?.*");

    static ResultSetMetaData of(ResultSetMetaData metaData) {
        if (metaData == null) {
            return null;
        }
        return (ResultSetMetaData) Proxy.newProxyInstance(InstantMetaData.class.getClassLoader(),
                new Class<?>[]{ResultSetMetaData.class}, (proxy, method, args) -> {
                    String name = method.getName();
                    if ((name.equals("getColumnType") || name.equals("getColumnTypeName") || name.equals("getColumnClassName"))
                            && args.length == 1 && ParameterValues.INSTANT.equals(metaData.getColumnTypeName((Integer) args[0]))) {
                        // the class is what getObject gives for the column (JDBC 4.2: an OffsetDateTime)
                        return switch (name) {
                            case "getColumnType" -> Types.TIMESTAMP_WITH_TIMEZONE;
                            case "getColumnClassName" -> java.time.OffsetDateTime.class.getName();
                            default -> TYPE_NAME;
                        };
                    }
                    try {
                        return method.invoke(metaData, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
