package io.numacol.storage.types;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * The SQL type of a column: its kind and parameters. What a kind is beyond its parameters (its
 * names, how it is stored, how values are read and converted) is its {@link #codec()}, one class
 * per type in {@link io.numacol.storage.types}, where each codec says how its values are encoded
 * for the dictionary.
 *
 * <p>{@code precision} and {@code scale} are 0 for all but DECIMAL, TIMESTAMP and TIME, {@code length}
 * is 0 for all but CHAR, VARCHAR and VARBINARY ({@link io.numacol.storage.types.TypeParameters}).
 * The conversion methods take the natural Java types of a kind and throw IllegalArgumentException
 * naming the value and the type for anything else; a null value is rejected too, since a SQL NULL
 * is not encoded as a value.
 */
public record ColumnType(Kind kind, int precision, int scale, int length) {

    /** The largest DECIMAL precision: 10^18 - 1 is the largest all-nines number a long holds. */
    public static final int MAX_DECIMAL_PRECISION = DecimalCodec.MAX_PRECISION;
    /** The largest TIMESTAMP and TIME precision: values are kept to the millisecond, as Calcite computes with them. */
    public static final int MAX_TIMESTAMP_PRECISION = TimestampCodec.MAX_PRECISION;
    /** Why TIME WITH TIME ZONE is refused, in DDL and in queries. */
    public static final String TIME_WITH_TIME_ZONE_REFUSED = TimeCodec.WITH_TIME_ZONE_REFUSED;

    /** The SQL types; what each is beyond its parameters is its codec. */
    public enum Kind {
        BOOLEAN(StorageKind.LONG), TINYINT(StorageKind.LONG), SMALLINT(StorageKind.LONG), INTEGER(StorageKind.LONG),
        BIGINT(StorageKind.LONG), REAL(StorageKind.DOUBLE), DOUBLE(StorageKind.DOUBLE), DECIMAL(StorageKind.LONG),
        DATE(StorageKind.LONG), TIMESTAMP(StorageKind.LONG), TIMESTAMP_TZ(StorageKind.LONG), TIME(StorageKind.LONG),
        CHAR(StorageKind.STRING), VARCHAR(StorageKind.STRING), VARBINARY(StorageKind.STRING), UUID(StorageKind.STRING);

        /**
         * This kind's storage kind, kept beside the constant (the codec's own, as a test checks):
         * join probes, aggregates and chunk copies ask it per row or per column of every chunk,
         * where the codec's interface call, at a call site that meets every codec class, costs
         * several times the loop's own work.
         */
        private final StorageKind storageKind;

        Kind(StorageKind storageKind) {
            this.storageKind = storageKind;
        }

        /** The one switch over the kinds: every other per-type decision asks the codec, or switches over the sealed codecs. */
        public TypeCodec codec() {
            return switch (this) {
                case BOOLEAN -> BooleanCodec.INSTANCE;
                case TINYINT -> TinyintCodec.INSTANCE;
                case SMALLINT -> SmallintCodec.INSTANCE;
                case INTEGER -> IntegerCodec.INSTANCE;
                case BIGINT -> BigintCodec.INSTANCE;
                case REAL -> RealCodec.INSTANCE;
                case DOUBLE -> DoubleCodec.INSTANCE;
                case DECIMAL -> DecimalCodec.INSTANCE;
                case DATE -> DateCodec.INSTANCE;
                case TIMESTAMP -> TimestampCodec.INSTANCE;
                case TIMESTAMP_TZ -> TimestampTzCodec.INSTANCE;
                case TIME -> TimeCodec.INSTANCE;
                case CHAR -> CharCodec.INSTANCE;
                case VARCHAR -> VarcharCodec.INSTANCE;
                case VARBINARY -> VarbinaryCodec.INSTANCE;
                case UUID -> UuidCodec.INSTANCE;
            };
        }

        public StorageKind storageKind() {
            return storageKind;
        }
    }

    public ColumnType {
        Objects.requireNonNull(kind, "kind");
        kind.codec().parameters().check(kind, precision, scale, length);
    }

    // Factories. booleanType, doubleType and charType carry a suffix because the plain names are Java keywords.

    public static ColumnType booleanType() {
        return new ColumnType(Kind.BOOLEAN, 0, 0, 0);
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

    /** Parses what {@link #toString()} prints, and SQL's other spellings of the types ({@link TypeNames#parse}). */
    public static ColumnType parse(String spec) {
        return TypeNames.parse(spec);
    }

    // Value helpers that callers name by the type they compute for; each lives in its codec.

    /** See {@link DateCodec#inRange}. */
    public static long dateInRange(long epochDay) {
        return DateCodec.inRange(epochDay);
    }

    /** See {@link DateCodec#isEpochDay}. */
    public static boolean isEpochDay(long epochDay) {
        return DateCodec.isEpochDay(epochDay);
    }

    /** See {@link TimestampCodec#inRange}. */
    public static long timestampInRange(long millis) {
        return TimestampCodec.inRange(millis);
    }

    /** See {@link TimestampCodec#wallClock}. */
    public static LocalDateTime wallClock(long epochMilli) {
        return TimestampCodec.wallClock(epochMilli);
    }

    /** See {@link DoubleCodec#parseApproximate}. */
    public static double parseApproximate(String text) {
        return DoubleCodec.parseApproximate(text);
    }

    /** See {@link VarbinaryCodec#fromText}. */
    public static byte[] binaryFromText(String text) {
        return VarbinaryCodec.fromText(text);
    }

    /** What the kind is beyond the parameters: names, storage, parsing and conversions. */
    public TypeCodec codec() {
        return kind.codec();
    }

    public StorageKind storageKind() {
        return kind.storageKind();
    }

    /** SQL spelling, e.g. {@code DECIMAL(15,2)}, {@code VARCHAR(25)}, {@code DATE}; {@link #parse} reads it back. */
    @Override
    public String toString() {
        return kind.codec().spell(this);
    }

    // ---- Java value <-> stored value, by the codec of the storage kind

    /** The stored long of a value of a LONG-stored type ({@link StoredAsLong#toLong}), one without an offset read in UTC. */
    public long toLong(Object value) {
        return toLong(value, ZoneOffset.UTC);
    }

    /** The stored long of a value of a LONG-stored type, a TIMESTAMP WITH TIME ZONE without an offset read in {@code zone}. */
    public long toLong(Object value, ZoneId zone) {
        if (!(kind.codec() instanceof StoredAsLong codec)) {
            throw notStoredAs(StorageKind.LONG, "toLong");
        }
        return codec.toLong(this, nonNull(value), zone);
    }

    /**
     * Whether a whole number lies in the range of this integer type (any long for the other
     * types): what the codec's {@link StoredAsLong#holds} answers (a test checks they agree), by a
     * switch on the kind, because aggregates ask it once per group.
     */
    public boolean holds(long value) {
        return switch (kind) {
            case TINYINT -> value == (byte) value;
            case SMALLINT -> value == (short) value;
            case INTEGER -> value == (int) value;
            default -> true;
        };
    }

    /** The stored double of a DOUBLE or REAL ({@link StoredAsDouble#toDouble}). */
    public double toDouble(Object value) {
        if (!(kind.codec() instanceof StoredAsDouble codec)) {
            throw notStoredAs(StorageKind.DOUBLE, "toDouble");
        }
        return codec.toDouble(this, nonNull(value));
    }

    /** The stored string of a CHAR, VARCHAR, VARBINARY or UUID ({@link StoredAsString#toStringValue}). */
    public String toStringValue(Object value) {
        if (!(kind.codec() instanceof StoredAsString codec)) {
            throw notStoredAs(StorageKind.STRING, "toStringValue");
        }
        return codec.toStringValue(this, nonNull(value));
    }

    /** A stored long as its Java value, e.g. a LocalDate for a DATE ({@link StoredAsLong#toJava}). */
    public Object toJava(long stored) {
        if (!(kind.codec() instanceof StoredAsLong codec)) {
            throw notStoredAs(StorageKind.LONG, "toJava(long)");
        }
        return codec.toJava(this, stored);
    }

    /** A stored double as its Java value: a Double, a Float for REAL. */
    public Object toJava(double stored) {
        if (!(kind.codec() instanceof StoredAsDouble codec)) {
            throw notStoredAs(StorageKind.DOUBLE, "toJava(double)");
        }
        return codec.toJava(this, stored);
    }

    /** A stored string as its Java value: the String for CHAR and VARCHAR, a byte[] for VARBINARY, a java.util.UUID for UUID. */
    public Object toJava(String stored) {
        if (!(kind.codec() instanceof StoredAsString codec)) {
            throw notStoredAs(StorageKind.STRING, "toJava(String)");
        }
        return codec.toJava(this, stored);
    }

    private UnsupportedOperationException notStoredAs(StorageKind expected, String method) {
        return new UnsupportedOperationException(this + " values are stored as " + storageKind()
                + ", not " + expected + ": " + method + " does not apply");
    }

    private Object nonNull(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("null is not a " + this + " value (a SQL NULL is not encoded as a value)");
        }
        return value;
    }
}
