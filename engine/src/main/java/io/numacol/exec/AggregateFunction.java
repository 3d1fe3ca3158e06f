package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

import java.util.Arrays;
import java.util.List;

/**
 * One aggregate call over columnar chunks, its state for every group in arrays indexed by group
 * number (DuckDB's AggregateFunction): {@link #initialize} makes room for new groups, {@link
 * #update} adds a chunk's rows to their groups, {@link #combine} adds another table's group into
 * one of this table's (the second phase of a two-phase aggregate), {@link #finalizeGroup} writes a
 * group's result. A new aggregate is a new subclass and a case in {@link #of}.
 *
 * <p>Both aggregate operators use it: {@link HashAggregate}'s {@link GroupTable}s, and the vid
 * aggregate's {@link VectorAggregator}, which also takes the variants of {@link #update} for a block
 * that falls in one group ({@link #updateSingle}) or a few ({@link #updateFew}), and hands each
 * group's state over as a boxed {@link #partial}, since groups of different parts meet by value
 * (each part has its own dictionaries).
 */
abstract sealed class AggregateFunction permits CountFunction, SumFunction, ExtremeFunction, VidExtremeFunction, DistinctFunction {
    /** The input column, -1 for COUNT(*). */
    final int column;
    /** {@link #updateSingle}'s group numbers, for functions without a path of their own. */
    private int[] single;

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
        return call.distinct() ? new DistinctFunction(call, in.get(call.input()), function) : function;
    }

    /** Makes room for the states of groups up to {@code capacity}. */
    abstract void initialize(int capacity);

    /** Adds the rows of {@code in} to their groups ({@code groupOf}; -1: the row is not aggregated). */
    abstract void update(Chunk in, int[] groupOf, int n);

    /** Adds rows {@code 0..n-1} of {@code in}, all of group {@code g} (DuckDB's simple update: no GROUP BY, or one group). */
    void updateSingle(Chunk in, int n, int g) {
        if (single == null || single[0] != g) {
            single = new int[Chunk.CAPACITY];
            Arrays.fill(single, g);
        }
        update(in, single, n);
    }

    /** Adds the rows of {@code in} to their groups, which are {@code few}'s (masks of their rows beside {@code groupOf}). */
    void updateFew(Chunk in, int n, int[] groupOf, FewGroups few) {
        update(in, groupOf, n);
    }

    /** Adds the state of group {@code og} of {@code other} (the same call's function in another table) into group {@code g}. */
    abstract void combine(int g, AggregateFunction other, int og);

    /** Writes group {@code g}'s result into row {@code r}, column {@code c} of {@code out}. */
    abstract void finalizeGroup(Chunk out, int c, int r, int g);

    /**
     * Group {@code g}'s state as a boxed partial aggregate, which merges by value with those of
     * other tasks and parts (and keeps a sum exact past a long, as a BigDecimal).
     */
    abstract Accumulator partial(int g);
}
