package io.numacol.exec;

import io.numacol.storage.ColumnType;
import io.numacol.storage.StorageKind;
import io.numacol.storage.StringDictionary;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The groups of a hash aggregation ({@link PlanNode.Aggregate}) and their running aggregates: a
 * task's local pre-aggregation in the first phase (morsel paper §4.4), a partition's merged
 * groups in the second. Open addressing with linear probing over group numbers; each group's full
 * hash is kept, so that the table grows and a group moves to its partition without hashing the
 * keys again. Keys are stored values in {@link Chunk} pages, compared by value: equal strings
 * from parts with different dictionaries meet in one group, NULLs form one group.
 */
final class GroupTable implements ChunkSink {
    private final int[] keyColumns;
    private final List<ColumnType> keyTypes;
    private final List<Chunk> keyPages = new ArrayList<>();
    private final Acc[] accs;
    private long[] hashes = new long[Chunk.CAPACITY];
    /**
     * With one LONG key, each group's key (0 for the NULL group) beside its page, so that a probe
     * step compares within one array rather than through a page: with many groups, probes
     * miss the cache, and one miss into this array is cheaper than two through a page.
     */
    private long[] longKeys;
    /** With one LONG key, the group of NULL, or -1. */
    private int nullGroup = -1;
    private int[] slots = new int[2 * Chunk.CAPACITY];
    private int shift = 64 - Integer.numberOfTrailingZeros(slots.length);
    private int groups;
    private final int[] groupOf = new int[Chunk.CAPACITY];
    private final long[] rowHashes = new long[Chunk.CAPACITY];
    /** The groups of a FILTERed call's rows: -1 where its filter is not TRUE. */
    private final int[] filteredGroupOf = new int[Chunk.CAPACITY];
    private final int[] filters;
    /** Where the table's growth is counted against the memory limit. */
    private final MemoryReservation reservation;

    /** A table of {@code plan}'s groups over input chunks ({@code keyColumns} are then the plan's keys). */
    GroupTable(PlanNode.Aggregate plan) {
        this(plan, MemoryReservation.NONE);
    }

    GroupTable(PlanNode.Aggregate plan, MemoryReservation reservation) {
        this(plan, plan.keys(), reservation);
    }

    private GroupTable(PlanNode.Aggregate plan, int[] keyColumns, MemoryReservation reservation) {
        this.keyColumns = keyColumns;
        this.reservation = reservation;
        List<ColumnType> in = plan.input().types();
        this.keyTypes = Arrays.stream(plan.keys()).mapToObj(in::get).toList();
        this.longKeys = keyTypes.size() == 1 && keyTypes.getFirst().storageKind() == StorageKind.LONG ? new long[hashes.length] : null;
        this.accs = new Acc[plan.calls().size()];
        this.filters = plan.calls().stream().mapToInt(AggregateCall::filter).toArray();
        for (int i = 0; i < accs.length; i++) {
            AggregateCall call = plan.calls().get(i);
            ColumnType out = plan.types().get(plan.keys().length + i);
            // a DISTINCT call's own accumulator reads a one-column chunk of the distinct values (column 0)
            Acc acc = accumulator(call.kind(), call.distinct() ? 0 : call.input(), out);
            accs[i] = call.distinct() ? new DistinctAcc(call.input(), in.get(call.input()), acc) : acc;
            accs[i].grow(hashes.length);
        }
    }

    private static Acc accumulator(AggregateKind kind, int column, ColumnType out) {
        return switch (kind) {
            case COUNT_STAR, COUNT -> new CountAcc(column);
            case SUM, SUM0 -> out.storageKind() == StorageKind.DOUBLE
                    ? new DoubleSumAcc(column, kind == AggregateKind.SUM0)
                    : new LongSumAcc(column, kind == AggregateKind.SUM0, out);
            case MIN, MAX -> new ExtremeAcc(column, out, kind == AggregateKind.MIN ? 1 : -1);
        };
    }

    /** An empty table for merging tables of {@code plan}: its keys are the first columns of their key pages. */
    static GroupTable forMerge(PlanNode.Aggregate plan, MemoryReservation reservation) {
        int[] keys = new int[plan.keys().length];
        Arrays.setAll(keys, i -> i);
        return new GroupTable(plan, keys, reservation);
    }

    int groups() {
        return groups;
    }

    long hash(int group) {
        return hashes[group];
    }

    /** Aggregates a chunk's rows into their groups. */
    @Override
    public void accept(Chunk in) {
        int n = in.size;
        if (keyColumns.length == 0) {
            if (groups == 0) {
                newGroup(0, null, 0);
            }
            Arrays.fill(groupOf, 0, n, 0);
        } else {
            JoinHashTable.hashes(in, keyColumns, rowHashes);
            for (int r = 0; r < n; r++) {
                groupOf[r] = find(in, r, rowHashes[r]);
            }
        }
        for (int i = 0; i < accs.length; i++) {
            int f = filters[i];
            if (f < 0) {
                accs[i].add(in, groupOf, n);
                continue;
            }
            long[] truth = in.longs[f];
            boolean[] unknown = in.nulls[f];
            for (int r = 0; r < n; r++) {
                filteredGroupOf[r] = truth[r] == 1 && (unknown == null || !unknown[r]) ? groupOf[r] : -1;
            }
            accs[i].add(in, filteredGroupOf, n);
        }
    }

    /** Adds group {@code g} of {@code other} (a table of the same plan) into this one. */
    void merge(GroupTable other, int g) {
        Chunk page = other.keyPages.isEmpty() ? null : other.keyPages.get(g >>> RowStore.PAGE_SHIFT);
        int target = keyColumns.length == 0 ? (groups == 0 ? newGroup(0, null, 0) : 0)
                : find(page, g & RowStore.PAGE_MASK, other.hashes[g]);
        for (int i = 0; i < accs.length; i++) {
            accs[i].merge(target, other.accs[i], g);
        }
    }

    /** Puts out every group as its keys then its aggregates. */
    void writeTo(RowStore out, List<ColumnType> types) {
        Chunk chunk = new Chunk(types).allocate();
        int width = keyTypes.size();
        for (int g = 0; g < groups; g++) {
            int r = chunk.size;
            if (width > 0) {
                Chunk page = keyPages.get(g >>> RowStore.PAGE_SHIFT);
                for (int c = 0; c < width; c++) {
                    chunk.copy(c, r, page, c, g & RowStore.PAGE_MASK);
                }
            }
            for (int i = 0; i < accs.length; i++) {
                accs[i].write(chunk, width + i, r, g);
            }
            if (++chunk.size == Chunk.CAPACITY) {
                out.accept(chunk);
                chunk.size = 0;
            }
        }
        if (chunk.size > 0) {
            out.accept(chunk);
        }
    }

    /** The group of row {@code r} of {@code in} (keys at {@link #keyColumns}), made if new. */
    private int find(Chunk in, int r, long hash) {
        if (longKeys != null) {
            return findLong(in, r, hash);
        }
        int mask = slots.length - 1;
        for (int slot = (int) (hash >>> shift); ; slot = (slot + 1) & mask) {
            int g = slots[slot] - 1;
            if (g < 0) {
                return addGroup(slot, hash, in, r);
            }
            if (hashes[g] == hash && sameKeys(g, in, r)) {
                return g;
            }
        }
    }

    /** {@link #find} for one LONG key. */
    private int findLong(Chunk in, int r, long hash) {
        int column = keyColumns[0];
        boolean isNull = in.isNull(column, r);
        long key = isNull ? 0 : in.longs[column][r];
        int mask = slots.length - 1;
        for (int slot = (int) (hash >>> shift); ; slot = (slot + 1) & mask) {
            int g = slots[slot] - 1;
            if (g < 0) {
                return addGroup(slot, hash, in, r);
            }
            if (longKeys[g] == key && (g == nullGroup) == isNull) {
                return g;
            }
        }
    }

    /** A new group for row {@code r} of {@code in} in free slot {@code slot}, the slots grown if half full. */
    private int addGroup(int slot, long hash, Chunk in, int r) {
        int g = newGroup(hash, in, r);
        slots[slot] = g + 1;
        if (groups * 2 > slots.length) {
            rehash();
        }
        return g;
    }

    private boolean sameKeys(int g, Chunk in, int r) {
        Chunk page = keyPages.get(g >>> RowStore.PAGE_SHIFT);
        int k = g & RowStore.PAGE_MASK;
        for (int c = 0; c < keyColumns.length; c++) {
            int ic = keyColumns[c];
            boolean kn = page.isNull(c, k);
            if (kn || in.isNull(ic, r)) {
                if (kn != in.isNull(ic, r)) {
                    return false;
                }
                continue;
            }
            boolean equal = switch (page.types[c].storageKind()) {
                case LONG -> page.longs[c][k] == in.longs[ic][r];
                case DOUBLE -> page.doubles[c][k] == in.doubles[ic][r]
                        || (Double.isNaN(page.doubles[c][k]) && Double.isNaN(in.doubles[ic][r])); // one group of NaNs
                case STRING -> page.strings[c][k].equals(in.strings[ic][r]);
            };
            if (!equal) {
                return false;
            }
        }
        return true;
    }

    private int newGroup(long hash, Chunk in, int r) {
        int g = groups++;
        if (g == hashes.length) {
            // g more groups: a hash, a LONG key, and each aggregate's state (at most a long and an object) per group
            reservation.reserve((long) g * (Long.BYTES * (longKeys != null ? 2L : 1L) + accs.length * 16L), "a query's aggregation groups");
            hashes = Arrays.copyOf(hashes, g * 2);
            if (longKeys != null) {
                longKeys = Arrays.copyOf(longKeys, g * 2);
            }
            for (Acc acc : accs) {
                acc.grow(g * 2);
            }
        }
        hashes[g] = hash;
        if (longKeys != null) {
            boolean isNull = in.isNull(keyColumns[0], r);
            longKeys[g] = isNull ? 0 : in.longs[keyColumns[0]][r];
            nullGroup = isNull ? g : nullGroup;
        }
        if (!keyTypes.isEmpty()) {
            if ((g & RowStore.PAGE_MASK) == 0) {
                reservation.reserve(RowStore.pageBytes(keyTypes.size()), "a query's aggregation groups");
                keyPages.add(new Chunk(keyTypes).allocate());
            }
            Chunk page = keyPages.getLast();
            for (int c = 0; c < keyColumns.length; c++) {
                page.copy(c, g & RowStore.PAGE_MASK, in, keyColumns[c], r);
            }
            page.size++;
        }
        return g;
    }

    private void rehash() {
        reservation.reserve((long) slots.length * Integer.BYTES, "a query's aggregation groups");
        slots = new int[slots.length * 2];
        shift--;
        int mask = slots.length - 1;
        for (int g = 0; g < groups; g++) {
            int slot = (int) (hashes[g] >>> shift);
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = g + 1;
        }
    }

    /** One aggregate's state for every group, in arrays indexed by group. */
    private abstract static sealed class Acc {
        /** The input column, -1 for COUNT(*). */
        final int column;

        Acc(int column) {
            this.column = column;
        }

        abstract void grow(int capacity);

        /** Adds the rows of {@code in} to their groups ({@code groupOf}; -1: the row is not aggregated). */
        abstract void add(Chunk in, int[] groupOf, int n);

        abstract void merge(int g, Acc other, int og);

        abstract void write(Chunk out, int c, int r, int g);
    }

    /**
     * An aggregate over each group's distinct values: a set of them per group while rows come in
     * and tables merge, handed to the aggregate's own accumulator ({@code inner}, reading column 0
     * of a one-column chunk) only when the group is written. Values are compared as stored, so a
     * DECIMAL's values share the column's scale; -0.0 counts as 0.0, as SQL compares them.
     */
    private static final class DistinctAcc extends Acc {
        private final ColumnType type;
        private final Acc inner;
        private Set<Object>[] values = newSets(0);

        DistinctAcc(int column, ColumnType type, Acc inner) {
            super(column);
            this.type = type;
            this.inner = inner;
        }

        @SuppressWarnings({"unchecked", "rawtypes"}) // no generic array creation
        private static Set<Object>[] newSets(int n) {
            return new Set[n];
        }

        @Override
        void grow(int capacity) {
            values = Arrays.copyOf(values, capacity);
            inner.grow(capacity);
        }

        @Override
        void add(Chunk in, int[] groupOf, int n) {
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
        void merge(int g, Acc other, int og) {
            Set<Object> theirs = ((DistinctAcc) other).values[og];
            if (theirs != null) {
                set(g).addAll(theirs);
            }
        }

        @Override
        void write(Chunk out, int c, int r, int g) {
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
                        inner.add(chunk, groupOf, chunk.size);
                        chunk.size = 0;
                    }
                }
                inner.add(chunk, groupOf, chunk.size);
                values[g] = null; // each group is written once
            }
            inner.write(out, c, r, g);
        }
    }

    private static final class CountAcc extends Acc {
        private long[] counts = new long[0];

        CountAcc(int column) {
            super(column);
        }

        @Override
        void grow(int capacity) {
            counts = Arrays.copyOf(counts, capacity);
        }

        @Override
        void add(Chunk in, int[] groupOf, int n) {
            boolean[] nulls = column < 0 ? null : in.nulls[column];
            for (int r = 0; r < n; r++) {
                if (groupOf[r] >= 0 && (nulls == null || !nulls[r])) {
                    counts[groupOf[r]]++;
                }
            }
        }

        @Override
        void merge(int g, Acc other, int og) {
            counts[g] += ((CountAcc) other).counts[og];
        }

        @Override
        void write(Chunk out, int c, int r, int g) {
            out.nulls[c][r] = false;
            out.longs[c][r] = counts[g];
        }
    }

    /** A SUM's groups: which have a value, and whether one without is 0 (SUM0) rather than NULL. */
    private abstract static sealed class SumAcc extends Acc {
        final boolean zero;
        boolean[] any = new boolean[0];

        SumAcc(int column, boolean zero) {
            super(column);
            this.zero = zero;
        }

        @Override
        void grow(int capacity) {
            any = Arrays.copyOf(any, capacity);
        }

        boolean isNull(int g) {
            return !any[g] && !zero;
        }
    }

    /**
     * An exact SUM in unscaled longs. A sum that leaves a long, or the range of its output type,
     * fails the statement: intermediate columns hold longs (single-table aggregates go on in
     * BigDecimal instead).
     */
    private static final class LongSumAcc extends SumAcc {
        private final ColumnType type;
        private long[] sums = new long[0];

        LongSumAcc(int column, boolean zero, ColumnType type) {
            super(column, zero);
            this.type = type;
        }

        @Override
        void grow(int capacity) {
            super.grow(capacity);
            sums = Arrays.copyOf(sums, capacity);
        }

        @Override
        void add(Chunk in, int[] groupOf, int n) {
            long[] values = in.longs[column];
            boolean[] nulls = in.nulls[column];
            for (int r = 0; r < n; r++) {
                if (groupOf[r] >= 0 && (nulls == null || !nulls[r])) {
                    int g = groupOf[r];
                    sums[g] = plus(sums[g], values[r]);
                    any[g] = true;
                }
            }
        }

        private long plus(long a, long b) {
            long s = a + b;
            if (((a ^ s) & (b ^ s)) < 0) {
                throw new ArithmeticException("numeric value out of range: a SUM above a join or an aggregate passed "
                        + Long.MAX_VALUE + ", the most numacol's operators carry between them (18 digits of a DECIMAL)");
            }
            return s;
        }

        @Override
        void merge(int g, Acc other, int og) {
            LongSumAcc o = (LongSumAcc) other;
            if (o.any[og]) {
                sums[g] = plus(sums[g], o.sums[og]);
                any[g] = true;
            }
        }

        @Override
        void write(Chunk out, int c, int r, int g) {
            boolean isNull = isNull(g);
            out.nulls[c][r] = isNull;
            long v = isNull ? 0 : sums[g];
            if (!type.holds(v)) {
                throw new ArithmeticException(type + " overflow: SUM " + v + " is out of its range");
            }
            out.longs[c][r] = v;
        }
    }

    private static final class DoubleSumAcc extends SumAcc {
        private double[] sums = new double[0];

        DoubleSumAcc(int column, boolean zero) {
            super(column, zero);
        }

        @Override
        void grow(int capacity) {
            super.grow(capacity);
            sums = Arrays.copyOf(sums, capacity);
        }

        @Override
        void add(Chunk in, int[] groupOf, int n) {
            double[] values = in.doubles[column];
            boolean[] nulls = in.nulls[column];
            for (int r = 0; r < n; r++) {
                if (groupOf[r] >= 0 && (nulls == null || !nulls[r])) {
                    sums[groupOf[r]] += values[r];
                    any[groupOf[r]] = true;
                }
            }
        }

        @Override
        void merge(int g, Acc other, int og) {
            DoubleSumAcc o = (DoubleSumAcc) other;
            if (o.any[og]) {
                sums[g] += o.sums[og];
                any[g] = true;
            }
        }

        @Override
        void write(Chunk out, int c, int r, int g) {
            boolean isNull = isNull(g);
            out.nulls[c][r] = isNull;
            out.doubles[c][r] = isNull ? 0 : sums[g];
        }
    }

    /** MIN ({@code sign} 1) or MAX (-1) of stored values; strings in code point order, as dictionaries sort them. */
    private static final class ExtremeAcc extends Acc {
        private final int sign;
        private final ColumnType type;
        private long[] longs = new long[0];
        private double[] doubles = new double[0];
        private String[] strings = new String[0];
        private boolean[] any = new boolean[0];

        ExtremeAcc(int column, ColumnType type, int sign) {
            super(column);
            this.type = type;
            this.sign = sign;
        }

        @Override
        void grow(int capacity) {
            any = Arrays.copyOf(any, capacity);
            switch (type.storageKind()) {
                case LONG -> longs = Arrays.copyOf(longs, capacity);
                case DOUBLE -> doubles = Arrays.copyOf(doubles, capacity);
                case STRING -> strings = Arrays.copyOf(strings, capacity);
            }
        }

        @Override
        void add(Chunk in, int[] groupOf, int n) {
            boolean[] nulls = in.nulls[column];
            for (int r = 0; r < n; r++) {
                if (groupOf[r] >= 0 && (nulls == null || !nulls[r])) {
                    offer(groupOf[r], in, r);
                }
            }
        }

        private void offer(int g, Chunk in, int r) {
            switch (type.storageKind()) {
                case LONG -> {
                    long v = in.longs[column][r];
                    if (!any[g] || sign * Long.compare(longs[g], v) > 0) {
                        longs[g] = v;
                    }
                }
                case DOUBLE -> {
                    double v = in.doubles[column][r];
                    if (!any[g] || sign * Double.compare(doubles[g], v) > 0) {
                        doubles[g] = v;
                    }
                }
                case STRING -> {
                    String v = in.strings[column][r];
                    if (!any[g] || sign * StringDictionary.compare(strings[g], v) > 0) {
                        strings[g] = v;
                    }
                }
            }
            any[g] = true;
        }

        @Override
        void merge(int g, Acc other, int og) {
            ExtremeAcc o = (ExtremeAcc) other;
            if (!o.any[og]) {
                return;
            }
            boolean better = switch (type.storageKind()) {
                case LONG -> !any[g] || sign * Long.compare(longs[g], o.longs[og]) > 0;
                case DOUBLE -> !any[g] || sign * Double.compare(doubles[g], o.doubles[og]) > 0;
                case STRING -> !any[g] || sign * StringDictionary.compare(strings[g], o.strings[og]) > 0;
            };
            if (better) {
                switch (type.storageKind()) {
                    case LONG -> longs[g] = o.longs[og];
                    case DOUBLE -> doubles[g] = o.doubles[og];
                    case STRING -> strings[g] = o.strings[og];
                }
                any[g] = true;
            }
        }

        @Override
        void write(Chunk out, int c, int r, int g) {
            out.nulls[c][r] = !any[g];
            switch (type.storageKind()) {
                case LONG -> out.longs[c][r] = any[g] ? longs[g] : 0;
                case DOUBLE -> out.doubles[c][r] = any[g] ? doubles[g] : 0;
                case STRING -> out.strings[c][r] = any[g] ? strings[g] : null;
            }
        }
    }
}
