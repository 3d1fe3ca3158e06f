package io.numacol.exec;

/**
 * One aggregate of an {@link Aggregation}: {@code kind} over projection {@code input} (-1 for
 * COUNT(*)), over distinct values when {@code distinct}.
 */
public record AggregateCall(Kind kind, int input, boolean distinct) {

    public enum Kind { COUNT, SUM, MIN, MAX }

    public AggregateCall {
        if (input < 0 && kind != Kind.COUNT) {
            throw new IllegalArgumentException(kind + " needs an input");
        }
    }
}
