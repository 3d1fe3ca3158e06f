package io.numacol.wal;

import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.numacol.wal.WalTesting.readAll;
import static io.numacol.wal.WalTesting.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Appending: durability modes, group commit, rotation and deletion of files, reopening. */
class LogWriterTest {
    @TempDir
    Path dir;

    private static LogRecord insert(long txn, long value) {
        return new LogRecord.Insert(txn, 1, txn, -1, RowBatch.ofStored(List.of(ColumnType.bigint()), List.<Object[]>of(new Object[] {value})));
    }

    @ParameterizedTest
    @EnumSource(Durability.class)
    void everyDurabilityIsReadableAfterClose(Durability durability) throws IOException {
        List<LogRecord> written = new ArrayList<>();
        try (LogWriter w = LogWriter.open(dir, durability)) {
            assertThat(w.durability()).isEqualTo(durability);
            for (long txn = 1; txn <= 50; txn++) {
                LogRecord r = insert(txn, txn * 7);
                w.append(r);
                w.commit(txn, txn);
                written.add(r);
                written.add(new LogRecord.Commit(txn, txn));
            }
        }
        assertThat(records(readAll(dir))).containsExactlyElementsOf(written);
    }

    @Test
    void fsyncForcesEachCommitBeforeItReturns() throws IOException {
        try (LogWriter w = LogWriter.open(dir, Durability.FSYNC)) {
            w.append(insert(1, 1));
            long lsn = w.commit(1, 5);
            assertThat(w.durableLsn()).isEqualTo(lsn);
            assertThat(w.forceCount()).isEqualTo(1);
            assertThat(records(readAll(dir))).as("readable before close").containsExactly(insert(1, 1), new LogRecord.Commit(1, 5));
        }
    }

    @Test
    void flushWritesEachCommitWithoutForcing() throws IOException {
        try (LogWriter w = LogWriter.open(dir, Durability.FLUSH)) {
            w.append(insert(1, 1));
            w.commit(1, 5);
            assertThat(w.forceCount()).isZero();
            assertThat(w.durableLsn()).isZero();
            assertThat(records(readAll(dir))).as("in the file before close").containsExactly(insert(1, 1), new LogRecord.Commit(1, 5));
            w.sync();
            assertThat(w.durableLsn()).isEqualTo(2);
        }
    }

    @Test
    void noneBuffersCommitsUntilTheBufferFills() throws IOException {
        try (LogWriter w = LogWriter.open(dir, Durability.NONE, 300)) {
            w.append(insert(1, 1));
            w.commit(1, 5);
            assertThat(readAll(dir)).as("still in the buffer").isEmpty();
            long txn = 2;
            while (readAll(dir).isEmpty()) {
                w.append(insert(txn, txn));
                w.commit(txn, txn);
                txn++;
                assertThat(txn).as("a buffer of 300 bytes spills long before").isLessThan(20);
            }
            assertThat(w.forceCount()).isZero();
            assertThat(records(readAll(dir))).startsWith(insert(1, 1), new LogRecord.Commit(1, 5));
        }
    }

    /**
     * Group commit, without timing: the first committer's force is held (in the hook, which runs
     * with the lock released) until every other committer has appended its Commit; they all wait
     * for it, and then one force makes all of theirs durable. N commits, 2 forces.
     */
    @Test
    void concurrentCommittersShareForces() throws Exception {
        int committers = 8;
        try (LogWriter w = LogWriter.open(dir, Durability.FSYNC)) {
            CountDownLatch forceHeld = new CountDownLatch(1);
            long lastCommitLsn = committers; // one Commit record per committer, LSNs 1..N
            w.beforeForce(() -> {
                if (forceHeld.getCount() > 0) {
                    forceHeld.countDown();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (w.nextLsn() <= lastCommitLsn && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                }
            });
            ExecutorService pool = Executors.newFixedThreadPool(committers);
            try {
                List<Future<Long>> commits = new ArrayList<>();
                for (int i = 0; i < committers; i++) {
                    long txn = i + 1L;
                    commits.add(pool.submit(() -> {
                        long lsn = w.commit(txn, txn * 10);
                        assertThat(w.durableLsn()).isGreaterThanOrEqualTo(lsn);
                        return lsn;
                    }));
                }
                Set<Long> lsns = new HashSet<>();
                for (Future<Long> f : commits) {
                    lsns.add(f.get(60, TimeUnit.SECONDS));
                }
                assertThat(lsns).hasSize(committers);
            } finally {
                pool.shutdownNow();
            }
            assertThat(forceHeld.getCount()).isZero();
            assertThat(w.forceCount()).as("forces for %d commits", committers).isLessThan(committers).isLessThanOrEqualTo(2);
        }
        assertThat(readAll(dir)).hasSize(committers);
    }

    /** Many threads appending and committing at once: every record is in the log once, LSNs without a gap, each thread's in its order. */
    @Test
    void concurrentAppendsAllArriveInLsnOrder() throws Exception {
        int threads = 4;
        int perThread = 200;
        try (LogWriter w = LogWriter.open(dir, Durability.FSYNC, 4096)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long thread = t;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < perThread; i++) {
                            long txn = thread * perThread + i;
                            w.append(insert(txn, i));
                            if (i % 10 == 9) {
                                w.commit(txn, i);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(w.forceCount()).isLessThanOrEqualTo(threads * perThread / 10);
        }
        List<LogEntry> all = readAll(dir);
        assertThat(all).hasSize(threads * perThread + threads * perThread / 10);
        for (int i = 0; i < all.size(); i++) {
            assertThat(all.get(i).lsn()).isEqualTo(i + 1);
        }
        for (int t = 0; t < threads; t++) {
            long from = (long) t * perThread;
            List<Long> values = all.stream().map(LogEntry::record)
                    .filter(r -> r instanceof LogRecord.Insert in && in.txn() >= from && in.txn() < from + perThread)
                    .map(r -> ((LogRecord.Insert) r).rows().getLong(0, 0)).toList();
            assertThat(values).hasSize(perThread).isSorted();
        }
    }

    @Test
    void rotateStartsFilesNamedByTheirFirstLsnAndDeleteBeforeDropsCoveredOnes() throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            assertThat(w.rotate()).as("an empty file is not rotated").isEqualTo(1);
            for (long lsn = 1; lsn <= 10; lsn++) {
                w.append(insert(lsn, lsn));
                if (lsn == 3 || lsn == 7) {
                    assertThat(w.rotate()).isEqualTo(lsn + 1);
                }
            }
            assertThat(LogFormat.list(dir)).extracting(p -> p.getFileName().toString())
                    .containsExactly(LogFormat.fileName(1), LogFormat.fileName(4), LogFormat.fileName(8));
            w.sync(); // 8 to 10 are appended, not committed: buffered until now
            assertThat(readAll(dir)).extracting(LogEntry::lsn).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);

            assertThat(w.deleteBefore(3)).as("LSN 3 is in the first file").isZero();
            assertThat(w.deleteBefore(4)).isEqualTo(1);
            assertThat(readAll(dir)).extracting(LogEntry::lsn).containsExactly(4L, 5L, 6L, 7L, 8L, 9L, 10L);
            assertThat(w.deleteBefore(Long.MAX_VALUE)).as("never the current file").isEqualTo(1);
            assertThat(LogFormat.list(dir)).extracting(p -> p.getFileName().toString()).containsExactly(LogFormat.fileName(8));
            w.append(insert(11, 11));
        }
        try (LogWriter w = LogWriter.open(dir)) {
            assertThat(w.nextLsn()).isEqualTo(12);
            w.append(insert(12, 12));
        }
        assertThat(readAll(dir)).extracting(LogEntry::lsn).containsExactly(8L, 9L, 10L, 11L, 12L);
    }

    @Test
    void aReopenedLogContinuesItsLsns() throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(insert(1, 1));
            w.commit(1, 1);
        }
        try (LogWriter w = LogWriter.open(dir, Durability.NONE)) {
            assertThat(w.nextLsn()).isEqualTo(3);
            assertThat(w.append(insert(2, 2))).isEqualTo(3);
        }
        assertThat(readAll(dir)).extracting(LogEntry::lsn).containsExactly(1L, 2L, 3L);
        assertThat(LogFormat.list(dir)).hasSize(1);
    }

    /** An interrupted committer neither closes the log for the others nor loses its interrupt. */
    @Test
    void anInterruptedCommitterStillCommits() throws IOException {
        try (LogWriter w = LogWriter.open(dir, Durability.FSYNC)) {
            w.append(insert(1, 1));
            Thread.currentThread().interrupt();
            long lsn;
            try {
                lsn = w.commit(1, 1);
            } finally {
                assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
            }
            assertThat(w.durableLsn()).isEqualTo(lsn);
            w.commit(2, 2);
        }
        assertThat(readAll(dir)).hasSize(3);
    }

    /**
     * An interrupt that arrives during the IO itself closes a FileChannel (the hook interrupts
     * the leader inside the force): the writer reopens the file and forces again, for everyone.
     */
    @Test
    void anInterruptDuringTheForceReopensTheFileAndForcesAgain() throws IOException {
        try (LogWriter w = LogWriter.open(dir, Durability.FSYNC)) {
            int[] calls = new int[1];
            w.beforeForce(() -> {
                if (calls[0]++ == 0) {
                    Thread.currentThread().interrupt();
                }
            });
            w.append(insert(1, 1));
            long lsn;
            try {
                lsn = w.commit(1, 1);
            } finally {
                assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
            }
            assertThat(calls[0]).as("the force was made again on the reopened file").isEqualTo(2);
            assertThat(w.durableLsn()).isEqualTo(lsn);
            w.append(insert(2, 2));
            w.commit(2, 2);
        }
        assertThat(records(readAll(dir))).containsExactly(insert(1, 1), new LogRecord.Commit(1, 1), insert(2, 2), new LogRecord.Commit(2, 2));
    }

    @Test
    void aClosedWriterRefusesRecords() throws IOException {
        LogWriter w = LogWriter.open(dir);
        w.close();
        w.close(); // a second close is harmless
        assertThatThrownBy(() -> w.append(insert(1, 1))).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> w.commit(1, 1)).isInstanceOf(IllegalStateException.class);
        assertThat(Files.size(LogFormat.list(dir).getFirst())).isEqualTo(LogFormat.HEADER_SIZE);
    }
}
