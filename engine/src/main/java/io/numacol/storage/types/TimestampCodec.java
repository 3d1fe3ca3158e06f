package io.numacol.storage.types;

import java.sql.JDBCType;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.List;

/**
 * TIMESTAMP(p) (or DATETIME, and either WITHOUT TIME ZONE), 0 &lt;= p &lt;= 3 (3 when left out):
 * a date and time of day without a time zone, stored as milliseconds since 1970-01-01 00:00
 * read as UTC, as Calcite computes with them; inputs are rounded half up to p fraction digits;
 * years 1 to 9999. Read back as a LocalDateTime.
 */
public final class TimestampCodec implements StoredAsLong {
    public static final TimestampCodec INSTANCE = new TimestampCodec();

    /** The largest precision of a TIMESTAMP or TIME: values are kept to the millisecond, as Calcite computes with them. */
    public static final int MAX_PRECISION = 3;
    /** 0001-01-01 00:00 and 9999-12-31 23:59:59.999 as epoch milliseconds: the TIMESTAMP range. */
    static final long MIN_MILLIS = -62_135_596_800_000L;
    static final long MAX_MILLIS = 253_402_300_799_999L;

    private TimestampCodec() {
    }

    /** {@code millis}, computed by timestamp arithmetic, if it is a TIMESTAMP of the years 1 to 9999 (see {@link DateCodec#inRange}). */
    public static long inRange(long millis) {
        if (millis < MIN_MILLIS || millis > MAX_MILLIS) {
            throw new DateTimeException("timestamp out of range: " + Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC)
                    .toLocalDateTime() + " (a TIMESTAMP holds the years 1 to 9999)");
        }
        return millis;
    }

    /** A TIMESTAMP's epoch milliseconds (its wall clock read as UTC, as numacol and Calcite keep it) as a LocalDateTime. */
    public static LocalDateTime wallClock(long epochMilli) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(epochMilli, 1000L), (int) Math.floorMod(epochMilli, 1000L) * 1_000_000,
                ZoneOffset.UTC);
    }

    @Override
    public String name() {
        return "TIMESTAMP";
    }

    @Override
    public List<String> aliases() {
        return List.of("DATETIME");
    }

    @Override
    public TypeParameters parameters() {
        return TypeParameters.FRACTION_DIGITS;
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.TIMESTAMP;
    }

    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return text.strip();
    }

    /** yyyy-mm-dd hh:mm[:ss[.fraction]], with the space SQL writes between the date and the time. */
    @Override
    public String toText(ColumnType type, Object value) {
        return value.toString().replace('T', ' ');
    }

    /**
     * A LocalDateTime, java.sql.Timestamp as its wall-clock time, LocalDate as its midnight, or a
     * String yyyy-mm-dd hh:mm:ss[.fraction], with a space or T, or yyyy-mm-dd.
     */
    @Override
    public long toLong(ColumnType type, Object value, ZoneId zone) {
        LocalDateTime time = switch (value) {
            case LocalDateTime t -> t;
            case Timestamp t -> t.toLocalDateTime();
            case LocalDate d -> d.atStartOfDay();
            case String s -> parse(s);
            default -> throw ValueErrors.wrongType(type, value,
                    "a LocalDateTime, java.sql.Timestamp, LocalDate or a String yyyy-mm-dd hh:mm:ss[.fraction]");
        };
        return roundedMillis(type, time.toEpochSecond(ZoneOffset.UTC), time.get(ChronoField.NANO_OF_SECOND), value);
    }

    /** A LocalDateTime. */
    @Override
    public Object toJava(ColumnType type, long stored) {
        if (stored < MIN_MILLIS || stored > MAX_MILLIS) {
            throw ValueErrors.badStored(type, stored, "epoch milliseconds of a time in the years 1 to 9999");
        }
        return wallClock(stored);
    }

    @Override
    public Object fromInternal(Object internal) {
        return internal instanceof Long millis ? wallClock(millis) : internal;
    }

    /** Nanoseconds of one unit of the last of {@code precision} fraction digits of a second. */
    static long unitNanos(int precision) {
        return DecimalCodec.powerOfTen(9 - precision);
    }

    /**
     * Seconds and nanoseconds since the epoch as milliseconds, the nanoseconds rounded half up to
     * the precision (as PostgreSQL does, and Calcite for a literal), in the years 1 to 9999.
     */
    static long roundedMillis(ColumnType type, long epochSecond, int nanoOfSecond, Object value) {
        long unitNanos = unitNanos(type.precision());
        long nanos = (nanoOfSecond + unitNanos / 2) / unitNanos * unitNanos;
        long millis;
        try {
            millis = Math.addExact(Math.multiplyExact(epochSecond, 1000L), nanos / 1_000_000);
        } catch (ArithmeticException e) {
            throw ValueErrors.outOfRange(type, value);
        }
        if (millis < MIN_MILLIS || millis > MAX_MILLIS) {
            throw ValueErrors.outOfRange(type, value);
        }
        return millis;
    }

    /** yyyy-mm-dd hh:mm:ss[.fraction] with a space or T, or yyyy-mm-dd, as a LocalDateTime. */
    static LocalDateTime parse(String s) {
        String t = s.strip();
        try {
            if (t.length() == 10) {
                return LocalDate.parse(t).atStartOfDay();
            }
            if (t.length() > 10 && t.charAt(10) == ' ') {
                t = t.substring(0, 10) + 'T' + t.substring(11);
            }
            return LocalDateTime.parse(t);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(Describe.value(s) + " is not a valid TIMESTAMP (expected yyyy-mm-dd hh:mm:ss"
                    + "[.fraction]): " + e.getMessage(), e);
        }
    }
}
