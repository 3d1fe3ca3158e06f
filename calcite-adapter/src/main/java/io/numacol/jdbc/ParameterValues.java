package io.numacol.jdbc;

import io.numacol.storage.types.ColumnType;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData.Rep;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Prepared statement parameters made to fit the types Calcite inferred for them, before its
 * generated code casts them blindly: that code wraps 3000000000 into an INTEGER, cuts 13.7 to
 * 13, cuts a string to a VARCHAR's length, and fails with a bare ClassCastException on a
 * number given as a string. Here a value converts as JDBC's setter tables allow (a numeric
 * string to a number, a number to a string, yyyy-mm-dd to a DATE), or is refused with an error
 * naming the parameter, its type and the value. A java.time value (LocalDate, LocalTime,
 * OffsetTime, LocalDateTime, OffsetDateTime, ZonedDateTime, Instant) converts to a DATE, TIME or
 * TIMESTAMP as PostgreSQL casts it, an instant read in the session's zone. Strings are held to
 * their length only when the statement stores them (INSERT): in a query, {@code name = ?} with a
 * longer string is no error.
 */
final class ParameterValues {
    /** Parses and converts a TIMESTAMP parameter given as a String or a java.time value, as a column does. */
    private static final ColumnType MILLISECONDS = ColumnType.timestamp(ColumnType.MAX_TIMESTAMP_PRECISION);
    /** Parses and converts a TIME parameter given as a String or a LocalTime, as a column does. */
    private static final ColumnType TIME_MILLISECONDS = ColumnType.time(ColumnType.MAX_TIMESTAMP_PRECISION);
    /** Converts a TIMESTAMP WITH TIME ZONE parameter, as a column does. */
    private static final ColumnType INSTANTS = ColumnType.timestampTz(ColumnType.MAX_TIMESTAMP_PRECISION);
    /** Calcite's name of an instant type: a parameter's {@code typeName}, a column's type name. */
    static final String INSTANT = SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE.getName();
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** Parses a UUID parameter given as a String, as a column does. */
    private static final ColumnType UUIDS = ColumnType.uuid();

    private ParameterValues() {
    }

    /** {@code values} converted for {@code signature}'s parameters; IllegalArgumentException when one does not fit. */
    static List<TypedValue> fit(Meta.Signature signature, List<TypedValue> values, ZoneId zone) {
        return fit(signature, values, i -> null, zone);
    }

    /**
     * As {@link #fit(Meta.Signature, List, ZoneId)}, the error naming the column a parameter fills where
     * {@code columnOf} knows it (0-based parameter index to column name, or null). {@code zone} is
     * the session's: a TIMESTAMP WITH TIME ZONE given without an offset is read in it.
     */
    static List<TypedValue> fit(Meta.Signature signature, List<TypedValue> values, IntFunction<String> columnOf, ZoneId zone) {
        if (signature == null || signature.parameters == null || values == null) {
            return values;
        }
        boolean stores = signature.statementType != null && signature.statementType.canUpdate();
        List<TypedValue> out = null;
        for (int i = 0; i < values.size() && i < signature.parameters.size(); i++) {
            TypedValue v = values.get(i);
            if (v == null || v.value == null) {
                continue;
            }
            AvaticaParameter p = signature.parameters.get(i);
            TypedValue fitted;
            try {
                fitted = fit(p, v, stores, zone);
            } catch (IllegalArgumentException e) {
                String column = columnOf.apply(i);
                throw new IllegalArgumentException("parameter " + (i + 1) + " (" + typeName(p)
                        + (column == null ? "" : ", column " + column) + "): " + e.getMessage(), e);
            }
            if (fitted != v) {
                if (out == null) {
                    out = new ArrayList<>(values);
                }
                out.set(i, fitted);
            }
        }
        return out == null ? values : out;
    }

    private static TypedValue fit(AvaticaParameter p, TypedValue v, boolean stores, ZoneId zone) {
        Object value = v.toLocal();
        if (INSTANT.equals(p.typeName)) {
            return instant(v, value, zone);
        }
        return switch (p.parameterType) {
            case Types.TINYINT -> whole(value, Byte.MIN_VALUE, Byte.MAX_VALUE, Rep.BYTE, v);
            case Types.SMALLINT -> whole(value, Short.MIN_VALUE, Short.MAX_VALUE, Rep.SHORT, v);
            case Types.INTEGER -> whole(value, Integer.MIN_VALUE, Integer.MAX_VALUE, Rep.INTEGER, v);
            case Types.BIGINT -> whole(value, Long.MIN_VALUE, Long.MAX_VALUE, Rep.LONG, v);
            case Types.DECIMAL, Types.NUMERIC -> value instanceof String s
                    ? TypedValue.ofLocal(Rep.NUMBER, number(s)) : requireNumber(value, v);
            case Types.DOUBLE, Types.FLOAT -> value instanceof String s
                    ? TypedValue.ofLocal(Rep.DOUBLE, number(s).doubleValue()) : requireNumber(value, v);
            case Types.REAL -> real(value, v);
            case Types.CHAR, Types.VARCHAR -> string(p, value, v, stores);
            case Types.DATE -> date(value, v, zone);
            case Types.TIMESTAMP -> timestamp(value, v, zone);
            case Types.TIME -> time(value, v);
            case Types.BINARY, Types.VARBINARY -> binary(p, value, v, stores);
            case Types.OTHER -> "UUID".equals(p.typeName) && !(value instanceof UUID)
                    ? TypedValue.ofLocal(Rep.OBJECT, UUID.fromString(UUIDS.toStringValue(value))) : v;
            default -> v;
        };
    }

    /**
     * A DATE as the epoch day the generated code expects. Avatica's setObject keeps a String or a
     * java.time value as it is, which that code cannot cast; a date-time gives its date, an
     * instant its date in the session's zone (PostgreSQL's timestamptz::date).
     */
    private static TypedValue date(Object value, TypedValue v, ZoneId zone) {
        LocalDate date = switch (value) {
            case Integer _ when v.type == Rep.JAVA_SQL_DATE -> null;
            case Long millis when v.type == Rep.JAVA_SQL_TIMESTAMP -> LocalDate.ofEpochDay(Math.floorDiv(millis, MILLIS_PER_DAY));
            case String s -> date(s);
            case LocalDate d -> d;
            case LocalDateTime t -> t.toLocalDate();
            case OffsetDateTime t -> t.atZoneSameInstant(zone).toLocalDate();
            case ZonedDateTime t -> t.withZoneSameInstant(zone).toLocalDate();
            case Instant i -> LocalDate.ofInstant(i, zone);
            default -> throw cannotConvert(value, "DATE");
        };
        return date == null ? v : TypedValue.ofLocal(Rep.JAVA_SQL_DATE, (int) date.toEpochDay());
    }

    /** A TIMESTAMP as the wall clock's epoch milliseconds the generated code expects; an instant is read in the session's zone. */
    private static TypedValue timestamp(Object value, TypedValue v, ZoneId zone) {
        Object wallClock = switch (value) {
            case Long _ when v.type == Rep.JAVA_SQL_TIMESTAMP -> null;
            // setLong: the wall clock's epoch milliseconds, the TIMESTAMP's own representation, as before
            case Long millis when v.type == Rep.LONG -> LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
                    (int) Math.floorMod(millis, 1000L) * 1_000_000, java.time.ZoneOffset.UTC);
            case Integer days when v.type == Rep.JAVA_SQL_DATE -> LocalDate.ofEpochDay(days);
            case String s -> s;
            case LocalDate d -> d;
            case LocalDateTime t -> t;
            case OffsetDateTime t -> t.atZoneSameInstant(zone).toLocalDateTime();
            case ZonedDateTime t -> t.withZoneSameInstant(zone).toLocalDateTime();
            case Instant i -> LocalDateTime.ofInstant(i, zone);
            default -> throw cannotConvert(value, "TIMESTAMP");
        };
        return wallClock == null ? v : TypedValue.ofLocal(Rep.JAVA_SQL_TIMESTAMP, MILLISECONDS.toLong(wallClock));
    }

    /** A TIME as the milliseconds of the day the generated code expects; a time with an offset keeps its local time, as PostgreSQL's timetz::time. */
    private static TypedValue time(Object value, TypedValue v) {
        Object time = switch (value) {
            case Integer _ when v.type == Rep.JAVA_SQL_TIME -> null;
            case String s -> s;
            case LocalTime t -> t;
            case OffsetTime t -> t.toLocalTime();
            case LocalDateTime t -> t.toLocalTime();
            default -> throw cannotConvert(value, "TIME");
        };
        return time == null ? v : TypedValue.ofLocal(Rep.JAVA_SQL_TIME, (int) TIME_MILLISECONDS.toLong(time));
    }

    /** The refusal of a value whose class has no conversion to {@code type}: names both, for the caller's fix. */
    private static IllegalArgumentException cannotConvert(Object value, String type) {
        return new IllegalArgumentException("cannot convert " + value.getClass().getName() + " value " + show(value) + " to " + type);
    }

    /**
     * An instant as the epoch milliseconds Calcite computes with. The connection's proxy sets every
     * instant parameter so ({@code ConnectionProxy}); what reaches here otherwise (a value of
     * Avatica's own, text) is read as a column reads it, without an offset in the session's zone.
     */
    private static TypedValue instant(TypedValue v, Object value, ZoneId zone) {
        if (v.type == Rep.JAVA_SQL_TIMESTAMP && value instanceof Long) {
            return v;
        }
        return TypedValue.ofLocal(Rep.JAVA_SQL_TIMESTAMP, INSTANTS.toLong(value, zone));
    }

    /**
     * Bytes as the ByteString the generated code expects, held to their length where the statement
     * stores them (the generated code would cut them); a string has no bytes but those of an
     * encoding, so it is refused.
     */
    private static TypedValue binary(AvaticaParameter p, Object value, TypedValue v, boolean stores) {
        ByteString bytes = switch (value) {
            case ByteString b -> b;
            case byte[] b -> new ByteString(b);
            default -> throw new IllegalArgumentException("value " + show(value) + " is not bytes: give a byte[] (setBytes)");
        };
        if (stores && p.precision > 0 && bytes.length() > p.precision) {
            throw new IllegalArgumentException("value of " + bytes.length() + " bytes is longer than " + typeName(p) + " allows");
        }
        return value instanceof ByteString ? v : TypedValue.ofLocal(Rep.BYTE_STRING, bytes);
    }

    /** A number rounded to a float, as the generated code for a REAL expects; beyond the float range is an error. */
    private static TypedValue real(Object value, TypedValue v) {
        if (value instanceof Float) {
            return v;
        }
        if (!(value instanceof String)) {
            requireNumber(value, v);
        }
        Number n = value instanceof String s ? number(s) : (Number) value;
        float f = n.floatValue();
        if (Float.isInfinite(f) && !(value instanceof Double d && d.isInfinite())) {
            throw new IllegalArgumentException("value " + show(value) + " is out of range for REAL");
        }
        return TypedValue.ofLocal(Rep.FLOAT, f);
    }

    /** A whole number in [min, max], as the rep the type's generated code expects (the value as it is when it already is). */
    private static TypedValue whole(Object value, long min, long max, Rep rep, TypedValue v) {
        long l;
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            l = ((Number) value).longValue();
            if (l < min || l > max) {
                throw new IllegalArgumentException("value " + value + " is out of range [" + min + ", " + max + "]");
            }
            if (rep.clazz.isInstance(value)) {
                return v;
            }
        } else {
            if (!(value instanceof String)) {
                requireNumber(value, v);
            }
            BigDecimal n = value instanceof String s ? number(s) : decimal(value);
            BigInteger whole;
            try {
                whole = n.toBigIntegerExact();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("value " + show(value) + " is not a whole number");
            }
            if (whole.compareTo(BigInteger.valueOf(min)) < 0 || whole.compareTo(BigInteger.valueOf(max)) > 0) {
                throw new IllegalArgumentException("value " + show(value) + " is out of range [" + min + ", " + max + "]");
            }
            l = whole.longValue();
        }
        return switch (rep) {
            case BYTE -> TypedValue.ofLocal(rep, (byte) l);
            case SHORT -> TypedValue.ofLocal(rep, (short) l);
            case INTEGER -> TypedValue.ofLocal(rep, (int) l);
            default -> TypedValue.ofLocal(rep, l);
        };
    }

    private static TypedValue string(AvaticaParameter p, Object value, TypedValue v, boolean stores) {
        String s = value instanceof String str ? str : String.valueOf(value);
        // A CHAR's trailing blanks may be cut, as the SQL standard lets an assignment do.
        if (stores && p.precision > 0 && s.codePointCount(0, s.length()) > p.precision
                && !s.substring(s.offsetByCodePoints(0, p.precision)).isBlank()) {
            throw new IllegalArgumentException("value " + show(s) + " is longer than " + typeName(p) + " allows");
        }
        return value instanceof String ? v : TypedValue.ofLocal(Rep.STRING, s);
    }

    private static TypedValue requireNumber(Object value, TypedValue v) {
        if (!(value instanceof Number)) {
            throw new IllegalArgumentException("value " + show(value) + (value instanceof String ? "" : " of class " + value.getClass().getName())
                    + " is not a number");
        }
        return v;
    }

    private static BigDecimal number(String s) {
        try {
            return new BigDecimal(s.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("value " + show(s) + " is not a number");
        }
    }

    private static BigDecimal decimal(Object n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (n instanceof Double || n instanceof Float) {
            double d = ((Number) n).doubleValue();
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("value " + d + " is not a whole number");
            }
            return BigDecimal.valueOf(d);
        }
        return BigDecimal.valueOf(((Number) n).longValue());
    }

    private static LocalDate date(String s) {
        try {
            return LocalDate.parse(s.strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("value " + show(s) + " is not a valid DATE (expected yyyy-mm-dd)");
        }
    }

    private static String typeName(AvaticaParameter p) {
        return (p.parameterType == Types.CHAR || p.parameterType == Types.VARCHAR || p.parameterType == Types.VARBINARY) && p.precision > 0
                ? p.typeName + "(" + p.precision + ")" : p.typeName;
    }

    private static String show(Object value) {
        String s = String.valueOf(value);
        s = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return value instanceof String ? "'" + s + "'" : s;
    }
}
