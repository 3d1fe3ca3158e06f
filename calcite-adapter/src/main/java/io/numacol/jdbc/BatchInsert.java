package io.numacol.jdbc;

import io.numacol.calcite.dml.ChangedRows;
import io.numacol.calcite.dml.ValuesInsert;
import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A batch of {@code INSERT INTO t [(columns)] VALUES (?, ...)} executions as one bulk append:
 * which parameter fills which column, and the run that checks every row, stores all of them at
 * once or none, and answers one update count of 1 per row. Also how a failed batch is reported.
 */
final class BatchInsert {
    private final Database database;
    private final Table table;
    /** Marks a column of {@link #parameterOfColumn} that takes its DEFAULT, or its identity's next number. */
    private static final int DEFAULTED = -2;
    /**
     * For each column of the table, the parameter (0-based) that fills it, -1 for NULL, or
     * {@link #DEFAULTED} for a column left out (or given {@code DEFAULT}) that has a DEFAULT or an identity.
     */
    private final int[] parameterOfColumn;

    private BatchInsert(Database database, Table table, int[] parameterOfColumn) {
        this.database = database;
        this.table = table;
        this.parameterOfColumn = parameterOfColumn;
    }

    /**
     * The bulk form of {@code sql}, or null when it is not a single-row VALUES of plain parameters
     * into a table of {@code database}; a name without schema is in {@code schema}, the
     * connection's default.
     */
    static BatchInsert recognize(String sql, Database database, String schema) {
        ValuesInsert insert = ValuesInsert.parse(sql, database, schema);
        SqlBasicCall row = insert == null || insert.rows().size() != 1 ? null : insert.row(insert.rows().getFirst());
        if (row == null) {
            return null;
        }
        Table table = insert.table();
        int[] columns = insert.columns();
        int[] parameterOfColumn = new int[table.schema().size()];
        Arrays.fill(parameterOfColumn, -1);
        TableSchema columnDefs = table.schema();
        for (int c = 0; c < parameterOfColumn.length; c++) {
            if (columnDefs.column(c).defaultExpression()) {
                return null; // the planned path evaluates a DEFAULT expression, for each row where it must
            }
            if (columnDefs.column(c).hasDefault()) {
                parameterOfColumn[c] = DEFAULTED; // unless the statement names it, below
            }
        }
        for (int i = 0; i < columns.length; i++) {
            TableSchema.ColumnDef column = columnDefs.column(columns[i]);
            if (row.operand(i).getKind() == SqlKind.DEFAULT) {
                parameterOfColumn[columns[i]] = column.hasDefault() ? DEFAULTED : -1;
                continue;
            }
            if (!(row.operand(i) instanceof SqlDynamicParam p) || (column.identity() != null && column.identity().always())) {
                return null; // the planned path runs it, and refuses a value for a GENERATED ALWAYS column (428C9)
            }
            parameterOfColumn[columns[i]] = p.getIndex();
        }
        return new BatchInsert(database, table, parameterOfColumn);
    }

    /**
     * Appends every parameter row and publishes them at once. A refused row stores nothing and
     * fails the batch with a BatchUpdateException naming its entry.
     */
    long[] run(Meta.Signature signature, List<List<TypedValue>> batch, ZoneId zone) throws BatchUpdateException {
        String[] columnOfParameter = new String[parameterOfColumn.length];
        for (int c = 0; c < parameterOfColumn.length; c++) {
            if (parameterOfColumn[c] >= 0) {
                columnOfParameter[parameterOfColumn[c]] = table.schema().column(c).name();
            }
        }
        IntFunction<String> columnOf = i -> i < columnOfParameter.length ? columnOfParameter[i] : null;
        Appender appender = database.appender(table);
        int entry = 0;
        try {
            for (; entry < batch.size(); entry++) {
                // The same conversions as a single execute (a numeric string for a number...), then the Appender's checks.
                Object[] row = row(ParameterValues.fit(signature, batch.get(entry), columnOf, zone), zone);
                ChangedRows.stored(table, row); // for getGeneratedKeys(), where asked
                appender.append(row);
            }
            appender.flush();
        } catch (RuntimeException e) {
            appender.discard();
            throw entry < batch.size() ? entryFailed(entry, batch.size(), e) : storeFailed(batch.size(), e);
        } catch (Error e) {
            appender.discard();
            throw e;
        }
        long[] counts = new long[batch.size()];
        Arrays.fill(counts, 1);
        return counts;
    }

    /** One entry's row: its parameters, the DEFAULTs of the columns it leaves out, and the next number of each identity. */
    private Object[] row(List<TypedValue> parameters, ZoneId zone) {
        Object[] row = new Object[parameterOfColumn.length];
        for (int c = 0; c < row.length; c++) {
            if (parameterOfColumn[c] == DEFAULTED) {
                TableSchema.ColumnDef column = table.schema().column(c);
                row[c] = column.identity() != null ? Long.valueOf(column.identity().sequence().next())
                        : Appender.valueOfText(column, column.literalDefault(), zone);
            } else {
                row[c] = parameterOfColumn[c] < 0 ? null : value(parameters.get(parameterOfColumn[c]));
            }
        }
        return row;
    }

    /**
     * A batch stopped at {@code entry} (0-based) and stored nothing. Every update count is
     * EXECUTE_FAILED, as JDBC lets a driver that "continues" report it: no entry took effect, and
     * a caller that counts the array's length is not misled into thinking earlier entries did.
     */
    static BatchUpdateException entryFailed(int entry, int size, Throwable cause) {
        return failed("batch entry " + (entry + 1) + " of " + size + " failed, so nothing of the batch was stored: "
                + cause.getMessage(), size, cause);
    }

    /** Every entry was taken, but publishing the rows failed: nothing is stored. */
    static BatchUpdateException storeFailed(int size, Throwable cause) {
        return failed("storing the " + size + " entries of the batch failed, so nothing of it was stored: "
                + cause.getMessage(), size, cause);
    }

    private static BatchUpdateException failed(String message, int size, Throwable cause) {
        long[] counts = new long[size];
        Arrays.fill(counts, Statement.EXECUTE_FAILED);
        return new BatchUpdateException(message, SqlStates.state(cause),
                cause instanceof SQLException e ? e.getErrorCode() : 0, counts, cause);
    }

    /**
     * A parameter as numacol's column types take it: Avatica carries a DATE as days since the
     * epoch, a TIMESTAMP as wall-clock milliseconds, a TIME as milliseconds of the day and bytes as a ByteString.
     */
    private static Object value(TypedValue v) {
        if (v == null || v.value == null) {
            return null;
        }
        if (v.type == ColumnMetaData.Rep.JAVA_SQL_DATE && v.value instanceof Number days) {
            return LocalDate.ofEpochDay(days.longValue());
        }
        if (v.type == ColumnMetaData.Rep.JAVA_SQL_TIMESTAMP && v.value instanceof Number millis) {
            return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis.longValue()), ZoneOffset.UTC);
        }
        if (v.type == ColumnMetaData.Rep.JAVA_SQL_TIME && v.value instanceof Number millis) {
            return LocalTime.ofNanoOfDay(millis.longValue() * 1_000_000L);
        }
        Object local = v.toLocal();
        return local instanceof ByteString bytes ? bytes.getBytes() : local;
    }
}
