package io.numacol.storage;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL type of a column and how its values are encoded for the {@link Dictionary}.
 *
 * <ul>
 *   <li>BOOLEAN: stored as 0 (false) or 1 (true).</li>
 *   <li>TINYINT (8-bit), SMALLINT (16-bit), INTEGER (32-bit) and BIGINT (64-bit): stored as the
 *       value, each checked against its range.</li>
 *   <li>DECIMAL(p,s), 1 &lt;= p &lt;= 18, 0 &lt;= s &lt;= p: stored as the unscaled value, so
 *       12.34 in DECIMAL(15,2) is 1234. Inputs are rounded HALF_UP to s digits, then must have
 *       at most p digits. p &lt;= 18 keeps every value, and the sum of two, inside a long.</li>
 *   <li>REAL (single precision): stored as the double of the float it rounds to, read back as a
 *       Float; a finite value beyond the float range is out of range.</li>
 *   <li>DOUBLE: stored as the double.</li>
 *   <li>DATE: stored as the epoch day (days since 1970-01-01, {@link LocalDate#toEpochDay()}).</li>
 *   <li>TIMESTAMP(p), 0 &lt;= p &lt;= 3 (3 when left out): a date and time of day without a time
 *       zone, stored as milliseconds since 1970-01-01 00:00 read as UTC, as Calcite computes with
 *       them; inputs are rounded half up to p fraction digits; years 1 to 9999.</li>
 *   <li>TIMESTAMP(p) WITH TIME ZONE: an instant, stored as milliseconds since 1970-01-01 00:00
 *       UTC, rounded as TIMESTAMP; years 1 to 9999 in UTC. No zone is kept: a value is shown in the
 *       reader's zone (PostgreSQL's and DuckDB's timestamptz). Inputs without an offset are read in
 *       the zone the caller names ({@link #toLong(Object, ZoneId)}), UTC where it names none.</li>
 *   <li>TIME(p), 0 &lt;= p &lt;= 3 (3 when left out): a time of day without a time zone, stored as
 *       milliseconds since midnight, as Calcite computes with them; inputs are rounded half up to
 *       p fraction digits, and one that rounds up to 24:00 is out of range.</li>
 *   <li>CHAR(n), VARCHAR(n), n &gt;= 1: stored as the string. Lengths count Unicode code points
 *       (characters as a user sees them, an emoji is one), not UTF-16 chars or UTF-8 bytes.
 *       CHAR values lose their trailing spaces (U+0020) when stored and read back without
 *       padding, so comparing CHAR values behaves like SQL's PAD SPACE; a CHAR value longer
 *       than n only in trailing spaces therefore fits. VARCHAR values are stored exactly.</li>
 *   <li>VARBINARY(n), n &gt;= 1: up to n bytes, stored as the string of the chars U+0000 to
 *       U+00FF that are the bytes (ISO 8859-1), so the dictionaries' code point order is the
 *       unsigned byte order of SQL, DuckDB and PostgreSQL; read back as a byte[].</li>
 *   <li>UUID: stored as its 36-character lowercase text, whose order is the unsigned order of
 *       the 128 bits, as in DuckDB and PostgreSQL (not java.util.UUID's signed compareTo); read
 *       back as a java.util.UUID.</li>
 * </ul>
 *
 * <p>{@code precision} and {@code scale} are 0 for all but DECIMAL, TIMESTAMP and TIME, {@code length}
 * is 0 for all but CHAR, VARCHAR and VARBINARY. The conversion methods take the natural Java types of a kind and throw
 * IllegalArgumentException naming the value and the type for anything else; a null value is
 * rejected too, since a SQL NULL is not encoded as a value.
 */
public record ColumnType(Kind kind, int precision, int scale, int length) {

    /** The largest DECIMAL precision: 10^18 - 1 is the largest all-nines number a long holds. */
    public static final int MAX_DECIMAL_PRECISION = 18;

    private static final long[] POWERS_OF_TEN = new long[MAX_DECIMAL_PRECISION + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    /** BINARY VARYING(n): group 1 the parameter list. */
    private static final Pattern BINARY_VARYING = Pattern.compile("(?i)\\s*BINARY\\s+VARYING\\s*(\\(.*)?");
    private static final Pattern DOUBLE_PRECISION = Pattern.compile("(?i)\\s*DOUBLE\\s+PRECISION\\s*");
    /**
     * TIME or TIMESTAMP[(p)] WITH[OUT] [LOCAL] TIME ZONE: group 1 the type and its parameter, group 2
     * WITH or WITHOUT, group 3 LOCAL (Calcite's spelling of an instant type).
     */
    private static final Pattern ZONED = Pattern.compile(
            "(?i)\\s*((?:TIMESTAMP|TIME)\\s*(?:\\(\\s*[+-]?\\d+\\s*\\))?)\\s+(WITH|WITHOUT)\\s+(LOCAL\\s+)?TIME\\s+ZONE\\s*");
    /**
     * The zone at the end of a TIMESTAMP WITH TIME ZONE's text: group 1 the date and time, group 2
     * an offset ({@code Z}, {@code +01}, {@code -05:30}, {@code +0530}), group 3 a zone name ({@code UTC},
     * {@code Europe/Berlin}) after a blank.
     */
    private static final Pattern ZONE_SUFFIX = Pattern.compile(
            "(.*?\\d)\\s*(?:(Z|[+-]\\d{1,2}(?::?\\d{2}){0,2})|\\s([A-Za-z][A-Za-z0-9_/+-]*))");
    /** The largest TIMESTAMP precision: values are kept to the millisecond, as Calcite computes with them. */
    public static final int MAX_TIMESTAMP_PRECISION = 3;
    /** 0001-01-01 00:00 and 9999-12-31 23:59:59.999 as epoch milliseconds: the TIMESTAMP range. */
    private static final long MIN_TIMESTAMP = -62_135_596_800_000L;
    private static final long MAX_TIMESTAMP = 253_402_300_799_999L;
    /** A number as SQL writes it: sign, digits with an optional point, optional exponent. */
    private static final Pattern SQL_NUMBER = Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");
    /** 0001-01-01 and 9999-12-31 as epoch days: the DATE range. */
    private static final long MIN_EPOCH_DAY = -719_162L;
    private static final long MAX_EPOCH_DAY = 2_932_896L;
    /** The milliseconds of a day: TIME values are below. */
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** A UUID's text: 32 hex digits, 8-4-4-4-12 with or without the hyphens, in braces or not. */
    private static final Pattern UUID_TEXT = Pattern.compile(
            "\\{?(\\p{XDigit}{8})-?(\\p{XDigit}{4})-?(\\p{XDigit}{4})-?(\\p{XDigit}{4})-?(\\p{XDigit}{12})}?");
    private static final Pattern SPEC =
            Pattern.compile("\\s*([A-Za-z][A-Za-z0-9]*)\\s*(?:\\(\\s*([+-]?\\d+)\\s*(?:,\\s*([+-]?\\d+)\\s*)?\\))?\\s*");

    public enum Kind {
        BOOLEAN(StorageKind.LONG),
        TINYINT(StorageKind.LONG),
        SMALLINT(StorageKind.LONG),
        INTEGER(StorageKind.LONG),
        BIGINT(StorageKind.LONG),
        REAL(StorageKind.DOUBLE),
        DOUBLE(StorageKind.DOUBLE),
        DECIMAL(StorageKind.LONG),
        DATE(StorageKind.LONG),
        TIMESTAMP(StorageKind.LONG),
        TIMESTAMP_TZ(StorageKind.LONG),
        TIME(StorageKind.LONG),
        CHAR(StorageKind.STRING),
        VARCHAR(StorageKind.STRING),
        VARBINARY(StorageKind.STRING),
        UUID(StorageKind.STRING);

        private final StorageKind storageKind;

        Kind(StorageKind storageKind) {
            this.storageKind = storageKind;
        }

        public StorageKind storageKind() {
            return storageKind;
        }
    }

    public ColumnType {
        Objects.requireNonNull(kind, "kind");
        switch (kind) {
            case DECIMAL -> {
                if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
                    throw new IllegalArgumentException("DECIMAL precision must be between 1 and "
                            + MAX_DECIMAL_PRECISION + ", got " + precision);
                }
                if (scale < 0 || scale > precision) {
                    throw new IllegalArgumentException("DECIMAL scale must be between 0 and the precision "
                            + precision + ", got " + scale);
                }
                if (length != 0) {
                    throw new IllegalArgumentException("DECIMAL has no length, got " + length);
                }
            }
            case TIMESTAMP, TIMESTAMP_TZ, TIME -> {
                if (precision < 0 || precision > MAX_TIMESTAMP_PRECISION) {
                    throw new IllegalArgumentException(kind + " precision (fraction digits) must be between 0 and "
                            + MAX_TIMESTAMP_PRECISION + ", got " + precision + ": numacol keeps times to the millisecond");
                }
                if (scale != 0 || length != 0) {
                    throw new IllegalArgumentException(kind + " has no scale or length, got " + scale + "," + length);
                }
            }
            case CHAR, VARCHAR, VARBINARY -> {
                if (length < 1) {
                    throw new IllegalArgumentException(kind + " length must be at least 1, got " + length);
                }
                if (precision != 0 || scale != 0) {
                    throw new IllegalArgumentException(kind + " has no precision or scale, got "
                            + precision + "," + scale);
                }
            }
            default -> {
                if (precision != 0 || scale != 0 || length != 0) {
                    throw new IllegalArgumentException(kind + " takes no precision, scale or length, got "
                            + precision + "," + scale + "," + length);
                }
            }
        }
    }

    // Factories. booleanType, doubleType and charType carry a suffix because the plain names are Java keywords.

    public static ColumnType booleanType() {
        return new ColumnType(Kind.BOOLEAN, 0, 0, 0);
    }

    /**
     * {@code epochDay}, computed by date arithmetic, if it is a DATE of the years 1 to 9999;
     * else a DateTimeException (SQLSTATE 22008): {@code DATE '9999-12-31' + INTERVAL '1' DAY}
     * must fail, not become year 10000 or wrap to year 0.
     */
    public static long dateInRange(long epochDay) {
        if (!isEpochDay(epochDay)) {
            throw new DateTimeException("date out of range: " + LocalDate.ofEpochDay(epochDay) + " (a DATE holds the years 1 to 9999)");
        }
        return epochDay;
    }

    /**
     * The text of a DOUBLE or REAL as SQL writes numbers, the one parser of COPY, CAST and
     * INSERT: digits with an optional point and exponent ({@code 1.5}, {@code -2E-3}), or NaN,
     * Infinity, -Infinity. Java's own syntax beyond that ({@code 0x1p3}, {@code 1.5d}) is no
     * number here, as in DuckDB and PostgreSQL. NumberFormatException otherwise.
     */
    public static double parseApproximate(String text) {
        String t = text.strip();
        if (t.equalsIgnoreCase("NaN")) {
            return Double.NaN;
        }
        if (t.equalsIgnoreCase("Infinity") || t.equalsIgnoreCase("+Infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        if (t.equalsIgnoreCase("-Infinity")) {
            return Double.NEGATIVE_INFINITY;
        }
        if (!SQL_NUMBER.matcher(t).matches()) {
            throw new NumberFormatException("not a number: " + Describe.value(t));
        }
        return Double.parseDouble(t);
    }

    /** Whether {@code epochDay} is a DATE of the years 1 to 9999. */
    public static boolean isEpochDay(long epochDay) {
        return epochDay >= MIN_EPOCH_DAY && epochDay <= MAX_EPOCH_DAY;
    }

    /** {@code millis}, computed by timestamp arithmetic, if it is a TIMESTAMP of the years 1 to 9999 (see {@link #dateInRange}). */
    public static long timestampInRange(long millis) {
        if (millis < MIN_TIMESTAMP || millis > MAX_TIMESTAMP) {
            throw new DateTimeException("timestamp out of range: " + Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC)
                    .toLocalDateTime() + " (a TIMESTAMP holds the years 1 to 9999)");
        }
        return millis;
    }

    public static ColumnType tinyint() {
        return new ColumnType(Kind.TINYINT, 0, 0, 0);
    }

    public static ColumnType smallint() {
        return new ColumnType(Kind.SMALLINT, 0, 0, 0);
    }

    public static ColumnType integer() {
        return new ColumnType(Kind.INTEGER, 0, 0, 0);
    }

    public static ColumnType bigint() {
        return new ColumnType(Kind.BIGINT, 0, 0, 0);
    }

    /** REAL: a single-precision float. */
    public static ColumnType real() {
        return new ColumnType(Kind.REAL, 0, 0, 0);
    }

    public static ColumnType doubleType() {
        return new ColumnType(Kind.DOUBLE, 0, 0, 0);
    }

    public static ColumnType decimal(int precision, int scale) {
        return new ColumnType(Kind.DECIMAL, precision, scale, 0);
    }

    public static ColumnType date() {
        return new ColumnType(Kind.DATE, 0, 0, 0);
    }

    /** TIMESTAMP(precision): a date and time of day, kept to {@code precision} fraction digits (at most 3). */
    public static ColumnType timestamp(int precision) {
        return new ColumnType(Kind.TIMESTAMP, precision, 0, 0);
    }

    /** TIMESTAMP(precision) WITH TIME ZONE: an instant, kept to {@code precision} fraction digits (at most 3). */
    public static ColumnType timestampTz(int precision) {
        return new ColumnType(Kind.TIMESTAMP_TZ, precision, 0, 0);
    }

    /** A TIMESTAMP's epoch milliseconds (its wall clock read as UTC, as numacol and Calcite keep it) as a LocalDateTime. */
    public static LocalDateTime wallClock(long epochMilli) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(epochMilli, 1000L), (int) Math.floorMod(epochMilli, 1000L) * 1_000_000,
                ZoneOffset.UTC);
    }

    /** Why TIME WITH TIME ZONE is refused, in DDL and in queries. */
    public static final String TIME_WITH_TIME_ZONE_REFUSED = "TIME WITH TIME ZONE is not supported: a time of day with an"
            + " offset but no date cannot follow daylight saving; use TIMESTAMP WITH TIME ZONE, or TIME";

    /** TIME(precision): a time of day, kept to {@code precision} fraction digits (at most 3). */
    public static ColumnType time(int precision) {
        return new ColumnType(Kind.TIME, precision, 0, 0);
    }

    public static ColumnType charType(int length) {
        return new ColumnType(Kind.CHAR, 0, 0, length);
    }

    public static ColumnType varchar(int length) {
        return new ColumnType(Kind.VARCHAR, 0, 0, length);
    }

    /** VARBINARY(length): up to {@code length} bytes. */
    public static ColumnType varbinary(int length) {
        return new ColumnType(Kind.VARBINARY, 0, 0, length);
    }

    public static ColumnType uuid() {
        return new ColumnType(Kind.UUID, 0, 0, 0);
    }

    /**
     * Parses what {@link #toString()} prints, case-insensitively and with optional blanks:
     * {@code BOOLEAN} (or {@code BOOL}), {@code TINYINT} (or {@code INT1}), {@code SMALLINT} (or
     * {@code INT2}), {@code INTEGER} (or {@code INT}, {@code INT4}), {@code BIGINT} (or {@code
     * INT8}), {@code REAL} (or {@code FLOAT4}, {@code FLOAT(p)} for p &lt;= 24), {@code DOUBLE} (or
     * {@code DOUBLE PRECISION}, {@code FLOAT8}, {@code FLOAT}, {@code FLOAT(p)} for p &gt; 24),
     * {@code DECIMAL(p)} or {@code DECIMAL(p,s)} (or {@code NUMERIC}; scale 0 when left out),
     * {@code DATE}, {@code TIMESTAMP} or {@code TIMESTAMP(p)} (or {@code DATETIME}, and either with
     * {@code WITHOUT TIME ZONE}), {@code TIME} or {@code TIME(p)} (also {@code WITHOUT TIME ZONE}),
     * {@code CHAR(n)}, {@code VARCHAR(n)}, {@code VARBINARY(n)} (or {@code BINARY VARYING(n)}), {@code UUID}.
     */
    public static ColumnType parse(String spec) {
        Objects.requireNonNull(spec, "spec");
        if (DOUBLE_PRECISION.matcher(spec).matches()) {
            return doubleType();
        }
        Matcher zoned = ZONED.matcher(spec);
        if (zoned.matches()) {
            boolean timestamp = zoned.group(1).toUpperCase(Locale.ROOT).startsWith("TIMESTAMP");
            if (zoned.group(2).equalsIgnoreCase("WITHOUT")) {
                if (zoned.group(3) != null) {
                    throw bad(spec, "write WITHOUT TIME ZONE (or nothing)");
                }
                return parse(zoned.group(1));
            }
            if (!timestamp) {
                throw bad(spec, TIME_WITH_TIME_ZONE_REFUSED);
            }
            ColumnType local = parse(zoned.group(1));
            return timestampTz(local.precision());
        }
        Matcher varying = BINARY_VARYING.matcher(spec);
        if (varying.matches()) {
            return parse("VARBINARY" + varying.group(1));
        }
        Matcher m = SPEC.matcher(spec);
        if (!m.matches()) {
            throw bad(spec, "expected a type name with optional parameters, such as INTEGER, VARCHAR(25) or DECIMAL(15,2)");
        }
        String name = m.group(1).toUpperCase(Locale.ROOT);
        Integer first = parameter(m.group(2), spec);
        Integer second = parameter(m.group(3), spec);
        if (name.equals("FLOAT")) {
            return floatType(first, second, spec);
        }
        Kind kind = switch (name) {
            case "BOOL" -> Kind.BOOLEAN;
            case "INT1" -> Kind.TINYINT;
            case "INT2" -> Kind.SMALLINT;
            case "INT", "INT4" -> Kind.INTEGER;
            case "INT8" -> Kind.BIGINT;
            case "FLOAT4" -> Kind.REAL;
            case "FLOAT8" -> Kind.DOUBLE;
            case "NUMERIC" -> Kind.DECIMAL;
            case "DATETIME" -> Kind.TIMESTAMP;
            case "TIMESTAMPTZ" -> Kind.TIMESTAMP_TZ;
            case "TIMESTAMP_TZ" -> throw bad(spec, "unknown type TIMESTAMP_TZ: write TIMESTAMP WITH TIME ZONE or TIMESTAMPTZ");
            case "BINARY" -> throw bad(spec, "BINARY(n) would pad its values with zero bytes to n: use VARBINARY(n)");
            default -> kindNamed(name, spec);
        };
        try {
            return switch (kind) {
                case DECIMAL -> {
                    if (first == null) {
                        throw new IllegalArgumentException("DECIMAL needs a precision: DECIMAL(p) or DECIMAL(p,s)");
                    }
                    yield decimal(first, second == null ? 0 : second);
                }
                case TIMESTAMP, TIMESTAMP_TZ, TIME -> {
                    if (second != null) {
                        throw new IllegalArgumentException(kind + " takes one parameter, its fraction digits: " + kind + "(p)");
                    }
                    yield new ColumnType(kind, first == null ? MAX_TIMESTAMP_PRECISION : first, 0, 0);
                }
                case CHAR, VARCHAR, VARBINARY -> {
                    if (first == null || second != null) {
                        throw new IllegalArgumentException(kind + " takes exactly one parameter, its length: "
                                + kind + "(n)");
                    }
                    yield new ColumnType(kind, 0, 0, first);
                }
                default -> {
                    if (first != null) {
                        throw new IllegalArgumentException(kind + " takes no parameters");
                    }
                    yield new ColumnType(kind, 0, 0, 0);
                }
            };
        } catch (IllegalArgumentException e) {
            throw bad(spec, e.getMessage());
        }
    }

    /**
     * FLOAT and FLOAT(p) for 25 &lt;= p &lt;= 53 are DOUBLE, FLOAT(p) with fewer binary digits is REAL,
     * as in PostgreSQL (SQL leaves the choice to the implementation, at least p digits).
     */
    private static ColumnType floatType(Integer precision, Integer second, String spec) {
        if (second != null || (precision != null && (precision < 1 || precision > 53))) {
            throw bad(spec, "FLOAT takes one parameter, its binary digits from 1 to 53: FLOAT or FLOAT(p)");
        }
        return precision != null && precision <= 24 ? real() : doubleType();
    }

    private static Kind kindNamed(String name, String spec) {
        for (Kind k : Kind.values()) {
            if (k.name().equals(name)) {
                return k;
            }
        }
        throw bad(spec, "unknown type " + name
                + "; known: BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL(p,s), DATE, TIMESTAMP(p), TIME(p), CHAR(n),"
                + " VARCHAR(n), VARBINARY(n), UUID");
    }

    private static Integer parameter(String digits, String spec) {
        if (digits == null) {
            return null;
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw bad(spec, "parameter " + digits + " is too large");
        }
    }

    private static IllegalArgumentException bad(String spec, String why) {
        return new IllegalArgumentException("bad column type '" + spec + "': " + why);
    }

    public StorageKind storageKind() {
        return kind.storageKind();
    }

    /** SQL spelling, e.g. {@code DECIMAL(15,2)}, {@code VARCHAR(25)}, {@code DATE}; {@link #parse} reads it back. */
    @Override
    public String toString() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case TIMESTAMP, TIME -> kind + "(" + precision + ")";
            case TIMESTAMP_TZ -> "TIMESTAMP(" + precision + ") WITH TIME ZONE";
            case CHAR, VARCHAR, VARBINARY -> kind + "(" + length + ")";
            default -> kind.name();
        };
    }

    // ---- Java value -> stored value

    /**
     * The stored long of a BOOLEAN (Boolean), TINYINT, SMALLINT, INTEGER or BIGINT (Integer, Long, Short, Byte,
     * BigInteger, or a BigDecimal without fraction, in range), DECIMAL (BigDecimal, Long, Integer,
     * Short, Byte, BigInteger, a finite Double or Float taken at its shortest decimal form, or a
     * String BigDecimal can parse), DATE (LocalDate, java.sql.Date, or an ISO String yyyy-mm-dd) or
     * TIMESTAMP (LocalDateTime, java.sql.Timestamp as its wall-clock time, LocalDate as its
     * midnight, or a String yyyy-mm-dd hh:mm:ss[.fraction], with a space or T, or yyyy-mm-dd) or
     * TIME (LocalTime, java.sql.Time, or a String hh:mm[:ss[.fraction]]).
     */
    public long toLong(Object value) {
        return toLong(value, ZoneOffset.UTC);
    }

    /**
     * {@link #toLong(Object)}, where a TIMESTAMP WITH TIME ZONE given without an offset (a String
     * without one, a LocalDateTime, a LocalDate) is read in {@code zone}: a wall-clock time that
     * daylight saving skips moves forward by the gap, one it repeats is the later instant (standard
     * time), as DuckDB and PostgreSQL read them. Its other inputs: Instant, OffsetDateTime,
     * ZonedDateTime, java.sql.Timestamp (an instant, as JDBC has it) and a String
     * {@code yyyy-mm-dd hh:mm:ss[.fraction]} followed by an offset ({@code Z}, {@code +01}, {@code
     * -05:30}) or a zone name ({@code UTC}, {@code America/New_York}).
     */
    public long toLong(Object value, ZoneId zone) {
        requireStorage(StorageKind.LONG, "toLong");
        requireNonNullValue(value);
        return switch (kind) {
            case BOOLEAN -> {
                if (value instanceof Boolean b) {
                    yield b ? 1 : 0;
                }
                throw wrongType(value, "a Boolean");
            }
            case TINYINT, SMALLINT, INTEGER, BIGINT -> integral(value);
            case DECIMAL -> unscaled(value);
            case DATE -> epochDay(value);
            case TIMESTAMP -> epochMilli(value);
            case TIMESTAMP_TZ -> instantMilli(value, zone);
            case TIME -> milliOfDay(value);
            default -> throw new AssertionError(kind);
        };
    }

    /** Whether a whole number lies in the range of this integer type (any long for the other types). */
    public boolean holds(long value) {
        return switch (kind) {
            case TINYINT -> value == (byte) value;
            case SMALLINT -> value == (short) value;
            case INTEGER -> value == (int) value;
            default -> true;
        };
    }

    /**
     * The stored double of a DOUBLE or REAL: any Number, a REAL's rounded to the nearest float; NaN
     * and infinities are values, overflow to infinity is not.
     */
    public double toDouble(Object value) {
        requireStorage(StorageKind.DOUBLE, "toDouble");
        requireNonNullValue(value);
        if (!(value instanceof Number n)) {
            throw wrongType(value, "a Number");
        }
        boolean infinityGiven = value instanceof Double x ? x.isInfinite() : value instanceof Float f && f.isInfinite();
        double d = kind == Kind.REAL ? n.floatValue() : n.doubleValue();
        if (Double.isInfinite(d) && !infinityGiven) {
            throw outOfRange(value);
        }
        return d;
    }

    /**
     * The stored string of a CHAR (trailing spaces stripped) or VARCHAR (a String, checked against
     * the length in code points), a VARBINARY (a byte[], checked against the length in bytes) or a
     * UUID (a java.util.UUID, or a String of 32 hex digits, hyphens between the groups 8-4-4-4-12
     * or none, braces around them or none).
     */
    public String toStringValue(Object value) {
        requireStorage(StorageKind.STRING, "toStringValue");
        requireNonNullValue(value);
        if (kind == Kind.VARBINARY) {
            return binary(value);
        }
        if (kind == Kind.UUID) {
            return uuid(value);
        }
        if (!(value instanceof String s)) {
            throw wrongType(value, "a String");
        }
        String stored = kind == Kind.CHAR ? stripTrailingSpaces(s) : s;
        Utf8.checkWellFormed(stored);
        if (stored.length() > length) {
            int codePoints = stored.codePointCount(0, stored.length());
            if (codePoints > length) {
                throw new IllegalArgumentException(Describe.value(s) + " (" + codePoints + " characters) is longer than "
                        + this);
            }
        }
        return stored;
    }

    private String binary(Object value) {
        if (!(value instanceof byte[] bytes)) {
            throw wrongType(value, "a byte[]");
        }
        if (bytes.length > length) {
            throw new IllegalArgumentException(Describe.value(value) + " (" + bytes.length + " bytes) is longer than " + this);
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private String uuid(Object value) {
        return switch (value) {
            case java.util.UUID u -> u.toString();
            case String s -> {
                Matcher m = UUID_TEXT.matcher(s.strip());
                if (!m.matches()) {
                    throw new IllegalArgumentException(Describe.value(s) + " is not a valid UUID (expected 32 hex digits"
                            + " as 8-4-4-4-12, such as 123e4567-e89b-12d3-a456-426614174000)");
                }
                yield (m.group(1) + '-' + m.group(2) + '-' + m.group(3) + '-' + m.group(4) + '-' + m.group(5)).toLowerCase(Locale.ROOT);
            }
            default -> throw wrongType(value, "a java.util.UUID or a String such as 123e4567-e89b-12d3-a456-426614174000");
        };
    }

    /**
     * The bytes of a VARBINARY written as text: {@code \x} and two hex digits per byte, as
     * PostgreSQL writes a bytea ({@code \x0102ff}); the empty value is {@code \x}.
     */
    public static byte[] binaryFromText(String text) {
        String t = text.strip();
        if (!t.startsWith("\\x") || t.length() % 2 != 0) {
            throw new IllegalArgumentException(Describe.value(text) + " is not a valid VARBINARY text: expected \\x and two hex"
                    + " digits per byte, such as \\x0102ff");
        }
        byte[] bytes = new byte[(t.length() - 2) / 2];
        for (int i = 0; i < bytes.length; i++) {
            int hi = Character.digit(t.charAt(2 + 2 * i), 16);
            int lo = Character.digit(t.charAt(3 + 2 * i), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException(Describe.value(text) + " is not a valid VARBINARY text: '"
                        + t.substring(2 + 2 * i, 4 + 2 * i) + "' is not two hex digits");
            }
            bytes[i] = (byte) (hi << 4 | lo);
        }
        return bytes;
    }

    private static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private long integral(Object value) {
        long v = switch (value) {
            case Integer i -> i;
            case Long l -> l;
            case Short s -> s;
            case Byte b -> b;
            case BigInteger b -> {
                if (b.bitLength() > 63) {
                    throw outOfRange(value);
                }
                yield b.longValue();
            }
            case BigDecimal d -> wholeNumber(d);
            default -> throw wrongType(value, "an Integer, Long, Short, Byte, BigInteger or a BigDecimal without fraction");
        };
        if (!holds(v)) {
            throw outOfRange(value);
        }
        return v;
    }

    private long wholeNumber(BigDecimal d) {
        if (d.signum() == 0) {
            return 0;
        }
        // Digits before the point, checked first so 1E+999999999 fails without being expanded.
        if ((long) d.precision() - d.scale() > 19) {
            throw outOfRange(d);
        }
        BigDecimal stripped = d.stripTrailingZeros();
        if (stripped.scale() > 0) {
            throw new IllegalArgumentException("value " + d + " is not a whole number, as " + this + " requires");
        }
        try {
            return stripped.longValueExact();
        } catch (ArithmeticException e) {
            throw outOfRange(d);
        }
    }

    private long unscaled(Object value) {
        BigDecimal d = switch (value) {
            case BigDecimal b -> b;
            case Long l -> BigDecimal.valueOf(l);
            case Integer i -> BigDecimal.valueOf(i);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case BigInteger b -> new BigDecimal(b);
            case Double x when Double.isFinite(x) -> BigDecimal.valueOf(x);
            case Float x when Float.isFinite(x) -> new BigDecimal(x.toString());
            case Double _, Float _ -> throw notFinite(value);
            case String s -> {
                try {
                    yield new BigDecimal(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(Describe.value(s) + " is not a number, as " + this + " requires");
                }
            }
            default -> throw wrongType(value,
                    "a BigDecimal, Long, Integer, Short, Byte, BigInteger, finite Double or Float, or a numeric String");
        };
        if (d.signum() == 0) {
            return 0;
        }
        // Decide by magnitude before setScale, which would expand 1E+999999999 or 1E-999999999.
        long integerDigits = (long) d.precision() - d.scale();
        if (integerDigits > precision - scale) {
            throw doesNotFit(value);
        }
        if (integerDigits <= -scale - 1) {
            return 0; // below half a unit of the last place: rounds to zero
        }
        BigDecimal rounded = d.setScale(scale, RoundingMode.HALF_UP);
        if (rounded.precision() > precision) {
            throw doesNotFit(value); // rounding carried into a new digit, e.g. 999.995 -> 1000.00
        }
        return rounded.unscaledValue().longValue();
    }

    private long epochDay(Object value) {
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
            default -> throw wrongType(value, "a LocalDate, java.sql.Date or an ISO date String yyyy-mm-dd");
        };
        return date.toEpochDay();
    }

    private long epochMilli(Object value) {
        LocalDateTime time = switch (value) {
            case LocalDateTime t -> t;
            case Timestamp t -> t.toLocalDateTime();
            case LocalDate d -> d.atStartOfDay();
            case String s -> parseTimestamp(s);
            default -> throw wrongType(value,
                    "a LocalDateTime, java.sql.Timestamp, LocalDate or a String yyyy-mm-dd hh:mm:ss[.fraction]");
        };
        return roundedMillis(time.toEpochSecond(ZoneOffset.UTC), time.get(ChronoField.NANO_OF_SECOND), value);
    }

    /**
     * Seconds and nanoseconds since the epoch as milliseconds, the nanoseconds rounded half up to
     * the precision (as PostgreSQL does, and Calcite for a literal), in the years 1 to 9999.
     */
    private long roundedMillis(long epochSecond, int nanoOfSecond, Object value) {
        long unitNanos = POWERS_OF_TEN[9 - precision];
        long nanos = (nanoOfSecond + unitNanos / 2) / unitNanos * unitNanos;
        long millis;
        try {
            millis = Math.addExact(Math.multiplyExact(epochSecond, 1000L), nanos / 1_000_000);
        } catch (ArithmeticException e) {
            throw outOfRange(value);
        }
        if (millis < MIN_TIMESTAMP || millis > MAX_TIMESTAMP) {
            throw outOfRange(value);
        }
        return millis;
    }

    private long instantMilli(Object value, ZoneId zone) {
        Instant instant = switch (value) {
            case Instant i -> i;
            case OffsetDateTime t -> t.toInstant();
            case ZonedDateTime t -> t.toInstant();
            case Timestamp t -> t.toInstant();
            case LocalDateTime t -> t.atZone(zone).withLaterOffsetAtOverlap().toInstant();
            case LocalDate d -> d.atStartOfDay(zone).withLaterOffsetAtOverlap().toInstant();
            case String s -> parseInstant(s, zone);
            default -> throw wrongType(value, "an Instant, OffsetDateTime, ZonedDateTime, java.sql.Timestamp, LocalDateTime"
                    + " or a String yyyy-mm-dd hh:mm:ss[.fraction][offset]");
        };
        return roundedMillis(instant.getEpochSecond(), instant.getNano(), value);
    }

    private Instant parseInstant(String s, ZoneId zone) {
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
            return parseTimestamp(t).atZone(at).withLaterOffsetAtOverlap().toInstant();
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

    private long milliOfDay(Object value) {
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
            default -> throw wrongType(value, "a LocalTime, java.sql.Time or a String hh:mm[:ss[.fraction]]");
        };
        long unitNanos = POWERS_OF_TEN[9 - precision];
        long nanos = (time.toNanoOfDay() + unitNanos / 2) / unitNanos * unitNanos;
        long millis = nanos / 1_000_000;
        if (millis >= MILLIS_PER_DAY) {
            throw outOfRange(value); // rounds up to 24:00, which is no time of day
        }
        return millis;
    }

    private LocalDateTime parseTimestamp(String s) {
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

    // ---- stored value -> Java value

    /**
     * BOOLEAN -> Boolean, TINYINT -> Byte, SMALLINT -> Short, INTEGER -> Integer, BIGINT -> Long,
     * DECIMAL -> BigDecimal with scale s, DATE -> LocalDate, TIMESTAMP -> LocalDateTime,
     * TIMESTAMP WITH TIME ZONE -> Instant, TIME -> LocalTime.
     */
    public Object toJava(long stored) {
        requireStorage(StorageKind.LONG, "toJava(long)");
        return switch (kind) {
            case BOOLEAN -> {
                if (stored != 0 && stored != 1) {
                    throw badStored(stored, "0 or 1");
                }
                yield stored == 1;
            }
            case TINYINT -> {
                if (stored != (byte) stored) {
                    throw badStored(stored, "an 8-bit integer");
                }
                yield (byte) stored;
            }
            case SMALLINT -> {
                if (stored != (short) stored) {
                    throw badStored(stored, "a 16-bit integer");
                }
                yield (short) stored;
            }
            case INTEGER -> {
                if (stored != (int) stored) {
                    throw badStored(stored, "a 32-bit integer");
                }
                yield (int) stored;
            }
            case BIGINT -> stored;
            case DECIMAL -> {
                long limit = POWERS_OF_TEN[precision];
                if (stored <= -limit || stored >= limit) {
                    throw badStored(stored, "an unscaled value of at most " + precision + " digits");
                }
                yield BigDecimal.valueOf(stored, scale);
            }
            case DATE -> {
                try {
                    yield LocalDate.ofEpochDay(stored);
                } catch (DateTimeException e) {
                    throw badStored(stored, "an epoch day within LocalDate's range");
                }
            }
            case TIMESTAMP -> {
                if (stored < MIN_TIMESTAMP || stored > MAX_TIMESTAMP) {
                    throw badStored(stored, "epoch milliseconds of a time in the years 1 to 9999");
                }
                yield wallClock(stored);
            }
            case TIMESTAMP_TZ -> {
                if (stored < MIN_TIMESTAMP || stored > MAX_TIMESTAMP) {
                    throw badStored(stored, "epoch milliseconds of an instant in the years 1 to 9999");
                }
                yield Instant.ofEpochMilli(stored);
            }
            case TIME -> {
                if (stored < 0 || stored >= MILLIS_PER_DAY) {
                    throw badStored(stored, "milliseconds of a day");
                }
                yield LocalTime.ofNanoOfDay(stored * 1_000_000);
            }
            default -> throw new AssertionError(kind);
        };
    }

    /** DOUBLE -> Double, REAL -> Float. */
    public Object toJava(double stored) {
        requireStorage(StorageKind.DOUBLE, "toJava(double)");
        if (kind == Kind.REAL) {
            float f = (float) stored;
            if (f != stored && !Double.isNaN(stored)) {
                throw new IllegalArgumentException("stored value " + stored + " is not a " + this + " value: expected a float");
            }
            return f;
        }
        return stored;
    }

    /** CHAR, VARCHAR -> the String as stored (a CHAR without its trailing spaces), VARBINARY -> byte[], UUID -> java.util.UUID. */
    public Object toJava(String stored) {
        requireStorage(StorageKind.STRING, "toJava(String)");
        return switch (kind) {
            case VARBINARY -> stored.getBytes(StandardCharsets.ISO_8859_1);
            case UUID -> java.util.UUID.fromString(stored);
            default -> stored;
        };
    }

    private void requireStorage(StorageKind expected, String method) {
        if (kind.storageKind() != expected) {
            throw new UnsupportedOperationException(this + " values are stored as " + kind.storageKind()
                    + ", not " + expected + ": " + method + " does not apply");
        }
    }

    private void requireNonNullValue(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("null is not a " + this + " value (a SQL NULL is not encoded as a value)");
        }
    }

    private IllegalArgumentException wrongType(Object value, String expected) {
        return new IllegalArgumentException("value " + Describe.value(value) + " (" + value.getClass().getName()
                + ") cannot be stored as " + this + ": expected " + expected);
    }

    private IllegalArgumentException outOfRange(Object value) {
        return new IllegalArgumentException("value " + Describe.value(value) + " is out of range for " + this);
    }

    private IllegalArgumentException doesNotFit(Object value) {
        return new IllegalArgumentException(Describe.value(value) + " does not fit " + this);
    }

    private IllegalArgumentException notFinite(Object value) {
        return new IllegalArgumentException("value " + value + " is not a finite number, as " + this + " requires");
    }

    private IllegalArgumentException badStored(long stored, String expected) {
        return new IllegalArgumentException("stored value " + stored + " is not a " + this + " value: expected "
                + expected);
    }
}
