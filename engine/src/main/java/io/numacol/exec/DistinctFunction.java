package io.numacol.exec;

import io.numacol.storage.types.ColumnType;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An aggregate over each group's distinct values: a set of them per group while rows come in
 * and tables merge, handed to the aggregate's own accumulator ({@code inner}, reading column 0
 * of a one-column chunk) only when the group is written. Values are compared as stored, so a
 * DECIMAL's values share the column's scale; -0.0 counts as 0.0, as SQL compares them.
 */
final class DistinctFunction extends AggregateFunction {
    private final AggregateCall call;
    private final ColumnType type;
    private final AggregateFunction inner;
    private Set<Object>[] values = newSets(0);

    DistinctFunction(AggregateCall call, ColumnType type, AggregateFunction inner) {
        super(call.input());
        this.call = call;
        this.type = type;
        this.inner = inner;
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // no generic array creation
    private static Set<Object>[] newSets(int n) {
        return new Set[n];
    }

    @Override
    void initialize(int capacity) {
        values = Arrays.copyOf(values, capacity);
        inner.initialize(capacity);
    }

    @Override
    void update(Chunk in, int[] groupOf, int n) {
        boolean[] nulls = in.nulls[column];
        for (int r = 0; r < n; r++) {
            int g = groupOf[r];
            if (g >= 0 && (nulls == null || !nulls[r])) {
                set(g).add(switch (type.storageKind()) {
                    case LONG -> in.longs[column][r];
                    case DOUBLE -> in.doubles[column][r] == 0 ? 0.0 : in.doubles[column][r];
                    case STRING -> in.strings[column][r];
                });
            }
        }
    }

    private Set<Object> set(int g) {
        Set<Object> set = values[g];
        if (set == null) {
            set = new HashSet<>();
            values[g] = set;
        }
        return set;
    }

    @Override
    void combine(int g, AggregateFunction other, int og) {
        Set<Object> theirs = ((DistinctFunction) other).values[og];
        if (theirs != null) {
            set(g).addAll(theirs);
        }
    }

    @Override
    void finalizeGroup(Chunk out, int c, int r, int g) {
        Set<Object> set = values[g];
        if (set != null) {
            Chunk chunk = new Chunk(List.of(type)).allocate();
            int[] groupOf = new int[Chunk.CAPACITY];
            Arrays.fill(groupOf, g);
            for (Object v : set) {
                switch (v) {
                    case Long l -> chunk.longs[0][chunk.size] = l;
                    case Double d -> chunk.doubles[0][chunk.size] = d;
                    default -> chunk.strings[0][chunk.size] = (String) v;
                }
                if (++chunk.size == Chunk.CAPACITY) {
                    inner.update(chunk, groupOf, chunk.size);
                    chunk.size = 0;
                }
            }
            inner.update(chunk, groupOf, chunk.size);
            values[g] = null; // each group is written once
        }
        inner.finalizeGroup(out, c, r, g);
    }

    @Override
    Accumulator partial(int g) {
        Accumulator distinct = Accumulator.create(call);
        if (values[g] != null) {
            for (Object v : values[g]) {
                distinct.add(switch (v) {
                    case Long l -> InternalValues.ofStored(type, l);
                    case Double d -> InternalValues.ofStored(type, d);
                    default -> v;
                });
            }
        }
        return distinct;
    }
}
