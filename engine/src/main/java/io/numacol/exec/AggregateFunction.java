package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

import java.util.List;

/**
 * One aggregate call over columnar chunks, its state for every group in arrays indexed by group
 * number (DuckDB's AggregateFunction): {@link #initialize} makes room for new groups, {@link
 * #update} adds a chunk's rows to their groups, {@link #combine} adds another table's group into
 * one of this table's (the second phase of a two-phase aggregate), {@link #finalizeGroup} writes a
 * group's result. A new aggregate is a new subclass and a case in {@link #of}.
 */
abstract sealed class AggregateFunction permits CountFunction, SumFunction, ExtremeFunction, DistinctFunction {
    /** The input column, -1 for COUNT(*). */
    final int column;

    AggregateFunction(int column) {
        this.column = column;
    }

    /**
     * The function of {@code call} over input columns of {@code in}, putting out {@code out}; a
     * DISTINCT call keeps each group's distinct values and hands them to its own function
     * (reading column 0 of a one-column chunk) when the group is finalized.
     */
    static AggregateFunction of(AggregateCall call, List<ColumnType> in, ColumnType out) {
        int column = call.distinct() ? 0 : call.input();
        AggregateFunction function = switch (call.kind()) {
            case COUNT_STAR, COUNT -> new CountFunction(column);
            case SUM, SUM0 -> out.storageKind() == StorageKind.DOUBLE
                    ? new DoubleSumFunction(column, call.kind() == AggregateKind.SUM0)
                    : new LongSumFunction(column, call.kind() == AggregateKind.SUM0, out);
            case MIN, MAX -> new ExtremeFunction(column, out, call.kind() == AggregateKind.MIN ? 1 : -1);
        };
        return call.distinct() ? new DistinctFunction(call.input(), in.get(call.input()), function) : function;
    }

    /** Makes room for the states of groups up to {@code capacity}. */
    abstract void initialize(int capacity);

    /** Adds the rows of {@code in} to their groups ({@code groupOf}; -1: the row is not aggregated). */
    abstract void update(Chunk in, int[] groupOf, int n);

    /** Adds the state of group {@code og} of {@code other} (the same call's function in another table) into group {@code g}. */
    abstract void combine(int g, AggregateFunction other, int og);

    /** Writes group {@code g}'s result into row {@code r}, column {@code c} of {@code out}. */
    abstract void finalizeGroup(Chunk out, int c, int r, int g);
}
