package io.numacol.wal;

import java.util.Arrays;
import java.util.Objects;

/**
 * One record of the write-ahead log. The writer gives each record its LSN (log sequence number:
 * 1 for the first record ever, one more for each record after), which is kept in the record's
 * frame rather than here, so that a record is the same value before and after it is logged.
 *
 * <p>A transaction's changes ({@link Insert}, {@link Delete}, {@link PartWritten},
 * {@link DropParts}, {@link CatalogState}) may precede its {@link Commit} by any number of
 * records of other transactions; replay applies a transaction only when its Commit was logged
 * (see {@link LogReplay}). Transaction ids must be unique over the log's lifetime, or at least
 * never reused before the earlier transaction's Commit or Abort.
 */
public sealed interface LogRecord {

    /**
     * The rows of a new part of a table, in their stored form (see {@link RowBatch}). The column
     * types travel with the rows, so the record can be read without the catalog it was written
     * under (a replay may meet the rows before the DDL that later changes the table).
     *
     * @param table     the table's durable id (the catalog's, never reused), not its name: a rename
     *                  between the insert and the replay does not lose the rows
     * @param part      the id the part has in the table, so that later {@link Delete}s and
     *                  {@link DropParts} name it as the transaction did
     * @param partition the partition the part belongs to, or -1 for a table without partitions
     */
    record Insert(long txn, long table, long part, int partition, RowBatch rows) implements LogRecord {
        public Insert {
            Objects.requireNonNull(rows, "rows");
            if (partition < -1) {
                throw new IllegalArgumentException("a partition is a number from 0, or -1 for none, not " + partition);
            }
        }
    }

    /**
     * Rows of a table deleted, by row id ({@code TablePart.rowId}: part id and position).
     * The ids name rows of the parts as they were when the transaction ran, so a replay must
     * rebuild parts with the same ids and positions, as a checkpoint keeps them.
     *
     * @param table the table's durable id
     */
    record Delete(long txn, long table, long[] rowIds) implements LogRecord {
        public Delete {
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
            return o instanceof Delete d && d.txn == txn && d.table == table && Arrays.equals(d.rowIds, rowIds);
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

    /**
     * A new part of a table written whole to a part file of the database directory (the
     * checkpoint's {@code PartFile}) instead of logged row by row: a bulk load logs the file, not
     * its rows. Replay finds the file by name and refuses it unless its size and fingerprint are
     * these, as a checkpoint's manifest does.
     *
     * @param table    the table's durable id
     * @param fileName a plain file name in the database directory, no path
     * @param size     the file's bytes
     * @param checksum the CRC32C fingerprint of the whole file that writing it returned
     */
    record PartWritten(long txn, long table, String fileName, long size, int checksum) implements LogRecord {
        public PartWritten {
            Objects.requireNonNull(fileName, "fileName");
            // replay opens it in the database directory: a path would reach outside it
            if (fileName.isEmpty() || fileName.equals(".") || fileName.equals("..") || fileName.indexOf('/') >= 0
                    || fileName.indexOf('\\') >= 0 || fileName.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a part file is named by a plain file name, not '" + fileName + "'");
            }
            if (size < 0) {
                throw new IllegalArgumentException("a part file's size must not be negative, got " + size);
            }
        }
    }

    /**
     * Parts removed from a table whole, by part id (a TRUNCATE, or parts merged into a new one
     * that an {@link Insert} or {@link PartWritten} of the same transaction adds).
     *
     * @param table the table's durable id
     */
    record DropParts(long txn, long table, long[] partIds) implements LogRecord {
        public DropParts {
            partIds = partIds.clone(); // a record is a value: the caller's array may change after logging
        }

        @Override
        public long[] partIds() {
            return partIds.clone();
        }

        /** How many parts, without the copy {@link #partIds()} makes. */
        public int count() {
            return partIds.length;
        }

        /** The part id at {@code i}, without the copy {@link #partIds()} makes. */
        public long partId(int i) {
            return partIds[i];
        }

        // As Delete's: the array compares by content, so a record read back equals the one written.
        @Override
        public boolean equals(Object o) {
            return o instanceof DropParts d && d.txn == txn && d.table == table && Arrays.equals(d.partIds, partIds);
        }

        @Override
        public int hashCode() {
            return Objects.hash(txn, table, Arrays.hashCode(partIds));
        }

        @Override
        public String toString() {
            return "DropParts[txn=" + txn + ", table=" + table + ", partIds=" + Arrays.toString(partIds) + "]";
        }
    }

    /**
     * The whole catalog as a DDL statement left it: replay installs it in the transaction's place in
     * commit order, rather than running the statement again. The image is an encoded
     * {@code io.numacol.checkpoint.CatalogImage}, kept as bytes because the log does not know the
     * catalog (see the package comment); it carries its own checksum and version.
     */
    record CatalogState(long txn, byte[] image) implements LogRecord {
        public CatalogState {
            image = image.clone(); // a record is a value: the caller's array may change after logging
        }

        @Override
        public byte[] image() {
            return image.clone();
        }

        /** The image's length in bytes, without the copy {@link #image()} makes. */
        public int size() {
            return image.length;
        }

        // As Delete's: the array compares by content, so a record read back equals the one written.
        @Override
        public boolean equals(Object o) {
            return o instanceof CatalogState c && c.txn == txn && Arrays.equals(c.image, image);
        }

        @Override
        public int hashCode() {
            return Objects.hash(txn, Arrays.hashCode(image));
        }

        @Override
        public String toString() {
            return "CatalogState[txn=" + txn + ", " + image.length + " bytes]";
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
