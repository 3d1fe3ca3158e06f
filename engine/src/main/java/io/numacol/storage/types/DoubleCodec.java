package io.numacol.storage.types;

import java.sql.JDBCType;
import java.time.ZoneId;
import java.util.List;
import java.util.regex.Pattern;

/** DOUBLE (or DOUBLE PRECISION, FLOAT8, FLOAT, FLOAT(p) for p &gt; 24): stored as the double. */
public final class DoubleCodec implements StoredAsDouble {
    public static final DoubleCodec INSTANCE = new DoubleCodec();

    /** A number as SQL writes it: sign, digits with an optional point, optional exponent. */
    private static final Pattern SQL_NUMBER = Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");

    private DoubleCodec() {
    }

    @Override
    public String name() {
        return "DOUBLE";
    }

    @Override
    public List<String> aliases() {
        return List.of("FLOAT8");
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.DOUBLE;
    }

    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return parseApproximate(text);
    }

    @Override
    public double toDouble(ColumnType type, Object value) {
        return approximate(type, value, false);
    }

    @Override
    public Object toJava(ColumnType type, double stored) {
        return stored;
    }

    /**
     * The stored double of any Number, rounded to the nearest float for a REAL ({@code single});
     * NaN and infinities are values, overflow to infinity is not.
     */
    static double approximate(ColumnType type, Object value, boolean single) {
        if (!(value instanceof Number n)) {
            throw ValueErrors.wrongType(type, value, "a Number");
        }
        boolean infinityGiven = value instanceof Double x ? x.isInfinite() : value instanceof Float f && f.isInfinite();
        double d = single ? n.floatValue() : n.doubleValue();
        if (Double.isInfinite(d) && !infinityGiven) {
            throw ValueErrors.outOfRange(type, value);
        }
        return d;
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
}
