package io.numacol.storage.types;

import java.sql.JDBCType;
import java.sql.Time;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

/**
 * TIME(p) (also WITHOUT TIME ZONE), 0 &lt;= p &lt;= 3 (3 when left out): a time of day without a
 * time zone, stored as milliseconds since midnight, as Calcite computes with them; inputs are
 * rounded half up to p fraction digits, and one that rounds up to 24:00 is out of range. Read
 * back as a LocalTime.
 */
public final class TimeCodec implements StoredAsLong {
    public static final TimeCodec INSTANCE = new TimeCodec();

    /** Why TIME WITH TIME ZONE is refused, in DDL and in queries. */
    public static final String WITH_TIME_ZONE_REFUSED = "TIME WITH TIME ZONE is not supported: a time of day with an"
            + " offset but no date cannot follow daylight saving; use TIMESTAMP WITH TIME ZONE, or TIME";

    /** The milliseconds of a day: TIME values are below. */
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private TimeCodec() {
    }

    @Override
    public String name() {
        return "TIME";
    }

    @Override
    public TypeParameters parameters() {
        return TypeParameters.FRACTION_DIGITS;
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.TIME;
    }

    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return text.strip();
    }

    /** A LocalTime, java.sql.Time, or a String hh:mm[:ss[.fraction]]. */
    @Override
    public long toLong(ColumnType type, Object value, ZoneId zone) {
        LocalTime time = switch (value) {
            case LocalTime t -> t;
            case Time t -> t.toLocalTime().withNano((int) Math.floorMod(t.getTime(), 1000L) * 1_000_000);
            case String s -> {
                try {
                    yield LocalTime.parse(s.strip());
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException(Describe.value(s) + " is not a valid TIME (expected hh:mm[:ss[.fraction]]): "
                            + e.getMessage(), e);
                }
            }
            default -> throw ValueErrors.wrongType(type, value, "a LocalTime, java.sql.Time or a String hh:mm[:ss[.fraction]]");
        };
        long unitNanos = TimestampCodec.unitNanos(type.precision());
        long nanos = (time.toNanoOfDay() + unitNanos / 2) / unitNanos * unitNanos;
        long millis = nanos / 1_000_000;
        if (millis >= MILLIS_PER_DAY) {
            throw ValueErrors.outOfRange(type, value); // rounds up to 24:00, which is no time of day
        }
        return millis;
    }

    /** A LocalTime. */
    @Override
    public Object toJava(ColumnType type, long stored) {
        if (stored < 0 || stored >= MILLIS_PER_DAY) {
            throw ValueErrors.badStored(type, stored, "milliseconds of a day");
        }
        return LocalTime.ofNanoOfDay(stored * 1_000_000);
    }

    /** The milliseconds of the day in an Integer. */
    @Override
    public Object internal(ColumnType type, long stored) {
        return (int) stored;
    }

    @Override
    public Object fromInternal(Object internal) {
        return internal instanceof Integer millis ? LocalTime.ofNanoOfDay(millis * 1_000_000L) : internal;
    }
}
