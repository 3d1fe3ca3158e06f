package io.numacol.exec;

import io.numacol.storage.StringDictionary;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

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
    private final AggregateFunction[] accs;
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
        this.accs = new AggregateFunction[plan.calls().size()];
        this.filters = plan.calls().stream().mapToInt(AggregateCall::filter).toArray();
        for (int i = 0; i < accs.length; i++) {
            AggregateCall call = plan.calls().get(i);
            ColumnType out = plan.types().get(plan.keys().length + i);
            accs[i] = AggregateFunction.of(call, in, out);
            accs[i].initialize(hashes.length);
        }
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
                accs[i].update(in, groupOf, n);
                continue;
            }
            long[] truth = in.longs[f];
            boolean[] unknown = in.nulls[f];
            for (int r = 0; r < n; r++) {
                filteredGroupOf[r] = truth[r] == 1 && (unknown == null || !unknown[r]) ? groupOf[r] : -1;
            }
            accs[i].update(in, filteredGroupOf, n);
        }
    }

    /** Adds group {@code g} of {@code other} (a table of the same plan) into this one. */
    void merge(GroupTable other, int g) {
        Chunk page = other.keyPages.isEmpty() ? null : other.keyPages.get(g >>> RowStore.PAGE_SHIFT);
        int target = keyColumns.length == 0 ? (groups == 0 ? newGroup(0, null, 0) : 0)
                : find(page, g & RowStore.PAGE_MASK, other.hashes[g]);
        for (int i = 0; i < accs.length; i++) {
            accs[i].combine(target, other.accs[i], g);
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
                accs[i].finalizeGroup(chunk, width + i, r, g);
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
            for (AggregateFunction acc : accs) {
                acc.initialize(g * 2);
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

}
