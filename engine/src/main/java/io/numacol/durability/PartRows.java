package io.numacol.durability;

import io.numacol.storage.Column;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.Dictionary;
import io.numacol.storage.DoubleDictionary;
import io.numacol.storage.IndexVector;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.types.ColumnType;
import io.numacol.wal.RowBatch;

import java.util.ArrayList;
import java.util.BitSet;
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
        int n = part.rowCount();
        int columnCount = part.columns().size();
        List<ColumnType> types = new ArrayList<>(columnCount);
        Object[] values = new Object[columnCount];
        BitSet[] nulls = new BitSet[columnCount];
        int[] vids = new int[IndexVector.BLOCK_ROWS];
        for (int c = 0; c < columnCount; c++) {
            Column column = part.column(c);
            types.add(column.type());
            BitSet isNull = new BitSet();
            nulls[c] = isNull;
            int nullVid = column.nullVid();
            Dictionary dictionary = column.dictionary();
            // column by column from the vids: a string's bytes are copied once per distinct value,
            // never decoded to a String and encoded again
            long[] longs = dictionary instanceof LongDictionary ? new long[n] : null;
            double[] doubles = dictionary instanceof DoubleDictionary ? new double[n] : null;
            byte[][] strings = dictionary instanceof StringDictionary ? new byte[n][] : null;
            byte[][] byVid = strings != null ? new byte[dictionary.size()][] : null;
            for (int start = 0; start < n; start += vids.length) {
                int end = Math.min(n, start + vids.length);
                column.indexVector().decode(start, end, vids, 0);
                for (int row = start; row < end; row++) {
                    int vid = vids[row - start];
                    if (vid == nullVid) {
                        isNull.set(row);
                        continue;
                    }
                    switch (dictionary) {
                        case LongDictionary d -> longs[row] = d.getLong(vid);
                        case DoubleDictionary d -> doubles[row] = d.getDouble(vid);
                        case StringDictionary d -> {
                            byte[] utf8 = byVid[vid];
                            if (utf8 == null) {
                                utf8 = new byte[d.utf8Length(vid)];
                                d.copyUtf8(vid, utf8);
                                byVid[vid] = utf8;
                            }
                            strings[row] = utf8;
                        }
                    }
                }
            }
            values[c] = longs != null ? longs : doubles != null ? doubles : strings;
        }
        return RowBatch.ofUtf8Columns(types, n, values, nulls);
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
