package io.numacol.exec;

import io.numacol.storage.Column;
import io.numacol.storage.DoubleDictionary;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StoredAsDouble;
import io.numacol.storage.types.StoredAsLong;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Stored values as the internal Java values SQL engines (Calcite) compute with: BOOLEAN as
 * Boolean, INTEGER, DATE (epoch day) and TIME (milliseconds of the day) as Integer, BIGINT and
 * TIMESTAMP (epoch milliseconds) as Long, DECIMAL as BigDecimal, REAL as Float, DOUBLE as
 * Double, CHAR/VARCHAR as String.
 */
public final class InternalValues {
    private InternalValues() {
    }

    /**
     * A stored long (see {@link ColumnType#storageKind()}) as its internal value: what {@link
     * StoredAsLong#internal} answers (a test checks they agree), by a switch on the kind, because
     * results are read here a value at a time, where the codec's interface call at a site that
     * meets every codec class costs more than the conversion.
     */
    public static Object ofStored(ColumnType type, long stored) {
        return switch (type.kind()) {
            case BOOLEAN -> stored != 0;
            case TINYINT -> (byte) stored;
            case SMALLINT -> (short) stored;
            case INTEGER, DATE, TIME -> (int) stored;
            case DECIMAL -> BigDecimal.valueOf(stored, type.scale());
            default -> stored;
        };
    }

    /**
     * A stored double as its internal value, what {@link StoredAsDouble#internal} answers: a Float
     * for REAL, and never -0.0 (+ 0.0 turns it into 0.0, equal in SQL but two keys to the hash sets
     * of Calcite's operators).
     */
    public static Object ofStored(ColumnType type, double stored) {
        if (type.kind() == ColumnType.Kind.REAL) {
            return (float) stored + 0.0f; // not in a ?: with the double, which would promote it back
        }
        return stored + 0.0;
    }

    /** The stored long of a non-null internal value of a LONG-stored type (the inverse of {@link #ofStored}). */
    public static long toStored(ColumnType type, Object value) {
        return switch (value) {
            case Boolean b -> b ? 1 : 0;
            case BigDecimal d -> {
                BigInteger unscaled = d.setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue();
                if (unscaled.bitLength() > 63) {
                    throw new ArithmeticException("numeric value out of range: " + d.toPlainString()
                            + " has more digits than numacol's operators carry between them (18 of a DECIMAL; a SUM past that "
                            + "is exact only where no further operator reads it)");
                }
                yield unscaled.longValue();
            }
            case Number n -> type.scale() == 0 ? n.longValue()
                    : BigDecimal.valueOf(n.longValue()).setScale(type.scale()).unscaledValue().longValueExact();
            default -> throw new IllegalArgumentException(value + " is not an internal value of " + type);
        };
    }

    /**
     * Compares two non-null internal values of one type as numacol orders them: strings in
     * code point order, as dictionaries sort them (so a MIN found on vids in one part agrees with
     * the merge across parts), numbers of two classes by value (a SUM computed on boxed values
     * is a Long until it leaves a long, then a BigDecimal, in one column), anything else by its
     * natural order.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compare(Object x, Object y) {
        if (x instanceof String a && y instanceof String b) {
            return StringDictionary.compare(a, b);
        }
        if (x instanceof Number a && y instanceof Number b && x.getClass() != y.getClass()) {
            if (a instanceof Double || a instanceof Float || b instanceof Double || b instanceof Float) {
                return Double.compare(a.doubleValue(), b.doubleValue());
            }
            return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString()));
        }
        return ((Comparable) x).compareTo(y);
    }

    /** The internal value of a vid of {@code column}, null for its null vid. */
    public static Object of(Column column, int vid) {
        if (vid == column.nullVid()) {
            return null;
        }
        return switch (column.dictionary()) {
            case LongDictionary d -> ofStored(column.type(), d.getLong(vid));
            case DoubleDictionary d -> ofStored(column.type(), d.getDouble(vid));
            case StringDictionary d -> d.getString(vid);
        };
    }
}
