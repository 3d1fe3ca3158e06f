package io.numacol.storage;

import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.Utf8;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Objects;

/**
 * Collects one column's values on the heap, then builds the off-heap column: the sorted
 * Dictionary of the distinct values, each row's vid (its rank, found by counting, hashing or binary search) and
 * the IndexVector packed at the minimal bitcase, all placed as a {@link ColumnPlacement} says.
 * Values are checked against the column's type as they arrive.
 */
public final class ColumnBuilder {
    private static final int INITIAL_CAPACITY = 1024;

    private final String name;
    private final ColumnType type;
    private final boolean nullable;
    private final BitSet nulls = new BitSet();
    private long[] longs;
    private double[] doubles;
    private String[] strings;
    private int size;

    public ColumnBuilder(String name, ColumnType type, boolean nullable) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.nullable = nullable;
        switch (type.storageKind()) {
            case LONG -> longs = new long[INITIAL_CAPACITY];
            case DOUBLE -> doubles = new double[INITIAL_CAPACITY];
            case STRING -> strings = new String[INITIAL_CAPACITY];
        }
    }

    public String name() {
        return name;
    }

    public ColumnType type() {
        return type;
    }

    public int size() {
        return size;
    }

    /** Checks and appends a value; nothing is appended when it is refused. */
    public void add(Object value) {
        append(convert(value));
    }

    /**
     * The stored form of a value (Long, Double or String, or null), checked against the type
     * and the column's nullability, without appending it: lets a row be checked whole before
     * any of its columns grows.
     */
    public Object convert(Object value) {
        if (value == null) {
            if (!nullable) {
                throw NotNullViolationException.of(name);
            }
            return null;
        }
        try {
            return switch (type.storageKind()) {
                case LONG -> type.toLong(value);
                case DOUBLE -> DoubleDictionary.normalize(type.toDouble(value));
                case STRING -> type.toStringValue(value);
            };
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("column " + name + ": " + e.getMessage(), e);
        }
    }

    /** Appends a value {@link #convert} returned. */
    public void append(Object stored) {
        ensureCapacity();
        if (stored == null) {
            if (!nullable) {
                throw NotNullViolationException.of(name);
            }
            nulls.set(size);
        } else {
            switch (type.storageKind()) {
                case LONG -> longs[size] = (Long) stored;
                case DOUBLE -> doubles[size] = (Double) stored;
                case STRING -> strings[size] = (String) stored;
            }
        }
        size++;
    }

    /**
     * Builds the column in {@code arena}. On failure the arena may hold part of it: the caller
     * closes the arena (a table part owns one arena for all its columns).
     */
    public Column build(NodeArena arena, ColumnPlacement placement, boolean withIndex) {
        return build(arena, placement, withIndex, BuildStop.NEVER);
    }

    /**
     * {@link #build(NodeArena, ColumnPlacement, boolean)}, giving up with a CancellationException
     * once {@code stop} says so (asked between phases and within the long loops); the arena then
     * holds part of the column, as on any failure.
     */
    public Column build(NodeArena arena, ColumnPlacement placement, boolean withIndex, BuildStop stop) {
        boolean hasNulls = !nulls.isEmpty();
        int[] vids = new int[size];
        Dictionary dictionary = switch (type.storageKind()) {
            case LONG -> buildLongs(vids, arena, placement.dictionary(), stop);
            case DOUBLE -> buildDoubles(vids, arena, placement.dictionary(), stop);
            case STRING -> buildStrings(vids, arena, placement.dictionary(), stop);
        };
        int nullVid = dictionary.size();
        for (int row = nulls.nextSetBit(0); row >= 0; row = nulls.nextSetBit(row + 1)) {
            vids[row] = nullVid;
        }
        stop.check();
        int bitcase = IndexVector.bitcaseFor(hasNulls ? nullVid : Math.max(0, nullVid - 1));
        IndexVector iv = IndexVector.pack(vids, size, bitcase, arena, placement.indexVector());
        if (placement.indexVectorSplit() != null && iv.segment().byteSize() > 0) {
            Column.splitPages(iv.segment(), placement.indexVectorSplit(), arena.memory());
        }
        stop.check();
        InvertedIndex index = withIndex
                ? InvertedIndex.build(vids, size, nullVid + (hasNulls ? 1 : 0), arena, placement.index())
                : null;
        return new Column(name, type, dictionary, iv, index, placement, hasNulls);
    }

    private LongDictionary buildLongs(int[] vids, NodeArena arena, MemoryPlacement placement, BuildStop stop) {
        long[] values = nonNull(longs);
        int count = nonNullCount();
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            min = Math.min(min, values[i]);
            max = Math.max(max, values[i]);
        }
        long span = max - min; // wraps for extreme values: negative or huge, never narrow
        long[] sorted;
        if (count > 0 && span >= 0 && span < Math.min((long) RANGE_PER_ROW * count + RANGE_SLACK, Integer.MAX_VALUE - 8)) {
            sorted = ranksByCounting(values, count, min, (int) span + 1, vids, stop);
        } else {
            // the sort itself asks nothing: tens of milliseconds for a part of a million distinct values
            sorted = DictionaryValues.sortedDistinct(values, count);
            for (int row = 0; row < size; row++) {
                stop.check(row);
                vids[row] = nulls.get(row) ? 0 : Arrays.binarySearch(sorted, longs[row]);
            }
        }
        stop.check();
        return LongDictionary.build(sorted, sorted.length, arena, placement);
    }

    /** Values spanning at most this many longs per row (plus a constant) are ranked by counting: dates, quantities, a part's keys. */
    private static final int RANGE_PER_ROW = 8;
    private static final int RANGE_SLACK = 1 << 16;

    /**
     * The sorted distinct values, and every row's vid, without sorting or searching: mark which
     * offsets from the minimum occur, number them in order, look each row's up. Linear in the
     * rows and the span, where sort and binary search pay a log factor and a cache miss per step.
     */
    private long[] ranksByCounting(long[] values, int count, long min, int span, int[] vids, BuildStop stop) {
        int[] rank = new int[span];
        for (int i = 0; i < count; i++) {
            rank[(int) (values[i] - min)] = 1;
        }
        stop.check();
        int distinct = 0;
        for (int offset = 0; offset < span; offset++) {
            int present = rank[offset];
            rank[offset] = distinct;
            distinct += present;
        }
        long[] sorted = new long[distinct];
        for (int i = 0; i < count; i++) {
            sorted[rank[(int) (values[i] - min)]] = values[i];
        }
        stop.check();
        for (int row = 0; row < size; row++) {
            vids[row] = nulls.get(row) ? 0 : rank[(int) (longs[row] - min)];
        }
        return sorted;
    }

    private DoubleDictionary buildDoubles(int[] vids, NodeArena arena, MemoryPlacement placement, BuildStop stop) {
        double[] sorted = DictionaryValues.sortedDistinct(nonNull(doubles), nonNullCount());
        for (int row = 0; row < size; row++) {
            stop.check(row);
            vids[row] = nulls.get(row) ? 0 : Arrays.binarySearch(sorted, doubles[row]);
        }
        stop.check();
        return DoubleDictionary.build(sorted, sorted.length, arena, placement);
    }

    /**
     * Strings are deduplicated through a hash map first, so only the distinct ones are sorted
     * (a flag column's million rows are three strings), and rows find their vid through their
     * first occurrence rather than by binary search. Code point order is String's own order
     * unless a string holds a surrogate or a character above it: then Utf8's comparison.
     */
    private StringDictionary buildStrings(int[] vids, NodeArena arena, MemoryPlacement placement, BuildStop stop) {
        HashMap<String, Integer> ids = new HashMap<>();
        String[] distinct = new String[16];
        boolean belowSurrogates = true;
        for (int row = 0; row < size; row++) {
            stop.check(row);
            if (nulls.get(row)) {
                continue;
            }
            String value = strings[row];
            Integer id = ids.get(value);
            if (id == null) {
                id = ids.size();
                ids.put(value, id);
                if (id == distinct.length) {
                    distinct = Arrays.copyOf(distinct, id * 2);
                }
                distinct[id] = value;
                belowSurrogates &= belowSurrogates(value);
            }
            vids[row] = id;
        }
        int n = ids.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        String[] byId = distinct;
        Comparator<String> compare = belowSurrogates ? String::compareTo : Utf8::compare;
        // a sort of a million strings may take 100 ms: it asks every so many comparisons
        int[] comparisons = {0};
        Arrays.sort(order, (x, y) -> {
            stop.check(++comparisons[0]);
            return compare.compare(byId[x], byId[y]);
        });
        String[] sorted = new String[n];
        int[] rankOfId = new int[n];
        for (int r = 0; r < n; r++) {
            sorted[r] = byId[order[r]];
            rankOfId[order[r]] = r;
        }
        for (int row = 0; row < size; row++) {
            vids[row] = nulls.get(row) ? 0 : rankOfId[vids[row]];
        }
        stop.check();
        return StringDictionary.build(sorted, sorted.length, arena, placement, stop);
    }

    private static boolean belowSurrogates(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= Character.MIN_SURROGATE) {
                return false;
            }
        }
        return true;
    }

    private int nonNullCount() {
        return size - nulls.cardinality();
    }

    /** The values of non-null rows, compacted (the array itself when there is no null). */
    @SuppressWarnings("unchecked")
    private <A> A nonNull(A values) {
        if (nulls.isEmpty()) {
            return values;
        }
        A out = (A) Array.newInstance(values.getClass().getComponentType(), nonNullCount());
        int k = 0;
        for (int row = nulls.nextClearBit(0); row < size; row = nulls.nextClearBit(row)) {
            int end = nulls.nextSetBit(row);
            end = end < 0 || end > size ? size : end;
            System.arraycopy(values, row, out, k, end - row);
            k += end - row;
            row = end;
        }
        return out;
    }

    private void ensureCapacity() {
        int capacity = switch (type.storageKind()) {
            case LONG -> longs.length;
            case DOUBLE -> doubles.length;
            case STRING -> strings.length;
        };
        if (size < capacity) {
            return;
        }
        if (capacity == Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("column " + name + " cannot hold more than " + size + " rows in one part");
        }
        int grown = (int) Math.min(Integer.MAX_VALUE - 8, capacity * 2L);
        switch (type.storageKind()) {
            case LONG -> longs = Arrays.copyOf(longs, grown);
            case DOUBLE -> doubles = Arrays.copyOf(doubles, grown);
            case STRING -> strings = Arrays.copyOf(strings, grown);
        }
    }
}
