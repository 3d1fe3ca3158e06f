package io.numacol.calcite;

import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * numacol column types as Calcite types, and computed values as Calcite's internal Java values
 * (DATE as days since the epoch in an int, TIMESTAMP as milliseconds since the epoch in a long,
 * TIME as milliseconds of the day in an int,
 * DECIMAL as BigDecimal; stored values: {@link io.numacol.exec.InternalValues}). A VARBINARY and a
 * UUID are kept as strings inside numacol's operators (see {@link ColumnType}) and leave them as
 * the ByteString and the java.util.UUID Calcite computes with ({@link #fromKept}).
 */
public final class SqlTypes {
    private SqlTypes() {
    }

    public static RelDataType toRelType(RelDataTypeFactory factory, ColumnType type, boolean nullable) {
        // the codec names the Calcite type (a CHAR is a VARCHAR to Calcite, see CharCodec), its parameters say which to pass
        SqlTypeName name = SqlTypeName.valueOf(type.codec().calciteTypeName());
        RelDataType t = switch (type.codec().parameters()) {
            case NONE -> factory.createSqlType(name);
            case PRECISION_AND_SCALE -> factory.createSqlType(name, type.precision(), type.scale());
            case FRACTION_DIGITS -> factory.createSqlType(name, type.precision());
            case LENGTH -> factory.createSqlType(name, type.length());
        };
        return factory.createTypeWithNullability(t, nullable);
    }

    /** A row type of {@code schema}'s columns, in order, by name, NOT NULL where they are; more fields may follow. */
    public static RelDataTypeFactory.Builder columns(RelDataTypeFactory factory, TableSchema schema) {
        RelDataTypeFactory.Builder b = factory.builder();
        for (TableSchema.ColumnDef c : schema.columns()) {
            b.add(c.name(), toRelType(factory, c.type(), c.nullable()));
        }
        return b;
    }

    /** The numacol type a Calcite type stands for, or null when numacol has none. */
    public static ColumnType toColumnType(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> ColumnType.booleanType();
            case TINYINT -> ColumnType.tinyint();
            case SMALLINT -> ColumnType.smallint();
            case INTEGER -> ColumnType.integer();
            case BIGINT -> ColumnType.bigint();
            case REAL -> ColumnType.real();
            case DOUBLE, FLOAT -> ColumnType.doubleType();
            case DECIMAL -> type.getPrecision() <= ColumnType.MAX_DECIMAL_PRECISION
                    ? ColumnType.decimal(type.getPrecision(), type.getScale()) : null;
            case DATE -> ColumnType.date();
            case TIMESTAMP -> ColumnType.timestamp(Math.min(type.getPrecision(), ColumnType.MAX_TIMESTAMP_PRECISION));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ColumnType.timestampTz(Math.min(type.getPrecision(), ColumnType.MAX_TIMESTAMP_PRECISION));
            case TIME -> ColumnType.time(Math.min(type.getPrecision(), ColumnType.MAX_TIMESTAMP_PRECISION));
            case CHAR -> ColumnType.charType(Math.max(1, type.getPrecision())); // the empty literal is a CHAR(0)
            case VARCHAR -> ColumnType.varchar(Math.max(1, type.getPrecision()));
            case BINARY, VARBINARY -> ColumnType.varbinary(Math.max(1, type.getPrecision()));
            case UUID -> ColumnType.uuid();
            default -> null;
        };
    }

    /**
     * A computed number as the internal value of {@code type}: the Java class Calcite's generated
     * code casts to, decimals at the type's scale. Other values pass unchanged.
     */
    public static Object toInternal(Object value, RelDataType type) {
        if (!(value instanceof Number n)) {
            return value;
        }
        return switch (type.getSqlTypeName()) {
            case TINYINT -> (byte) exact(n, Byte.MIN_VALUE, Byte.MAX_VALUE, type);
            case SMALLINT -> (short) exact(n, Short.MIN_VALUE, Short.MAX_VALUE, type);
            case INTEGER -> (int) exact(n, Integer.MIN_VALUE, Integer.MAX_VALUE, type);
            case BIGINT -> exact(n, Long.MIN_VALUE, Long.MAX_VALUE, type);
            case DOUBLE, FLOAT -> n.doubleValue();
            case REAL -> n.floatValue();
            case DECIMAL -> {
                BigDecimal d = n instanceof BigDecimal b ? b
                        : n instanceof Double || n instanceof Float ? BigDecimal.valueOf(n.doubleValue()) : BigDecimal.valueOf(n.longValue());
                yield d.setScale(type.getScale(), RoundingMode.HALF_UP);
            }
            default -> value;
        };
    }

    /** Whether values of {@code type} leave numacol's operators as another class than the String they are kept in. */
    public static boolean keptAsString(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BINARY, VARBINARY, UUID -> true;
            default -> false;
        };
    }

    /** A value numacol's operators keep as a String (a VARBINARY's ISO 8859-1 chars, a UUID's text) as Calcite's internal value. */
    public static Object fromKept(Object value, RelDataType type) {
        if (!(value instanceof String s)) {
            return value;
        }
        return switch (type.getSqlTypeName()) {
            case BINARY, VARBINARY -> new ByteString(s.getBytes(StandardCharsets.ISO_8859_1));
            case UUID -> UUID.fromString(s);
            default -> value;
        };
    }

    /**
     * A VARBINARY (ByteString, byte[]) or UUID (java.util.UUID) value as numacol's operators keep
     * it; any other value as it is.
     */
    public static Object toKept(Object value) {
        return switch (value) {
            case ByteString b -> new String(b.getBytes(), StandardCharsets.ISO_8859_1);
            case byte[] b -> new String(b, StandardCharsets.ISO_8859_1);
            case UUID u -> u.toString();
            case null, default -> value;
        };
    }

    /** An integer value in {@code [min, max]}, fractions cut off; out of range is an overflow, never a wrapped value. */
    private static long exact(Number n, long min, long max, RelDataType type) {
        boolean inRange = switch (n) {
            case BigDecimal b -> b.compareTo(BigDecimal.valueOf(min)) >= 0 && b.compareTo(BigDecimal.valueOf(max)) <= 0;
            case Double d -> d >= min && d <= max;
            case Float f -> f >= min && f <= max;
            default -> n.longValue() >= min && n.longValue() <= max;
        };
        if (!inRange) {
            throw new ArithmeticException(type.getSqlTypeName() + " overflow: " + n + " is out of its range [" + min + ", " + max + "]");
        }
        return n.longValue();
    }
}
