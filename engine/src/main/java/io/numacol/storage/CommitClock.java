package io.numacol.storage;

import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;

/**
 * The commit timestamps of one {@link Catalog}'s data (HyPer's MVCC: a reader reads as of a
 * timestamp, a writer commits at the next one). Every change of a table's parts commits at a new
 * timestamp under one short lock, several tables' changes at the same one (a transaction's), and
 * becomes visible to readers that begin after it at once: {@link #beginRead} hands out the last
 * committed timestamp, and a {@link Table} keeps each version of its parts that a registered
 * reader may still read (its history), dropping it once the oldest reader is past it.
 *
 * <p>Locks: a commit runs holding the changed tables' write locks, then the commit lock; the
 * readers' registry and a table's history are leaf locks, taken for a few instructions.
 */
final class CommitClock {
    private final ReentrantLock commits = new ReentrantLock();
    /** The newest committed timestamp: what a reader beginning now reads. */
    private volatile long visible;
    /** How many registered readers read at each timestamp; under its own monitor. */
    private final TreeMap<Long, Integer> readers = new TreeMap<>();
    /** Tables that keep versions older than their newest, for a reader that may read them. */
    private final Set<Table> withHistory = ConcurrentHashMap.newKeySet();
    private final AtomicLong openTransactions = new AtomicLong();
    /** Where commits go to be durable: nowhere until a file database attaches its log. */
    private volatile ChangeLog log = ChangeLog.NONE;

    /** Registers a reader at the newest committed timestamp and returns it; {@link #endRead} ends it. */
    long beginRead() {
        synchronized (readers) {
            long ts = visible;
            readers.merge(ts, 1, Integer::sum);
            return ts;
        }
    }

    /** Ends a reader registered at {@code ts}; versions only it read are freed. */
    void endRead(long ts) {
        boolean oldestMoved;
        synchronized (readers) {
            Integer n = readers.get(ts);
            if (n == null) {
                throw new IllegalStateException("no reader at timestamp " + ts);
            }
            if (n == 1) {
                readers.remove(ts);
            } else {
                readers.put(ts, n - 1);
            }
            oldestMoved = n == 1 && (readers.isEmpty() || readers.firstKey() > ts);
        }
        if (oldestMoved) {
            prune();
        }
    }

    /** The read timestamp of the oldest registered reader, or {@code Long.MAX_VALUE} with none. */
    long oldestRead() {
        synchronized (readers) {
            return readers.isEmpty() ? Long.MAX_VALUE : readers.firstKey();
        }
    }

    /** The newest committed timestamp. */
    long visible() {
        return visible;
    }

    /**
     * Runs {@code publish} with the next timestamp, under the commit lock, and makes what it
     * published visible once it returns (if it throws, nothing of it may have been published).
     */
    void commit(LongConsumer publish) {
        commit(publish, true);
    }

    /**
     * {@link #commit} of a change of how rows are stored, not of which rows the table holds (a
     * merge): no one waits for it to be durable. A crash before a later commit's force covers it
     * replays its sources, which no checkpoint has dropped yet; a commit that depends on it (a
     * deletion of a merged row) comes later in the log and forces it. A background merge thus
     * costs no force of the log, and a statement that swaps in a merge handed to it waits for no
     * force of a change it did not make.
     */
    void commitUnforced(LongConsumer publish) {
        commit(publish, false);
    }

    private void commit(LongConsumer publish, boolean awaited) {
        ChangeLog changes = log;
        long token;
        commits.lock();
        try {
            long ts = visible + 1;
            try {
                publish.accept(ts);
            } catch (RuntimeException | Error e) {
                changes.discarded();
                throw e;
            }
            try {
                // logged in the lock, so the log's order is the commit order; a reader may see the commit
                // before it is forced, but any commit that depends on it comes later in the log (early
                // lock release), so a crash never keeps the later without the earlier
                token = changes.committed(ts);
            } finally {
                // after every table of the commit holds its new version: a reader sees all or none. Made
                // visible even when the log failed, since the tables hold it: the log refuses every later
                // commit then, and the caller learns this one is not durable
                visible = ts;
            }
        } finally {
            commits.unlock();
        }
        prune();
        if (token != 0 && awaited) {
            // waited for once the committer lets go of its tables too (awaitOwed): committers of one
            // table, and of any, then share a force of the log
            long[] mine = owed.get();
            mine[0] = Math.max(mine[0], token);
        }
    }

    /** What this thread committed and has not yet waited to be durable: a log position, 0 for nothing. */
    private final ThreadLocal<long[]> owed = ThreadLocal.withInitial(() -> new long[1]);

    /**
     * Returns once everything this thread committed is durable; called by the committer after it
     * released the commit lock and its tables' locks, before its commit returns to its caller.
     */
    void awaitOwed() {
        long[] mine = owed.get();
        long token = mine[0];
        if (token != 0) {
            mine[0] = 0;
            log.awaitDurable(token);
        }
    }

    /** Where commits go to be durable from now on. */
    void log(ChangeLog changeLog) {
        log = java.util.Objects.requireNonNull(changeLog, "changeLog");
    }

    ChangeLog log() {
        return log;
    }

    /** Transactions begun and not ended: while there are any, background work does not renumber rows ({@link Table#tryReplaceParts}). */
    long openTransactions() {
        return openTransactions.get();
    }

    void openTransactions(int delta) {
        openTransactions.addAndGet(delta);
    }

    /** Runs {@code body} holding the commit lock: it sees the newest versions, and no commit changes them meanwhile. */
    void underCommitLock(Runnable body) {
        commits.lock();
        try {
            body.run();
        } finally {
            commits.unlock();
        }
    }

    /** Notes that {@code table} keeps older versions of its parts. */
    void keepsHistory(Table table) {
        withHistory.add(table);
    }

    /** Frees every version no registered reader can read any more. */
    void prune() {
        if (withHistory.isEmpty()) {
            return;
        }
        // a reader that registers after this reads at a timestamp at least the one visible now: read it
        // first, so that the version it will read is kept whatever the registry held a moment ago
        long newest = visible;
        long oldest = Math.min(newest, oldestRead());
        for (Table t : List.copyOf(withHistory)) {
            if (!t.prune(oldest)) {
                withHistory.remove(t);
                if (t.hasHistory()) { // a commit gave it one meanwhile
                    withHistory.add(t);
                }
            }
        }
    }
}
