package io.numacol.durability;

import io.numacol.storage.Column;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.types.ColumnType;
import io.numacol.wal.RowBatch;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A small new part's rows as the log carries them ({@link RowBatch}, the stored values of every
 * row, deleted or not, so that positions stay what later deletions name), and the part made
 * again from them under its id.
 */
final class PartRows {
    private PartRows() {
    }

    static RowBatch of(TablePart part) {
        List<ColumnType> types = new ArrayList<>(part.columns().size());
        Object[][] columns = new Object[part.columns().size()][];
        for (int c = 0; c < columns.length; c++) {
            Column column = part.column(c);
            types.add(column.type());
            columns[c] = column.storedValues(0, part.rowCount());
        }
        RowBatch.Builder rows = RowBatch.builder(types);
        Object[] row = new Object[columns.length];
        for (int r = 0; r < part.rowCount(); r++) {
            for (int c = 0; c < columns.length; c++) {
                row[c] = columns[c][r];
            }
            rows.addStored(row);
        }
        return rows.build();
    }

    /**
     * The part of {@code table} that {@code rows} were logged from, under {@code id}: of the
     * logged {@code partition} of {@code partitioning} (the table's now) and on its node when each
     * row belongs there, else of none. A logged partition is a number only, and the table may
     * deal its rows otherwise by the time its record is replayed (a checkpoint or a crash between
     * SET PLACEMENT's steps); a part of none only costs a join its partition-by-partition run.
     */
    static TablePart build(Table table, long id, RowBatch rows, int partition, Partitioning partitioning,
                           IntFunction<IntFunction<ColumnPlacement>> placement) {
        if (rows.columnCount() != table.schema().size()) {
            throw new IllegalStateException("the log holds rows of " + rows.columnCount() + " columns for table "
                    + table.displayName() + " of " + table.schema().size() + ": the log does not fit the catalog");
        }
        Object[][] stored = new Object[rows.rowCount()][];
        boolean inPartition = partitioning != null && partition >= 0 && partition < partitioning.count();
        for (int r = 0; r < stored.length; r++) {
            stored[r] = rows.storedRow(r);
            // a ROUND ROBIN partition is a place in the dealing, which no value shows: any of the count holds
            if (inPartition && partitioning.kind() != Partitioning.Kind.ROUND_ROBIN && partitioning.partitionOf(stored[r], 0) != partition) {
                inPartition = false;
            }
        }
        PartBuilder builder = table.newPart();
        if (inPartition) {
            builder.inPartition(partitioning, partition);
        }
        for (Object[] row : stored) {
            builder.addStored(row);
        }
        return builder.build(placement.apply(inPartition ? partition : -1), false, id);
    }
}
