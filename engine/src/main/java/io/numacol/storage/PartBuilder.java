package io.numacol.storage;

import io.numacol.memory.NodeArena;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Builds one {@link TablePart} of a table from rows. A row is checked whole (count, types,
 * NOT NULL) before any column takes it, so a refused row leaves no trace; a part is built in
 * its own arena and joins the table only when complete, so a failed build frees everything.
 */
public final class PartBuilder {
    /**
     * Parts of fewer rows build no Index on the table's {@link Table#indexedColumns()}: a lookup
     * finds the value's vid in the part's dictionary either way (a part without it is passed
     * over whole), and scanning one block of vids for it costs about what probing the Index
     * does, while each Index costs the part's build two more allocations. The parts of
     * single-row INSERTs and UPDATEs stay this small until a merge joins them.
     */
    public static final int INDEX_MIN_ROWS = IndexVector.BLOCK_ROWS;

    private final Table table;
    private final List<ColumnBuilder> columns = new ArrayList<>();
    private int rows;
    private Partitioning partitioning;
    private int partition = -1;

    PartBuilder(Table table) {
        this.table = table;
        for (TableSchema.ColumnDef def : table.schema().columns()) {
            columns.add(new ColumnBuilder(def.name(), def.type(), def.nullable()));
        }
    }

    /**
     * Makes the part one of partition {@code partition} of {@code partitioning}: the caller
     * gives it only rows of that partition. Before any row.
     */
    public PartBuilder inPartition(Partitioning partitioning, int partition) {
        if (rows > 0) {
            throw new IllegalStateException("a part's partition is set before its first row");
        }
        Objects.checkIndex(partition, partitioning.count());
        this.partitioning = partitioning;
        this.partition = partition;
        return this;
    }

    public void addRow(Object... values) {
        addStored(convert(values));
    }

    /**
     * A row's values in their stored form (Long, Double or String, null for NULL), checked whole
     * against the columns: what {@link Partitioning#partitionOf} reads before a row is dealt.
     */
    public Object[] convert(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("table " + table.name() + " has " + columns.size()
                    + " columns but the row has " + values.length + " values");
        }
        Object[] stored = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            try {
                stored[i] = columns.get(i).convert(values[i]);
            } catch (NotNullViolationException e) {
                throw NotNullViolationException.of(table.name(), e.column(), rows + 1, e);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("row " + (rows + 1) + " of table " + table.name() + ": " + e.getMessage(), e);
            }
        }
        return stored;
    }

    /** Appends a row {@link #convert} gave (of any builder of the same table). */
    public void addStored(Object[] stored) {
        for (int i = 0; i < stored.length; i++) {
            columns.get(i).append(stored[i]);
        }
        rows++;
    }

    public int rowCount() {
        return rows;
    }

    /**
     * Appends every row of {@code part} that is not deleted, the part being of a table of the same
     * schema, in its stored form column by column: a merge of parts converts and checks nothing
     * again, and leaves deleted rows behind. Should it fail
     * midway (a NOT NULL column meeting a NULL), the builder is left unusable: drop it.
     */
    public void appendPart(TablePart part) {
        appendRows(part, 0, part.rowCount());
    }

    /**
     * Appends rows {@code [from, to)} of {@code part} as {@link #appendPart} appends all of
     * them: the DataPlacer cuts a part in pieces this way.
     */
    public void appendRows(TablePart part, int from, int to) {
        Objects.checkFromToIndex(from, to, part.rowCount());
        adoptPartition(part);
        DeletedRows deleted = part.deleted();
        int live = to - from - deleted.count(from, to);
        checkShape(part, live);
        for (int c = 0; c < columns.size(); c++) {
            ColumnBuilder into = columns.get(c);
            Object[] values = part.column(c).storedValues(from, to);
            for (int i = 0; i < values.length; i++) {
                if (!deleted.isDeleted(from + i)) {
                    into.append(values[i]);
                }
            }
        }
        rows += live;
    }

    /** Whether rows of {@code part} (of this many) fit this builder: its columns' storage, and the size limit. */
    private void checkShape(TablePart part, int more) {
        if (part.columns().size() != columns.size()) {
            throw new IllegalArgumentException("a part of " + part.columns().size() + " columns cannot join table "
                    + table.name() + " of " + columns.size());
        }
        for (int c = 0; c < columns.size(); c++) {
            if (part.column(c).type().storageKind() != columns.get(c).type().storageKind()) {
                throw new IllegalArgumentException("column " + c + " of the part is " + part.column(c).type()
                        + ", of table " + table.name() + " " + columns.get(c).type());
            }
        }
        if ((long) rows + more > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a part of table " + table.name() + " holds at most " + (Integer.MAX_VALUE - 8)
                    + " rows; " + rows + " and " + more + " more would pass that");
        }
    }

    /**
     * A part built of another's rows keeps its partition (a merge, the DataPlacer's pieces); rows
     * of two partitions never meet in one part, or a join by partitions would miss pairs.
     */
    private void adoptPartition(TablePart part) {
        if (rows == 0 && partitioning == null && part.partitioning() != null) {
            partitioning = part.partitioning();
            partition = part.partition();
        } else if (!Objects.equals(partitioning, part.partitioning()) || partition != part.partition()) {
            throw new IllegalArgumentException("rows of " + part + " cannot join a part of "
                    + (partitioning == null ? "no partition" : "partition " + partition) + " of table " + table.name());
        }
    }

    /**
     * Deals the rows of {@code part} but deleted ones to {@code into}: row {@code r} to {@code
     * into[partitionOfRow[r]]}, column by column in their stored form, each column decoded once
     * (a repartitioning deals a part's rows this way). Every builder a row goes to must be there.
     */
    public static void scatter(TablePart part, int[] partitionOfRow, PartBuilder[] into) {
        DeletedRows deleted = part.deleted();
        int[] counts = new int[into.length];
        for (int r = 0; r < partitionOfRow.length; r++) {
            counts[partitionOfRow[r]] += deleted.isDeleted(r) ? 0 : 1;
        }
        for (int p = 0; p < into.length; p++) {
            if (counts[p] > 0) {
                into[p].checkShape(part, counts[p]);
            }
        }
        for (int c = 0; c < part.columns().size(); c++) {
            Object[] values = part.column(c).storedValues(0, part.rowCount());
            for (int r = 0; r < values.length; r++) {
                if (!deleted.isDeleted(r)) {
                    into[partitionOfRow[r]].columns.get(c).append(values[r]);
                }
            }
        }
        for (int p = 0; p < into.length; p++) {
            if (counts[p] > 0) {
                into[p].rows += counts[p];
            }
        }
    }

    /** Builds the part, each column placed as {@code placement} says for its position, and adds it to the table. */
    public TablePart commit(IntFunction<ColumnPlacement> placement, boolean withIndex) {
        TablePart part = build(placement, withIndex);
        try {
            table.addParts(List.of(part));
        } catch (RuntimeException e) {
            part.release();
            throw e;
        }
        return part;
    }

    /**
     * Builds the part without adding it to the table: the caller publishes it with
     * {@link Table#addParts} (so several parts appear at once) or frees it with
     * {@link TablePart#release()}. Every column gets an Index when {@code withIndex}; the
     * table's {@link Table#indexedColumns()} get one anyway in a part of at least
     * {@link #INDEX_MIN_ROWS} rows.
     */
    public TablePart build(IntFunction<ColumnPlacement> placement, boolean withIndex) {
        return build(placement, withIndex, table.nextPartId());
    }

    /**
     * {@link #build(IntFunction, boolean)} that gives up once {@code stop} says so (a stopped
     * statement's part, which nobody will publish): it throws a CancellationException, and
     * everything it allocated is freed.
     */
    public TablePart build(IntFunction<ColumnPlacement> placement, boolean withIndex, BuildStop stop) {
        return build(placement, withIndex, table.nextPartId(), stop);
    }

    /**
     * {@link #build(IntFunction, boolean)} under a given part id: a file database's log replay
     * makes a part again under the id its logged deletions name. Publishing it keeps the table
     * from giving the id to a new part.
     */
    public TablePart build(IntFunction<ColumnPlacement> placement, boolean withIndex, long id) {
        return build(placement, withIndex, id, BuildStop.NEVER);
    }

    private TablePart build(IntFunction<ColumnPlacement> placement, boolean withIndex, long id, BuildStop stop) {
        stop.check();
        boolean[] indexed = rows >= INDEX_MIN_ROWS ? table.indexedColumns() : new boolean[columns.size()];
        NodeArena arena = table.memory().newArena();
        try {
            List<Column> built = new ArrayList<>(columns.size());
            for (int i = 0; i < columns.size(); i++) {
                built.add(columns.get(i).build(arena, placement.apply(i), withIndex || indexed[i], stop));
            }
            return new TablePart(id, built, rows, arena, partitioning, partition);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }
}
