package io.numacol.durability;

import io.numacol.checkpoint.CatalogImage;
import io.numacol.checkpoint.Manifest;
import io.numacol.checkpoint.PartFile;
import io.numacol.checkpoint.PartRef;
import io.numacol.checkpoint.SequenceEntry;
import io.numacol.checkpoint.TableEntry;
import io.numacol.placement.Placement;
import io.numacol.storage.Catalog;
import io.numacol.storage.ChangeLog;
import io.numacol.storage.DeletedRows;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.wal.LogRecord;
import io.numacol.wal.LogWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A file database's log and checkpoints: the {@link ChangeLog} its catalog commits through.
 *
 * <p>Each commit's changes of table parts become log records under the commit lock ({@link
 * #changed}): a new part of fewer than {@value #PART_FILE_ROWS} rows as its rows ({@link
 * LogRecord.Insert}), a bigger one written to a part file first and named by the record ({@link
 * LogRecord.PartWritten}: a bulk load writes its data once, as stored, not as rows in the log);
 * a part's new version as the row ids it deletes; a part gone as its id. Tables are named by a
 * durable id the store gives them, kept in the catalog's image, since a name changes hands (an
 * ALTER makes a new table under the old name). After a DDL the whole catalog's image is logged
 * ({@link LogRecord.CatalogState}).
 *
 * <p>A checkpoint ({@link #checkpoint}) takes the newest version of every table in a short
 * critical phase (no commit or DDL runs meanwhile: it only takes references and the log position),
 * then, with commits running again, writes the parts that have no up-to-date part file and a new
 * manifest naming all of them, then drops the log files and part files the manifest made
 * redundant.
 */
public final class DurableStore implements ChangeLog, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(DurableStore.class.getName());
    /** The log's subdirectory of the database directory. */
    public static final String LOG_DIRECTORY = "wal";
    /** New parts of this many rows or more are written to a part file, not to the log as rows. */
    static final int PART_FILE_ROWS = 1 << 14;

    private final StoredDatabase database;
    private final Catalog catalog;
    private final StorageOptions options;
    private final DirectoryLock lock;
    private final LogWriter log;

    /** Each table's durable id; the tables of the catalog and those an ALTER builds. Guarded by itself. */
    private final Map<Table, Long> tableIds = Collections.synchronizedMap(new IdentityHashMap<>());
    private final AtomicLong nextTableId;
    /** Tables an ALTER TABLE fills before they enter the catalog: their parts are logged. */
    private final Set<Table> building = Collections.newSetFromMap(Collections.synchronizedMap(new IdentityHashMap<>()));
    /** Checkpoints wait while an ALTER builds a table the catalog does not have yet: their image could not name it. */
    private final ReentrantReadWriteLock alters = new ReentrantReadWriteLock();
    private final AtomicLong transactions = new AtomicLong();

    // the commit being published: guarded by the catalog's commit lock
    private final List<LogRecord> pending = new ArrayList<>();
    private long pendingTxn;
    private final List<String> pendingFiles = new ArrayList<>();

    /** Part files that hold a part as of some version: by table id and part id. */
    private final Map<PartKey, Written> partFiles = new ConcurrentHashMap<>();
    /** Part files logged since the last checkpoint, with the LSN of their record: the checkpoint must keep them. */
    private final Map<String, Long> loggedFiles = new ConcurrentHashMap<>();
    private final AtomicLong fileSerial = new AtomicLong();
    /**
     * Bytes of part files written for commits (bulk loads, merges): with the log's, they decide
     * when a checkpoint is due, since the files a merge supersedes are only deleted by one.
     */
    private final AtomicLong partFileBytes = new AtomicLong();
    private volatile long checkpointPartFileBytes;

    private final ReentrantLock checkpoints = new ReentrantLock();
    private volatile long checkpointAppendedBytes;
    /** Commits and catalog states logged, and how many the last checkpoint held: a close with nothing new writes none. */
    private final AtomicLong logged = new AtomicLong();
    private volatile long checkpointLogged;
    /** The open replayed a log: the close checkpoints, so the next open does not replay it again. */
    private volatile boolean replayedAtOpen;
    private volatile long lastCheckpointLsn;
    private volatile long lastCheckpointMillis;
    private volatile boolean checkpointScheduled;
    private volatile boolean closed;
    /** The log's first failure: from then on every change is refused. */
    private volatile IOException failure;

    private record PartKey(long table, long part) {
    }

    /** The change log of a closed file database: no commit is made that its files would not hold. */
    private static final ChangeLog REFUSING = new ChangeLog() {
        // the database drops its tables from memory as it closes (catalogChanged, the default, logs
        // nothing); the files keep them
        @Override
        public void changed(Table table, List<TablePart> old, List<TablePart> replacement) {
            throw new IllegalStateException("the database was closed: its files take no more changes");
        }
    };

    /** A part file and the deleted rows of the version it holds. */
    private record Written(PartRef ref, int deletedCount) {
    }

    private DurableStore(StoredDatabase database, StorageOptions options, DirectoryLock lock, LogWriter log, long nextTableId,
                         Map<Table, Long> ids, long checkpointLsn) {
        this.database = database;
        this.catalog = database.catalog();
        this.options = options;
        this.lock = lock;
        this.log = log;
        this.nextTableId = new AtomicLong(nextTableId);
        this.tableIds.putAll(ids);
        this.lastCheckpointLsn = checkpointLsn;
    }

    /**
     * Opens the database directory of {@code options} for {@code database} (new, with an empty
     * catalog): takes its lock, reads its checkpoint and log back into the catalog ({@link
     * Recovery}), and from then on logs every commit and DDL.
     *
     * @throws DatabaseLockedException another process has the directory
     * @throws UncheckedIOException    a file cannot be read, or is damaged (the cause names it)
     */
    public static DurableStore open(StoredDatabase database, StorageOptions options) {
        Path directory = options.directory();
        DirectoryLock lock;
        try {
            lock = DirectoryLock.take(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open database directory " + directory + ": " + e.getMessage(), e);
        }
        try {
            Recovery.Outcome recovered = Recovery.run(database, directory, directory.resolve(LOG_DIRECTORY));
            LogWriter log = LogWriter.open(directory.resolve(LOG_DIRECTORY), options.durability());
            DurableStore store = new DurableStore(database, options, lock, log, recovered.nextTableId(), recovered.tableIds(),
                    recovered.checkpointLsn());
            for (Recovery.FileOfPart f : recovered.partFiles()) {
                store.partFiles.put(new PartKey(f.table(), f.part()), new Written(f.ref(), f.deletedCount()));
            }
            store.loggedFiles.putAll(recovered.loggedFiles());
            database.catalog().attachLog(store);
            store.replayedAtOpen = recovered.replayed() > 0;
            if (recovered.replayed() > 0) {
                LOG.info(() -> "numacol: database " + directory + " replayed " + recovered.replayed()
                        + " committed transactions from its log");
            }
            return store;
        } catch (IOException e) {
            closeQuietly(lock);
            throw new UncheckedIOException("cannot open database " + directory + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            closeQuietly(lock);
            throw e;
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.log(Level.FINE, "closing after a failed open", e);
        }
    }

    public StorageOptions options() {
        return options;
    }

    // ---- the change log: under the commit lock

    @Override
    public void changed(Table table, List<TablePart> old, List<TablePart> replacement) {
        if (pendingTxn == 0) {
            // refused before the commit's first table changes, never between two of its tables: a
            // transaction's tables are published all or none
            checkUsable();
            pendingTxn = transactions.incrementAndGet();
        }
        Long id = tableIds.get(table);
        if (id == null && !building.contains(table)) {
            // a table created a moment ago, committed to before its CREATE logged the catalog (the catalog
            // finds it without its monitor): log the catalog first, so that a replay knows the table
            synchronized (catalog) {
                id = tableIds.get(table);
                if (id == null && catalog.find(table.schemaName(), table.name()).orElse(null) == table) {
                    logCatalogState();
                }
            }
        }
        id = idOf(table);
        if (id == null) {
            return; // a table the catalog never had and no ALTER builds (a calibration's): nothing to keep
        }
        List<Long> dropped = new ArrayList<>();
        for (TablePart p : old) {
            TablePart version = null;
            for (TablePart r : replacement) {
                if (r.sameData(p)) {
                    version = r;
                    break;
                }
            }
            if (version == null) {
                dropped.add(p.id());
            } else {
                long[] rowIds = newlyDeleted(p, version);
                if (rowIds.length > 0) {
                    pending.add(new LogRecord.Delete(pendingTxn, id, rowIds));
                }
            }
        }
        for (TablePart r : replacement) {
            boolean version = false;
            for (TablePart p : old) {
                if (r.sameData(p)) {
                    version = true;
                    break;
                }
            }
            if (!version) {
                logNewPart(id, r);
            }
        }
        if (!dropped.isEmpty()) {
            pending.add(new LogRecord.DropParts(pendingTxn, id, dropped.stream().mapToLong(Long::longValue).toArray()));
        }
    }

    /** Part files written before their commit took the lock ({@link #prepare}), by part version. */
    private final Map<TablePart, PartRef> prewritten = Collections.synchronizedMap(new IdentityHashMap<>());

    @Override
    public void prepare(Table table, List<TablePart> parts) {
        if (closed || failure != null) {
            return; // the commit is refused under the lock
        }
        Long id = idOf(table);
        if (id == null) {
            return;
        }
        for (TablePart part : parts) {
            if (part.rowCount() >= PART_FILE_ROWS && !prewritten.containsKey(part) && !partFiles.containsKey(new PartKey(id, part.id()))) {
                try {
                    prewritten.put(part, writePartFile(id, part));
                } catch (IOException e) {
                    return; // written again under the lock, where a failure fails the commit
                }
            }
        }
    }

    /**
     * Writes {@code part} to a new part file of table {@code table}; returns it as a record names
     * it. The file is kept from a checkpoint's garbage collection from before it exists until the
     * checkpoint after the record that names it (or the next open, if no record ever does).
     */
    private PartRef writePartFile(long table, TablePart part) throws IOException {
        while (true) {
            // named by the log position about reached: unique but for a file a run that crashed left
            // unnamed, which a new name steps over
            String name = "t" + table + "-p" + part.id() + "-w" + log.nextLsn() + "-" + fileSerial.incrementAndGet() + PartFile.SUFFIX;
            loggedFiles.put(name, Long.MAX_VALUE);
            try {
                PartRef ref = PartFile.write(part, options.directory().resolve(name));
                // the file's name durable before a record names it: a forced log must not name a file a
                // power loss takes back
                Manifest.forceDirectory(options.directory());
                partFileBytes.addAndGet(ref.size());
                return ref;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                loggedFiles.remove(name);
                LOG.fine(() -> "part file " + e.getFile() + " exists: another name");
            } catch (IOException | RuntimeException e) {
                loggedFiles.remove(name);
                throw e;
            }
        }
    }

    private void logNewPart(long table, TablePart part) {
        PartRef early = part.rowCount() >= PART_FILE_ROWS ? prewritten.remove(part) : null;
        if (early != null) {
            logPartFile(table, part, early);
        } else if (part.rowCount() >= PART_FILE_ROWS && writtenNow(table, part)) {
            return;
        } else {
            pending.add(new LogRecord.Insert(pendingTxn, table, part.id(), part.partition(), PartRows.of(part)));
            if (!part.deleted().isEmpty()) {
                pending.add(new LogRecord.Delete(pendingTxn, table, deletedRowIds(part, DeletedRows.NONE)));
            }
        }
    }

    /**
     * Writes a big new part's file under the commit lock (a commit that did not prepare it) and
     * logs it; false when the file cannot be written: the part then goes into the log as rows, since
     * a failure here, between two tables of one transaction, would publish half of it.
     */
    private boolean writtenNow(long table, TablePart part) {
        try {
            logPartFile(table, part, writePartFile(table, part));
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "numacol: a part file of " + options.directory() + " could not be written; its rows go"
                    + " into the log", e);
            return false;
        }
    }

    /** Logs {@code part} of table {@code table} as held by the part file {@code ref}, in the commit being published. */
    private void logPartFile(long table, TablePart part, PartRef ref) {
        partFiles.put(new PartKey(table, part.id()), new Written(ref, part.deleted().count()));
        pendingFiles.add(ref.fileName());
        pending.add(new LogRecord.PartWritten(pendingTxn, table, ref.fileName(), ref.size(), ref.checksum()));
    }

    /** The row ids {@code version} deletes that {@code before} did not. */
    private static long[] newlyDeleted(TablePart before, TablePart version) {
        return deletedRowIds(version, before.deleted());
    }

    private static long[] deletedRowIds(TablePart part, DeletedRows except) {
        DeletedRows now = part.deleted();
        if (now.count() == except.count()) {
            return new long[0];
        }
        long[] out = new long[now.count() - except.count()];
        int n = 0;
        long[] words = now.words();
        for (int w = 0; w < words.length; w++) {
            long bits = words[w] & ~except.word(w);
            while (bits != 0 && n < out.length) {
                int position = w * 64 + Long.numberOfTrailingZeros(bits);
                out[n++] = part.rowId(position);
                bits &= bits - 1;
            }
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    /**
     * Refuses a change once the files are closed or the log failed: a change made in memory that
     * the log does not hold would be lost at the next open while later ones are kept.
     */
    private void checkUsable() {
        IOException failed = failure;
        if (failed != null) {
            throw new IllegalStateException("the database's log failed (" + failed.getMessage()
                    + "): nothing more can be committed; close the database and open it again", failed);
        }
        if (closed) {
            throw new IllegalStateException("the database was closed: its files take no more changes");
        }
    }

    /** Notes a failure of the log and hands it on: every later change is refused. */
    private UncheckedIOException failed(Exception cause) {
        IOException e = cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
        if (failure == null) {
            failure = e;
        }
        return new UncheckedIOException("the database's log could not be written, so this commit is not durable: "
                + e.getMessage(), e);
    }

    @Override
    public long committed(long timestamp) {
        if (pending.isEmpty()) {
            pendingTxn = 0;
            return 0;
        }
        try {
            for (LogRecord r : pending) {
                long lsn = log.append(r);
                if (r instanceof LogRecord.PartWritten w) {
                    loggedFiles.put(w.fileName(), lsn);
                }
            }
            long lsn = log.appendCommit(pendingTxn, timestamp);
            logged.incrementAndGet();
            return lsn;
        } catch (IOException | RuntimeException e) {
            // the tables hold the commit already: whatever went wrong, it must not pass for a change
            // that was not made (an IllegalStateException tells a merge its parts were not swapped)
            throw failed(e);
        } finally {
            pending.clear();
            pendingFiles.clear();
            pendingTxn = 0;
        }
    }

    @Override
    public void discarded() {
        for (String name : pendingFiles) { // written for a commit that never was: no record names them
            loggedFiles.remove(name);
            try {
                Files.deleteIfExists(options.directory().resolve(name));
            } catch (IOException e) {
                LOG.log(Level.FINE, "a part file of a failed commit stays until the next checkpoint", e);
            }
        }
        pending.clear();
        pendingFiles.clear();
        pendingTxn = 0;
    }

    @Override
    public void awaitDurable(long token) {
        if (token == 0) {
            return;
        }
        try {
            log.awaitDurable(token);
        } catch (IOException e) {
            throw failed(e);
        }
        maybeCheckpoint();
    }

    @Override
    public void catalogChanged(Catalog changed) {
        checkUsable();
        awaitDurable(logCatalogState());
    }

    /** Appends the catalog's image as a transaction of its own; under the catalog's monitor. Returns its Commit's LSN. */
    private long logCatalogState() {
        try {
            byte[] image = image(null).encode();
            long txn = transactions.incrementAndGet();
            log.append(new LogRecord.CatalogState(txn, image));
            long lsn = log.appendCommit(txn, 0);
            logged.incrementAndGet();
            return lsn;
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
    }

    /** The durable id of {@code table}, given on first sight; null for a table neither in the catalog nor being built. */
    private Long idOf(Table table) {
        synchronized (tableIds) {
            Long id = tableIds.get(table);
            if (id == null && (building.contains(table) || catalog.find(table.schemaName(), table.name()).orElse(null) == table)) {
                id = nextTableId.getAndIncrement();
                tableIds.put(table, id);
            }
            return id;
        }
    }

    /**
     * The catalog as an image: its schemas, tables (by durable id, with their placements and, when
     * {@code parts} is given, the part files), views and indexes; under the catalog's monitor.
     */
    private CatalogImage image(Map<Table, List<PartRef>> parts) {
        synchronized (tableIds) {
            List<TableEntry> tables = new ArrayList<>();
            Set<Table> live = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Table t : catalog.tables()) {
                Long id = idOf(t);
                live.add(t);
                Placement placement = database.placement(t);
                tables.add(new TableEntry(id, t.schemaName(), t.name(), t.schema().columns(), t.schema().keys(), t.schema().foreignKeys(),
                        placement == null ? "" : placement.toString(), database.partitioning(t),
                        parts == null ? List.of() : parts.getOrDefault(t, List.of()), t.schema().checks()));
            }
            tableIds.keySet().removeIf(t -> !live.contains(t) && !building.contains(t)); // dropped: never logged again
            return new CatalogImage(nextTableId.get(), List.copyOf(catalog.schemas()), tables, List.copyOf(catalog.views()),
                    List.copyOf(catalog.indexes()), catalog.sequences().stream().map(SequenceEntry::of).toList(),
                    List.copyOf(catalog.comments()));
        }
    }

    // ---- ALTER TABLE

    /**
     * Runs {@code body}, an ALTER TABLE that fills {@code replacement} before it takes its place in
     * the catalog: its parts are logged as they are published, and no checkpoint runs meanwhile
     * (its image could not name a table the catalog does not have).
     */
    public void whileBuilding(Table replacement, Runnable body) {
        alters.readLock().lock();
        building.add(replacement);
        try {
            body.run();
        } finally {
            building.remove(replacement);
            alters.readLock().unlock();
        }
    }

    // ---- checkpoints

    /** What {@code sys} shows of the files. */
    public record Status(Path directory, String durability, long logBytesSinceCheckpoint, long checkpointLsn,
                         long lastCheckpointMillis, long partFiles) {
    }

    public Status status() {
        return new Status(options.directory(), options.durability().name().toLowerCase(java.util.Locale.ROOT),
                log.appendedBytes() - checkpointAppendedBytes, lastCheckpointLsn, lastCheckpointMillis, partFiles.size());
    }

    private void maybeCheckpoint() {
        long threshold = options.checkpointBytes();
        if (threshold <= 0 || checkpointScheduled || closed
                || log.appendedBytes() - checkpointAppendedBytes + partFileBytes.get() - checkpointPartFileBytes < threshold) {
            return;
        }
        checkpointScheduled = true;
        Thread.ofVirtual().name("numacol-checkpoint").start(() -> {
            try {
                if (!closed) {
                    checkpoint();
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "numacol: an automatic checkpoint of " + options.directory() + " failed", e);
            } finally {
                checkpointScheduled = false;
            }
        });
    }

    /**
     * Writes a checkpoint: every table's newest version in part files and a manifest, then drops
     * the log it covers. Commits and DDL wait only while the versions are taken, not while files
     * are written. Returns the log position it covers.
     */
    public long checkpoint() {
        checkpoints.lock();
        if (closed) { // a checkpoint scheduled before the close: the close's own checkpoint was the last
            checkpoints.unlock();
            return lastCheckpointLsn;
        }
        alters.writeLock().lock();
        IdentityHashMap<Table, List<TablePart>> snapshots = new IdentityHashMap<>();
        try {
            long[] lsn = new long[1];
            IdentityHashMap<Table, Long> ids = new IdentityHashMap<>();
            long[] loggedAtStart = new long[1];
            catalog.whileQuiet(() -> {
                lsn[0] = log.nextLsn(); // every commit before it is in the versions taken now
                loggedAtStart[0] = logged.get();
                for (Table t : catalog.tables()) {
                    ids.put(t, idOf(t));
                    // the newest version, whatever statement this thread runs in (a view of its own would
                    // give its snapshot); under the commit lock no commit swaps it meanwhile
                    List<TablePart> head = new ArrayList<>();
                    snapshots.put(t, head);
                    for (TablePart p : t.parts()) {
                        if (!p.tryRetain()) {
                            throw new IllegalStateException(p + " of table " + t.displayName() + " was freed in its newest version");
                        }
                        head.add(p);
                    }
                }
            });
            alters.writeLock().unlock(); // the versions are taken: an ALTER may build while files are written
            long appendedAtStart = log.appendedBytes();
            long partFileBytesAtStart = partFileBytes.get();
            IdentityHashMap<Table, List<PartRef>> parts = new IdentityHashMap<>();
            Set<String> named = new HashSet<>();
            for (Map.Entry<Table, List<TablePart>> e : snapshots.entrySet()) {
                long tableId = ids.get(e.getKey());
                List<PartRef> refs = new ArrayList<>();
                for (TablePart part : e.getValue()) {
                    PartRef ref = partFile(tableId, part, lsn[0]);
                    refs.add(ref);
                    named.add(ref.fileName());
                }
                parts.put(e.getKey(), refs);
            }
            CatalogImage image;
            synchronized (catalog) {
                image = image(parts);
            }
            Manifest manifest = new Manifest(lsn[0], image);
            // every record below the checkpoint's position on disk first: a log that ended below it after a
            // crash would go on with positions the next replay takes for covered ones
            log.sync();
            manifest.write(options.directory());
            log.append(new LogRecord.CheckpointDone(lsn[0]));
            log.sync();
            log.rotate();
            log.deleteBefore(Math.min(lsn[0], log.oldestOpenLsn()));
            // the part files no manifest names and no record after the checkpoint names are garbage;
            // so are those written ahead for a commit that failed (its parts were freed unpublished)
            synchronized (prewritten) {
                prewritten.entrySet().removeIf(e -> e.getKey().isFreed() && loggedFiles.remove(e.getValue().fileName()) != null);
            }
            loggedFiles.values().removeIf(at -> at < lsn[0]);
            for (Path garbage : manifest.garbage(options.directory())) {
                String name = garbage.getFileName().toString();
                if (!loggedFiles.containsKey(name)) {
                    Files.deleteIfExists(garbage);
                }
            }
            partFiles.values().removeIf(w -> !named.contains(w.ref().fileName()) && !loggedFiles.containsKey(w.ref().fileName()));
            checkpointAppendedBytes = appendedAtStart;
            checkpointLogged = loggedAtStart[0];
            replayedAtOpen = false;
            checkpointPartFileBytes = partFileBytesAtStart;
            lastCheckpointLsn = lsn[0];
            lastCheckpointMillis = System.currentTimeMillis();
            return lsn[0];
        } catch (IOException e) {
            throw new UncheckedIOException("checkpoint of " + options.directory() + " failed: " + e.getMessage(), e);
        } finally {
            if (alters.isWriteLockedByCurrentThread()) {
                alters.writeLock().unlock();
            }
            snapshots.values().forEach(parts -> parts.forEach(TablePart::release));
            checkpoints.unlock();
        }
    }

    /** The part file of {@code part} as it is now: the one written before if its deletions are the same, else a new one. */
    private PartRef partFile(long table, TablePart part, long lsn) throws IOException {
        PartKey key = new PartKey(table, part.id());
        Written w = partFiles.get(key);
        if (w != null && w.deletedCount() == part.deleted().count() && Files.exists(options.directory().resolve(w.ref().fileName()))) {
            return w.ref();
        }
        String name = PartFile.fileName(table, part.id(), lsn);
        Path file = options.directory().resolve(name);
        Files.deleteIfExists(file); // a checkpoint that failed at this position left it; no manifest names it
        PartRef ref = PartFile.write(part, file);
        partFiles.put(key, new Written(ref, part.deleted().count()));
        return ref;
    }

    /** Checkpoints (when anything was logged since the last), closes the log and lets go of the directory. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        checkpoints.lock(); // a checkpoint of the automatic thread waits, then finds the store closed
        try {
            if (logged.get() > checkpointLogged || replayedAtOpen || lastCheckpointLsn == 0) {
                checkpoint();
            }
        } finally {
            closed = true;
            checkpoints.unlock();
            // a commit of another connection after this is refused, not kept in memory only; the tables the
            // database drops as it closes stay in the files
            catalog.attachLog(REFUSING);
            try {
                log.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "numacol: closing the log of " + options.directory() + " failed", e);
            }
            closeQuietly(lock);
        }
    }

    /**
     * Lets go of the files as a crash would: no checkpoint, the log closed as it is (under {@code
     * none}, what was buffered is lost, as a crash loses it). The database then closes in memory
     * only. For tests of recovery, which cannot kill their own process.
     */
    public void abandon() {
        closed = true;
        catalog.attachLog(REFUSING);
        try {
            if (options.durability() != io.numacol.wal.Durability.NONE) {
                log.close();
            }
        } catch (IOException e) {
            LOG.log(Level.FINE, "abandoning the log", e);
        }
        closeQuietly(lock);
    }
}
