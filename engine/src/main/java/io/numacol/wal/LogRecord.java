package io.numacol.wal;

import java.util.Arrays;
import java.util.Objects;

/**
 * One record of the write-ahead log. The writer gives each record its LSN (log sequence number:
 * 1 for the first record ever, one more for each record after), which is kept in the record's
 * frame rather than here, so that a record is the same value before and after it is logged.
 *
 * <p>A transaction's changes ({@link Insert}, {@link Delete}, {@link Ddl}) may precede its
 * {@link Commit} by any number of records of other transactions; replay applies a transaction
 * only when its Commit was logged (see {@link LogReplay}). Transaction ids must be unique over
 * the log's lifetime, or at least never reused before the earlier transaction's Commit or Abort.
 */
public sealed interface LogRecord {

    /**
     * Rows appended to {@code table}, in their stored form (see {@link RowBatch}). The column
     * types travel with the rows, so the record can be read without the catalog it was written
     * under (a replay may meet the rows before the DDL that later changes the table).
     */
    record Insert(long txn, String table, RowBatch rows) implements LogRecord {
        public Insert {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(rows, "rows");
        }
    }

    /**
     * Rows of {@code table} deleted, by row id ({@code TablePart.rowId}: part id and position).
     * The ids name rows of the parts as they were when the transaction ran, so a replay must
     * rebuild parts with the same ids and positions, as a checkpoint keeps them.
     */
    record Delete(long txn, String table, long[] rowIds) implements LogRecord {
        public Delete {
            Objects.requireNonNull(table, "table");
            rowIds = rowIds.clone(); // a record is a value: the caller's array may change after logging
        }

        @Override
        public long[] rowIds() {
            return rowIds.clone();
        }

        /** How many rows, without the copy {@link #rowIds()} makes. */
        public int rowCount() {
            return rowIds.length;
        }

        /** The row id at {@code i}, without the copy {@link #rowIds()} makes. */
        public long rowId(int i) {
            return rowIds[i];
        }

        // An array component compares by identity in a record's generated methods; a logged
        // record read back must equal the one written.
        @Override
        public boolean equals(Object o) {
            return o instanceof Delete d && d.txn == txn && d.table.equals(table) && Arrays.equals(d.rowIds, rowIds);
        }

        @Override
        public int hashCode() {
            return Objects.hash(txn, table, Arrays.hashCode(rowIds));
        }

        @Override
        public String toString() {
            return "Delete[txn=" + txn + ", table=" + table + ", rowIds=" + Arrays.toString(rowIds) + "]";
        }
    }

    /** A DDL statement as SQL text: replay runs it again, in the transaction's place in commit order. */
    record Ddl(long txn, String sql) implements LogRecord {
        public Ddl {
            Objects.requireNonNull(sql, "sql");
        }
    }

    /** The transaction committed, at {@code commitTimestamp} (the MVCC timestamp its rows carry). */
    record Commit(long txn, long commitTimestamp) implements LogRecord {
    }

    /** The transaction rolled back: replay drops its records (as it would without this record; it lets replay free them early). */
    record Abort(long txn) implements LogRecord {
    }

    /**
     * A checkpoint holds every transaction whose Commit has an LSN below {@code coversLsn}, and no
     * other: replay may start at {@code coversLsn}, and {@link LogWriter#deleteBefore} may drop the
     * files before it once no transaction still open then has records there.
     */
    record CheckpointDone(long coversLsn) implements LogRecord {
    }
}
