package io.numacol.jdbc;

import io.numacol.calcite.PrepareContexts;
import io.numacol.calcite.dml.TimeCasts;
import org.apache.calcite.jdbc.CalciteConnection;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Calendar;
import java.util.Locale;
import java.util.TimeZone;
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
    private ResultSetMetaData metaData;
    /** Per column (1-based), {@link #SECONDS_INTERVAL}, {@link #INSTANT} or 0; made on first use. */
    private byte[] specials;
    /** The session's zone, in which instants are shown; read on first use. */
    private ZoneId zone;
    /** A UTC calendar, through which Avatica gives an instant's milliseconds unshifted; this result set's own (a Calendar is mutable). */
    private final Calendar utc = Calendar.getInstance(TimeZone.getTimeZone(ZoneOffset.UTC), Locale.ROOT);

    private static final byte SECONDS_INTERVAL = 1;
    /** A TIMESTAMP WITH TIME ZONE: Avatica would show its UTC wall clock and read it as the JVM's local time. */
    private static final byte INSTANT = 2;

    NumacolResultSet(ResultSet delegate, Statement statement) {
        super(delegate);
        this.statement = statement;
    }

    /** The columns' metadata, an instant's type named as JDBC and DuckDB name it (see {@link InstantMetaData}). */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        if (metaData == null) {
            metaData = InstantMetaData.of(delegate.getMetaData());
        }
        return metaData;
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
     * Date, Time, Timestamp), LocalDate, LocalTime and LocalDateTime, Duration for an interval of
     * days to seconds and Period for one of years and months, or Object; null for NULL.
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
        if (special(columnIndex) == INSTANT) {
            Instant instant = instant(columnIndex);
            if (type == Instant.class) {
                value = instant;
            } else if (type == OffsetDateTime.class) {
                value = instant.atZone(zone()).toOffsetDateTime();
            } else if (type == ZonedDateTime.class) {
                value = instant.atZone(zone());
            } else if (type == LocalDateTime.class) {
                value = LocalDateTime.ofInstant(instant, zone());
            } else if (type == LocalDate.class) {
                value = LocalDate.ofInstant(instant, zone());
            } else if (type == Timestamp.class || type == Object.class) {
                value = Timestamp.from(instant);
            } else if (type == String.class) {
                value = getString(columnIndex);
            } else {
                throw cannotConvert(columnIndex, type, "an instant");
            }
        } else if (type == String.class) {
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
        } else if (type == Duration.class && raw instanceof Long millis && dayTimeInterval(columnIndex)) {
            value = Duration.ofMillis(millis);
        } else if (type == Period.class && raw instanceof Integer months && intervalType(columnIndex).startsWith("INTERVAL_")) {
            value = Period.ofMonths(months).normalized();
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

    /**
     * The value as text; an interval ending in seconds with its milliseconds, which Avatica's text
     * drops ({@code +0 13:59:59.000000} for 13:59:59.5): as {@code +d hh:mm:ss.fff}, with the
     * fields of its type.
     */
    @Override
    public String getString(int columnIndex) throws SQLException {
        byte special = special(columnIndex);
        if (special == INSTANT) {
            Instant instant = instant(columnIndex);
            return instant == null ? null : TimeCasts.ZONED_TEXT.format(instant.atZone(zone()));
        }
        String text = delegate.getString(columnIndex);
        if (text == null || special != SECONDS_INTERVAL || !(delegate.getObject(columnIndex) instanceof Long millis)) {
            return text;
        }
        long abs = Math.abs(millis);
        String fraction = String.format(Locale.ROOT, "%02d.%03d", abs / 1000 % 60, abs % 1000);
        String sign = millis < 0 ? "-" : "+";
        return switch (intervalType(columnIndex)) {
            case "INTERVAL_SECOND" -> String.format(Locale.ROOT, "%s%d.%03d", sign, abs / 1000, abs % 1000);
            case "INTERVAL_MINUTE_TO_SECOND" -> String.format(Locale.ROOT, "%s%d:%s", sign, abs / 60_000, fraction);
            case "INTERVAL_HOUR_TO_SECOND" -> String.format(Locale.ROOT, "%s%d:%02d:%s", sign, abs / 3_600_000, abs / 60_000 % 60, fraction);
            default -> String.format(Locale.ROOT, "%s%d %02d:%02d:%s", sign, abs / 86_400_000, abs / 3_600_000 % 24,
                    abs / 60_000 % 60, fraction);
        };
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    /**
     * An instant as a java.sql.Timestamp, which JDBC defines as one (Avatica's would be its UTC
     * wall clock read in the session's zone).
     */
    @Override
    public Object getObject(int columnIndex) throws SQLException {
        return special(columnIndex) == INSTANT ? getTimestamp(columnIndex) : delegate.getObject(columnIndex);
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        if (special(columnIndex) != INSTANT) {
            return delegate.getTimestamp(columnIndex);
        }
        Instant instant = instant(columnIndex);
        return instant == null ? null : Timestamp.from(instant);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    /** An instant needs no calendar: the same Timestamp whatever {@code cal} says. */
    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        return special(columnIndex) == INSTANT ? getTimestamp(columnIndex) : delegate.getTimestamp(columnIndex, cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(columnLabel), cal);
    }

    /** The instant Calcite holds as epoch milliseconds, which Avatica gives back unshifted through a UTC calendar. */
    private Instant instant(int columnIndex) throws SQLException {
        Timestamp raw = delegate.getTimestamp(columnIndex, utc);
        return raw == null ? null : Instant.ofEpochMilli(raw.getTime());
    }

    private ZoneId zone() throws SQLException {
        if (zone == null) {
            zone = PrepareContexts.zone(delegate.getStatement().getConnection().unwrap(CalciteConnection.class).config());
        }
        return zone;
    }

    /** What a column needs beyond Avatica's getters, from the metadata once per result set (getString is a hot path). */
    private byte special(int columnIndex) throws SQLException {
        if (specials == null) {
            int n = delegate.getMetaData().getColumnCount();
            byte[] kinds = new byte[n + 1];
            for (int i = 1; i <= n; i++) {
                String type = intervalType(i);
                kinds[i] = type.startsWith("INTERVAL_") && type.endsWith("SECOND") ? SECONDS_INTERVAL
                        : type.equals(ParameterValues.INSTANT) ? INSTANT : 0;
            }
            specials = kinds;
        }
        return columnIndex > 0 && columnIndex < specials.length ? specials[columnIndex] : 0;
    }

    /** The column's type name as Avatica gives it, such as INTERVAL_DAY_TO_SECOND. */
    private String intervalType(int columnIndex) throws SQLException {
        return delegate.getMetaData().getColumnTypeName(columnIndex);
    }

    /** Whether the column is an interval of days, hours, minutes and seconds (held as milliseconds). */
    private boolean dayTimeInterval(int columnIndex) throws SQLException {
        String type = intervalType(columnIndex);
        return type.startsWith("INTERVAL_") && !type.contains("YEAR") && !type.contains("MONTH");
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
