package io.numacol.database;

import io.numacol.storage.CatalogView;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.Transaction;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 *
 * <p>When foreign keys with referential actions name the table ({@link ReferentialActions}),
 * {@link #commit} also changes the child rows of the rows it deletes ({@link #delete}) or whose
 * referenced key it changes ({@link #update}), and checks the foreign keys once all of that is
 * done; a failure anywhere drops all of it. Such a change always runs in a transaction: on its own
 * it begins one (READ COMMITTED, reading the newest rows), which commits at {@link #commit}.
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
    /** Whether the table is still held and its snapshot open (until {@link #commit} hands the change on, or {@link #close}). */
    private boolean holding = true;
    /** The transaction a change on its own runs in when its table's rows have children to act on, else null. */
    private final Transaction own;
    /** Whether this change holds its table's {@link Table#lockActingStatement}, until {@link #close}. */
    private final boolean acting;
    /** The binding {@link #own}'s view replaced on this thread, given back at {@link #close}. */
    private CatalogView outer;
    /** The foreign keys whose ON DELETE action changes child rows of this table's, and theirs ON UPDATE. */
    private final List<ReferentialActions.Reference> onDelete;
    private final List<ReferentialActions.Reference> onUpdate;
    /** Rows {@link #delete}d, noted only when {@link #onDelete} acts on them. */
    private final List<Long> deletions = new ArrayList<>();
    /** Rows {@link #update}d with their new values, noted only when {@link #onUpdate} acts on them. */
    private final Map<Long, Object[]> updates = new LinkedHashMap<>();

    private TableChange(Database database, Table table, Runnable checkStop) {
        this.database = database;
        this.table = table;
        this.checkStop = checkStop;
        CatalogView current = CatalogView.current(table.catalog());
        // a statement of its own that may act on children waits for another such one to commit (Table#lockActingStatement)
        acting = (current == null || current.transaction() == null)
                && (!ReferentialActions.of(table, false).isEmpty() || !ReferentialActions.of(table, true).isEmpty());
        if (acting) {
            table.lockActingStatement(checkStop);
        }
        try {
            table.lockWrites(checkStop);
        } catch (RuntimeException | Error e) {
            if (acting) {
                table.unlockActingStatement();
            }
            throw e;
        }
        Transaction begun = null;
        try {
            table.checkNotDropped(); // planned against a table ALTER replaced or DROP removed
            onDelete = ReferentialActions.of(table, false);
            onUpdate = ReferentialActions.of(table, true);
            CatalogView view = CatalogView.current(table.catalog());
            Transaction open = view == null ? null : view.transaction();
            if (open == null && (!onDelete.isEmpty() || !onUpdate.isEmpty())) {
                // the child rows change with the parent's, all or none: in a transaction of the statement's own,
                // begun now that no other change of the table runs, so that it reads the rows as they are now
                begun = table.catalog().begin(Transaction.Isolation.READ_COMMITTED);
                outer = CatalogView.binding().enter(begun.statementView());
                open = begun;
            } else if (view != null && open == null) {
                view.readLatest(); // auto-commit: change the rows as they are now that no other change of them runs
            }
            transaction = open;
            own = begun;
            snapshot = table.snapshot();
            for (TablePart p : snapshot.parts()) {
                parts.put(p.id(), p);
            }
        } catch (RuntimeException | Error e) {
            if (begun != null) {
                begun.rollback();
                CatalogView.binding().exit(outer);
            }
            table.unlockWrites();
            if (acting) {
                table.unlockActingStatement();
            }
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

    /** The rows the change reads and marks (this transaction's changes on top). */
    TableSnapshot snapshot() {
        return snapshot;
    }

    /**
     * Marks the row {@code rowId} ({@link TablePart#rowId}) deleted; false when it is already
     * marked or deleted (a source that names a row twice deletes it once).
     *
     * @throws IllegalStateException when no part of the table has that row: the statement read
     *     another version of the table than the one it changes
     */
    public boolean delete(long rowId) {
        if (!mark(rowId)) {
            return false;
        }
        if (!onDelete.isEmpty()) {
            deletions.add(rowId);
        }
        return true;
    }

    /**
     * Replaces the row {@code rowId} by {@code row} (its new version, checked as {@link #insert}
     * checks it): an UPDATE's row. False, and nothing taken, when the row is already marked or deleted.
     */
    public boolean update(long rowId, Object[] row) {
        if (!mark(rowId)) {
            return false;
        }
        if (!onUpdate.isEmpty()) {
            updates.put(rowId, row.clone()); // the appender may keep or change the array
        }
        insert(row);
        return true;
    }

    private boolean mark(long rowId) {
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

    /**
     * Publishes the deletions and the new rows, at once (in a transaction: hands them to it), with
     * what the foreign keys' referential actions do to the rows that reference them.
     */
    public void commit() {
        if (transaction != null) {
            List<ReferentialActions.Step> steps = steps();
            // the first change of a statement that acts on children checks the keys once all of them are made
            Transaction.Savepoint start = !steps.isEmpty() && !transaction.foreignKeysDeferred() ? transaction.deferForeignKeys() : null;
            boolean failed = true;
            try {
                handOver();
                if (!steps.isEmpty()) {
                    // the change is the transaction's now: the children's changes hold one table at a time,
                    // as a commit takes them in its own order; level by level, however deep the keys go
                    letGo();
                    Deque<ReferentialActions.Step> pending = new ArrayDeque<>(steps);
                    while (!pending.isEmpty()) {
                        pending.addAll(ReferentialActions.run(database, pending.poll(), checkStop));
                    }
                }
                if (start != null) {
                    transaction.checkForeignKeys(start);
                }
                failed = false;
            } finally {
                if (start != null) {
                    transaction.endDeferral(start, failed);
                }
            }
            if (own != null) {
                // still holding the table when no child was changed: auto-commit changes of it stay one after
                // another, as without a transaction; else the children were taken after the table was let go
                own.commit();
            }
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

    /**
     * Hands the change to the statement's transaction (the first change of the statement, whose
     * {@link #commit} runs the actions and checks the keys, under way) and answers the actions it
     * asks for in turn, for that commit to run.
     */
    List<ReferentialActions.Step> commitActed() {
        List<ReferentialActions.Step> steps = steps();
        handOver();
        return steps;
    }

    /** The deletions and new rows to the transaction, together or not at all. */
    private void handOver() {
        if (appender != null) {
            appender.flushChanging(marks); // the new rows and the deletions together, or nothing
        } else if (!marks.isEmpty()) {
            transaction.change(table, marks, List.of());
        }
        done = true;
    }

    /**
     * The referential actions of the rows deleted and the keys changed: per foreign key that acts,
     * the old keys (stored values) with their new ones for ON UPDATE CASCADE.
     */
    private List<ReferentialActions.Step> steps() {
        Map<ReferentialActions.Reference, Map<List<Object>, List<Object>>> steps = new LinkedHashMap<>();
        for (long rowId : deletions) {
            TablePart part = parts.get(TablePart.partIdOf(rowId));
            for (ReferentialActions.Reference r : onDelete) {
                List<Object> key = ReferentialActions.keyAt(part, TablePart.positionOf(rowId), r.parentColumns());
                if (key != null) {
                    ReferentialActions.add(steps, r, key, null);
                }
            }
        }
        for (Map.Entry<Long, Object[]> e : updates.entrySet()) {
            TablePart part = parts.get(TablePart.partIdOf(e.getKey()));
            for (ReferentialActions.Reference r : onUpdate) {
                List<Object> key = ReferentialActions.keyAt(part, TablePart.positionOf(e.getKey()), r.parentColumns());
                List<Object> next = ReferentialActions.keyOf(table.schema(), e.getValue(), r.parentColumns());
                if (key != null && !key.equals(next)) { // PostgreSQL acts only when the referenced key changed
                    ReferentialActions.add(steps, r, key, r.action() == TableSchema.ReferentialAction.CASCADE ? next : null);
                }
            }
        }
        List<ReferentialActions.Step> out = new ArrayList<>();
        steps.forEach((r, keys) -> out.add(new ReferentialActions.Step(r, keys)));
        return out;
    }

    /** Closes the snapshot and lets other changes of the table go on, once. */
    private void letGo() {
        if (holding) {
            holding = false;
            try {
                snapshot.close();
            } finally {
                table.unlockWrites();
            }
        }
    }

    /** Frees the new rows unless committed, and lets other changes of the table go on. */
    @Override
    public void close() {
        try {
            if (!done && appender != null) {
                appender.discard();
            }
        } finally {
            try {
                letGo();
            } finally {
                try {
                    if (own != null) {
                        own.rollback(); // nothing when it committed
                        CatalogView.binding().exit(outer);
                    }
                } finally {
                    if (acting) {
                        table.unlockActingStatement();
                    }
                }
            }
        }
    }
}
