package io.numacol.calcite.dml;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.storage.ColumnType;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

import java.time.LocalDate;

/** Where generated INSERT code sends its rows: one table of one database. */
public final class InsertTarget {
    private final Database database;
    private final Table table;
    private final boolean[] dates;

    InsertTarget(Database database, Table table) {
        this.database = database;
        this.table = table;
        TableSchema schema = table.schema();
        this.dates = new boolean[schema.size()];
        for (int i = 0; i < dates.length; i++) {
            dates[i] = schema.column(i).type().kind() == ColumnType.Kind.DATE;
        }
    }

    /**
     * Appends every row of {@code rows} (Calcite's internal values, one Object[] per row) and
     * publishes them at once; a refused row stores nothing. Inside an {@link InsertBatch} the rows
     * wait for the batch's end instead. Called by generated code.
     */
    public Enumerable<Long> insert(Enumerable<Object[]> rows) {
        InsertBatch batch = InsertBatch.current();
        if (batch == null) {
            return Linq4j.singletonEnumerable(database.appender(table).appendAll(rows.select(this::toJava)));
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

    /** Calcite carries a DATE as days since the epoch in an Integer; numacol takes a LocalDate. */
    private Object[] toJava(Object[] row) {
        for (int i = 0; i < row.length && i < dates.length; i++) {
            if (dates[i] && row[i] instanceof Integer days) {
                row[i] = LocalDate.ofEpochDay(days);
            }
        }
        return row;
    }
}
