package io.numacol.storage.types;

import java.sql.JDBCType;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TIMESTAMP(p) WITH TIME ZONE (or TIMESTAMPTZ): an instant, stored as milliseconds since
 * 1970-01-01 00:00 UTC, rounded as a TIMESTAMP; years 1 to 9999 in UTC. No zone is kept: a value
 * is shown in the reader's zone (PostgreSQL's and DuckDB's timestamptz). Inputs without an offset
 * are read in the zone the caller names, UTC where it names none. Read back as an Instant; to
 * Calcite it is a TIMESTAMP WITH LOCAL TIME ZONE (epoch milliseconds, shown in the session's zone).
 */
public final class TimestampTzCodec implements StoredAsLong {
    public static final TimestampTzCodec INSTANCE = new TimestampTzCodec();

    /**
     * The zone at the end of a TIMESTAMP WITH TIME ZONE's text: group 1 the date and time, group 2
     * an offset ({@code Z}, {@code +01}, {@code -05:30}, {@code +0530}), group 3 a zone name ({@code UTC},
     * {@code Europe/Berlin}) after a blank.
     */
    private static final Pattern ZONE_SUFFIX = Pattern.compile(
            "(.*?\\d)\\s*(?:(Z|[+-]\\d{1,2}(?::?\\d{2}){0,2})|\\s([A-Za-z][A-Za-z0-9_/+-]*))");

    private TimestampTzCodec() {
    }

    @Override
    public String name() {
        return "TIMESTAMP WITH TIME ZONE";
    }

    @Override
    public List<String> aliases() {
        return List.of("TIMESTAMPTZ");
    }

    @Override
    public TypeParameters parameters() {
        return TypeParameters.FRACTION_DIGITS;
    }

    @Override
    public String spell(ColumnType type) {
        return "TIMESTAMP(" + type.precision() + ") WITH TIME ZONE";
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.TIMESTAMP_WITH_TIMEZONE;
    }

    @Override
    public String calciteTypeName() {
        return "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
    }

    /** The Instant, a text without an offset read in {@code zone}. */
    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return Instant.ofEpochMilli(toLong(type, text.strip(), zone));
    }

    /**
     * An Instant, OffsetDateTime, ZonedDateTime, java.sql.Timestamp (an instant, as JDBC has it),
     * or a LocalDateTime, LocalDate or String {@code yyyy-mm-dd hh:mm:ss[.fraction]} read in
     * {@code zone} unless the String ends in an offset ({@code Z}, {@code +01}, {@code -05:30}) or
     * a zone name ({@code UTC}, {@code America/New_York}). A wall-clock time that daylight saving
     * skips moves forward by the gap, one it repeats is the later instant (standard time), as
     * DuckDB and PostgreSQL read them.
     */
    @Override
    public long toLong(ColumnType type, Object value, ZoneId zone) {
        Instant instant = switch (value) {
            case Instant i -> i;
            case OffsetDateTime t -> t.toInstant();
            case ZonedDateTime t -> t.toInstant();
            case Timestamp t -> t.toInstant();
            case LocalDateTime t -> t.atZone(zone).withLaterOffsetAtOverlap().toInstant();
            case LocalDate d -> d.atStartOfDay(zone).withLaterOffsetAtOverlap().toInstant();
            case String s -> parseInstant(s, zone);
            default -> throw ValueErrors.wrongType(type, value, "an Instant, OffsetDateTime, ZonedDateTime, java.sql.Timestamp,"
                    + " LocalDateTime or a String yyyy-mm-dd hh:mm:ss[.fraction][offset]");
        };
        return TimestampCodec.roundedMillis(type, instant.getEpochSecond(), instant.getNano(), value);
    }

    /** An Instant. */
    @Override
    public Object toJava(ColumnType type, long stored) {
        if (stored < TimestampCodec.MIN_MILLIS || stored > TimestampCodec.MAX_MILLIS) {
            throw ValueErrors.badStored(type, stored, "epoch milliseconds of an instant in the years 1 to 9999");
        }
        return Instant.ofEpochMilli(stored);
    }

    @Override
    public Object fromInternal(Object internal) {
        return internal instanceof Long millis ? Instant.ofEpochMilli(millis) : internal;
    }

    private static Instant parseInstant(String s, ZoneId zone) {
        String t = s.strip();
        Matcher m = ZONE_SUFFIX.matcher(t);
        ZoneId at = zone;
        // a date alone ends in a digit group that reads as an offset (2024-01-05 is 2024-01 at -05)
        if (t.length() > 10 && m.matches()) {
            t = m.group(1);
            String name = m.group(2) != null ? m.group(2) : m.group(3);
            try {
                at = m.group(2) != null ? ZoneOffset.of(offsetText(name)) : ZoneId.of(name);
            } catch (DateTimeException e) {
                throw new IllegalArgumentException(Describe.value(s) + " has no valid time zone: " + name
                        + " (expected an offset such as +01, -05:30 or Z, or a zone name such as UTC or Europe/Berlin)", e);
            }
        }
        try {
            return TimestampCodec.parse(t).atZone(at).withLaterOffsetAtOverlap().toInstant();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Describe.value(s) + " is not a valid TIMESTAMP WITH TIME ZONE (expected"
                    + " yyyy-mm-dd hh:mm:ss[.fraction] and an offset such as +01 or a zone name, or none for "
                    + zone.getId() + ")", e);
        }
    }

    /** {@code +1} and {@code +0530} as ZoneOffset reads them ({@code +01}, {@code +05:30}). */
    private static String offsetText(String offset) {
        if (offset.equals("Z")) {
            return offset;
        }
        String digits = offset.substring(1).replace(":", "");
        if (digits.length() % 2 == 1) {
            digits = "0" + digits;
        }
        StringBuilder b = new StringBuilder().append(offset.charAt(0));
        for (int i = 0; i < digits.length(); i += 2) {
            b.append(i > 0 ? ":" : "").append(digits, i, i + 2);
        }
        return b.toString();
    }
}
