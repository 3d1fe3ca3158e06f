package io.numacol.storage;

import io.numacol.memory.NumaMemory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A named table of a {@link Catalog} schema: a {@link TableSchema} and a set of {@link TablePart}s. The set is swapped whole, so a
 * reader's {@link #snapshot()} sees either all of a change or none of it.
 */
public final class Table {
    private final Catalog catalog;
    private final String schemaName;
    private final String name;
    private final TableSchema schema;
    private final NumaMemory memory;
    private volatile List<TablePart> parts = List.of();
    /** Held by every change of the parts, and by an UPDATE or DELETE from its first read to its swap. */
    private final ReentrantLock writes = new ReentrantLock();
    private volatile boolean dropped;
    /** The catalog version that dropped or replaced the table; {@code Long.MAX_VALUE} while it is in the catalog. */
    private volatile long droppedAt = Long.MAX_VALUE;
    /** Whether a dropped table's parts were freed ({@link #releaseParts()}): no statement reads it any more. */
    private volatile boolean released;
    private final AtomicLong partIds = new AtomicLong();

    Table(Catalog catalog, String schemaName, String name, TableSchema schema, NumaMemory memory) {
        this.catalog = catalog;
        this.schemaName = schemaName;
        this.name = name;
        this.schema = schema;
        this.memory = memory;
    }

    public String name() {
        return name;
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

    /** The current parts, unretained: for reports; queries use {@link #snapshot()}. */
    public List<TablePart> parts() {
        return parts;
    }

    /** Rows, deleted ones not counted. */
    public long rowCount() {
        return parts.stream().mapToLong(TablePart::liveRowCount).sum();
    }

    /** Rows deleted but still held by parts (until a merge compacts them). */
    public long deletedRowCount() {
        return parts.stream().mapToLong(p -> p.deleted().count()).sum();
    }

    /** A new part's {@link TablePart#id()}. */
    long nextPartId() {
        return partIds.getAndIncrement() & 0xffff_ffffL;
    }

    /** A builder for one new part of this table. */
    public PartBuilder newPart() {
        return new PartBuilder(this);
    }

    /**
     * The current parts, each retained until the snapshot closes. A dropped table's are the last
     * it had, for a statement whose {@link CatalogView} began before the drop.
     *
     * @throws IllegalStateException when the table was dropped, or replaced by ALTER TABLE, and
     *     the statement on this thread began after that, or has no view of the catalog
     */
    public TableSnapshot snapshot() {
        if (dropped) {
            CatalogView view = CatalogView.current(catalog);
            if (view == null || !view.sees(this)) {
                checkNotDropped();
            }
            if (released) {
                throw freedUnderReader();
            }
        }
        while (true) {
            List<TablePart> current = parts;
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
                return new TableSnapshot(this, retained);
            }
            // a part was freed by a concurrent swap: that swap published a new list, take that one
            retained.forEach(TablePart::release);
        }
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
            swap(old, replacement);
        } finally {
            writes.unlock();
        }
    }

    /** {@link #replaceParts(List, List)}, waiting for another change of the table as {@link #lockWrites(Runnable)} does. */
    public void replaceParts(List<TablePart> old, List<TablePart> replacement, Runnable checkStop) {
        lockWrites(checkStop);
        try {
            swap(old, replacement);
        } finally {
            writes.unlock();
        }
    }

    /**
     * As {@link #replaceParts}, but only if no one changes the table now; false otherwise. For
     * background work on a worker thread, which must not wait for a statement that needs workers.
     */
    public boolean tryReplaceParts(List<TablePart> old, List<TablePart> replacement) {
        if (!writes.tryLock()) {
            return false;
        }
        try {
            swap(old, replacement);
            return true;
        } finally {
            writes.unlock();
        }
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
        try {
            while (!writes.tryLock(STOP_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                checkStop.run();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for another change of table " + name);
        }
    }

    /** How often a statement waiting for {@link #lockWrites(Runnable)} asks whether to stop. */
    private static final long STOP_POLL_MILLIS = 20;

    public void unlockWrites() {
        writes.unlock();
    }

    /** Whether a statement holds {@link #lockWrites()} now (or another change is being made). */
    public boolean writesLocked() {
        return writes.isLocked();
    }

    private void swap(List<TablePart> old, List<TablePart> replacement) {
        checkNotDropped();
        List<TablePart> next = new ArrayList<>(parts);
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
        parts = List.copyOf(next);
        old.forEach(TablePart::release);
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
        catalog.retire(this);
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
        List<TablePart> old = parts;
        parts = List.of();
        old.forEach(TablePart::release);
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
