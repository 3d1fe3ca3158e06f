package io.numacol.calcite.dml;

import io.numacol.calcite.QueryCancel;
import org.apache.calcite.DataContext;
import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.TableRewrite;
import io.numacol.storage.ColumnType;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;

/** Where generated INSERT, UPDATE and DELETE code sends its rows: one table of one database. */
public final class ModifyTarget {
    private final Database database;
    private final Table table;
    private final ColumnType.Kind[] kinds;

    ModifyTarget(Database database, Table table) {
        this.database = database;
        this.table = table;
        TableSchema schema = table.schema();
        this.kinds = new ColumnType.Kind[schema.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = schema.column(i).type().kind();
        }
    }

    /**
     * Appends every row of {@code rows} (Calcite's internal values, one Object[] per row) and
     * publishes them at once; a refused row stores nothing. Inside an {@link InsertBatch} the rows
     * wait for the batch's end instead. Called by generated code.
     */
    public Enumerable<Long> insert(Enumerable<Object[]> rows, DataContext root) {
        InsertBatch batch = InsertBatch.current();
        if (batch == null) {
            Appender appender = database.appender(table).stoppedBy(QueryCancel.of(root)::check);
            return Linq4j.singletonEnumerable(appender.appendAll(rows.select(this::toJava)));
        }
        // The batch discards everything on failure, so a refused row needs no undo here.
        Appender appender = batch.appender(database, table);
        long count = 0;
        for (Object[] row : rows) {
            appender.append(toJava(row));
            count++;
        }
        return Linq4j.singletonEnumerable(count);
    }

    /**
     * Deletes the rows whose last value is TRUE: {@code rows} is every row of the table with that
     * flag ({@link ModifyValidator}), and the rest replace the table's parts at once
     * ({@link TableRewrite}). Yields the number deleted. Called by generated code.
     */
    public Enumerable<Long> delete(Enumerable<Object[]> rows, DataContext root) {
        int width = table.schema().size();
        try (TableRewrite rewrite = TableRewrite.begin(database, table, QueryCancel.of(root)::check)) {
            long seen = 0;
            long deleted = 0;
            for (Object[] row : rows) { // read only now, holding the table: the scans see what the rewrite replaces
                seen++;
                if (Boolean.TRUE.equals(row[width])) {
                    deleted++;
                } else {
                    rewrite.keep(toJava(Arrays.copyOf(row, width)));
                }
            }
            if (deleted > 0) {
                rewrite.commit(seen);
            }
            return Linq4j.singletonEnumerable(deleted);
        }
    }

    /**
     * Sets {@code columns} of the rows whose last value is TRUE to the values after the table's
     * own: {@code rows} is every row of the table, its new values and that flag ({@link
     * ModifyValidator}). The new values are checked as an INSERT's are; every row, changed or
     * not, replaces the table's parts at once ({@link TableRewrite}). Yields the number of rows
     * changed. Called by generated code.
     */
    public Enumerable<Long> update(Enumerable<Object[]> rows, String[] columns, DataContext root) {
        TableSchema schema = table.schema();
        int width = schema.size();
        int[] targets = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            targets[i] = schema.indexOf(columns[i]);
        }
        try (TableRewrite rewrite = TableRewrite.begin(database, table, QueryCancel.of(root)::check)) {
            long seen = 0;
            long updated = 0;
            for (Object[] row : rows) {
                seen++;
                Object[] stored = Arrays.copyOf(row, width);
                if (Boolean.TRUE.equals(row[row.length - 1])) {
                    updated++;
                    for (int i = 0; i < targets.length; i++) {
                        stored[targets[i]] = number(schema.column(targets[i]), row[width + i]);
                    }
                }
                rewrite.keep(toJava(stored));
            }
            if (updated > 0) {
                rewrite.commit(seen);
            }
            return Linq4j.singletonEnumerable(updated);
        }
    }

    /**
     * A string assigned to a numeric column as the number it spells ({@link ModifyValidator}
     * leaves such values uncast, so that a bad one is named here rather than failing Calcite's
     * cast with NumberFormatException); anything else as it is.
     */
    private static Object number(TableSchema.ColumnDef column, Object value) {
        ColumnType.Kind kind = column.type().kind();
        if (!(value instanceof String text) || !(kind == ColumnType.Kind.TINYINT || kind == ColumnType.Kind.SMALLINT
                || kind == ColumnType.Kind.INTEGER || kind == ColumnType.Kind.BIGINT
                || kind == ColumnType.Kind.DOUBLE || kind == ColumnType.Kind.DECIMAL)) {
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
     * Calcite carries a DATE as days since the epoch in an Integer and a TIMESTAMP as milliseconds
     * in a Long; numacol takes a LocalDate and a LocalDateTime.
     */
    private Object[] toJava(Object[] row) {
        for (int i = 0; i < row.length && i < kinds.length; i++) {
            if (kinds[i] == ColumnType.Kind.DATE && row[i] instanceof Integer days) {
                row[i] = LocalDate.ofEpochDay(days);
            } else if (kinds[i] == ColumnType.Kind.TIMESTAMP && row[i] instanceof Long millis) {
                row[i] = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
            }
        }
        return row;
    }
}
