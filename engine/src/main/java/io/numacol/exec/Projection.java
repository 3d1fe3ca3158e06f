package io.numacol.exec;

import java.util.Arrays;
import java.util.function.Function;

/** One output value of a row: a column, or an expression over some columns' internal values. */
public sealed interface Projection {

    /** The columns whose values the projection reads. */
    int[] columns();

    record ColumnRef(int column) implements Projection {
        @Override
        public int[] columns() {
            return new int[]{column};
        }
    }

    /**
     * {@code function} applied to a row of the table's width in which (at least) {@code columns}
     * hold their internal values; it must be thread-safe. {@code numeric}, when not null, is the
     * same computation for aggregates that run a block at a time on primitive values.
     */
    record Computed(int[] columns, Function<Object[], Object> function, NumericExpr numeric, String description)
            implements Projection {
        public Computed {
            columns = columns.clone();
        }

        public Computed(int[] columns, Function<Object[], Object> function, String description) {
            this(columns, function, null, description);
        }

        @Override
        public String toString() {
            return description + Arrays.toString(columns);
        }
    }
}
