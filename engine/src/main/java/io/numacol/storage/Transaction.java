package io.numacol.storage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A transaction with snapshot isolation on the column store (HyPer's MVCC, at the granularity of
 * a part's version): its statements read the tables as of its read timestamp (REPEATABLE READ:
 * the transaction's start; READ COMMITTED: each statement's) with its own changes on top, which
 * no one else sees until {@link #commit}. Its changes are rows deleted (a bitmap per part, by
 * {@link TablePart#id()}) and new parts; committing makes new versions of the changed tables at
 * one timestamp, after checking that no transaction committed since its snapshot deleted or
 * updated a row it deleted or updated (first committer wins, else {@link
 * WriteConflictException}). Readers never wait for it, nor it for them.
 *
 * <p>A transaction is used by one connection's statements at a time; its methods are
 * synchronized for the rows of an open result read on another thread.
 */
public final class Transaction implements AutoCloseable {
    /** What a transaction's statements read. */
    public enum Isolation {
        /** Each statement reads the data committed when it starts. */
        READ_COMMITTED,
        /** Every statement reads the data committed when the transaction started (snapshot isolation). */
        REPEATABLE_READ
    }

    /** One table's changes. */
    private static final class Writes {
        /** Rows deleted from parts committed before, by part id: a bitmap over the part's positions. */
        final Map<Long, long[]> deleted = new HashMap<>();
        /** New parts, each holding a reference this transaction owns. */
        final List<TablePart> added = new ArrayList<>();
    }

    private final Catalog catalog;
    private final Isolation isolation;
    private final Map<Table, Writes> writes = new LinkedHashMap<>();
    private CatalogView view;
    private boolean statementsRan;
    private boolean ended;

    Transaction(Catalog catalog, Isolation isolation) {
        this.catalog = catalog;
        this.isolation = isolation;
        this.view = catalog.beginRead(this);
        catalog.clock().openTransactions(1);
    }

    public Isolation isolation() {
        return isolation;
    }

    /**
     * The view the next statement runs in: the transaction's own under REPEATABLE READ, a new one
     * at the newest commit under READ COMMITTED. The transaction closes it, not the statement.
     *
     * @throws WriteConflictException under READ COMMITTED, when a transaction that committed since
     *     the last statement began deleted or updated a row this one deleted or updated: this one
     *     cannot commit any more, and the new view would show both that transaction's version of
     *     the row and this one's (its deletion was of the version before). Every statement fails
     *     so until the transaction rolls back; its commit fails too.
     */
    public synchronized CatalogView statementView() {
        checkOpen();
        if (isolation == Isolation.READ_COMMITTED && statementsRan) {
            CatalogView before = view;
            view = catalog.beginRead(this);
            before.close();
            checkDeletionsAt(view.readTimestamp());
        }
        statementsRan = true;
        return view;
    }

    /** Refuses the statement when a row this transaction deleted is gone from the version at {@code ts} (see {@link #statementView}). */
    private void checkDeletionsAt(long ts) {
        for (Map.Entry<Table, Writes> e : writes.entrySet()) {
            Table t = e.getKey();
            if (e.getValue().deleted.isEmpty() || t.isDropped()) {
                continue; // a dropped table fails the commit, with its own message
            }
            Map<Long, TablePart> byId = new HashMap<>();
            for (TablePart p : t.partsAt(ts)) {
                byId.put(p.id(), p);
            }
            checkDeletions(t, byId, "nothing of this transaction will be kept: roll it back and run it again");
        }
    }

    /**
     * Throws {@link WriteConflictException} (its message ending with {@code outcome}) unless every
     * row this transaction deleted from {@code table} is live in {@code parts} (by id).
     */
    private void checkDeletions(Table table, Map<Long, TablePart> parts, String outcome) {
        for (Map.Entry<Long, long[]> e : writes.get(table).deleted.entrySet()) {
            TablePart current = parts.get(e.getKey());
            if (current == null || overlaps(current.deleted(), e.getValue())) {
                throw new WriteConflictException("could not serialize access due to concurrent update: rows of table "
                        + table.displayName() + " that this transaction updated or deleted were changed by another transaction "
                        + "that committed first; " + outcome);
            }
        }
    }

    /** Whether the transaction changed anything yet. */
    public synchronized boolean hasChanges() {
        return !writes.isEmpty();
    }

    /** {@code base} (retained parts of {@code table} at the read timestamp) with this transaction's changes on top, each part retained. */
    synchronized List<TablePart> overlay(Table table, List<TablePart> base) {
        Writes w = writes.get(table);
        if (w == null) {
            return base;
        }
        List<TablePart> parts = new ArrayList<>(base.size() + w.added.size());
        for (TablePart p : base) {
            long[] rows = w.deleted.get(p.id());
            TablePart version = rows == null ? p : p.withDeleted(rows);
            if (version != p) {
                p.release(); // the new version holds its own reference, and shares the part's data
            }
            parts.add(version);
        }
        for (TablePart p : w.added) {
            if (!p.tryRetain()) {
                throw new IllegalStateException("a transaction's new part was freed while it was open");
            }
            parts.add(p);
        }
        return parts;
    }

    /** Deletes rows of {@code table}: per part id, a bitmap over its positions (of a part committed before, or one of this transaction's). */
    public synchronized void delete(Table table, Map<Long, long[]> rows) {
        checkOpen();
        Writes w = writesOf(table);
        for (Map.Entry<Long, long[]> e : rows.entrySet()) {
            int own = indexOfAdded(w, e.getKey());
            if (own >= 0) {
                TablePart part = w.added.get(own);
                TablePart version = part.withDeleted(e.getValue());
                if (version != part) {
                    w.added.set(own, version);
                    part.release();
                }
            } else {
                long[] marks = w.deleted.get(e.getKey());
                if (marks == null) {
                    w.deleted.put(e.getKey(), e.getValue().clone());
                } else {
                    for (int i = 0; i < marks.length; i++) {
                        marks[i] |= e.getValue()[i];
                    }
                }
            }
        }
    }

    private static int indexOfAdded(Writes w, long partId) {
        for (int i = 0; i < w.added.size(); i++) {
            if (w.added.get(i).id() == partId) {
                return i;
            }
        }
        return -1;
    }

    /** Adds new parts to {@code table}; the transaction takes over the caller's reference to each. */
    public synchronized void add(Table table, List<TablePart> parts) {
        if (ended) {
            parts.forEach(TablePart::release);
        }
        checkOpen();
        writesOf(table).added.addAll(parts);
    }

    private Writes writesOf(Table table) {
        return writes.computeIfAbsent(table, t -> new Writes());
    }

    /**
     * Makes every change visible at once, at the next commit timestamp, and ends the transaction.
     *
     * @throws WriteConflictException a transaction that committed after this one's snapshot
     *     changed a row this one changed, or replaced the parts that hold it; nothing of this one
     *     is kept
     */
    public synchronized void commit() {
        checkOpen();
        try {
            if (!writes.isEmpty()) {
                List<Table> tables = new ArrayList<>(writes.keySet());
                tables.sort(Comparator.comparingLong(Table::serial)); // one order for every commit: none waits for another in a cycle
                List<Table> locked = new ArrayList<>(tables.size());
                try {
                    for (Table t : tables) {
                        t.lockWrites();
                        locked.add(t);
                    }
                    catalog.clock().commit(ts -> publish(tables, ts));
                } finally {
                    locked.forEach(Table::unlockWrites);
                }
            }
        } finally {
            end();
        }
    }

    /** Checks every table's changes against its newest version, then makes the new versions at {@code ts}. */
    private void publish(List<Table> tables, long ts) {
        Map<Table, Map<Long, TablePart>> heads = new HashMap<>();
        for (Table t : tables) {
            if (t.isDropped()) {
                throw new WriteConflictException("table " + t.displayName() + " was dropped or altered by another statement "
                        + "while this transaction changed it: nothing of the transaction was kept");
            }
            Map<Long, TablePart> head = t.headById();
            checkDeletions(t, head, "nothing of this transaction was kept, run it again");
            heads.put(t, head);
        }
        for (Table t : tables) {
            Writes w = writes.get(t);
            List<TablePart> replaced = new ArrayList<>(w.deleted.size());
            List<TablePart> versions = new ArrayList<>(w.deleted.size() + w.added.size());
            for (Map.Entry<Long, long[]> e : w.deleted.entrySet()) {
                TablePart current = heads.get(t).get(e.getKey());
                replaced.add(current);
                versions.add(current.withDeleted(e.getValue()));
            }
            versions.addAll(w.added);
            t.swap(replaced, versions, ts);
            w.added.clear(); // the new version holds their references now
        }
    }

    private static boolean overlaps(DeletedRows deleted, long[] rows) {
        for (int i = 0; i < rows.length; i++) {
            if ((deleted.word(i) & rows[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    /** Drops every change and ends the transaction. */
    public synchronized void rollback() {
        if (!ended) {
            end();
        }
    }

    /** Rolls back unless ended. */
    @Override
    public void close() {
        rollback();
    }

    public synchronized boolean isEnded() {
        return ended;
    }

    private void end() {
        ended = true;
        try {
            for (Map.Entry<Table, Writes> e : writes.entrySet()) {
                e.getValue().added.forEach(TablePart::release);
            }
            writes.clear();
        } finally {
            catalog.clock().openTransactions(-1);
            view.close();
        }
    }

    private void checkOpen() {
        if (ended) {
            throw new IllegalStateException("the transaction has ended");
        }
    }
}
