package io.numacol.exec;

import java.util.function.IntUnaryOperator;

/**
 * One aggregate of an aggregate operator ({@link PlanNode.Aggregate}, or a {@link
 * PlanNode.VidScan}'s {@link Aggregation}): {@code kind} of input column {@code input} (-1 for
 * COUNT(*)), over the rows whose BOOLEAN column {@code filter} is TRUE (-1: all rows), over each
 * distinct value once when {@code distinct}. The one description every aggregate implementation
 * reads: both aggregate operators' {@link AggregateFunction}s, and the boxed {@link Accumulator}s
 * the vid aggregate merges its parts' groups with.
 */
public record AggregateCall(AggregateKind kind, int input, int filter, boolean distinct) {

    public AggregateCall {
        if ((input < 0) != (kind == AggregateKind.COUNT_STAR)) {
            throw new IllegalArgumentException(kind + (input < 0 ? " needs an input" : " takes no input"));
        }
        if (distinct && input < 0) {
            throw new IllegalArgumentException("COUNT(*) has no DISTINCT");
        }
    }

    public AggregateCall(AggregateKind kind, int input) {
        this(kind, input, -1, false);
    }

    public AggregateCall(AggregateKind kind, int input, boolean distinct) {
        this(kind, input, -1, distinct);
    }

    /**
     * This call over columns renumbered by {@code at}, all else kept: rewrites of a plan go
     * through here, so that none can drop a property such as DISTINCT (one did, and COUNT(DISTINCT x)
     * answered COUNT(x) once column pruning had rebuilt the call).
     */
    AggregateCall renumbered(IntUnaryOperator at) {
        return new AggregateCall(kind, input < 0 ? -1 : at.applyAsInt(input), filter < 0 ? -1 : at.applyAsInt(filter), distinct);
    }
}
