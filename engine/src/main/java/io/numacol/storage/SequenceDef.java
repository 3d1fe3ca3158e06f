package io.numacol.storage;

import java.util.Locale;

/**
 * What CREATE SEQUENCE declared, as PostgreSQL's {@code pg_sequence} holds it: the numbers a
 * {@link NamedSequence} gives lie in {@code [minValue, maxValue]}, from {@code start}, {@code
 * increment} apart; past the end it starts again at the other end when {@code cycle}, else it
 * refuses. The type only bounds the defaults (PostgreSQL's nextval is BIGINT whatever it is).
 *
 * @param schema    the catalog schema it is in
 * @param name      its name, as created
 * @param type      SMALLINT, INTEGER or BIGINT
 * @param start     the first number
 * @param increment the step: positive counts up, negative down, never zero
 * @param minValue  the least number given
 * @param maxValue  the greatest number given
 * @param cycle     whether it starts again past the end
 */
public record SequenceDef(String schema, String name, String type, long start, long increment, long minValue, long maxValue,
                          boolean cycle) {
    public SequenceDef {
        type = type.toUpperCase(Locale.ROOT);
        long[] range = range(type);
        if (increment == 0) {
            throw new IllegalArgumentException("sequence " + name + ": INCREMENT must not be zero");
        }
        if (minValue < range[0] || maxValue > range[1]) {
            throw new IllegalArgumentException("sequence " + name + ": MINVALUE " + minValue + " and MAXVALUE " + maxValue
                    + " must lie within the range of " + type + " (" + range[0] + " to " + range[1] + ")");
        }
        if (minValue >= maxValue) {
            throw new IllegalArgumentException("sequence " + name + ": MINVALUE (" + minValue + ") must be less than MAXVALUE ("
                    + maxValue + ")");
        }
        if (start < minValue || start > maxValue) {
            throw new IllegalArgumentException("sequence " + name + ": START value (" + start + ") must lie between MINVALUE ("
                    + minValue + ") and MAXVALUE (" + maxValue + ")");
        }
    }

    /** The least and greatest value of {@code type}: SMALLINT, INTEGER (INT) or BIGINT. */
    public static long[] range(String type) {
        return switch (type.toUpperCase(Locale.ROOT)) {
            case "SMALLINT" -> new long[] {Short.MIN_VALUE, Short.MAX_VALUE};
            case "INTEGER", "INT" -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
            case "BIGINT" -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
            default -> throw new IllegalArgumentException("a sequence is SMALLINT, INTEGER or BIGINT, not " + type);
        };
    }

    /**
     * A definition with PostgreSQL's defaults for what CREATE SEQUENCE left out (null): counting up,
     * from 1 to the type's greatest value; counting down, from -1 to its least; starting at the
     * minimum counting up, at the maximum counting down.
     */
    public static SequenceDef withDefaults(String schema, String name, String type, Long start, Long increment, Long minValue,
                                           Long maxValue, boolean cycle) {
        long[] range = range(type);
        long step = increment == null ? 1 : increment;
        long min = minValue != null ? minValue : step > 0 ? 1 : range[0];
        long max = maxValue != null ? maxValue : step > 0 ? range[1] : -1;
        long first = start != null ? start : step > 0 ? min : max;
        return new SequenceDef(schema, name, type, first, step, min, max, cycle);
    }
}
