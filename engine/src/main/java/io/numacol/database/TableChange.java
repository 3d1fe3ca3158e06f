package io.numacol.database;

import io.numacol.storage.CatalogView;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.Transaction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An UPDATE or DELETE of one table, as SAP HANA's column store makes it: parts stay immutable;
 * a deleted row is marked in its part's {@link io.numacol.storage.DeletedRows}, and an UPDATE
 * deletes the old version of a row and appends the new one (the delta, through an
 * {@link Appender}). {@link #commit} publishes the new versions of the parts and the new rows in
 * one swap of the table's parts: a reader sees all of the statement or none of it, and a failed
 * statement (a refused value, the memory limit) changes nothing.
 *
 * <p>From {@link #begin} to {@link #close} no other change of the table's parts happens
 * (inserts, merges and other changes wait), so the rows the statement reads after {@code begin}
 * are rows of the parts it marks. Rows are named by {@link TablePart#rowId}.
 *
 * <p>In a {@link Transaction} (the one of the {@link CatalogView} bound to the thread), the
 * statement reads the transaction's snapshot with its own changes on top, and {@link #commit}
 * hands the deletions and new rows to the transaction, which publishes them when it commits. On
 * its own (auto-commit), the statement reads the newest data once it holds the table, and
 * publishes at {@link #commit}.
 */
public final class TableChange implements AutoCloseable {
    private final Database database;
    private final Table table;
    /** The parts when the change began, by {@link TablePart#id()}. */
    private final Map<Long, TablePart> parts = new HashMap<>();
    /** Rows to delete, per part id: a bitmap over the part's positions. */
    private final Map<Long, long[]> marks = new LinkedHashMap<>();
    private final Runnable checkStop;
    /** The transaction the change belongs to, or null for a statement of its own. */
    private final Transaction transaction;
    /** What the statement reads: the parts it may mark, retained until {@link #close}. */
    private final TableSnapshot snapshot;
    private Appender appender;
    private long deleted;
    private boolean done;

    private TableChange(Database database, Table table, Runnable checkStop) {
        this.database = database;
        this.table = table;
        this.checkStop = checkStop;
        table.lockWrites(checkStop);
        try {
            table.checkNotDropped(); // planned against a table ALTER replaced or DROP removed
            CatalogView view = CatalogView.current(table.catalog());
            transaction = view == null ? null : view.transaction();
            if (view != null && transaction == null) {
                view.readLatest(); // auto-commit: change the rows as they are now that no other change of them runs
            }
            snapshot = table.snapshot();
            for (TablePart p : snapshot.parts()) {
                parts.put(p.id(), p);
            }
        } catch (RuntimeException | Error e) {
            table.unlockWrites();
            throw e;
        }
    }

    /**
     * Starts a change of {@code table}: other changes of it wait until {@link #close()}. Read it
     * after this. While another change holds the table, {@code checkStop} runs every few
     * milliseconds and may stop the wait by throwing.
     */
    public static TableChange begin(Database database, Table table, Runnable checkStop) {
        return new TableChange(database, table, checkStop);
    }

    public Table table() {
        return table;
    }

    /**
     * Marks the row {@code rowId} ({@link TablePart#rowId}) deleted; false when it is already
     * marked or deleted (a source that names a row twice deletes it once).
     *
     * @throws IllegalStateException when no part of the table has that row: the statement read
     *     another version of the table than the one it changes
     */
    public boolean delete(long rowId) {
        long id = TablePart.partIdOf(rowId);
        int position = TablePart.positionOf(rowId);
        TablePart part = parts.get(id);
        if (part == null || position < 0 || position >= part.rowCount()) {
            throw new IllegalStateException("table " + table.name() + " changed while the statement read it: nothing was changed");
        }
        if (part.deleted().isDeleted(position)) {
            return false;
        }
        long[] bits = marks.computeIfAbsent(id, k -> new long[(part.rowCount() + 63) >>> 6]);
        long bit = 1L << position;
        if ((bits[position >>> 6] & bit) != 0) {
            return false;
        }
        bits[position >>> 6] |= bit;
        deleted++;
        return true;
    }

    /**
     * The values (Java's, one per column) of the row {@code rowId} of the parts the change read:
     * what a DELETE ... RETURNING answers for a row it deletes.
     *
     * @throws IllegalStateException when no part of the change has that row
     */
    public Object[] row(long rowId) {
        TablePart part = parts.get(TablePart.partIdOf(rowId));
        int position = TablePart.positionOf(rowId);
        if (part == null || position < 0 || position >= part.rowCount()) {
            throw new IllegalStateException("table " + table.name() + " changed while the statement read it: nothing was changed");
        }
        Object[] values = new Object[part.columns().size()];
        for (int c = 0; c < values.length; c++) {
            values[c] = part.column(c).value(position);
        }
        return values;
    }

    /** Takes a new row (an UPDATE's new version), checked as an INSERT checks it (IllegalArgumentException naming the column and value). */
    public void insert(Object[] row) {
        if (appender == null) {
            appender = database.appender(table).stoppedBy(checkStop);
        }
        appender.append(row);
    }

    /** Rows marked deleted so far. */
    public long deletedRows() {
        return deleted;
    }

    /** Publishes the deletions and the new rows, at once (in a transaction: hands them to it). */
    public void commit() {
        if (transaction != null) {
            if (appender != null) {
                appender.flushChanging(marks); // the new rows and the deletions together, or nothing
            } else if (!marks.isEmpty()) {
                transaction.change(table, marks, List.of());
            }
            done = true;
            return;
        }
        List<TablePart> old = new ArrayList<>(marks.size());
        List<TablePart> versions = new ArrayList<>(marks.size());
        try {
            for (Map.Entry<Long, long[]> e : marks.entrySet()) {
                TablePart part = parts.get(e.getKey());
                old.add(part);
                versions.add(part.withDeleted(e.getValue()));
            }
            if (appender != null) {
                appender.flushReplacing(old, versions);
            } else if (!old.isEmpty()) {
                table.replaceParts(old, versions, checkStop);
                database.afterFlush(table); // parts with many deleted rows are compacted
            }
        } catch (RuntimeException | Error e) {
            versions.forEach(TablePart::release); // never published
            throw e;
        }
        done = true;
    }

    /** Frees the new rows unless committed, and lets other changes of the table go on. */
    @Override
    public void close() {
        try {
            if (!done && appender != null) {
                appender.discard();
            }
        } finally {
            snapshot.close();
            table.unlockWrites();
        }
    }
}
