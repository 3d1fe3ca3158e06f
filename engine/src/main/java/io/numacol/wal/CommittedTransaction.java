package io.numacol.wal;

import java.util.List;

/**
 * A transaction as replay hands it over: its id, commit timestamp and the LSN of its Commit
 * (commit order), and its changes ({@link LogRecord.Insert}, {@link LogRecord.Delete},
 * {@link LogRecord.PartWritten}, {@link LogRecord.DropParts}, {@link LogRecord.CatalogState}) in
 * the order they were logged, which is the order to apply them in: a part is added before a
 * later record of the transaction deletes from it, a catalog state is installed before the
 * rows of a table it created arrive.
 */
public record CommittedTransaction(long txn, long commitTimestamp, long commitLsn, List<LogRecord> changes) {
    public CommittedTransaction {
        changes = List.copyOf(changes);
    }
}
