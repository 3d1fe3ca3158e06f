package io.numacol.storage.types;

import java.sql.Date;
import java.sql.JDBCType;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

/** DATE: stored as the epoch day (days since 1970-01-01, {@link LocalDate#toEpochDay()}), read back as a LocalDate. */
public final class DateCodec implements StoredAsLong {
    public static final DateCodec INSTANCE = new DateCodec();

    /** 0001-01-01 and 9999-12-31 as epoch days: the DATE range. */
    private static final long MIN_EPOCH_DAY = -719_162L;
    private static final long MAX_EPOCH_DAY = 2_932_896L;

    private DateCodec() {
    }

    /** Whether {@code epochDay} is a DATE of the years 1 to 9999. */
    public static boolean isEpochDay(long epochDay) {
        return epochDay >= MIN_EPOCH_DAY && epochDay <= MAX_EPOCH_DAY;
    }

    /**
     * {@code epochDay}, computed by date arithmetic, if it is a DATE of the years 1 to 9999;
     * else a DateTimeException (SQLSTATE 22008): {@code DATE '9999-12-31' + INTERVAL '1' DAY}
     * must fail, not become year 10000 or wrap to year 0.
     */
    public static long inRange(long epochDay) {
        if (!isEpochDay(epochDay)) {
            throw new DateTimeException("date out of range: " + LocalDate.ofEpochDay(epochDay) + " (a DATE holds the years 1 to 9999)");
        }
        return epochDay;
    }

    @Override
    public String name() {
        return "DATE";
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.DATE;
    }

    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return text.strip();
    }

    /** A LocalDate, java.sql.Date or an ISO String yyyy-mm-dd. */
    @Override
    public long toLong(ColumnType type, Object value, ZoneId zone) {
        LocalDate date = switch (value) {
            case LocalDate d -> d;
            case Date d -> d.toLocalDate();
            case String s -> {
                try {
                    yield LocalDate.parse(s);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException(Describe.value(s) + " is not a valid DATE (expected yyyy-mm-dd): "
                            + e.getMessage(), e);
                }
            }
            default -> throw ValueErrors.wrongType(type, value, "a LocalDate, java.sql.Date or an ISO date String yyyy-mm-dd");
        };
        return date.toEpochDay();
    }

    /** A LocalDate. */
    @Override
    public Object toJava(ColumnType type, long stored) {
        try {
            return LocalDate.ofEpochDay(stored);
        } catch (DateTimeException e) {
            throw ValueErrors.badStored(type, stored, "an epoch day within LocalDate's range");
        }
    }

    /** The epoch day in an Integer. */
    @Override
    public Object internal(ColumnType type, long stored) {
        return (int) stored;
    }

    @Override
    public Object fromInternal(Object internal) {
        return internal instanceof Integer days ? LocalDate.ofEpochDay(days) : internal;
    }
}
