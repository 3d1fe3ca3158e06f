package io.numacol.wal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Replays a log: reads it to the end of its valid records ({@link LogReader}), groups the
 * records by transaction, and hands each committed transaction to a callback in commit order
 * (the order of the Commit records), when its Commit is read. A transaction with no Commit in the
 * log (still open at the crash, or aborted) is never handed over: its records are dropped. The
 * log is only read; the {@link LogWriter} opened after the replay cuts a torn tail.
 *
 * <p>The records of open transactions are held in memory until their Commit or Abort: a log
 * with a huge transaction that never committed costs its size in heap during replay.
 */
public final class LogReplay {

    /**
     * What a replay found: how many transactions it handed over, how many it skipped (their
     * Commit before {@code fromLsn}), how many aborted and how many were still open at the end;
     * the {@code coversLsn} of the last {@link LogRecord.CheckpointDone} read (0 for none), and
     * where the valid log ends.
     */
    public record Outcome(long replayed, long skipped, long aborted, long uncommitted, long lastCheckpointCovers, LogEnd end) {
    }

    private LogReplay() {
    }

    /**
     * Replays the log of {@code directory}: every transaction whose Commit has an LSN of at least
     * {@code fromLsn} goes to {@code apply}, with all its changes still in the log (some may
     * precede {@code fromLsn}; {@link LogWriter#oldestOpenLsn} keeps them from being deleted).
     * Pass the {@link LogRecord.CheckpointDone#coversLsn} of the checkpoint the database was
     * loaded from, or 0 to replay every committed transaction of the log.
     */
    public static Outcome replay(Path directory, long fromLsn, Consumer<CommittedTransaction> apply) throws IOException {
        Map<Long, List<LogRecord>> open = new HashMap<>();
        long replayed = 0;
        long skipped = 0;
        long aborted = 0;
        long checkpoint = 0;
        try (LogReader reader = LogReader.open(directory)) {
            for (LogEntry e = reader.next(); e != null; e = reader.next()) {
                switch (e.record()) {
                    case LogRecord.Insert r -> open.computeIfAbsent(r.txn(), t -> new ArrayList<>()).add(r);
                    case LogRecord.Delete r -> open.computeIfAbsent(r.txn(), t -> new ArrayList<>()).add(r);
                    case LogRecord.PartWritten r -> open.computeIfAbsent(r.txn(), t -> new ArrayList<>()).add(r);
                    case LogRecord.DropParts r -> open.computeIfAbsent(r.txn(), t -> new ArrayList<>()).add(r);
                    case LogRecord.CatalogState r -> open.computeIfAbsent(r.txn(), t -> new ArrayList<>()).add(r);
                    case LogRecord.Commit c -> {
                        List<LogRecord> changes = open.remove(c.txn());
                        if (e.lsn() < fromLsn) {
                            skipped++; // the checkpoint holds it
                        } else {
                            apply.accept(new CommittedTransaction(c.txn(), c.commitTimestamp(), e.lsn(),
                                    changes == null ? List.of() : changes));
                            replayed++;
                        }
                    }
                    case LogRecord.Abort a -> {
                        open.remove(a.txn());
                        aborted++;
                    }
                    case LogRecord.CheckpointDone c -> checkpoint = c.coversLsn();
                }
            }
            return new Outcome(replayed, skipped, aborted, open.size(), checkpoint, reader.end());
        }
    }
}
