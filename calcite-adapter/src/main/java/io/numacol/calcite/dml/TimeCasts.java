package io.numacol.calcite.dml;

import io.numacol.storage.types.ColumnType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * Casts between instants (TIMESTAMP WITH TIME ZONE), wall clocks and text, as numacol computes
 * them in the plans Calcite runs; {@link CheckedCastRexBuilder} puts them in place of Calcite's
 * own, and Calcite's generated code calls the public static methods. Calcite's fail or differ
 * from DuckDB and PostgreSQL: it reads a zone through {@code java.util.TimeZone}, which has no
 * local mean time (New York before 1883 was 4:56:02 behind UTC, not 5 hours); its cast of a
 * wall clock to an instant goes through text, and fails for one that daylight saving skips; its
 * EXTRACT of an hour, minute or second from an instant reads UTC; and its cast of a TIMESTAMP or
 * TIME to text drops the fraction of a second; it adds a month interval to an instant as one
 * millisecond. numacol also adds DuckDB's {@link #DATE_TRUNC} and reads DuckDB's short spellings
 * of times ({@link io.numacol.calcite.ddl.TimeLiterals#calciteText}). Each function takes the session's zone as an argument, so a
 * plan says which zone it computes in (the plan cache keys plans by zone).
 */
public final class TimeCasts {
    private static final SqlUserDefinedFunction WALL_CLOCK = function("wallClock", SqlTypeName.TIMESTAMP);
    private static final SqlUserDefinedFunction INSTANT = function("instant", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    private static final SqlUserDefinedFunction INSTANT_OF_TEXT = function("instantOfText", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    private static final SqlUserDefinedFunction INSTANT_TEXT = function("instantText", SqlTypeName.VARCHAR);
    private static final SqlUserDefinedFunction TIMESTAMP_TEXT = function("timestampText", SqlTypeName.VARCHAR);
    private static final SqlUserDefinedFunction TIME_TEXT = function("timeText", SqlTypeName.VARCHAR);
    private static final SqlUserDefinedFunction PLUS_MONTHS = function("plusMonths", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    private static final SqlUserDefinedFunction PLUS_MILLIS = function("plusMillis", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    private static final SqlUserDefinedFunction TRUNC_TIMESTAMP = function("truncTimestamp", SqlTypeName.TIMESTAMP);
    private static final SqlUserDefinedFunction TRUNC_INSTANT = function("truncInstant", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    /**
     * DuckDB's and PostgreSQL's {@code date_trunc(part, value)}: a TIMESTAMP, or a DATE as its
     * midnight, cut to the start of its year, quarter, month, ISO week (Monday), day, hour,
     * minute, second or millisecond, as a TIMESTAMP; an instant cut on its wall clock in the
     * session's zone, as an instant. Validated here, computed by {@link #dateTrunc}.
     */
    public static final SqlFunction DATE_TRUNC = new SqlFunction("DATE_TRUNC", SqlKind.OTHER_FUNCTION,
            binding -> {
                RelDataType value = binding.getOperandType(1);
                RelDataType type = value.getSqlTypeName() == SqlTypeName.DATE
                        ? binding.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 0) : value;
                return binding.getTypeFactory().createTypeWithNullability(type,
                        value.isNullable() || binding.getOperandType(0).isNullable());
            }, null,
            OperandTypes.sequence("DATE_TRUNC(<STRING>, <DATE, TIMESTAMP or TIMESTAMP WITH TIME ZONE>)",
                    OperandTypes.CHARACTER, OperandTypes.DATE_OR_TIMESTAMP),
            SqlFunctionCategory.TIMEDATE) {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            // a part written out is checked as the statement is validated (the plan cache's parameter, as it runs)
            if (binding.operand(0) instanceof SqlCharStringLiteral part) {
                String name = part.getValueAs(String.class);
                if (!PARTS.contains(name.strip().toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException(unknownPart(name));
                }
            }
            return super.checkOperandTypes(binding, throwOnFailure);
        }
    };

    private static final List<String> PARTS = List.of("year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond");

    /** DuckDB's and PostgreSQL's text of a wall clock: as many fraction digits as it needs. */
    private static final DateTimeFormatter WALL_TEXT = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd HH:mm:ss").appendFraction(ChronoField.MILLI_OF_SECOND, 0, 3, true)
            .toFormatter(Locale.ROOT);
    /** An instant's text in a zone, with its offset as DuckDB and PostgreSQL write it: +01, -05:30. */
    public static final DateTimeFormatter ZONED_TEXT = new DateTimeFormatterBuilder().append(WALL_TEXT)
            .appendOffset("+HH:mm", "+00").toFormatter(Locale.ROOT);
    private static final DateTimeFormatter TIME_OF_DAY_TEXT = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss").appendFraction(ChronoField.MILLI_OF_SECOND, 0, 3, true).toFormatter(Locale.ROOT);

    private static final Map<String, ZoneId> ZONES = new ConcurrentHashMap<>();
    /** The instant types by precision: the functions run per row. */
    private static final ColumnType[] INSTANTS = IntStream.rangeClosed(0, ColumnType.MAX_TIMESTAMP_PRECISION)
            .mapToObj(ColumnType::timestampTz).toArray(ColumnType[]::new);


    private TimeCasts() {
    }

    /** A call's type is set where it is made; {@code returns} serves a rule that derives it again. */
    private static SqlUserDefinedFunction function(String method, SqlTypeName returns) {
        return new SqlUserDefinedFunction(new SqlIdentifier("$NUMACOL_" + method.toUpperCase(Locale.ROOT), SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION, ReturnTypes.explicit(returns).andThen(SqlTypeTransforms.TO_NULLABLE), InferTypes.RETURN_TYPE, null,
                ScalarFunctionImpl.create(TimeCasts.class, method));
    }

    private static ZoneId zone(String id) {
        return ZONES.computeIfAbsent(id, ZoneId::of);
    }

    /** An instant's wall clock in {@code zone} (TIMESTAMP WITH TIME ZONE to TIMESTAMP), as epoch milliseconds of UTC. */
    public static Long wallClock(Long instant, String zone) {
        if (instant == null) {
            return null;
        }
        return instant + zone(zone).getRules().getOffset(Instant.ofEpochMilli(instant)).getTotalSeconds() * 1000L;
    }

    /**
     * The instant a wall clock names in {@code zone}, kept to {@code precision} fraction digits:
     * one that daylight saving skips moves forward, one it repeats is the later (as a column reads text).
     */
    public static Long instant(Long wall, String zone, int precision) {
        if (wall == null) {
            return null;
        }
        return INSTANTS[precision].toLong(ColumnType.wallClock(wall), zone(zone));
    }

    /** Text as an instant, with its offset or zone name, else in {@code zone}, as a column reads it. */
    public static Long instantOfText(String text, String zone, int precision) {
        return text == null ? null : INSTANTS[precision].toLong(text, zone(zone));
    }

    /** An instant's text in {@code zone}: {@code 2024-03-10 03:30:00.5-04}. */
    public static String instantText(Long instant, String zone) {
        return instant == null ? null : ZONED_TEXT.format(Instant.ofEpochMilli(instant).atZone(zone(zone)));
    }

    /** A TIMESTAMP's text: {@code 2024-07-01 12:00:00.5}. */
    public static String timestampText(Long wall) {
        return wall == null ? null : WALL_TEXT.format(Instant.ofEpochMilli(wall).atOffset(ZoneOffset.UTC));
    }

    /** A TIME's text: {@code 12:00:00.25}. */
    public static String timeText(Integer milliOfDay) {
        return milliOfDay == null ? null : TIME_OF_DAY_TEXT.format(LocalTime.ofNanoOfDay(milliOfDay * 1_000_000L));
    }

    /** An instant plus months, counted on its wall clock in {@code zone} (as DuckDB and PostgreSQL do). */
    public static Long plusMonths(Long instant, Integer months, String zone) {
        if (instant == null || months == null) {
            return null;
        }
        return Instant.ofEpochMilli(instant).atZone(zone(zone)).plusMonths(months).toInstant().toEpochMilli();
    }

    /**
     * An instant plus an interval of days to seconds: with {@code calendarDays} (an interval of
     * DAY, DAY TO HOUR, ..), its whole days counted on the wall clock in {@code zone}, so that a
     * day across a change of daylight saving is 23 or 25 hours, as in DuckDB and PostgreSQL; the
     * rest, and any interval of hours, minutes or seconds, as elapsed time.
     */
    public static Long plusMillis(Long instant, Long millis, boolean calendarDays, String zone) {
        if (instant == null || millis == null) {
            return null;
        }
        long days = calendarDays ? millis / 86_400_000L : 0;
        long rest = millis - days * 86_400_000L;
        long moved = days == 0 ? instant : Instant.ofEpochMilli(instant).atZone(zone(zone)).plusDays(days).toInstant().toEpochMilli();
        return moved + rest;
    }

    /** A TIMESTAMP cut to the start of its {@code part} (see {@link #DATE_TRUNC}). */
    public static Long truncTimestamp(String part, Long wall) {
        if (part == null || wall == null) {
            return null;
        }
        return truncate(ColumnType.wallClock(wall), part).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /**
     * An instant cut to the start of its {@code part} on its wall clock in {@code zone}, keeping
     * its offset where the cut wall clock has two (an hour in the DST overlap stays in its own).
     */
    public static Long truncInstant(String part, Long instant, String zone) {
        if (part == null || instant == null) {
            return null;
        }
        ZonedDateTime time = Instant.ofEpochMilli(instant).atZone(zone(zone));
        return ZonedDateTime.ofLocal(truncate(time.toLocalDateTime(), part), time.getZone(), time.getOffset()).toInstant().toEpochMilli();
    }

    private static LocalDateTime truncate(LocalDateTime t, String part) {
        return switch (part.strip().toLowerCase(Locale.ROOT)) {
            case "year" -> LocalDateTime.of(t.getYear(), 1, 1, 0, 0);
            case "quarter" -> LocalDateTime.of(t.getYear(), (t.getMonthValue() - 1) / 3 * 3 + 1, 1, 0, 0);
            case "month" -> LocalDateTime.of(t.getYear(), t.getMonthValue(), 1, 0, 0);
            case "week" -> t.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).atStartOfDay();
            case "day" -> t.truncatedTo(ChronoUnit.DAYS);
            case "hour" -> t.truncatedTo(ChronoUnit.HOURS);
            case "minute" -> t.truncatedTo(ChronoUnit.MINUTES);
            case "second" -> t.truncatedTo(ChronoUnit.SECONDS);
            case "millisecond" -> t.truncatedTo(ChronoUnit.MILLIS);
            default -> throw new IllegalArgumentException(unknownPart(part));
        };
    }

    private static String unknownPart(String part) {
        return "date_trunc: unknown part '" + part + "'; known: " + String.join(", ", PARTS);
    }

    /** {@code date_trunc(part, value)} as numacol's functions compute it, the session's {@code zone} for an instant. */
    static RexNode dateTrunc(RexBuilder rex, RelDataType type, List<RexNode> operands, ZoneId zone) {
        RexNode part = operands.get(0);
        RexNode value = operands.get(1);
        return switch (value.getType().getSqlTypeName()) {
            case TIMESTAMP -> rex.makeCall(type, TRUNC_TIMESTAMP, List.of(part, value));
            case DATE -> rex.makeCall(type, TRUNC_TIMESTAMP, List.of(part, rex.makeCast(type, value, true, false)));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> rex.makeCall(type, TRUNC_INSTANT, List.of(part, value, rex.makeLiteral(zone.getId())));
            default -> throw new IllegalArgumentException("date_trunc takes a DATE, TIMESTAMP or TIMESTAMP WITH TIME ZONE, not "
                    + value.getType().getFullTypeString());
        };
    }

    /**
     * {@code instant + interval} or {@code instant - interval} of type {@code type} by numacol's
     * functions, or null when {@code operands} are no instant and interval: Calcite adds a month
     * interval to an instant as a millisecond, and a day as 24 hours.
     */
    static RexNode plusInterval(RexBuilder rex, RelDataType type, SqlKind kind, List<RexNode> operands, ZoneId zone) {
        if ((kind != SqlKind.PLUS && kind != SqlKind.MINUS) || operands.size() != 2) {
            return null;
        }
        boolean instantFirst = instant(operands.get(0));
        RexNode instant = operands.get(instantFirst ? 0 : 1);
        RexNode interval = operands.get(instantFirst ? 1 : 0);
        if (!instant(instant) || !SqlTypeName.INTERVAL_TYPES.contains(interval.getType().getSqlTypeName())
                || (kind == SqlKind.MINUS && !instantFirst)) {
            return null;
        }
        RexNode amount = kind == SqlKind.MINUS ? rex.makeCall(SqlStdOperatorTable.UNARY_MINUS, interval) : interval;
        RexNode zoneName = rex.makeLiteral(zone.getId());
        SqlTypeName unit = interval.getType().getSqlTypeName();
        if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(unit)) {
            return rex.makeCall(type, PLUS_MONTHS, List.of(instant, amount, zoneName));
        }
        boolean calendarDays = unit == SqlTypeName.INTERVAL_DAY || unit == SqlTypeName.INTERVAL_DAY_HOUR
                || unit == SqlTypeName.INTERVAL_DAY_MINUTE || unit == SqlTypeName.INTERVAL_DAY_SECOND;
        return rex.makeCall(type, PLUS_MILLIS, List.of(instant, amount, rex.makeLiteral(calendarDays), zoneName));
    }

    private static boolean instant(RexNode e) {
        return e.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /**
     * {@code e} cast to {@code type} by numacol's functions where Calcite's fail or differ, or
     * null to leave the cast to Calcite; {@code matchNullability} as in Calcite's makeCast.
     */
    static RexNode cast(RexBuilder rex, RelDataType type, RexNode e, boolean matchNullability, ZoneId zone) {
        SqlTypeName from = e.getType().getSqlTypeName();
        SqlTypeName to = type.getSqlTypeName();
        RexNode zoneName = rex.makeLiteral(zone.getId());
        RelDataType types = matchNullability
                ? rex.getTypeFactory().createTypeWithNullability(type, e.getType().isNullable()) : type;
        boolean text = SqlTypeName.CHAR_TYPES.contains(to);
        if (from == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            if (text) {
                return textCast(rex, types, rex.makeCall(varchar(rex, types), INSTANT_TEXT, List.of(e, zoneName)));
            }
            if (to == SqlTypeName.TIMESTAMP || to == SqlTypeName.DATE || to == SqlTypeName.TIME) {
                RelDataType wallType = rex.getTypeFactory().createTypeWithNullability(
                        rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, e.getType().getPrecision()), types.isNullable());
                return to == SqlTypeName.TIMESTAMP && type.getPrecision() == e.getType().getPrecision()
                        ? rex.makeCall(types, WALL_CLOCK, List.of(e, zoneName))
                        : rex.makeCast(types, rex.makeCall(wallType, WALL_CLOCK, List.of(e, zoneName)));
            }
            return null;
        }
        if (to == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            RexNode precision = rex.makeExactLiteral(BigDecimal.valueOf(
                    Math.min(type.getPrecision(), ColumnType.MAX_TIMESTAMP_PRECISION)));
            if (from == SqlTypeName.TIMESTAMP) {
                return rex.makeCall(types, INSTANT, List.of(e, zoneName, precision));
            }
            if (from == SqlTypeName.DATE) {
                RelDataType midnight = rex.getTypeFactory().createTypeWithNullability(
                        rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 0), types.isNullable());
                return rex.makeCall(types, INSTANT, List.of(rex.makeCast(midnight, e, true, false), zoneName, precision));
            }
            if (SqlTypeName.CHAR_TYPES.contains(from)) {
                return rex.makeCall(types, INSTANT_OF_TEXT, List.of(e, zoneName, precision));
            }
            return null;
        }
        if (text && from == SqlTypeName.TIMESTAMP) {
            return textCast(rex, types, rex.makeCall(varchar(rex, types), TIMESTAMP_TEXT, List.of(e)));
        }
        if (text && from == SqlTypeName.TIME) {
            return textCast(rex, types, rex.makeCall(varchar(rex, types), TIME_TEXT, List.of(e)));
        }
        return null;
    }

    /**
     * EXTRACT's operand when it is an instant: its wall clock in the session's zone (Calcite reads
     * hours, minutes and seconds in UTC), or for EPOCH the instant itself as a TIMESTAMP of UTC
     * (Calcite counts the seconds of the session's wall clock); null for any other operand.
     */
    static RexNode extractOperand(RexBuilder rex, RexNode e, boolean epoch, ZoneId zone) {
        if (e.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            return null;
        }
        RelDataType wallType = rex.getTypeFactory().createTypeWithNullability(
                rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, e.getType().getPrecision()), e.getType().isNullable());
        return rex.makeCall(wallType, WALL_CLOCK, List.of(e, rex.makeLiteral(epoch ? "UTC" : zone.getId())));
    }

    private static RelDataType varchar(RexBuilder rex, RelDataType like) {
        return rex.getTypeFactory().createTypeWithNullability(rex.getTypeFactory().createSqlType(SqlTypeName.VARCHAR),
                like.isNullable());
    }

    /** {@code text} as {@code type}: a CHAR(n) or VARCHAR(n) through Calcite's cast, which pads or cuts. */
    private static RexNode textCast(RexBuilder rex, RelDataType type, RexNode text) {
        return type.getSqlTypeName() == SqlTypeName.VARCHAR && type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
                ? text : rex.makeCast(type, text);
    }
}
