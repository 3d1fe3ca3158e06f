package io.numacol.storage;

import io.numacol.memory.NodeArena;

import java.util.List;
import java.util.Objects;
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
 *
 * <p>The columns never change. DELETE (and UPDATE, which deletes the old version of a row) marks
 * rows in a {@link DeletedRows} set instead, and publishes a new version of the part carrying it
 * ({@link #withDeleted}): the versions share the columns, the arena (freed when the last version
 * goes), the placement and the usage; each has its own references, so a reader keeps the version
 * it started with. Row positions ({@link #rowCount()}) cover deleted rows too; scans skip them.
 */
public final class TablePart {
    private final Data data;
    private final DeletedRows deleted;
    private final AtomicInteger references = new AtomicInteger(1);

    /** What the versions of one part share. */
    private static final class Data {
        final long id;
        final List<Column> columns;
        final int rowCount;
        final NodeArena arena;
        /** Versions not yet freed; the last one closes the arena. */
        final AtomicInteger versions = new AtomicInteger(1);
        /** The node holding the part's data, found once; {@link #UNKNOWN_NODE} until asked. */
        volatile int homeNode = UNKNOWN_NODE;
        /** Per column, where its IndexVector's rows are (see {@link #nodeRuns}); null until asked. */
        final AtomicReferenceArray<int[]> nodeRuns;
        final PartUsage usage = new PartUsage();
        /** The partitioning whose partition {@link #partition} this part's rows all belong to; null for none. */
        final Partitioning partitioning;
        final int partition;

        Data(long id, List<Column> columns, int rowCount, NodeArena arena, Partitioning partitioning, int partition) {
            this.id = id;
            this.columns = List.copyOf(columns);
            this.rowCount = rowCount;
            this.arena = arena;
            this.partitioning = partitioning;
            this.partition = partitioning == null ? -1 : partition;
            this.nodeRuns = new AtomicReferenceArray<>(this.columns.size());
        }
    }

    private static final int UNKNOWN_NODE = Integer.MIN_VALUE;

    TablePart(long id, List<Column> columns, int rowCount, NodeArena arena, Partitioning partitioning, int partition) {
        this(new Data(id, columns, rowCount, arena, partitioning, partition), DeletedRows.NONE);
    }

    private TablePart(Data data, DeletedRows deleted) {
        this.data = data;
        this.deleted = deleted;
    }

    /**
     * A part of columns already in memory (read back from a checkpoint) under the identity, rows,
     * partition and deletions it had. It takes {@code arena}, which must hold all the columns'
     * memory, as a built part does: one reference for the caller, the arena closed with the last
     * version. Publishing it to a table ({@link Table#addParts}) keeps the table from giving its
     * id to a new part.
     *
     * @throws IllegalArgumentException when a column's rows differ from {@code rowCount}, the
     *     partition is not one of {@code partitioning}'s, or deleted rows lie past the part's rows
     */
    public static TablePart restored(long id, List<Column> columns, int rowCount, NodeArena arena, Partitioning partitioning,
                                     int partition, DeletedRows deleted) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(deleted, "deleted");
        if (id < 0 || id > 0xffff_ffffL) {
            throw new IllegalArgumentException("a part id is a 32-bit unsigned number, got " + id);
        }
        for (Column c : columns) {
            if (c.rowCount() != rowCount) {
                throw new IllegalArgumentException("column " + c.name() + " has " + c.rowCount() + " rows, the part " + rowCount);
            }
        }
        if (partitioning != null) {
            Objects.checkIndex(partition, partitioning.count());
        }
        DeletedRows checked = deleted.isEmpty() ? DeletedRows.NONE : DeletedRows.NONE.with(deleted.words(), rowCount);
        return new TablePart(new Data(id, columns, rowCount, arena, partitioning, partition), checked);
    }

    /**
     * The part's identity, the same for all its versions and unique within its table (the first
     * 2^32 parts of a table: {@link #rowId} keeps 32 bits of it).
     */
    public long id() {
        return data.id;
    }

    /**
     * The row at {@code position} of this part, named for as long as the part lives (across its
     * versions): its {@link #id()} in the high 32 bits, the position in the low ones.
     */
    public long rowId(int position) {
        return data.id << 32 | position;
    }

    /** The {@link #id()} of the part of a {@link #rowId}. */
    public static long partIdOf(long rowId) {
        return rowId >>> 32;
    }

    /** The position of a {@link #rowId} in its part. */
    public static int positionOf(long rowId) {
        return (int) rowId;
    }

    /** Row positions, deleted rows included. */
    public int rowCount() {
        return data.rowCount;
    }

    /** Rows not deleted. */
    public int liveRowCount() {
        return data.rowCount - deleted.count();
    }

    /** The rows of this version that are deleted. */
    public DeletedRows deleted() {
        return deleted;
    }

    /**
     * A new version of this part with the rows set in {@code rows} (a bitmap over its positions)
     * deleted as well; this one if none is new. The caller holds a reference to this version and
     * publishes the new one in its place ({@link Table#replaceParts}), which releases this one.
     */
    public TablePart withDeleted(long[] rows) {
        DeletedRows union = deleted.with(rows, data.rowCount);
        if (union == deleted) {
            return this;
        }
        for (int v = data.versions.get(); ; v = data.versions.get()) {
            if (v <= 0) {
                throw new IllegalStateException("a freed part takes no deletion");
            }
            if (data.versions.compareAndSet(v, v + 1)) {
                return new TablePart(data, union);
            }
        }
    }

    /** Whether {@code other} is a version of this part. */
    public boolean sameData(TablePart other) {
        return data == other.data;
    }

    public List<Column> columns() {
        return data.columns;
    }

    public Column column(int i) {
        return data.columns.get(i);
    }

    /** The physical partitioning this part was built under, or null: its rows are all of {@link #partition()}. */
    public Partitioning partitioning() {
        return data.partitioning;
    }

    /** The partition of {@link #partitioning()} this part's rows belong to; -1 for none. */
    public int partition() {
        return data.partition;
    }

    /** What scans of this part have cost so far. */
    public PartUsage usage() {
        return data.usage;
    }

    /**
     * The node holding this part's data (-1 for none), found by {@code locate} on the first call
     * and remembered: asking the kernel per query would put a page walk on every scan.
     */
    public int homeNode(ToIntFunction<TablePart> locate) {
        int node = data.homeNode;
        if (node == UNKNOWN_NODE) {
            node = locate.applyAsInt(this);
            data.homeNode = node;
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
        for (int c = 0; c < data.columns.size(); c++) {
            failed += data.columns.get(c).moveTo(placement.apply(c), data.arena.memory());
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
        int[] runs = data.nodeRuns.get(c);
        if (runs == null) {
            runs = locate.apply(c);
            data.nodeRuns.set(c, runs);
        }
        return runs;
    }

    /** Forgets the remembered home node and node runs, for whoever moves this part's pages. */
    public void forgetPlacement() {
        data.homeNode = UNKNOWN_NODE;
        for (int c = 0; c < data.nodeRuns.length(); c++) {
            data.nodeRuns.set(c, null);
        }
    }

    /** Takes a reference unless this version is already freed; returns whether it did. */
    public boolean tryRetain() {
        for (int r = references.get(); r > 0; r = references.get()) {
            if (references.compareAndSet(r, r + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Drops a reference; the last one frees this version, and the last version the part's memory. */
    public void release() {
        int r = references.decrementAndGet();
        if (r == 0) {
            if (data.versions.decrementAndGet() == 0) {
                data.arena.close();
            }
        } else if (r < 0) {
            throw new IllegalStateException("table part released more often than retained");
        }
    }

    /** Whether this version is freed (its memory goes with the part's last version). */
    public boolean isFreed() {
        return references.get() == 0;
    }

    @Override
    public String toString() {
        return "TablePart(" + data.rowCount + " rows" + (deleted.isEmpty() ? "" : ", " + deleted.count() + " deleted") + ", "
                + data.columns.size() + " columns" + (data.partitioning == null ? "" : ", partition " + data.partition) + ")";
    }
}
