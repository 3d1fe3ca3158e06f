package io.numacol.storage.types;

/** The parameters a type takes, and how they are checked, read from a type name and printed. */
public enum TypeParameters {
    /** BOOLEAN, INTEGER, DATE, UUID, ...: precision, scale and length are 0. */
    NONE,
    /** DECIMAL(p,s): 1 &lt;= p &lt;= 18 digits, s of them after the point; s is 0 when left out. */
    PRECISION_AND_SCALE,
    /** TIMESTAMP(p), TIME(p): p fraction digits of the second, 0 to 3, 3 when left out. */
    FRACTION_DIGITS,
    /** CHAR(n), VARCHAR(n), VARBINARY(n): n &gt;= 1 characters or bytes, the precision and scale 0. */
    LENGTH;

    /** Throws IllegalArgumentException unless a type of {@code kind} may have these parameters. */
    public void check(ColumnType.Kind kind, int precision, int scale, int length) {
        switch (this) {
            case PRECISION_AND_SCALE -> {
                if (precision < 1 || precision > DecimalCodec.MAX_PRECISION) {
                    throw new IllegalArgumentException(kind + " precision must be between 1 and "
                            + DecimalCodec.MAX_PRECISION + ", got " + precision);
                }
                if (scale < 0 || scale > precision) {
                    throw new IllegalArgumentException(kind + " scale must be between 0 and the precision "
                            + precision + ", got " + scale);
                }
                if (length != 0) {
                    throw new IllegalArgumentException(kind + " has no length, got " + length);
                }
            }
            case FRACTION_DIGITS -> {
                if (precision < 0 || precision > TimestampCodec.MAX_PRECISION) {
                    throw new IllegalArgumentException(kind + " precision (fraction digits) must be between 0 and "
                            + TimestampCodec.MAX_PRECISION + ", got " + precision + ": numacol keeps times to the millisecond");
                }
                if (scale != 0 || length != 0) {
                    throw new IllegalArgumentException(kind + " has no scale or length, got " + scale + "," + length);
                }
            }
            case LENGTH -> {
                if (length < 1) {
                    throw new IllegalArgumentException(kind + " length must be at least 1, got " + length);
                }
                if (precision != 0 || scale != 0) {
                    throw new IllegalArgumentException(kind + " has no precision or scale, got " + precision + "," + scale);
                }
            }
            case NONE -> {
                if (precision != 0 || scale != 0 || length != 0) {
                    throw new IllegalArgumentException(kind + " takes no precision, scale or length, got "
                            + precision + "," + scale + "," + length);
                }
            }
        }
    }

    /**
     * The type of {@code kind} with the parameters a type name gave ({@code first} and {@code
     * second} in its parentheses, null where left out); IllegalArgumentException saying what the
     * type takes otherwise.
     */
    public ColumnType of(ColumnType.Kind kind, Integer first, Integer second) {
        return switch (this) {
            case PRECISION_AND_SCALE -> {
                if (first == null) {
                    throw new IllegalArgumentException(kind + " needs a precision: " + kind + "(p) or " + kind + "(p,s)");
                }
                yield new ColumnType(kind, first, second == null ? 0 : second, 0);
            }
            case FRACTION_DIGITS -> {
                if (second != null) {
                    throw new IllegalArgumentException(kind + " takes one parameter, its fraction digits: " + kind + "(p)");
                }
                yield new ColumnType(kind, first == null ? TimestampCodec.MAX_PRECISION : first, 0, 0);
            }
            case LENGTH -> {
                if (first == null || second != null) {
                    throw new IllegalArgumentException(kind + " takes exactly one parameter, its length: " + kind + "(n)");
                }
                yield new ColumnType(kind, 0, 0, first);
            }
            case NONE -> {
                if (first != null) {
                    throw new IllegalArgumentException(kind + " takes no parameters");
                }
                yield new ColumnType(kind, 0, 0, 0);
            }
        };
    }

    /** {@code name} with {@code type}'s parameters, as SQL writes them. */
    public String spell(String name, ColumnType type) {
        return switch (this) {
            case PRECISION_AND_SCALE -> name + "(" + type.precision() + "," + type.scale() + ")";
            case FRACTION_DIGITS -> name + "(" + type.precision() + ")";
            case LENGTH -> name + "(" + type.length() + ")";
            case NONE -> name;
        };
    }
}
