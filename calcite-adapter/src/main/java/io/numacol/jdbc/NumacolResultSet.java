package io.numacol.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.function.Function;

/**
 * The result set a user of the driver reads: Calcite's, with what JDBC 4.2 adds that Avatica
 * lacks. {@code getObject(column, type)} converts to the classes JDBC names (Avatica converts to
 * none: it fails for {@code Integer.class} as for {@code LocalDate.class}), and {@code
 * getStatement()} is the statement the user holds.
 */
final class NumacolResultSet extends ForwardingResultSet {
    /** The user's statement, or null to ask Calcite's result set (metadata result sets). */
    private final Statement statement;

    NumacolResultSet(ResultSet delegate, Statement statement) {
        super(delegate);
        this.statement = statement;
    }

    @Override
    public Statement getStatement() throws SQLException {
        return statement != null ? statement : delegate.getStatement();
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    /**
     * The value of a column as {@code type}: any class JDBC 4.2's table B-6 maps a SQL type to
     * (String, BigDecimal, BigInteger, Boolean, Byte, Short, Integer, Long, Float, Double, byte[],
     * Date, Time, Timestamp), LocalDate, LocalTime and LocalDateTime, or Object; null for NULL.
     * Times and timestamps go by their text, not by {@code java.sql} values, which pass through the
     * JVM's zone and lose a wall-clock time that does not exist there (a DST gap) and TIME's
     * milliseconds.
     */
    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw new SQLException("getObject(" + columnIndex + ", null): name a class to convert to");
        }
        Object raw = getObject(columnIndex);
        if (raw == null) {
            return null; // before any getter: Avatica's check the column's type even for a NULL
        }
        Object value;
        if (type == String.class) {
            value = getString(columnIndex);
        } else if (type == BigDecimal.class) {
            value = getBigDecimal(columnIndex);
        } else if (type == BigInteger.class) {
            value = exact(getBigDecimal(columnIndex), columnIndex);
        } else if (type == Boolean.class) {
            value = getBoolean(columnIndex);
        } else if (type == Byte.class) {
            value = getByte(columnIndex);
        } else if (type == Short.class) {
            value = getShort(columnIndex);
        } else if (type == Integer.class) {
            value = getInt(columnIndex);
        } else if (type == Long.class) {
            value = getLong(columnIndex);
        } else if (type == Float.class) {
            value = getFloat(columnIndex);
        } else if (type == Double.class) {
            value = getDouble(columnIndex);
        } else if (type == byte[].class) {
            value = getBytes(columnIndex);
        } else if (type == Date.class) {
            value = getDate(columnIndex);
        } else if (type == Time.class) {
            value = getTime(columnIndex);
        } else if (type == Timestamp.class) {
            value = getTimestamp(columnIndex);
        } else if (type == LocalDate.class) {
            value = parsed(columnIndex, type, s -> LocalDate.parse(s.length() > 10 ? s.substring(0, 10) : s));
        } else if (type == LocalTime.class) {
            value = parsed(columnIndex, type, LocalTime::parse);
        } else if (type == LocalDateTime.class) {
            value = parsed(columnIndex, type, s -> s.length() == 10 ? LocalDate.parse(s).atStartOfDay()
                    : LocalDateTime.parse(s.replace(' ', 'T')));
        } else {
            if (!type.isInstance(raw)) {
                throw cannotConvert(columnIndex, type, raw.getClass().getName());
            }
            value = raw;
        }
        return type.cast(value);
    }

    /** A date or time read from its text, which Avatica writes from the stored value as it is. */
    private Object parsed(int columnIndex, Class<?> type, Function<String, Object> parser) throws SQLException {
        String text = getString(columnIndex);
        try {
            return parser.apply(text);
        } catch (DateTimeParseException e) {
            throw cannotConvert(columnIndex, type, "'" + text + "'");
        }
    }

    private static BigInteger exact(BigDecimal d, int columnIndex) throws SQLException {
        try {
            return d.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new SQLException("column " + columnIndex + ": " + d + " is not a whole number, so no BigInteger");
        }
    }

    private SQLException cannotConvert(int columnIndex, Class<?> type, String what) throws SQLException {
        String column = getMetaData().getColumnLabel(columnIndex);
        String sqlType = getMetaData().getColumnTypeName(columnIndex);
        return new SQLException("column " + columnIndex + " (" + column + ", " + sqlType + "): cannot convert " + what
                + " to " + type.getName());
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(this) ? iface.cast(this) : delegate.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || delegate.isWrapperFor(iface);
    }
}
