package io.numacol.exec;

import java.util.Set;
import java.util.TreeSet;

/**
 * Arithmetic numacol evaluates a block of rows at a time on primitive values, never boxing one.
 * An exact expression computes unscaled longs at its {@link Type#scale()} (DECIMAL(15,2) 12.34 is
 * 1234), an approximate one doubles. Operands arrive aligned by whoever builds the tree: both
 * sides of + and - at the result's scale, a product's scale the sum of its factors'. NULL in
 * any column makes the row's value NULL.
 *
 * <p>A result outside its type's range is an error for integer types, as SQL wants. A DECIMAL
 * whose unscaled value leaves a long is legal SQL (Calcite types a product of two DECIMAL(15,2)
 * as DECIMAL(30,4)): then evaluation throws {@link BeyondLong} and the executor runs the query
 * again on exact BigDecimals.
 */
public sealed interface NumericExpr {

    Type type();

    /**
     * What an expression computes: doubles when {@code approximate}, else unscaled longs at
     * {@code scale} that must lie in {@code [min, max]} ({@code decimal} ones may also leave a long).
     */
    record Type(boolean approximate, int scale, long min, long max, boolean decimal, String name) {
        public static final Type DOUBLE = new Type(true, 0, 0, 0, false, "DOUBLE");
        public static final Type BIGINT = new Type(false, 0, Long.MIN_VALUE, Long.MAX_VALUE, false, "BIGINT");
        public static final Type INTEGER = new Type(false, 0, Integer.MIN_VALUE, Integer.MAX_VALUE, false, "INTEGER");
        public static final Type SMALLINT = new Type(false, 0, Short.MIN_VALUE, Short.MAX_VALUE, false, "SMALLINT");
        public static final Type TINYINT = new Type(false, 0, Byte.MIN_VALUE, Byte.MAX_VALUE, false, "TINYINT");

        /** Any DECIMAL: unchecked but for leaving a long, as Calcite does not check precision either. */
        public static Type decimal(int precision, int scale) {
            return new Type(false, scale, Long.MIN_VALUE, Long.MAX_VALUE, true, "DECIMAL(" + precision + ", " + scale + ")");
        }

        /**
         * Whether the values are DECIMALs, unscaled at {@link #scale}: those that may leave a long,
         * and those a CAST checks against a precision (which {@link #decimal} leaves false).
         */
        public boolean fractional() {
            return !approximate && (decimal || name.startsWith("DECIMAL"));
        }

        /** An exact type whose range is all of a long's: no check needed but for overflow. */
        public boolean fullRange() {
            return min == Long.MIN_VALUE && max == Long.MAX_VALUE;
        }
    }

    /** The stored values of a column: LONG-stored at {@code type}'s scale, or DOUBLE. */
    record Column(int column, Type type) implements NumericExpr {
    }

    /** An exact constant, unscaled. */
    record LongConstant(long unscaled, Type type) implements NumericExpr {
    }

    record DoubleConstant(double value) implements NumericExpr {
        @Override
        public Type type() {
            return Type.DOUBLE;
        }
    }

    /**
     * DIVIDE on exact values truncates toward zero at the result's scale, whatever the operands'
     * (Calcite's CAST to DECIMAL and integer division do the same); dividing a value that is not
     * NULL by zero is an error.
     */
    enum Op { ADD, SUBTRACT, MULTIPLY, DIVIDE }

    record Arithmetic(Op op, NumericExpr left, NumericExpr right, Type type) implements NumericExpr {
        public Arithmetic {
            if (type.approximate()) {
                if (!left.type().approximate() || !right.type().approximate()) {
                    throw new IllegalArgumentException("operands of approximate " + op + " must be doubles: " + left + ", " + right);
                }
            } else if (op == Op.DIVIDE) {
                int digits = type.scale() + right.type().scale() - left.type().scale();
                if (left.type().approximate() || right.type().approximate() || Math.abs(digits) >= LongMath.POWERS.length) {
                    throw new IllegalArgumentException("cannot divide " + left + " by " + right + " exactly at scale " + type.scale());
                }
            } else {
                int expected = op == Op.MULTIPLY ? left.type().scale() + right.type().scale() : type.scale();
                if (left.type().approximate() || right.type().approximate() || expected != type.scale()
                        || (op != Op.MULTIPLY && (left.type().scale() != type.scale() || right.type().scale() != type.scale()))) {
                    throw new IllegalArgumentException("operands of exact " + op + " are not aligned to scale " + type.scale()
                            + ": " + left + ", " + right);
                }
            }
        }
    }

    record Negate(NumericExpr operand, Type type) implements NumericExpr {
        public Negate {
            if (operand.type().approximate() != type.approximate() || operand.type().scale() != type.scale()) {
                throw new IllegalArgumentException("a negation keeps its operand's type: " + operand + " as " + type);
            }
        }
    }

    /**
     * An exact value brought to another exact type (a CAST, or aligning a sum): more fraction
     * digits are exact, fewer round half away from zero as a CAST does (and storing a value:
     * {@code ColumnType}; DuckDB, PostgreSQL and H2 round so too).
     */
    record Rescale(NumericExpr operand, Type type) implements NumericExpr {
        public Rescale {
            if (operand.type().approximate() || type.approximate()
                    || Math.abs(type.scale() - operand.type().scale()) >= LongMath.POWERS.length) {
                throw new IllegalArgumentException("cannot rescale " + operand + " to " + type);
            }
        }
    }

    /** An exact value as a double, correctly rounded (CAST to DOUBLE). */
    record ToDouble(NumericExpr operand) implements NumericExpr {
        @Override
        public Type type() {
            return Type.DOUBLE;
        }
    }

    /** The columns the expression reads, ascending. */
    default int[] columns() {
        TreeSet<Integer> into = new TreeSet<>();
        collect(this, into);
        return into.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void collect(NumericExpr e, Set<Integer> into) {
        switch (e) {
            case Column c -> into.add(c.column());
            case Arithmetic a -> {
                collect(a.left(), into);
                collect(a.right(), into);
            }
            case Negate n -> collect(n.operand(), into);
            case Rescale r -> collect(r.operand(), into);
            case ToDouble d -> collect(d.operand(), into);
            case LongConstant l -> {
            }
            case DoubleConstant d -> {
            }
        }
    }

    /**
     * Thrown when an exact DECIMAL value leaves a long: the query is legal and is run again on
     * BigDecimals. Without a stack trace, since it is control flow.
     */
    final class BeyondLong extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BeyondLong(String what) {
            super(what + " does not fit in a long", null, false, false);
        }
    }

    /** Powers of ten and exact scaling. */
    final class LongMath {
        static final long[] POWERS = new long[19];

        static {
            POWERS[0] = 1;
            for (int i = 1; i < POWERS.length; i++) {
                POWERS[i] = POWERS[i - 1] * 10;
            }
        }

        private LongMath() {
        }
    }
}
