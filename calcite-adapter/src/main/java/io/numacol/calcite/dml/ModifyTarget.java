package io.numacol.calcite.dml;

import io.numacol.calcite.QueryCancel;
import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.TableChange;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.TypeCodec;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

import java.math.BigDecimal;
import java.util.Arrays;

/** Where generated INSERT, UPDATE and DELETE code sends its rows: one table of one database. */
public final class ModifyTarget {
    private final Database database;
    private final Table table;
    private final TypeCodec[] codecs;

    ModifyTarget(Database database, Table table) {
        this.database = database;
        this.table = table;
        TableSchema schema = table.schema();
        this.codecs = new TypeCodec[schema.size()];
        for (int i = 0; i < codecs.length; i++) {
            codecs[i] = schema.column(i).type().codec();
        }
    }

    /**
     * Appends every row of {@code rows} (Calcite's internal values, one Object[] per row) and
     * publishes them at once; a refused row stores nothing. Inside an {@link InsertBatch} the rows
     * wait for the batch's end instead; in an {@link Upsert}, they go to it. Called by generated code.
     */
    public Enumerable<Long> insert(Enumerable<Object[]> rows, DataContext root) {
        Upsert upsert = Upsert.current();
        if (upsert != null) { // INSERT ... ON CONFLICT: the rows are stored, skipped or update the rows they conflict with
            return Linq4j.singletonEnumerable(upsert.store(database, table, rows.select(this::toJava), root, QueryCancel.of(root)::check));
        }
        InsertBatch batch = InsertBatch.current();
        if (batch == null) {
            Appender appender = database.appender(table).stoppedBy(QueryCancel.of(root)::check);
            Enumerable<Object[]> stored = rows.select(this::toJava);
            if (ChangedRows.wanted()) {
                stored = stored.select(this::noted);
            }
            return Linq4j.singletonEnumerable(appender.appendAll(stored));
        }
        // The batch discards everything on failure, so a refused row needs no undo here.
        Appender appender = batch.appender(database, table);
        long count = 0;
        for (Object[] row : rows) {
            appender.append(noted(toJava(row)));
            count++;
        }
        return Linq4j.singletonEnumerable(count);
    }

    /**
     * Deletes the rows named by {@code rows}, each a row id alone ({@link ModifyValidator}): marks
     * them in their parts' deletion bitmaps and publishes those at once ({@link TableChange}).
     * Yields the number deleted. Called by generated code.
     */
    public Enumerable<Long> delete(Enumerable<Object[]> rows, DataContext root) {
        try (TableChange change = TableChange.begin(database, table, QueryCancel.of(root)::check)) {
            boolean returning = ChangedRows.wanted();
            for (Object[] row : rows) { // read only now, holding the table: the scans see the parts the change marks
                long rowId = (Long) row[0];
                if (change.delete(rowId) && returning) {
                    noted(change.row(rowId)); // a DELETE ... RETURNING answers the rows it deletes
                }
            }
            change.commit();
            return Linq4j.singletonEnumerable(change.deletedRows());
        }
    }

    /**
     * Sets {@code columns} of the rows of {@code rows} to the values after the table's own: each
     * row is the table's columns, the new values and the row id ({@link ModifyValidator}). The
     * old version of each row is deleted and the new one, checked as an INSERT's values are,
     * appended; both are published at once ({@link TableChange}). Yields the number of rows
     * changed. Called by generated code.
     */
    public Enumerable<Long> update(Enumerable<Object[]> rows, String[] columns, DataContext root) {
        TableSchema schema = table.schema();
        int width = schema.size();
        int[] targets = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            targets[i] = schema.indexOf(columns[i]);
        }
        try (TableChange change = TableChange.begin(database, table, QueryCancel.of(root)::check)) {
            for (Object[] row : rows) {
                Object[] stored = Arrays.copyOf(row, width);
                for (int i = 0; i < targets.length; i++) {
                    stored[targets[i]] = number(schema.column(targets[i]), row[width + i]);
                }
                Object[] version = toJava(stored);
                Object[] asGiven = ChangedRows.wanted() ? version.clone() : null; // the appender may change the array
                // a row the source named twice (a join in the WHERE) changes once
                if (change.update((Long) row[row.length - 1], version) && asGiven != null) {
                    noted(asGiven);
                }
            }
            change.commit();
            return Linq4j.singletonEnumerable(change.deletedRows());
        }
    }

    /** {@code row}, noted as stored by the running statement where its rows are wanted ({@link ChangedRows}). */
    private Object[] noted(Object[] row) {
        ChangedRows.stored(table, row);
        return row;
    }

    /**
     * A string assigned to a numeric column as the number it spells ({@link ModifyValidator}
     * leaves such values uncast, so that a bad one is named here rather than failing Calcite's
     * cast with NumberFormatException); anything else as it is.
     */
    static Object number(TableSchema.ColumnDef column, Object value) {
        if (!(value instanceof String text) || !column.type().codec().numeric()) {
            return value;
        }
        try {
            return new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("column " + column.name() + ": value '" + text + "' is not a number, as "
                    + column.type() + " requires");
        }
    }

    /**
     * Calcite carries a DATE as days since the epoch in an Integer, a TIMESTAMP as milliseconds
     * in a Long (a TIMESTAMP WITH TIME ZONE too, since the epoch in UTC) and a TIME as milliseconds of the day in an Integer;
     * numacol takes a LocalDate, a LocalDateTime, an Instant and a LocalTime ({@link TypeCodec#fromInternal}); a VARBINARY
     * comes as a ByteString, numacol takes a byte[].
     */
    private Object[] toJava(Object[] row) {
        for (int i = 0; i < row.length && i < codecs.length; i++) {
            row[i] = row[i] instanceof ByteString bytes ? bytes.getBytes() : codecs[i].fromInternal(row[i]);
        }
        return row;
    }
}
