package io.numacol.exec;

import java.util.List;

/**
 * GROUP BY {@code groupKeys} (indices of projections that are {@link Projection.ColumnRef}s, so
 * a task can group by vids) with {@code calls}; output rows are the keys, then the aggregates.
 * With no keys, one row even over no input (SQL's aggregate of an empty table).
 */
public record Aggregation(int[] groupKeys, List<AggregateCall> calls) {
    public Aggregation {
        groupKeys = groupKeys.clone();
        calls = List.copyOf(calls);
    }
}
