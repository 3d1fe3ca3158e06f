package io.numacol.exec;

import io.numacol.storage.Table;

import java.util.List;

/**
 * One pipeline over a table: scan with {@code filter} (null: every row), {@code projections},
 * then optionally {@code aggregation} and {@code ordering} (ORDER BY/OFFSET/FETCH over the output).
 */
public record QueryPlan(Table table, ColumnFilter filter, List<Projection> projections, Aggregation aggregation,
                        Ordering ordering) {
    public QueryPlan {
        projections = List.copyOf(projections);
    }
}
