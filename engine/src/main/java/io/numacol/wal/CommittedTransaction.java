package io.numacol.wal;

import java.util.List;

/**
 * A transaction as replay hands it over: its id, commit timestamp and the LSN of its Commit
 * (commit order), and its changes ({@link LogRecord.Insert}, {@link LogRecord.Delete},
 * {@link LogRecord.Ddl}) in the order they were logged.
 */
public record CommittedTransaction(long txn, long commitTimestamp, long commitLsn, List<LogRecord> changes) {
    public CommittedTransaction {
        changes = List.copyOf(changes);
    }
}
