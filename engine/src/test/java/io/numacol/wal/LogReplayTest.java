package io.numacol.wal;

import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** Replay hands over committed transactions only, whole, in commit order, however their records interleave. */
class LogReplayTest {
    @TempDir
    Path dir;

    private static RowBatch rows(long... ids) {
        RowBatch.Builder b = RowBatch.builder(List.of(ColumnType.bigint()));
        for (long id : ids) {
            b.addStored(id);
        }
        return b.build();
    }

    private List<CommittedTransaction> replay(long fromLsn, LogReplay.Outcome[] outcome) throws IOException {
        List<CommittedTransaction> got = new ArrayList<>();
        outcome[0] = LogReplay.replay(dir, fromLsn, got::add);
        return got;
    }

    @Test
    void onlyCommittedTransactionsAreReplayed() throws IOException {
        LogRecord a1 = new LogRecord.CatalogState(1, new byte[] {1, 2, 3});
        LogRecord a2 = new LogRecord.Insert(1, 5, 1, -1, rows(1, 2));
        LogRecord b1 = new LogRecord.Insert(2, 5, 2, -1, rows(3));
        LogRecord c1 = new LogRecord.Delete(3, 5, new long[] {0});
        LogRecord c2 = new LogRecord.DropParts(3, 5, new long[] {1});
        LogRecord a3 = new LogRecord.PartWritten(1, 5, "t5-p3.part", 4096, 0xABCD);
        LogRecord a4 = new LogRecord.DropParts(1, 5, new long[] {0});
        LogRecord a5 = new LogRecord.Delete(1, 5, new long[] {(1L << 32) | 1});
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(a1);
            w.append(a2);
            w.append(b1); // txn 2 never commits: open at the crash
            w.append(c1);
            w.append(c2);
            w.abort(3);
            w.append(a3);
            w.append(a4);
            w.append(a5);
            w.commit(1, 100);
        }
        LogReplay.Outcome[] outcome = new LogReplay.Outcome[1];
        List<CommittedTransaction> got = replay(0, outcome);
        assertThat(got).containsExactly(new CommittedTransaction(1, 100, 10, List.of(a1, a2, a3, a4, a5)));
        assertThat(outcome[0].replayed()).isEqualTo(1);
        assertThat(outcome[0].aborted()).isEqualTo(1);
        assertThat(outcome[0].uncommitted()).isEqualTo(1);
        assertThat(outcome[0].end().nextLsn()).isEqualTo(11);
    }

    @Test
    void aCommitTornByACrashIsNotReplayed() throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(new LogRecord.Insert(1, 1, 1, -1, rows(1)));
            w.commit(1, 10);
            w.append(new LogRecord.Insert(2, 1, 2, -1, rows(2)));
            w.commit(2, 20);
        }
        Path file = LogFormat.list(dir).getFirst();
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 1)); // the last byte of txn 2's Commit
        LogReplay.Outcome[] outcome = new LogReplay.Outcome[1];
        assertThat(replay(0, outcome)).extracting(CommittedTransaction::txn).containsExactly(1L);
        assertThat(outcome[0].uncommitted()).isEqualTo(1);
        assertThat(outcome[0].end().torn()).isTrue();
    }

    /** Random transactions whose records interleave; some commit, some abort, some never end. */
    @Test
    void interleavedTransactionsReplayWholeInCommitOrder() throws IOException {
        SplittableRandom random = new SplittableRandom(2024);
        Map<Long, List<LogRecord>> changes = new HashMap<>();
        List<Long> open = new ArrayList<>();
        List<CommittedTransaction> expected = new ArrayList<>();
        long nextTxn = 1;
        long aborted = 0;
        try (LogWriter w = LogWriter.open(dir, Durability.NONE)) {
            for (int step = 0; step < 2000; step++) {
                int action = random.nextInt(10);
                if (open.isEmpty() || action < 2) {
                    open.add(nextTxn);
                    changes.put(nextTxn, new ArrayList<>());
                    nextTxn++;
                } else if (action < 7) {
                    long txn = open.get(random.nextInt(open.size()));
                    LogRecord r = switch (random.nextInt(5)) {
                        case 0 -> new LogRecord.Insert(txn, random.nextLong(1, 4), step, random.nextInt(-1, 4),
                                rows(random.nextLong(), step));
                        case 1 -> new LogRecord.Delete(txn, 1, new long[] {random.nextLong()});
                        case 2 -> new LogRecord.PartWritten(txn, 2, "p" + step + ".part", step, random.nextInt());
                        case 3 -> new LogRecord.DropParts(txn, 3, new long[] {random.nextLong(), step});
                        default -> new LogRecord.CatalogState(txn, ("ALTER TABLE t ADD c" + step + " INT").getBytes(StandardCharsets.UTF_8));
                    };
                    w.append(r);
                    changes.get(txn).add(r);
                } else if (action < 9) {
                    long txn = open.remove(random.nextInt(open.size()));
                    long lsn = w.commit(txn, 1000 + step);
                    expected.add(new CommittedTransaction(txn, 1000 + step, lsn, changes.get(txn)));
                } else {
                    w.abort(open.remove(random.nextInt(open.size())));
                    aborted++;
                }
            }
            // and one that logged a change and was still open at the end, whatever the draws were
            LogRecord last = new LogRecord.Insert(nextTxn, 1, 1, -1, rows(1));
            w.append(last);
            open.add(nextTxn);
            changes.put(nextTxn, new ArrayList<>(List.of(last)));
        }
        LogReplay.Outcome[] outcome = new LogReplay.Outcome[1];
        List<CommittedTransaction> got = replay(0, outcome);
        assertThat(got).hasSizeGreaterThan(100).containsExactlyElementsOf(expected);
        assertThat(outcome[0].aborted()).isEqualTo(aborted);
        // replay only knows the open transactions that logged a change
        assertThat(outcome[0].uncommitted()).isEqualTo(open.stream().filter(t -> !changes.get(t).isEmpty()).count()).isPositive();
    }

    @Test
    void replayFromACheckpointSkipsWhatItHoldsButKeepsEarlierRecordsOfLaterCommits() throws IOException {
        LogRecord early = new LogRecord.Insert(2, 1, 2, -1, rows(2));
        long covers;
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(new LogRecord.Insert(1, 1, 1, -1, rows(1)));
            w.append(early); // txn 2 begins before the checkpoint and commits after it
            w.commit(1, 10);
            covers = w.nextLsn();
            assertThat(w.oldestOpenLsn()).as("txn 2's first record").isEqualTo(2);
            w.append(new LogRecord.CheckpointDone(covers));
            w.commit(2, 20);
        }
        LogReplay.Outcome[] outcome = new LogReplay.Outcome[1];
        List<CommittedTransaction> got = replay(covers, outcome);
        assertThat(got).containsExactly(new CommittedTransaction(2, 20, 5, List.of(early)));
        assertThat(outcome[0].skipped()).isEqualTo(1);
        assertThat(outcome[0].lastCheckpointCovers()).isEqualTo(covers);
    }

    @Test
    void anEmptyLogReplaysNothing() throws IOException {
        LogReplay.Outcome[] outcome = new LogReplay.Outcome[1];
        assertThat(replay(0, outcome)).isEmpty();
        assertThat(outcome[0]).isEqualTo(new LogReplay.Outcome(0, 0, 0, 0, 0, new LogEnd(null, 0, 1, null)));
    }
}
