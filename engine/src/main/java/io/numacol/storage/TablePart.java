package io.numacol.storage;

import io.numacol.memory.NodeArena;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * A row range of a table with its own columns (the thesis's physical partitioning unit). All
 * its memory lives in one {@link NodeArena}, freed in one close when the last reference goes:
 * the table holds one reference while the part belongs to it, and every reader holds one while
 * it scans, so a part replaced or dropped under a running query stays readable until the query
 * lets go.
 */
public final class TablePart {
    private final List<Column> columns;
    private final int rowCount;
    private final NodeArena arena;
    private final AtomicInteger references = new AtomicInteger(1);
    /** The node holding the part's data, found once; {@link #UNKNOWN_NODE} until asked. */
    private volatile int homeNode = UNKNOWN_NODE;
    /** Per column, where its IndexVector's rows are (see {@link #nodeRuns}); null until asked. */
    private final AtomicReferenceArray<int[]> nodeRuns;
    private final PartUsage usage = new PartUsage();
    /** The partitioning whose partition {@link #partition} this part's rows all belong to; null for none. */
    private final Partitioning partitioning;
    private final int partition;

    private static final int UNKNOWN_NODE = Integer.MIN_VALUE;

    TablePart(List<Column> columns, int rowCount, NodeArena arena, Partitioning partitioning, int partition) {
        this.columns = List.copyOf(columns);
        this.rowCount = rowCount;
        this.arena = arena;
        this.partitioning = partitioning;
        this.partition = partitioning == null ? -1 : partition;
        this.nodeRuns = new AtomicReferenceArray<>(this.columns.size());
    }

    public int rowCount() {
        return rowCount;
    }

    public List<Column> columns() {
        return columns;
    }

    public Column column(int i) {
        return columns.get(i);
    }

    /** The physical partitioning this part was built under, or null: its rows are all of {@link #partition()}. */
    public Partitioning partitioning() {
        return partitioning;
    }

    /** The partition of {@link #partitioning()} this part's rows belong to; -1 for none. */
    public int partition() {
        return partition;
    }

    /** What scans of this part have cost so far. */
    public PartUsage usage() {
        return usage;
    }

    /**
     * The node holding this part's data (-1 for none), found by {@code locate} on the first call
     * and remembered: asking the kernel per query would put a page walk on every scan.
     */
    public int homeNode(ToIntFunction<TablePart> locate) {
        int node = homeNode;
        if (node == UNKNOWN_NODE) {
            node = locate.applyAsInt(this);
            homeNode = node;
        }
        return node;
    }

    /**
     * Moves the pages of column {@code c} where {@code placement.apply(c)} says, column by column;
     * readers go on reading, since the pages keep their addresses. The caller holds a reference.
     * Returns how many pages the kernel could not move.
     */
    public long moveTo(IntFunction<ColumnPlacement> placement) {
        long failed = 0;
        for (int c = 0; c < columns.size(); c++) {
            failed += columns.get(c).moveTo(placement.apply(c), arena.memory());
        }
        forgetPlacement();
        return failed;
    }

    /**
     * Where the rows of column {@code c}'s IndexVector are, as runs {@code {from0, node0, from1,
     * node1, ...}} (each run up to the next one's first row or the part's end; node -1 for none
     * or interleaved), found by {@code locate} on the first call and remembered like the home node.
     */
    public int[] nodeRuns(int c, IntFunction<int[]> locate) {
        int[] runs = nodeRuns.get(c);
        if (runs == null) {
            runs = locate.apply(c);
            nodeRuns.set(c, runs);
        }
        return runs;
    }

    /** Forgets the remembered home node and node runs, for whoever moves this part's pages. */
    public void forgetPlacement() {
        homeNode = UNKNOWN_NODE;
        for (int c = 0; c < nodeRuns.length(); c++) {
            nodeRuns.set(c, null);
        }
    }

    /** Takes a reference unless the part is already freed; returns whether it did. */
    public boolean tryRetain() {
        for (int r = references.get(); r > 0; r = references.get()) {
            if (references.compareAndSet(r, r + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Drops a reference; the last one frees the part's memory. */
    public void release() {
        int r = references.decrementAndGet();
        if (r == 0) {
            arena.close();
        } else if (r < 0) {
            throw new IllegalStateException("table part released more often than retained");
        }
    }

    public boolean isFreed() {
        return references.get() == 0;
    }

    @Override
    public String toString() {
        return "TablePart(" + rowCount + " rows, " + columns.size() + " columns" + (partitioning == null ? "" : ", partition " + partition) + ")";
    }
}
