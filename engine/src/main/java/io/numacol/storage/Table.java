package io.numacol.storage;

import io.numacol.memory.NumaMemory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A named table of a {@link Catalog} schema: a {@link TableSchema} and a set of {@link TablePart}s. The set is swapped whole, so a
 * reader's {@link #snapshot()} sees either all of a change or none of it.
 *
 * <p>Each swap commits a new version of the set at a timestamp of the catalog's {@link
 * CommitClock}; the versions a registered reader (a {@link CatalogView}, a {@link Transaction})
 * may still read stay in the table's history, so a reader reads the version of its read
 * timestamp. Parts are immutable, so a version is a list: MVCC at the granularity of a part's
 * version (its deleted rows), and a scan of a version pays nothing for it.
 */
public final class Table {
    private final Catalog catalog;
    private final String schemaName;
    private final String name;
    private final TableSchema schema;
    private final NumaMemory memory;
    private static final AtomicLong SERIALS = new AtomicLong();

    /** One committed set of parts, read from timestamp {@code since} until the next version's; holds a reference to each part. */
    private record Version(long since, List<TablePart> parts) {
    }

    /** The newest version. */
    private volatile Version head = new Version(0, List.of());
    /** Older versions, newest first, while a registered reader may read them; under its own monitor. */
    private final ArrayDeque<Version> history = new ArrayDeque<>();
    /** Where merges put the rows of the parts they merged away, by source part id, while a reader older than the merge may hold deletions of them. */
    private final Map<Long, MergeForward> forwards = new ConcurrentHashMap<>();
    /** Per key of the schema, the key values of the newest version's rows: built on the first change that must check them; under the commit lock. */
    private KeySet[] keySets;
    /** Orders the tables a transaction locks at commit, so that two commits never wait for each other. */
    private final long serial = SERIALS.incrementAndGet();

    /** Held by every change of the parts, and by an UPDATE or DELETE from its first read to its swap. */
    private final ReentrantLock writes = new ReentrantLock();
    /** Held by a statement of its own whose changes act on child rows, from before {@link #writes} until it commits. */
    private final ReentrantLock actingStatement = new ReentrantLock();
    private volatile boolean dropped;
    /** The catalog version that dropped or replaced the table; {@code Long.MAX_VALUE} while it is in the catalog. */
    private volatile long droppedAt = Long.MAX_VALUE;
    /** Whether a dropped table's parts were freed ({@link #releaseParts()}): no statement reads it any more. */
    private volatile boolean released;
    private final AtomicLong partIds = new AtomicLong();

    /** The schema's CHECK constraints compiled (null until then, or when it has none); this version of the table's own. */
    private volatile RowCheck checks;

    Table(Catalog catalog, String schemaName, String name, TableSchema schema, NumaMemory memory, RowCheck checks) {
        this.catalog = catalog;
        this.schemaName = schemaName;
        this.name = name;
        this.schema = schema;
        this.memory = memory;
        this.checks = checks;
    }

    public String name() {
        return name;
    }

    /** The catalog the table is (or was) in. */
    public Catalog catalog() {
        return catalog;
    }

    /** The catalog schema the table is in ({@link Catalog#MAIN} unless created in another). */
    public String schemaName() {
        return schemaName;
    }

    /** The name messages give: a table of {@link Catalog#MAIN} by its name, one of another schema as {@code schema.name}. */
    public String displayName() {
        return Catalog.displayName(schemaName, name);
    }

    public TableSchema schema() {
        return schema;
    }

    public NumaMemory memory() {
        return memory;
    }

    /**
     * The test of a new row against the schema's CHECK constraints, compiled once for this
     * version of the table (an ALTER TABLE makes another) by the catalog's {@link CheckCompiler};
     * null when the schema has none. Log replay builds its rows without it: they were checked when
     * they were written.
     *
     * @throws IllegalStateException when the schema has checks and no compiler is registered:
     *     its rows cannot be checked, and are never written unchecked
     */
    public RowCheck rowCheck() {
        RowCheck compiled = checks;
        if (compiled != null || schema.checks().isEmpty()) {
            return compiled;
        }
        synchronized (this) {
            if (checks == null) {
                CheckCompiler compiler = catalog.checkCompiler();
                if (compiler == null) {
                    throw new IllegalStateException("table " + displayName() + ": " + CheckCompiler.missing(schema.checks()));
                }
                checks = compiler.compile(schema);
            }
            return checks;
        }
    }

    /** The current parts, unretained: for reports; queries use {@link #snapshot()}. */
    public List<TablePart> parts() {
        return head.parts();
    }

    /** Rows, deleted ones not counted. */
    public long rowCount() {
        return parts().stream().mapToLong(TablePart::liveRowCount).sum();
    }

    /** Rows deleted but still held by parts (until a merge compacts them). */
    public long deletedRowCount() {
        return parts().stream().mapToLong(p -> p.deleted().count()).sum();
    }

    /** A new part's {@link TablePart#id()}. */
    long nextPartId() {
        return partIds.getAndIncrement() & 0xffff_ffffL;
    }

    /**
     * Per column, whether new parts of this table build its Index (IX), for lookups by value
     * ({@link KeyLookup}): the leading column of each PRIMARY KEY or UNIQUE constraint and of
     * each CREATE INDEX. Only the leading one, as a B-tree on the columns would serve: a lookup
     * binding all of a composite key's columns probes the first and tests the others on the
     * rows found, and the Index of a key's second column (a line number) would rarely narrow
     * anything. Asked per part built: a CREATE INDEX applies to the parts built after it (new
     * rows, merges), and the parts already there are scanned until a merge rebuilds them.
     */
    public boolean[] indexedColumns() {
        boolean[] indexed = new boolean[schema.size()];
        for (TableSchema.KeyDef k : schema.keys()) {
            indexed[k.columns().getFirst()] = true;
        }
        for (IndexDef ix : catalog.indexes()) {
            if (TableSchema.key(ix.schema()).equals(TableSchema.key(schemaName)) && TableSchema.key(ix.table()).equals(TableSchema.key(name))) {
                int c = schema.indexOf(ix.columns().getFirst());
                if (c >= 0) {
                    indexed[c] = true;
                }
            }
        }
        return indexed;
    }

    /** A builder for one new part of this table. */
    public PartBuilder newPart() {
        return new PartBuilder(this);
    }

    /**
     * The parts this thread's reader reads, each retained until the snapshot closes: the version
     * at the read timestamp of the {@link CatalogView} bound to the thread (the newest without
     * one), with the changes of its {@link Transaction} on top. A dropped table's are the last it
     * had, for a statement whose view began before the drop.
     *
     * @throws IllegalStateException when the table was dropped, or replaced by ALTER TABLE, and
     *     the statement on this thread began after that, or has no view of the catalog
     */
    public TableSnapshot snapshot() {
        CatalogView view = CatalogView.current(catalog);
        if (dropped) {
            if (view == null || !view.sees(this)) {
                checkNotDropped();
            }
            if (released) {
                throw freedUnderReader();
            }
        }
        // a view closed under its statement (the statement stopped, its transaction ended) holds no version any more:
        // what it still reads is the newest, and goes nowhere
        boolean reading = view != null && !view.isClosed();
        long ts = reading ? view.readTimestamp() : Long.MAX_VALUE;
        Transaction transaction = reading ? view.transaction() : null;
        while (true) {
            List<TablePart> current = versionAt(ts, view).parts();
            List<TablePart> retained = new ArrayList<>(current.size());
            for (TablePart p : current) {
                if (!p.tryRetain()) {
                    break;
                }
                retained.add(p);
            }
            if (retained.size() == current.size()) {
                if (released && retained.isEmpty()) {
                    throw freedUnderReader(); // freed between the check above and now
                }
                return new TableSnapshot(this, transaction == null ? retained : transaction.overlay(this, retained));
            }
            // a part was freed by a concurrent swap (a reader without a registered timestamp): take the new version
            retained.forEach(TablePart::release);
        }
    }

    /** The newest version committed at or before {@code ts} (the newest if {@code view} closed meanwhile: it reads nothing more). */
    private Version versionAt(long ts, CatalogView view) {
        Version v = head;
        if (v.since() <= ts) {
            return v;
        }
        synchronized (history) {
            for (Version h : history) {
                if (h.since() <= ts) {
                    return h;
                }
            }
        }
        if (view != null && view.isClosed()) {
            return head;
        }
        throw new IllegalStateException("table " + name + " has no version at timestamp " + ts + " any more: its reader was not registered");
    }

    /** The parts of the version committed at or before {@code ts} by {@link TablePart#id()}, unretained: for the holder of a reader registered at {@code ts}. */
    Map<Long, TablePart> partsByIdAt(long ts) {
        return byId(versionAt(ts, null).parts());
    }

    /** The parts of the newest version by {@link TablePart#id()}, unretained: for a commit that holds {@link #lockWrites()}. */
    Map<Long, TablePart> headById() {
        return byId(head.parts());
    }

    private static Map<Long, TablePart> byId(List<TablePart> parts) {
        Map<Long, TablePart> byId = new HashMap<>();
        for (TablePart p : parts) {
            byId.put(p.id(), p);
        }
        return byId;
    }

    /** Frees the versions no reader at or after {@code oldest} reads; answers whether older versions remain. */
    boolean prune(long oldest) {
        forwards.values().removeIf(f -> f.since() <= oldest); // every reader is past the merge: none names its sources
        List<Version> free = new ArrayList<>();
        boolean remain;
        synchronized (history) {
            // a version is read by readers from its since to its successor's: the successor of the last is the one before it
            Iterator<Version> older = history.descendingIterator();
            while (older.hasNext()) {
                Version v = older.next();
                Version successor = newer(v);
                if (successor.since() > oldest) {
                    break;
                }
                free.add(v);
                older.remove();
            }
            remain = !history.isEmpty() || !forwards.isEmpty();
        }
        for (Version v : free) {
            v.parts().forEach(TablePart::release);
        }
        return remain;
    }

    /** The version after {@code v} in the history (or the head); under the history's monitor. */
    private Version newer(Version v) {
        Version after = head;
        for (Version h : history) {
            if (h == v) {
                return after;
            }
            after = h;
        }
        throw new IllegalStateException("a version not in the history");
    }

    boolean hasHistory() {
        synchronized (history) {
            return !history.isEmpty() || !forwards.isEmpty();
        }
    }

    /**
     * The order in which a change that writes several tables takes their writes ({@link
     * #lockWrites()}): a commit, and an ALTER TABLE that holds a parent's writes beside its own, so
     * that none waits for another in a cycle.
     */
    public static final Comparator<Table> LOCK_ORDER = Comparator.comparingLong(Table::serial);

    long serial() {
        return serial;
    }

    /** Publishes new parts at once: a reader's snapshot has all of them or none. */
    public void addParts(List<TablePart> added) {
        replaceParts(List.of(), added);
    }

    /**
     * Replaces some parts by others at once (re-placement, merges, deletions); the old ones go
     * when their readers do. A replacement that is a version of an old part ({@link
     * TablePart#withDeleted}) takes its place in the order of parts; the others come last.
     */
    public void replaceParts(List<TablePart> old, List<TablePart> replacement) {
        writes.lock();
        try {
            commit(old, replacement);
        } finally {
            releaseWrites();
        }
    }

    /**
     * {@link #replaceParts(List, List)} for a change that was checked when it was first committed
     * (the write-ahead log's, replayed in a recovery): its foreign keys are not checked again, as
     * the log replays one table at a time and a parent's rows may come after its children's.
     */
    public void replayParts(List<TablePart> old, List<TablePart> replacement) {
        writes.lock();
        try {
            catalog.clock().log().prepare(this, replacement);
            catalog.clock().commit(ts -> swap(old, replacement, ts, prepareKeys(old, replacement), false));
        } finally {
            releaseWrites();
        }
    }

    /** {@link #replaceParts(List, List)}, waiting for another change of the table as {@link #lockWrites(Runnable)} does. */
    public void replaceParts(List<TablePart> old, List<TablePart> replacement, Runnable checkStop) {
        replaceParts(old, replacement, checkStop, () -> { });
    }

    /**
     * {@link #replaceParts(List, List, Runnable)} that runs {@code published} as soon as {@code
     * replacement} is the table's, before anything that may still fail after it: the log refusing
     * the commit's record (the commit stays visible, as the table holds it) or the wait for it to
     * be durable. A caller that sees this method throw after {@code published} ran must not free
     * the parts: readers may be reading them, and the table frees them when it retires them.
     */
    public void replaceParts(List<TablePart> old, List<TablePart> replacement, Runnable checkStop, Runnable published) {
        lockWrites(checkStop);
        try {
            commit(old, replacement, published);
        } finally {
            releaseWrites();
        }
    }

    /** {@link #replaceParts(List, List)} for parts that hold the same rows as those they replace (re-placed, re-dealt into partitions). */
    public void replacePartsKeepingRows(List<TablePart> old, List<TablePart> replacement) {
        writes.lock();
        try {
            commitKeepingRows(old, replacement);
        } finally {
            releaseWrites();
        }
    }

    /**
     * As {@link #replaceParts}, but only if no one changes the table now; false otherwise. For
     * background work on a worker thread, which must not wait for a statement that needs workers;
     * and not while a transaction is open, since its changes name rows by the parts it read,
     * which this may replace (a merge that kept where each row went could go on: not yet).
     */
    public boolean tryReplaceParts(List<TablePart> old, List<TablePart> replacement) {
        if (catalog.clock().openTransactions() > 0 || !writes.tryLock()) {
            return false;
        }
        try {
            commitKeepingRows(old, replacement);
            return true;
        } finally {
            releaseWrites();
        }
    }

    /**
     * A merge's {@link #tryReplaceParts}, which may go on while transactions are open: {@code
     * merged} (null when no row was live) holds the live rows of {@code sources} in their order, as
     * {@link PartBuilder#appendPart} appends them, and the table keeps where each source's rows went
     * ({@link #forward}) for the transactions whose snapshots still name them. A source's newer
     * version (rows deleted since the merge read it) is merged all the same: its deletions are
     * carried into the merged part.
     *
     * <p>When a statement holds the table, the merge does not wait for it (a worker must not wait
     * for a statement that may need workers): the table takes the merge, and whoever lets the table
     * go next swaps it in ({@link #releaseWrites}). Under a stream of one-row UPDATEs the table is
     * held nearly all the time, and a merge that only tried once lost nearly always, so one-row parts
     * piled up and every statement, walking all of them, got slower.
     *
     * @return true when the merge was swapped in, or taken for the next holder to swap in; false
     *     when a merge taken before still waits for the holder (see {@link #mergePending}), the
     *     sources were replaced otherwise, or the table was dropped. The table owns {@code merged}
     *     either way: it frees it when it does not swap it in
     */
    public boolean tryMergeParts(List<TablePart> sources, TablePart merged) {
        // the merged part's file, if it gets one, written here and not by the holder that may swap it in
        catalog.clock().log().prepare(this, merged == null ? List.of() : List.of(merged));
        if (writes.tryLock()) {
            try {
                return mergeOrFree(sources, merged);
            } finally {
                releaseWrites();
            }
        }
        if (!pendingMerge.compareAndSet(null, new PendingMerge(sources, merged))) {
            free(merged);
            return false;
        }
        swapPendingMerge(); // the holder may have let go before the merge was taken
        catalog.clock().awaitOwed();
        return true;
    }

    /** Whether a merge waits for the table's holder to swap it in ({@link #tryMergeParts}): another would read the same parts. */
    public boolean mergePending() {
        return pendingMerge.get() != null;
    }

    /** A merge taken while a statement held the table, for whoever lets the table go to swap in. */
    private record PendingMerge(List<TablePart> sources, TablePart merged) {
    }

    private final AtomicReference<PendingMerge> pendingMerge = new AtomicReference<>();

    /**
     * Swaps in a pending merge if the table is free now (a merge that can no longer be swapped in is
     * dropped). Never throws: it runs as the holder of a statement lets the table go, after the
     * statement's work.
     */
    private void swapPendingMerge() {
        while (pendingMerge.get() != null && writes.tryLock()) {
            try {
                PendingMerge merge = pendingMerge.getAndSet(null);
                if (merge != null) {
                    mergeOrFree(merge.sources(), merge.merged());
                }
            } finally {
                writes.unlock();
            }
        }
    }

    private static void free(TablePart merged) {
        if (merged != null) {
            merged.release();
        }
    }

    /**
     * {@link #commitMerge}, freeing {@code merged} unless it was swapped in; answers whether it was.
     * Never throws: a table dropped meanwhile, or a log that refuses the merge, leaves the parts as
     * they were.
     */
    private boolean mergeOrFree(List<TablePart> sources, TablePart merged) {
        boolean[] published = new boolean[1];
        try {
            if (commitMerge(sources, merged, published)) {
                return true;
            }
        } catch (RuntimeException e) {
            if (published[0]) {
                return true; // the merged part is in the newest version: the version frees it
            }
            LOG.log(Level.WARNING, "a merge of parts of table " + name + " was not swapped in; they stay as they are", e);
        }
        free(merged);
        return false;
    }

    private static final Logger LOG = Logger.getLogger(Table.class.getName());

    /**
     * Swaps in a merge of {@code sources} into {@code merged} (setting {@code published} once the
     * newest version holds it); the caller holds {@link #writes}. False, changing nothing, when a
     * source is not in the newest version, as itself or as a newer version of its data.
     */
    private boolean commitMerge(List<TablePart> sources, TablePart merged, boolean[] published) {
        if (dropped) {
            return false; // before the commit lock: a DROP SCHEMA lets the table go under the catalog's monitor
        }
        Map<Long, TablePart> head = headById();
        List<TablePart> current = new ArrayList<>(sources.size());
        long[] carried = merged == null ? null : new long[(merged.rowCount() + 63) >>> 6];
        boolean carries = false;
        int offset = 0;
        for (TablePart p : sources) {
            TablePart now = head.get(p.id());
            if (now == null || !now.sameData(p)) {
                return false;
            }
            current.add(now);
            if (now != p) {
                // rows deleted since the merge read the source: deleted in the merged part too; a version
                // lacking a deletion the merge saw (a transaction's own, read through its overlay) is not
                // newer, and the merge would drop rows the table still holds
                long[] since = new long[(p.rowCount() + 63) >>> 6];
                boolean any = false;
                for (int w = 0; w < since.length; w++) {
                    if ((p.deleted().word(w) & ~now.deleted().word(w)) != 0) {
                        return false;
                    }
                    since[w] = now.deleted().word(w) & ~p.deleted().word(w);
                    any |= since[w] != 0;
                }
                if (any && merged != null) {
                    long[] moved = new MergeForward(0, merged.id(), merged.rowCount(), p.deleted(), offset).translate(since);
                    for (int w = 0; w < moved.length; w++) {
                        carried[w] |= moved[w];
                    }
                    carries = true;
                }
            }
            offset += p.liveRowCount();
        }
        List<TablePart> replacement = merged == null ? List.of() : List.of(merged);
        boolean carry = carries;
        TablePart[] carriedVersion = new TablePart[1];
        try {
            catalog.clock().commitUnforced(ts -> {
                checkNotDropped();
                catalog.clock().log().changedKeepingRows(this, current, replacement);
                List<TablePart> installed = replacement;
                if (carry) {
                    // a version of the merged part, logged after it as a DELETE's (the log keeps the merge as it
                    // read the rows), and published in the same version: a reader never sees the merged part
                    // without the deletions already committed in its sources
                    carriedVersion[0] = merged.withDeleted(carried);
                    installed = List.of(carriedVersion[0]);
                    catalog.clock().log().changed(this, replacement, installed);
                }
                install(current, installed, ts, List.of());
                published[0] = true;
                if (carriedVersion[0] != null && carriedVersion[0] != merged) {
                    merged.release(); // never published: the carried version holds the data
                }
                recordForwards(sources, merged, ts);
            });
        } catch (RuntimeException | Error e) {
            if (!published[0] && carriedVersion[0] != null && carriedVersion[0] != merged) {
                carriedVersion[0].release();
            }
            throw e;
        }
        return true;
    }

    /** Where each source's rows went in {@code merged}, for transactions whose snapshots still name the sources. */
    private void recordForwards(List<TablePart> sources, TablePart merged, long ts) {
        int at = 0;
        for (TablePart p : sources) {
            forwards.put(p.id(), new MergeForward(ts, merged == null ? -1 : merged.id(),
                    merged == null ? 0 : merged.rowCount(), p.deleted(), at));
            at += p.liveRowCount();
        }
    }

    /**
     * {@code rows} (deleted rows by part id, bitmaps over their positions) in terms of the parts
     * of {@code parts} (by id): a part merged away since gives its rows' positions in the part it
     * went into. Null when a row is not in {@code parts} any more (deleted before a merge, or its
     * part replaced otherwise): another transaction changed it, a write conflict.
     */
    Map<Long, long[]> forward(Map<Long, long[]> rows, Map<Long, TablePart> parts) {
        Map<Long, long[]> out = new HashMap<>();
        for (Map.Entry<Long, long[]> e : rows.entrySet()) {
            long id = e.getKey();
            long[] bits = e.getValue();
            while (!parts.containsKey(id)) {
                MergeForward f = forwards.get(id);
                if (f == null || (bits = f.translate(bits)) == null) {
                    return null;
                }
                id = f.merged();
            }
            long[] into = out.get(id);
            if (into == null) {
                out.put(id, bits);
            } else {
                long[] union = into.clone();
                for (int i = 0; i < union.length; i++) {
                    union[i] |= bits[i];
                }
                out.put(id, union);
            }
        }
        return out;
    }

    /**
     * Keeps every other change of the parts out until {@link #unlockWrites()}, so that a
     * statement that reads the table and then replaces its parts replaces what it read.
     */
    public void lockWrites() {
        writes.lock();
    }

    /**
     * {@link #lockWrites()} for a statement that may be stopped while it waits for another change
     * of the table to end: {@code checkStop} runs every few milliseconds of the wait and stops it
     * by throwing (a cancelled statement, one past its timeout).
     */
    public void lockWrites(Runnable checkStop) {
        lockStoppably(writes, checkStop);
    }

    /** Takes {@code lock}, running {@code checkStop} every few milliseconds of the wait (it stops the wait by throwing). */
    private void lockStoppably(ReentrantLock lock, Runnable checkStop) {
        try {
            while (!lock.tryLock(STOP_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                checkStop.run();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for another change of table " + name);
        }
    }

    /**
     * Keeps other statements of their own (auto-commit) whose changes of this table act on child
     * rows (ON DELETE / ON UPDATE actions) out until {@link #unlockActingStatement()}: such a
     * statement lets the table's writes go before it changes the children (it holds one table at a
     * time, as commits take them in their order) and commits after, and the next such statement,
     * reading the rows committed then, would change the same rows again and fail its commit with a
     * write conflict where it should wait and find them changed. Taken before the writes and only
     * for the statement's own table, so it joins no cycle of locks.
     */
    public void lockActingStatement(Runnable checkStop) {
        lockStoppably(actingStatement, checkStop);
    }

    public void unlockActingStatement() {
        actingStatement.unlock();
    }

    /** How often a statement waiting for {@link #lockWrites(Runnable)} asks whether to stop. */
    private static final long STOP_POLL_MILLIS = 20;

    public void unlockWrites() {
        releaseWrites();
    }

    /**
     * Releases this thread's hold of the table's writes; once it holds them no more, waits until
     * what it committed is durable (a file database's log forced): after the lock, so that commits
     * of one table share a force of the log instead of forcing one by one.
     */
    private void releaseWrites() {
        writes.unlock();
        if (!writes.isHeldByCurrentThread()) {
            swapPendingMerge();
            catalog.clock().awaitOwed();
        }
    }

    /** {@link #unlockWrites()} without the wait: a transaction releases all its tables, then waits once. */
    void unlockWritesOnly() {
        writes.unlock();
        if (!writes.isHeldByCurrentThread()) {
            swapPendingMerge();
        }
    }

    /** Whether a statement holds {@link #lockWrites()} now (or another change is being made). */
    public boolean writesLocked() {
        return writes.isLocked();
    }

    /** One change of the parts, committed alone at the next timestamp; the caller holds {@link #writes}. */
    private void commit(List<TablePart> old, List<TablePart> replacement) {
        commit(old, replacement, () -> { });
    }

    /** {@link #commit(List, List)}, running {@code published} once the table holds {@code replacement}. */
    private void commit(List<TablePart> old, List<TablePart> replacement, Runnable published) {
        catalog.clock().log().prepare(this, replacement);
        catalog.clock().commit(ts -> {
            List<KeySet.Change> keys = prepareKeys(old, replacement);
            if (ForeignKeys.involved(catalog, this)) {
                ForeignKeys.check(catalog, Map.of(this, new ForeignKeys.Change(old, replacement)));
            }
            swap(old, replacement, ts, keys, false);
            published.run();
        });
    }

    /** {@link #commit} of a change that keeps every row (re-placed or merged parts): the keys need no check. */
    private void commitKeepingRows(List<TablePart> old, List<TablePart> replacement) {
        catalog.clock().log().prepare(this, replacement);
        catalog.clock().commit(ts -> swap(old, replacement, ts, List.of(), true));
    }

    /**
     * Checks the keys for a change of the newest version ({@code replacement} in the place of
     * {@code old}) and answers what it does to them; the caller holds the commit lock.
     *
     * @throws KeyViolationException the change would repeat a key's values
     */
    List<KeySet.Change> prepareKeys(List<TablePart> old, List<TablePart> replacement) {
        List<TableSchema.KeyDef> keys = schema.keys();
        if (keys.isEmpty()) {
            return List.of();
        }
        if (keySets == null) {
            KeySet[] built = new KeySet[keys.size()];
            for (int k = 0; k < built.length; k++) {
                built[k] = new KeySet(schema, keys.get(k), head.parts());
            }
            keySets = built;
        }
        List<KeySet.Change> changes = new ArrayList<>(keySets.length);
        for (KeySet set : keySets) {
            changes.add(set.prepare(old, replacement));
        }
        return changes;
    }

    /**
     * Makes the version committed at {@code ts}: the newest with {@code replacement} in place of
     * {@code old} ({@code keepingRows}: the same rows, elsewhere); the caller holds {@link #writes} and the clock's commit lock. The version
     * before stays in the history for the readers that may read it ({@link #prune}).
     */
    void swap(List<TablePart> old, List<TablePart> replacement, long ts, List<KeySet.Change> keys, boolean keepingRows) {
        checkNotDropped();
        // before the version: a change the log refuses is not made
        if (keepingRows) {
            catalog.clock().log().changedKeepingRows(this, old, replacement);
        } else {
            catalog.clock().log().changed(this, old, replacement);
        }
        install(old, replacement, ts, keys);
    }

    /** {@link #swap}'s new version, the change already logged. */
    private void install(List<TablePart> old, List<TablePart> replacement, long ts, List<KeySet.Change> keys) {
        Version current = head;
        List<TablePart> next = new ArrayList<>(current.parts());
        List<TablePart> added = new ArrayList<>(replacement);
        for (TablePart p : old) {
            int at = next.indexOf(Objects.requireNonNull(p));
            if (at < 0) {
                throw new IllegalArgumentException(p + " is not a part of table " + name);
            }
            TablePart version = null;
            for (TablePart r : added) {
                if (r.sameData(p)) {
                    version = r;
                    break;
                }
            }
            if (version == null) {
                next.remove(at);
            } else {
                next.set(at, version);
                added.remove(version);
            }
        }
        next.addAll(added);
        for (TablePart p : added) {
            // a part restored from a checkpoint keeps its id: no new part may take it again
            partIds.accumulateAndGet(p.id() + 1, Math::max);
        }
        for (TablePart p : next) {
            if (!replacement.contains(p) && !p.tryRetain()) { // a carried part: the new version's own reference
                throw new IllegalStateException(p + " of table " + name + " was freed while in its newest version");
            }
        }
        synchronized (history) {
            history.addFirst(current);
            head = new Version(ts, List.copyOf(next));
        }
        keys.forEach(KeySet.Change::apply);
        catalog.clock().keepsHistory(this);
    }

    /**
     * Marks the table dropped at catalog version {@code version}: nothing changes it any more, and
     * its parts stay for the statements that began before, until {@link Catalog} frees them ({@link
     * #releaseParts()}).
     */
    void drop(long version) {
        writes.lock();
        try {
            checkNotDropped();
            droppedAt = version;
            dropped = true;
        } finally {
            writes.unlock();
        }
        discardPendingMerge(); // never swapped in now; one taken later is freed by its merge
        catalog.retire(this);
    }

    /**
     * Frees a merge that waits for the table's holder ({@link #tryMergeParts}) without swapping it
     * in: what re-places or drops the table calls it, since the merged part was built by the
     * placement the table had and would land after the new one (a later merge takes the sources
     * again). A merge being swapped in meanwhile completes under the table's writes first.
     */
    public void discardPendingMerge() {
        PendingMerge pending = pendingMerge.getAndSet(null);
        if (pending != null) {
            free(pending.merged());
        }
    }

    /** A dropped table freed while a statement that may read it runs: only the database closing does that. */
    private IllegalStateException freedUnderReader() {
        return new IllegalStateException("table " + name + " was freed while the statement ran: the database was closed");
    }

    /** The catalog version that dropped the table, or {@code Long.MAX_VALUE}. */
    long droppedAt() {
        return droppedAt;
    }

    /** Frees a dropped table's parts (each once its last snapshot closes): no statement may read it now. */
    void releaseParts() {
        released = true; // first: a snapshot that then finds no parts knows they were freed, not empty
        List<Version> old = new ArrayList<>();
        synchronized (history) {
            old.add(head);
            old.addAll(history);
            history.clear();
            head = new Version(head.since(), List.of());
        }
        for (Version v : old) {
            v.parts().forEach(TablePart::release);
        }
    }

    /**
     * Refuses a table no longer in the catalog.
     *
     * @throws IllegalStateException when the table was dropped, or replaced by ALTER TABLE
     */
    public void checkNotDropped() {
        if (dropped) {
            throw new IllegalStateException("table " + name + " was dropped or altered after the statement was planned: run it again");
        }
    }

    public boolean isDropped() {
        return dropped;
    }

    @Override
    public String toString() {
        return displayName() + schema;
    }
}
