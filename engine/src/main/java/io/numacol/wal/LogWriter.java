package io.numacol.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Appends records to the log of a directory, safe for many threads at once, with group commit.
 *
 * <p>{@link #append} frames a record into a buffer in memory under a lock (the LSN order is the
 * buffer order, so it is the order on disk), and returns its LSN. {@link #commit} appends a
 * {@link LogRecord.Commit} and waits until the log holds it as the {@link Durability} asks. The
 * waiting is a leader/follower protocol: the first committer to find no write under way takes the
 * whole buffer (its records and every other thread's), swaps in an empty one, and writes and
 * forces it with the lock released; committers arriving meanwhile append to the new buffer and
 * wait on a condition; when the write is done, they find their records durable, or one of them
 * leads the next write for all of them. A force (tens of microseconds to milliseconds) is so
 * shared by every commit that arrived while the previous one ran.
 *
 * <p>A failed write or force leaves the writer failed: every later call throws, since after a
 * failed {@code fsync} the kernel may have dropped the dirty pages, and a retry that succeeds would
 * claim durable what is not. Reopen the log (which reads it back and cuts what is torn) to go on.
 */
public final class LogWriter implements AutoCloseable {
    /** Records buffered before a writer writes them out even in {@link Durability#NONE}. */
    static final int DEFAULT_BUFFER_BYTES = 1 << 20;

    private final Path directory;
    private final Durability durability;
    private final int bufferBytes;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a write ends (or fails): followers check whether theirs was in it. */
    private final Condition ioDone = lock.newCondition();

    // All fields below are guarded by lock. The channel and the file end are also used by the
    // one thread that has ioInProgress set, with the lock released: nobody else touches them then.
    private FileChannel channel;
    private Path file;
    private long fileStartLsn;
    /** Offset in the file where the next write goes: everything before it was written. */
    private long fileEnd;
    /** Framed records appended but not written yet, LSNs writtenLsn + 1 to nextLsn - 1. */
    private Bytes pending;
    /** The other buffer, empty; null while a leader writes it out. */
    private Bytes spare;
    private long nextLsn;
    private long writtenLsn;
    private long forcedLsn;
    private boolean ioInProgress;
    private IOException failure;
    private boolean closed;
    /** The first LSN of each transaction with records but no Commit or Abort yet. */
    private final Map<Long, Long> openTransactions = new HashMap<>();
    /** Forces of the log file, for tests that group commit shares them. */
    private long forces;
    /** Framed bytes appended since open. */
    private long appendedBytes;
    /** Runs just before each force of a group commit or sync, with the lock released; a test's hook. */
    private Runnable beforeForce = () -> { };

    private LogWriter(Path directory, Durability durability, int bufferBytes) {
        this.directory = directory;
        this.durability = durability;
        this.bufferBytes = bufferBytes;
        this.pending = new Bytes(Math.min(bufferBytes, 1 << 16));
        this.spare = new Bytes(Math.min(bufferBytes, 1 << 16));
    }

    /** Opens the log of {@code directory} (created if missing) for appending, each commit forced: {@link Durability#FSYNC}. */
    public static LogWriter open(Path directory) throws IOException {
        return open(directory, Durability.FSYNC);
    }

    /**
     * Opens the log of {@code directory} (created if missing) for appending: reads it to the end,
     * cuts a torn tail ({@link LogReader#truncate}), and appends after the last valid record with
     * the LSNs that follow it.
     */
    public static LogWriter open(Path directory, Durability durability) throws IOException {
        return open(directory, durability, DEFAULT_BUFFER_BYTES);
    }

    /** As {@link #open(Path, Durability)}, with a buffer of {@code bufferBytes}: tests make it small to see it spill. */
    static LogWriter open(Path directory, Durability durability, int bufferBytes) throws IOException {
        Objects.requireNonNull(durability, "durability");
        if (bufferBytes <= 0) {
            throw new IllegalArgumentException("a log buffer needs a size, not " + bufferBytes);
        }
        Files.createDirectories(directory);
        LogEnd end;
        try (LogReader reader = LogReader.open(directory)) {
            end = reader.truncate();
        }
        LogWriter w = new LogWriter(directory, durability, bufferBytes);
        w.nextLsn = end.nextLsn();
        w.writtenLsn = end.nextLsn() - 1;
        w.forcedLsn = end.nextLsn() - 1;
        if (end.file() == null || end.offset() < LogFormat.HEADER_SIZE) {
            w.startFile(end.nextLsn());
        } else {
            w.file = end.file();
            w.fileStartLsn = LogFormat.startLsnOf(end.file());
            w.channel = FileChannel.open(end.file(), StandardOpenOption.WRITE);
            w.fileEnd = end.offset();
            // A process that died after a write but before its force (FLUSH, NONE) left records
            // the reader saw in the page cache but the disk may lack: force them before this
            // writer counts them durable.
            w.channel.force(false);
        }
        return w;
    }

    public Path directory() {
        return directory;
    }

    public Durability durability() {
        return durability;
    }

    /** The LSN the next record gets. */
    public long nextLsn() {
        lock.lock();
        try {
            return nextLsn;
        } finally {
            lock.unlock();
        }
    }

    /** The highest LSN forced to the disk (0 before any). */
    public long durableLsn() {
        lock.lock();
        try {
            return forcedLsn;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The least LSN a {@link #deleteBefore} may keep without losing a record of a transaction
     * that has not committed or aborted: the first LSN of the oldest such transaction, or
     * {@link #nextLsn()} when there is none. A checkpointer deletes before the smaller of this and
     * its checkpoint's {@link LogRecord.CheckpointDone#coversLsn}.
     */
    public long oldestOpenLsn() {
        lock.lock();
        try {
            long oldest = nextLsn;
            for (long lsn : openTransactions.values()) {
                oldest = Math.min(oldest, lsn);
            }
            return oldest;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends a record and returns its LSN. It is durable only once a later {@link #commit} or
     * {@link #sync} returns (or the buffer filled and was written, in FLUSH and NONE as the modes
     * say); a commit that waits makes every record before it durable too.
     */
    public long append(LogRecord record) throws IOException {
        int type = RecordCodec.type(record);
        Bytes payload = RecordCodec.encode(record); // outside the lock: encoding is the costly part
        lock.lock();
        try {
            long lsn = appendLocked(record, type, payload);
            spillIfFull(lsn);
            return lsn;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends the Commit of {@code txn} and returns when it is as durable as the writer's
     * {@link Durability} asks: forced (FSYNC), written to the operating system (FLUSH) or
     * buffered (NONE). Returns the Commit's LSN. A waiting committer is not stopped by an
     * interrupt (its commit is in the log and will be durable; returning early would tell the
     * caller otherwise); the interrupt flag stays set for the caller.
     */
    public long commit(long txn, long commitTimestamp) throws IOException {
        LogRecord commit = new LogRecord.Commit(txn, commitTimestamp);
        Bytes payload = RecordCodec.encode(commit);
        lock.lock();
        try {
            long lsn = appendLocked(commit, RecordCodec.COMMIT, payload);
            switch (durability) {
                case FSYNC -> awaitWritten(lsn, true);
                case FLUSH -> awaitWritten(lsn, false);
                case NONE -> spillIfFull(lsn);
            }
            return lsn;
        } finally {
            lock.unlock();
        }
    }

    /** Appends the Abort of {@code txn}; nothing waits for it, since a transaction without a Commit is not replayed anyway. */
    public long abort(long txn) throws IOException {
        return append(new LogRecord.Abort(txn));
    }

    /** Forces every record appended so far to the disk, whatever the durability: before a checkpoint is declared done, say. */
    public void sync() throws IOException {
        lock.lock();
        try {
            checkUsable();
            awaitWritten(nextLsn - 1, true);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the current file (written out and forced) and starts a new one at {@link #nextLsn()};
     * returns that LSN. Nothing happens when the current file has no record yet. Appends wait
     * while a rotation runs.
     */
    public long rotate() throws IOException {
        lock.lock();
        try {
            checkUsable();
            awaitIdle();
            if (fileStartLsn == nextLsn) {
                return nextLsn;
            }
            writeAndForceLocked();
            FileChannel old = channel;
            startFile(nextLsn);
            old.close();
            return nextLsn;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Deletes the log files all of whose records have LSNs below {@code lsn} (a checkpoint holds
     * them; see {@link #oldestOpenLsn}), oldest first, and returns how many. The current file is
     * never deleted: {@link #rotate} first to let its records go.
     */
    public int deleteBefore(long lsn) throws IOException {
        lock.lock();
        try {
            checkUsable();
            List<Path> files = LogFormat.list(directory);
            int deleted = 0;
            for (int i = 0; i + 1 < files.size(); i++) {
                if (LogFormat.startLsnOf(files.get(i + 1)) > lsn || files.get(i).equals(file)) {
                    break;
                }
                Files.delete(files.get(i));
                // Oldest first, each deletion forced: a crash never leaves an older file without the
                // one after it, which the reader would take for a missing file.
                LogFormat.forceDirectory(directory);
                deleted++;
            }
            return deleted;
        } finally {
            lock.unlock();
        }
    }

    /** Writes out and forces what is buffered, in every durability mode, and closes the file. */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            awaitIdle();
            closed = true;
            try {
                if (failure == null) {
                    writeAndForceLocked();
                }
            } finally {
                channel.close();
            }
        } finally {
            lock.unlock();
        }
    }

    /** How many times the log file was forced: group commit makes this fewer than the commits. */
    long forceCount() {
        lock.lock();
        try {
            return forces;
        } finally {
            lock.unlock();
        }
    }

    /** Sets a hook that runs before each force of a commit or sync, with the lock released (tests only). */
    void beforeForce(Runnable hook) {
        lock.lock();
        try {
            beforeForce = hook;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends the Commit of {@code txn} without waiting, and returns its LSN for {@link
     * #awaitDurable}: a database appends it while it holds its own commit lock, so that the log's
     * order is its commit order, and waits after releasing that lock, so that committers share a
     * force (group commit) instead of forcing one by one under the lock.
     */
    public long appendCommit(long txn, long commitTimestamp) throws IOException {
        LogRecord commit = new LogRecord.Commit(txn, commitTimestamp);
        Bytes payload = RecordCodec.encode(commit);
        lock.lock();
        try {
            long lsn = appendLocked(commit, RecordCodec.COMMIT, payload);
            spillIfFull(lsn);
            return lsn;
        } finally {
            lock.unlock();
        }
    }

    /** Returns once the record at {@code lsn} is as durable as the writer's {@link Durability} asks (see {@link #commit}). */
    public void awaitDurable(long lsn) throws IOException {
        lock.lock();
        try {
            switch (durability) {
                case FSYNC -> awaitWritten(lsn, true);
                case FLUSH -> awaitWritten(lsn, false);
                case NONE -> checkUsable();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Bytes of framed records appended since the writer opened: how far the log grew, for when to checkpoint. */
    public long appendedBytes() {
        lock.lock();
        try {
            return appendedBytes;
        } finally {
            lock.unlock();
        }
    }

    // ---- under the lock

    private long appendLocked(LogRecord record, int type, Bytes payload) throws IOException {
        checkUsable();
        long lsn = nextLsn++;
        int before = pending.size();
        LogFormat.frame(pending, type, lsn, payload);
        appendedBytes += pending.size() - before;
        switch (record) {
            case LogRecord.Insert r -> openTransactions.putIfAbsent(r.txn(), lsn);
            case LogRecord.Delete r -> openTransactions.putIfAbsent(r.txn(), lsn);
            case LogRecord.PartWritten r -> openTransactions.putIfAbsent(r.txn(), lsn);
            case LogRecord.DropParts r -> openTransactions.putIfAbsent(r.txn(), lsn);
            case LogRecord.CatalogState r -> openTransactions.putIfAbsent(r.txn(), lsn);
            case LogRecord.Commit r -> openTransactions.remove(r.txn());
            case LogRecord.Abort r -> openTransactions.remove(r.txn());
            case LogRecord.CheckpointDone r -> {
                // belongs to no transaction
            }
        }
        return lsn;
    }

    /** Writes the buffer out when it has grown past its size (every mode: memory is bounded). */
    private void spillIfFull(long lsn) throws IOException {
        if (pending.size() >= bufferBytes) {
            awaitWritten(lsn, false);
        }
    }

    /**
     * Returns when the records up to {@code lsn} are written (and forced, if {@code force}):
     * follows a write under way, or leads the next one. Never gives up on an interrupt: the
     * records are in the buffer either way, and a follower's wait is short.
     */
    private void awaitWritten(long lsn, boolean force) throws IOException {
        while (true) {
            checkFailed();
            if (force ? forcedLsn >= lsn : writtenLsn >= lsn) {
                return;
            }
            if (ioInProgress) {
                ioDone.awaitUninterruptibly();
            } else {
                lead(force);
            }
        }
    }

    /** Writes out the whole buffer, and forces if asked, with the lock released while the disk works. */
    private void lead(boolean force) throws IOException {
        Bytes batch = pending;
        pending = spare;
        spare = null;
        long last = nextLsn - 1;
        long at = fileEnd;
        Runnable hook = beforeForce;
        ioInProgress = true;
        lock.unlock();
        Throwable failed = null;
        try {
            write(batch, at);
            if (force) {
                force(hook);
            }
        } catch (IOException | RuntimeException | Error e) {
            failed = e;
            throw e;
        } finally {
            lock.lock();
            ioInProgress = false;
            if (failed == null) {
                fileEnd = at + batch.size();
                writtenLsn = last;
                if (force) {
                    forcedLsn = last;
                    forces++;
                }
            } else {
                failure = failed instanceof IOException io ? io : new IOException("writing the log failed", failed);
            }
            batch.clear();
            spare = batch;
            ioDone.signalAll();
        }
    }

    /** Waits until no write is under way, so that the caller may do IO holding the lock. */
    private void awaitIdle() {
        while (ioInProgress) {
            ioDone.awaitUninterruptibly();
        }
    }

    /** With the lock held and no write under way: writes out the buffer and forces the file. */
    private void writeAndForceLocked() throws IOException {
        checkFailed();
        try {
            write(pending, fileEnd);
            force(() -> { });
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException("writing the log failed", e);
            throw e;
        }
        fileEnd += pending.size();
        pending.clear();
        writtenLsn = nextLsn - 1;
        forcedLsn = nextLsn - 1;
        forces++;
    }

    private void startFile(long startLsn) throws IOException {
        channel = LogFormat.create(directory, startLsn);
        file = directory.resolve(LogFormat.fileName(startLsn));
        fileStartLsn = startLsn;
        fileEnd = LogFormat.HEADER_SIZE;
    }

    private void checkUsable() throws IOException {
        if (closed) {
            throw new IllegalStateException("the write-ahead log of " + directory + " is closed");
        }
        checkFailed();
    }

    private void checkFailed() throws IOException {
        if (failure != null) {
            throw new IOException("the write-ahead log of " + directory + " failed earlier and takes no more records"
                    + " (reopen it): " + failure.getMessage(), failure);
        }
    }

    // ---- IO, by the one thread allowed to (a leader, or one holding the lock with no write under way)

    /**
     * Writes at a given offset rather than at the channel's position, so that a write cut short
     * can be made again whole. A FileChannel closes when a thread interrupted during its IO
     * (ClosedByInterruptException), which would stop the log for every thread because one was
     * cancelled: the interrupt is taken off for the IO, the channel reopened if it closed, and the
     * flag put back for the caller.
     */
    private void write(Bytes batch, long at) throws IOException {
        if (batch.size() == 0) {
            return;
        }
        uninterruptibly(() -> {
            ByteBuffer b = batch.asBuffer();
            long p = at;
            while (b.hasRemaining()) {
                p += channel.write(b, p);
            }
        });
    }

    /** Forces the file's data (its size too, where it grew: force(false) still writes the metadata needed to read the data back). */
    private void force(Runnable hook) throws IOException {
        uninterruptibly(() -> {
            hook.run(); // inside, so that a test's hook can interrupt the IO itself
            channel.force(false);
        });
    }

    private interface Io {
        void run() throws IOException;
    }

    private void uninterruptibly(Io io) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    io.run();
                    return;
                } catch (ClosedByInterruptException e) {
                    // interrupted during the IO itself: the channel is closed, the data of an
                    // interrupted write unknown; reopen and do the whole IO again (it is idempotent)
                    interrupted |= Thread.interrupted();
                    if (attempt == 3) {
                        throw e;
                    }
                    channel = FileChannel.open(file, StandardOpenOption.WRITE);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
