package io.numacol.storage.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.JDBCType;
import java.time.ZoneId;
import java.util.List;

/**
 * DECIMAL(p,s) (or NUMERIC), 1 &lt;= p &lt;= 18, 0 &lt;= s &lt;= p: stored as the unscaled value,
 * so 12.34 in DECIMAL(15,2) is 1234. Inputs are rounded HALF_UP to s digits, then must have at
 * most p digits. p &lt;= 18 keeps every value, and the sum of two, inside a long.
 */
public final class DecimalCodec implements StoredAsLong {
    public static final DecimalCodec INSTANCE = new DecimalCodec();

    /** The largest precision: 10^18 - 1 is the largest all-nines number a long holds. */
    public static final int MAX_PRECISION = 18;

    private static final long[] POWERS_OF_TEN = new long[MAX_PRECISION + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private DecimalCodec() {
    }

    /** 10^{@code digits}, for 0 &lt;= digits &lt;= 18. */
    static long powerOfTen(int digits) {
        return POWERS_OF_TEN[digits];
    }

    @Override
    public String name() {
        return "DECIMAL";
    }

    @Override
    public List<String> aliases() {
        return List.of("NUMERIC");
    }

    @Override
    public TypeParameters parameters() {
        return TypeParameters.PRECISION_AND_SCALE;
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.DECIMAL;
    }

    @Override
    public boolean numeric() {
        return true;
    }

    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return text.strip();
    }

    /** Without an exponent, as SQL writes a DECIMAL (BigDecimal's toString writes 1E-18). */
    @Override
    public String toText(ColumnType type, Object value) {
        return ((BigDecimal) value).toPlainString();
    }

    /**
     * A BigDecimal, Long, Integer, Short, Byte, BigInteger, a finite Double or Float taken at its
     * shortest decimal form, or a String BigDecimal can parse.
     */
    @Override
    public long toLong(ColumnType type, Object value, ZoneId zone) {
        BigDecimal d = switch (value) {
            case BigDecimal b -> b;
            case Long l -> BigDecimal.valueOf(l);
            case Integer i -> BigDecimal.valueOf(i);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case BigInteger b -> new BigDecimal(b);
            case Double x when Double.isFinite(x) -> BigDecimal.valueOf(x);
            case Float x when Float.isFinite(x) -> new BigDecimal(x.toString());
            case Double _, Float _ -> throw ValueErrors.notFinite(type, value);
            case String s -> {
                try {
                    yield new BigDecimal(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(Describe.value(s) + " is not a number, as " + type + " requires");
                }
            }
            default -> throw ValueErrors.wrongType(type, value,
                    "a BigDecimal, Long, Integer, Short, Byte, BigInteger, finite Double or Float, or a numeric String");
        };
        if (d.signum() == 0) {
            return 0;
        }
        // Decide by magnitude before setScale, which would expand 1E+999999999 or 1E-999999999.
        long integerDigits = (long) d.precision() - d.scale();
        if (integerDigits > type.precision() - type.scale()) {
            throw ValueErrors.doesNotFit(type, value);
        }
        if (integerDigits <= -type.scale() - 1) {
            return 0; // below half a unit of the last place: rounds to zero
        }
        BigDecimal rounded = d.setScale(type.scale(), RoundingMode.HALF_UP);
        if (rounded.precision() > type.precision()) {
            throw ValueErrors.doesNotFit(type, value); // rounding carried into a new digit, e.g. 999.995 -> 1000.00
        }
        return rounded.unscaledValue().longValue();
    }

    /** A BigDecimal with the type's scale. */
    @Override
    public Object toJava(ColumnType type, long stored) {
        long limit = POWERS_OF_TEN[type.precision()];
        if (stored <= -limit || stored >= limit) {
            throw ValueErrors.badStored(type, stored, "an unscaled value of at most " + type.precision() + " digits");
        }
        return BigDecimal.valueOf(stored, type.scale());
    }

    @Override
    public Object internal(ColumnType type, long stored) {
        return BigDecimal.valueOf(stored, type.scale());
    }
}
