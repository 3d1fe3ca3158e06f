package io.numacol.storage.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.ZoneId;

/**
 * The integer types TINYINT (8-bit), SMALLINT (16-bit), INTEGER (32-bit) and BIGINT (64-bit):
 * stored as the value itself, each checked against its range. They differ only in that range
 * and the Java class a value reads back as, which the subclasses give.
 */
public abstract sealed class IntegralCodec implements StoredAsLong permits TinyintCodec, SmallintCodec, IntegerCodec, BigintCodec {

    IntegralCodec() {
    }

    /** A whole number of the type's range as the Java class the type reads back as (Byte, Short, Integer, Long). */
    abstract Object box(long value);

    /** What the stored long of a value must be, for messages. */
    abstract String describeRange();

    @Override
    public final boolean numeric() {
        return true;
    }

    @Override
    public final Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return Long.parseLong(text.strip());
    }

    /** An Integer, Long, Short, Byte, BigInteger, or a BigDecimal without fraction, in range. */
    @Override
    public final long toLong(ColumnType type, Object value, ZoneId zone) {
        long v = switch (value) {
            case Integer i -> i;
            case Long l -> l;
            case Short s -> s;
            case Byte b -> b;
            case BigInteger b -> {
                if (b.bitLength() > 63) {
                    throw ValueErrors.outOfRange(type, value);
                }
                yield b.longValue();
            }
            case BigDecimal d -> wholeNumber(type, d);
            default -> throw ValueErrors.wrongType(type, value,
                    "an Integer, Long, Short, Byte, BigInteger or a BigDecimal without fraction");
        };
        if (!holds(v)) {
            throw ValueErrors.outOfRange(type, value);
        }
        return v;
    }

    private static long wholeNumber(ColumnType type, BigDecimal d) {
        if (d.signum() == 0) {
            return 0;
        }
        // Digits before the point, checked first so 1E+999999999 fails without being expanded.
        if ((long) d.precision() - d.scale() > 19) {
            throw ValueErrors.outOfRange(type, d);
        }
        BigDecimal stripped = d.stripTrailingZeros();
        if (stripped.scale() > 0) {
            throw new IllegalArgumentException("value " + d + " is not a whole number, as " + type + " requires");
        }
        try {
            return stripped.longValueExact();
        } catch (ArithmeticException e) {
            throw ValueErrors.outOfRange(type, d);
        }
    }

    @Override
    public final Object toJava(ColumnType type, long stored) {
        if (!holds(stored)) {
            throw ValueErrors.badStored(type, stored, describeRange());
        }
        return box(stored);
    }

    @Override
    public final Object internal(ColumnType type, long stored) {
        return box(stored);
    }
}
