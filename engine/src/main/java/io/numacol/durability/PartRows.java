package io.numacol.durability;

import io.numacol.storage.Column;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.PartBuilder;
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
     * The part of {@code table} that {@code rows} were logged from, under {@code id}, of no
     * partition (see {@link Recovery}: a logged partition is a number only, which the table's
     * partitioning now may not deal the same way).
     */
    static TablePart build(Table table, long id, RowBatch rows, IntFunction<ColumnPlacement> placement) {
        if (rows.columnCount() != table.schema().size()) {
            throw new IllegalStateException("the log holds rows of " + rows.columnCount() + " columns for table "
                    + table.displayName() + " of " + table.schema().size() + ": the log does not fit the catalog");
        }
        PartBuilder builder = table.newPart();
        for (int r = 0; r < rows.rowCount(); r++) {
            builder.addStored(rows.storedRow(r));
        }
        return builder.build(placement, false, id);
    }
}
