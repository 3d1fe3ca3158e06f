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
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Calendar;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.function.Function;

/**
 * The result set a user of the driver reads: Calcite's, with what JDBC 4.2 adds that Avatica
 * lacks. {@code getObject(column, type)} converts to the classes JDBC names (Avatica converts to
 * none: it fails for {@code Integer.class} as for {@code LocalDate.class}), {@code getObject} of
 * a TIMESTAMP WITH TIME ZONE is its OffsetDateTime in the session's zone, as JDBC 4.2's table B-3
 * says, and {@code getStatement()} is the statement the user holds. It scrolls and changes
 * nothing ({@link ForwardOnlyResultSet}), unless its statement asked for one that scrolls
 * ({@link ScrollInsensitiveResultSet}).
 */
sealed class NumacolResultSet extends ForwardOnlyResultSet permits ScrollInsensitiveResultSet {
    /** The user's statement, or null to ask Calcite's result set (metadata result sets). */
    private final Statement statement;
    private ResultSetMetaData metaData;
    /** Per column (1-based), {@link #SECONDS_INTERVAL}, {@link #INSTANT}, {@link #WALL_CLOCK}, {@link #TIME_OF_DAY} or 0; made on first use. */
    private byte[] specials;
    /** The session's zone, in which instants are shown; read on first use. */
    private ZoneId zone;
    /** A UTC calendar, through which Avatica gives an instant's milliseconds unshifted; this result set's own (a Calendar is mutable). */
    private final Calendar utc = Calendar.getInstance(TimeZone.getTimeZone(ZoneOffset.UTC), Locale.ROOT);

    private static final byte SECONDS_INTERVAL = 1;
    /** A TIMESTAMP WITH TIME ZONE: Avatica would show its UTC wall clock and read it as the JVM's local time. */
    private static final byte INSTANT = 2;
    /** A TIMESTAMP: a wall clock, an instant only in a zone (the session's). */
    private static final byte WALL_CLOCK = 3;
    /** A TIME: a time of day, an OffsetTime only at an offset (the session zone's today). */
    private static final byte TIME_OF_DAY = 4;

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
     * Date, Time, Timestamp), the java.time classes of its tables B-4 and B-5 (LocalDate,
     * LocalTime and LocalDateTime; OffsetDateTime, Instant and ZonedDateTime of a TIMESTAMP
     * WITH TIME ZONE, and of a TIMESTAMP in the session's zone; OffsetTime of a TIME at the
     * session zone's offset today), Duration for an interval of days to seconds and Period for one
     * of years and months, or Object; null for NULL. Times and timestamps go by their text, not by
     * {@code java.sql} values, which pass through the JVM's zone and lose a wall-clock time that
     * does not exist there (a DST gap) and TIME's milliseconds. A value that cannot be had as
     * {@code type} is an SQLException of SQLSTATE 22018 naming the column, its type and the class.
     */
    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw new SQLException("getObject(" + columnIndex + ", null): name a class to convert to", "HY009");
        }
        Object raw = getObject(columnIndex);
        if (raw == null) {
            return null; // before any getter: Avatica's check the column's type even for a NULL
        }
        Object value;
        try {
            value = converted(columnIndex, type, raw);
        } catch (SQLException e) {
            if (e.getSQLState() != null) {
                throw e;
            }
            throw cannotConvert(columnIndex, type, "'" + delegate.getString(columnIndex) + "' (" + e.getMessage() + ")", e);
        } catch (RuntimeException e) { // a getter's NumberFormatException, ArithmeticException...
            throw cannotConvert(columnIndex, type, "'" + delegate.getString(columnIndex) + "' (" + e + ")", e);
        }
        return type.cast(value);
    }

    private Object converted(int columnIndex, Class<?> type, Object raw) throws SQLException {
        byte special = special(columnIndex);
        if (special == INSTANT) {
            return fromInstant(columnIndex, type, instant("getObject", columnIndex));
        }
        if (special == WALL_CLOCK && (type == Instant.class || type == OffsetDateTime.class || type == ZonedDateTime.class)) {
            LocalDateTime wall = (LocalDateTime) parsed(columnIndex, type, NumacolResultSet::localDateTime);
            // the later offset in a repeated hour, as a CAST to TIMESTAMP WITH TIME ZONE takes it
            return fromInstant(columnIndex, type, wall.atZone(zone()).withLaterOffsetAtOverlap().toInstant());
        }
        if (special == TIME_OF_DAY && type == OffsetTime.class) {
            LocalTime time = (LocalTime) parsed(columnIndex, type, LocalTime::parse);
            return time.atOffset(zone().getRules().getOffset(Instant.now()));
        }
        if (type == String.class) {
            return getString(columnIndex);
        } else if (type == BigDecimal.class) {
            return getBigDecimal(columnIndex);
        } else if (type == BigInteger.class) {
            return exact(getBigDecimal(columnIndex), columnIndex);
        } else if (type == Boolean.class) {
            return getBoolean(columnIndex);
        } else if (type == Byte.class) {
            return getByte(columnIndex);
        } else if (type == Short.class) {
            return getShort(columnIndex);
        } else if (type == Integer.class) {
            return getInt(columnIndex);
        } else if (type == Long.class) {
            return getLong(columnIndex);
        } else if (type == Float.class) {
            return getFloat(columnIndex);
        } else if (type == Double.class) {
            return getDouble(columnIndex);
        } else if (type == byte[].class) {
            return getBytes(columnIndex);
        } else if (type == Date.class) {
            return getDate(columnIndex);
        } else if (type == Time.class) {
            return getTime(columnIndex);
        } else if (type == Timestamp.class) {
            return getTimestamp(columnIndex);
        } else if (type == LocalDate.class) {
            return parsed(columnIndex, type, s -> LocalDate.parse(s.length() > 10 ? s.substring(0, 10) : s));
        } else if (type == LocalTime.class) {
            return parsed(columnIndex, type, s -> LocalTime.parse(special == WALL_CLOCK ? s.substring(s.indexOf(' ') + 1) : s));
        } else if (type == Duration.class && raw instanceof Long millis && dayTimeInterval(columnIndex)) {
            return Duration.ofMillis(millis);
        } else if (type == Period.class && raw instanceof Integer months && intervalType(columnIndex).startsWith("INTERVAL_")) {
            return Period.ofMonths(months).normalized();
        } else if (type == LocalDateTime.class) {
            return parsed(columnIndex, type, NumacolResultSet::localDateTime);
        } else if (!type.isInstance(raw)) {
            throw cannotConvert(columnIndex, type, "a " + raw.getClass().getSimpleName(), null);
        }
        return raw;
    }

    /** An instant as {@code type}: in the session's zone where the class has a zone or is local. */
    private Object fromInstant(int columnIndex, Class<?> type, Instant instant) throws SQLException {
        if (type == Instant.class) {
            return instant;
        } else if (type == OffsetDateTime.class || type == Object.class) {
            return instant.atZone(zone()).toOffsetDateTime();
        } else if (type == ZonedDateTime.class) {
            return instant.atZone(zone());
        } else if (type == LocalDateTime.class) {
            return LocalDateTime.ofInstant(instant, zone());
        } else if (type == LocalDate.class) {
            return LocalDate.ofInstant(instant, zone());
        } else if (type == LocalTime.class) {
            return LocalTime.ofInstant(instant, zone());
        } else if (type == Timestamp.class) {
            return Timestamp.from(instant);
        } else if (type == String.class) {
            return getString(columnIndex);
        }
        throw cannotConvert(columnIndex, type, "an instant", null);
    }

    /** A date's or timestamp's text as its LocalDateTime (a date at its start). */
    private static LocalDateTime localDateTime(String s) {
        return s.length() == 10 ? LocalDate.parse(s).atStartOfDay() : LocalDateTime.parse(s.replace(' ', 'T'));
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
            Instant instant = instant("getString", columnIndex);
            return instant == null ? null : TimeCasts.ZONED_TEXT.format(instant.atZone(zone()));
        }
        ResultSet row = row("getString");
        String text = row.getString(columnIndex);
        if (text == null || special != SECONDS_INTERVAL || !(row.getObject(columnIndex) instanceof Long millis)) {
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
     * An instant as its OffsetDateTime in the session's zone, as JDBC 4.2 maps TIMESTAMP WITH TIME
     * ZONE (Avatica's would be its UTC wall clock read in the session's zone as a Timestamp).
     */
    @Override
    public Object getObject(int columnIndex) throws SQLException {
        if (special(columnIndex) != INSTANT) {
            return row("getObject").getObject(columnIndex);
        }
        Instant instant = instant("getObject", columnIndex);
        return instant == null ? null : instant.atZone(zone()).toOffsetDateTime();
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    /** With the connection's type map, which is empty (numacol has no user-defined types): {@link #getObject(int)}. */
    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw new SQLFeatureNotSupportedException("ResultSet.getObject(column, map): numacol has no user-defined types to map;"
                    + " give an empty map or none", "0A000");
        }
        return getObject(columnIndex);
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(columnLabel), map);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        if (special(columnIndex) != INSTANT) {
            return row("getTimestamp").getTimestamp(columnIndex);
        }
        Instant instant = instant("getTimestamp", columnIndex);
        return instant == null ? null : Timestamp.from(instant);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    /** An instant needs no calendar: the same Timestamp whatever {@code cal} says. */
    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        return special(columnIndex) == INSTANT ? getTimestamp(columnIndex) : row("getTimestamp").getTimestamp(columnIndex, cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(columnLabel), cal);
    }

    /** The instant Calcite holds as epoch milliseconds, which Avatica gives back unshifted through a UTC calendar. */
    private Instant instant(String method, int columnIndex) throws SQLException {
        Timestamp raw = row(method).getTimestamp(columnIndex, utc);
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
                        : type.equals(ParameterValues.INSTANT) ? INSTANT : type.equals("TIMESTAMP") ? WALL_CLOCK
                        : type.equals("TIME") ? TIME_OF_DAY : 0;
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
        } catch (DateTimeParseException | StringIndexOutOfBoundsException e) {
            throw cannotConvert(columnIndex, type, "'" + text + "'", e);
        }
    }

    private static BigInteger exact(BigDecimal d, int columnIndex) throws SQLException {
        try {
            return d.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new SQLException("column " + columnIndex + ": " + d + " is not a whole number, so no BigInteger", "22018", e);
        }
    }

    /** 22018, the SQL standard's invalid character value for cast, naming the column, its type, the value and the class. */
    private SQLException cannotConvert(int columnIndex, Class<?> type, String what, Throwable cause) throws SQLException {
        String column = getMetaData().getColumnLabel(columnIndex);
        String sqlType = getMetaData().getColumnTypeName(columnIndex);
        return new SQLException("column " + columnIndex + " (" + column + ", " + sqlType + "): cannot convert " + what
                + " to " + type.getName(), "22018", cause);
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
