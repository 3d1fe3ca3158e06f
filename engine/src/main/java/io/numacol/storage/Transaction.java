package io.numacol.storage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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
 * <p>A {@link #savepoint} captures the changes made so far, and {@link #rollbackTo} goes back to
 * them, keeping the transaction open (SQL's SAVEPOINT and ROLLBACK TO SAVEPOINT).
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

    /**
     * One table's changes. A bitmap in {@link #deleted} is never changed once stored (a deletion
     * stores a new one), so a copy of the map is a copy of the bitmaps.
     */
    private static final class Writes {
        /** Rows deleted from parts committed before, by part id: a bitmap over the part's positions. */
        final Map<Long, long[]> deleted;
        /** New parts, each holding a reference this transaction (or the savepoint) owns. */
        final List<TablePart> added;

        Writes() {
            this(new HashMap<>(), new ArrayList<>());
        }

        private Writes(Map<Long, long[]> deleted, List<TablePart> added) {
            this.deleted = deleted;
            this.added = added;
        }

        /** A copy holding a reference of its own to each new part. */
        Writes copy() {
            List<TablePart> parts = new ArrayList<>(added.size());
            try {
                for (TablePart p : added) {
                    if (!p.tryRetain()) {
                        throw new IllegalStateException("a transaction's new part was freed while it was open");
                    }
                    parts.add(p);
                }
            } catch (RuntimeException e) {
                parts.forEach(TablePart::release);
                throw e;
            }
            return new Writes(new HashMap<>(deleted), parts);
        }

        void release() {
            added.forEach(TablePart::release);
            added.clear();
        }
    }

    /**
     * The changes of a transaction at one point ({@link #savepoint}): per table, its deleted rows
     * and its new parts, each retained until the savepoint is released (by {@link #release}, by
     * a {@link #rollbackTo} an earlier one, or when the transaction ends).
     */
    public static final class Savepoint {
        private final Transaction transaction;
        private final Map<Table, Writes> writes;
        private boolean released;

        private Savepoint(Transaction transaction, Map<Table, Writes> writes) {
            this.transaction = transaction;
            this.writes = writes;
        }

        /** The transaction the savepoint belongs to. */
        public Transaction transaction() {
            return transaction;
        }

        /** Whether the savepoint was released (or its transaction ended): nothing rolls back to it any more. */
        public boolean isReleased() {
            synchronized (transaction) {
                return released;
            }
        }

        private void release() {
            if (!released) {
                released = true;
                writes.values().forEach(Writes::release);
            }
        }
    }

    private final Catalog catalog;
    private final Isolation isolation;
    private final Map<Table, Writes> writes = new LinkedHashMap<>();
    /** The savepoints not released, oldest first. */
    private final List<Savepoint> savepoints = new ArrayList<>();
    private CatalogView view;
    /** Statements under way whose foreign keys are checked at their end ({@link #deferForeignKeys}), not at each change. */
    private int deferred;
    private boolean statementsRan;
    private boolean ended;

    Transaction(Catalog catalog, Isolation isolation) {
        this.catalog = catalog;
        this.isolation = isolation;
        catalog.clock().openTransactions(1); // first: no merge may renumber the rows of the snapshot it then reads
        try {
            this.view = catalog.beginRead(this);
        } catch (RuntimeException | Error e) {
            catalog.clock().openTransactions(-1);
            throw e;
        }
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
            try {
                // before the old view closes: its registration keeps the merges' forwards the deletions may need
                checkDeletionsAt(view.readTimestamp());
            } finally {
                before.close();
            }
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
            checkDeletions(t, t.partsByIdAt(ts), "nothing of this transaction will be kept: roll it back and run it again");
        }
    }

    /**
     * Throws {@link WriteConflictException} (its message ending with {@code outcome}) unless every
     * row this transaction deleted from {@code table} is live in {@code parts} (by id); the
     * deletions are then named by those parts (a part merged away since gives the positions its
     * rows took in the merged part).
     */
    private void checkDeletions(Table table, Map<Long, TablePart> parts, String outcome) {
        Writes w = writes.get(table);
        Map<Long, long[]> forwarded = table.forward(w.deleted, parts);
        boolean live = forwarded != null;
        if (live) {
            for (Map.Entry<Long, long[]> e : forwarded.entrySet()) {
                live &= !overlaps(parts.get(e.getKey()).deleted(), e.getValue());
            }
        }
        if (!live) {
            throw new WriteConflictException("could not serialize access due to concurrent update: rows of table "
                    + table.displayName() + " that this transaction updated or deleted were changed by another transaction "
                    + "that committed first; " + outcome);
        }
        w.deleted.clear();
        w.deleted.putAll(forwarded);
        for (Savepoint sp : savepoints) { // a rollback to one must name the same parts
            Writes saved = sp.writes.get(table);
            Map<Long, long[]> moved = saved == null ? null : table.forward(saved.deleted, parts);
            if (moved != null) {
                saved.deleted.clear();
                saved.deleted.putAll(moved);
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

    /**
     * One statement's changes of {@code table}: rows deleted (per part id, a bitmap over its
     * positions, of a part committed before or one of this transaction's) and new parts, whose
     * references the transaction takes over. The keys are checked at once against the newest
     * committed rows and this transaction's other changes (and again at commit): a duplicate fails
     * the statement, and the transaction keeps nothing of it.
     *
     * @throws KeyViolationException the statement's rows repeat a key's values
     */
    public synchronized void change(Table table, Map<Long, long[]> deleted, List<TablePart> added) {
        checkOpen();
        if (!added.isEmpty() && !table.schema().keys().isEmpty()) {
            checkKeys(table, deleted, added);
        }
        if (deferred == 0 && ForeignKeys.involved(catalog, table)) {
            checkForeignKeys(table, deleted, added);
        }
        Writes w = writesOf(table);
        for (Map.Entry<Long, long[]> e : deleted.entrySet()) {
            int own = indexOfOwn(w.added, e.getKey());
            if (own >= 0) {
                TablePart part = w.added.get(own);
                TablePart version = part.withDeleted(e.getValue());
                if (version != part) {
                    w.added.set(own, version);
                    part.release();
                }
            } else {
                // a new bitmap, not the stored one changed: a savepoint may hold that one
                long[] marks = w.deleted.get(e.getKey());
                long[] union = e.getValue().clone();
                if (marks != null) {
                    for (int i = 0; i < union.length; i++) {
                        union[i] |= marks[i];
                    }
                }
                w.deleted.put(e.getKey(), union);
            }
        }
        w.added.addAll(added);
    }

    /**
     * Checks the foreign keys of the statement's rows of {@code table} (its new rows' parents, and
     * the children of the rows it removes) as committing now would: against the newest version of
     * every table with this transaction's changes and the statement's on top, which is what
     * PostgreSQL's checks read too (the newest committed rows, not the snapshot). Changes that
     * conflict with a newer commit are left to the commit, which refuses them anyway.
     */
    private void checkForeignKeys(Table table, Map<Long, long[]> deleted, List<TablePart> added) {
        List<TablePart> made = new ArrayList<>(); // versions made for the check only
        try {
            catalog.clock().underCommitLock(() -> {
                Map<Table, ForeignKeys.Change> changes = new HashMap<>();
                List<Table> tables = new ArrayList<>(writes.keySet());
                if (!writes.containsKey(table)) {
                    tables.add(table);
                }
                List<TablePart> from = new ArrayList<>();
                List<TablePart> versions = new ArrayList<>();
                for (Table t : tables) {
                    Writes w = writes.get(t);
                    Map<Long, long[]> marks = new HashMap<>();
                    List<TablePart> own = new ArrayList<>();
                    if (w != null) {
                        w.deleted.forEach((id, bits) -> marks.put(id, bits.clone()));
                        own.addAll(w.added);
                    }
                    Map<Long, long[]> statementMarks = new HashMap<>();
                    if (t == table) {
                        for (Map.Entry<Long, long[]> e : deleted.entrySet()) {
                            int i = indexOfOwn(own, e.getKey());
                            if (i >= 0) {
                                TablePart part = own.get(i);
                                TablePart version = made(part.withDeleted(e.getValue()), part, made);
                                own.set(i, version);
                                from.add(part);
                                versions.add(version);
                            } else {
                                statementMarks.put(e.getKey(), e.getValue());
                                marks.merge(e.getKey(), e.getValue().clone(), Transaction::union);
                            }
                        }
                        own.addAll(added);
                    }
                    Map<Long, TablePart> head = t.headById();
                    Map<Long, long[]> forwarded = t.forward(marks, head);
                    Map<Long, long[]> forwardedStatement = t.forward(statementMarks, head);
                    if (forwarded == null || forwardedStatement == null) {
                        return; // a write conflict: the commit reports it
                    }
                    List<TablePart> old = new ArrayList<>();
                    List<TablePart> replacement = new ArrayList<>();
                    if (!deletedVersions(forwarded, head, old, replacement, made)) {
                        return; // a write conflict: the commit reports it
                    }
                    for (Map.Entry<Long, long[]> e : forwardedStatement.entrySet()) {
                        TablePart current = head.get(e.getKey());
                        from.add(current);
                        versions.add(made(current.withDeleted(e.getValue()), current, made));
                    }
                    replacement.addAll(own);
                    changes.put(t, new ForeignKeys.Change(old, replacement));
                }
                ForeignKeys.check(catalog, table, added, from, versions, ForeignKeys.after(changes));
            });
        } finally {
            made.forEach(TablePart::release);
        }
    }

    /**
     * Starts a statement whose changes of several tables are checked together at its end: a
     * referential action changes the rows that reference a parent's after the parent's own change,
     * and the keys hold only once both are made. Until {@link #endDeferral} the changes are not
     * checked for their foreign keys (their PRIMARY KEY and UNIQUE constraints still are);
     * {@link #checkForeignKeys(Savepoint)} checks them. The savepoint is what a failure goes back to.
     */
    public synchronized Savepoint deferForeignKeys() {
        Savepoint start = savepoint();
        deferred++;
        return start;
    }

    /** Whether a statement's foreign-key checks are deferred to its end ({@link #deferForeignKeys}). */
    public synchronized boolean foreignKeysDeferred() {
        return deferred > 0;
    }

    /**
     * Ends the deferral {@code start} began: when the statement {@code failed}, everything it
     * changed is dropped (back to {@code start}, unless the transaction ended meanwhile); the
     * savepoint is released either way.
     */
    public synchronized void endDeferral(Savepoint start, boolean failed) {
        deferred--;
        if (ended) {
            return;
        }
        if (failed && !start.isReleased()) {
            rollbackTo(start);
        }
        release(start);
    }

    /**
     * Checks the foreign keys of every change made since {@code start} (a statement's, with the
     * rows its referential actions changed) as committing now would, as {@link #change} checks one
     * table's: against the newest version of every table with this transaction's changes on top.
     *
     * @throws ForeignKeyViolationException naming the constraint and the key
     */
    public synchronized void checkForeignKeys(Savepoint start) {
        checkOpen();
        List<TablePart> made = new ArrayList<>(); // versions made for the check only
        try {
            catalog.clock().underCommitLock(() -> {
                Map<Table, ForeignKeys.Change> changes = new HashMap<>();
                Map<Table, List<List<TablePart>>> statement = new LinkedHashMap<>();
                for (Map.Entry<Table, Writes> e : writes.entrySet()) {
                    Table t = e.getKey();
                    Writes w = e.getValue();
                    Writes saved = start.writes.get(t);
                    Map<Long, TablePart> head = t.headById();
                    Map<Long, long[]> statementMarks = new HashMap<>();
                    w.deleted.forEach((id, bits) -> {
                        long[] before = saved == null ? null : saved.deleted.get(id);
                        long[] since = bits.clone();
                        boolean any = false;
                        for (int k = 0; k < since.length; k++) {
                            since[k] &= before == null ? -1L : ~before[k];
                            any |= since[k] != 0;
                        }
                        if (any) {
                            statementMarks.put(id, since);
                        }
                    });
                    Map<Long, long[]> forwarded = t.forward(w.deleted, head);
                    Map<Long, long[]> forwardedStatement = t.forward(statementMarks, head);
                    if (forwarded == null || forwardedStatement == null) {
                        return; // a write conflict: the commit reports it
                    }
                    List<TablePart> old = new ArrayList<>();
                    List<TablePart> replacement = new ArrayList<>();
                    if (!deletedVersions(forwarded, head, old, replacement, made)) {
                        return; // a write conflict: the commit reports it
                    }
                    replacement.addAll(w.added);
                    changes.put(t, new ForeignKeys.Change(old, replacement));
                    List<TablePart> fresh = new ArrayList<>();
                    List<TablePart> from = new ArrayList<>();
                    List<TablePart> versions = new ArrayList<>();
                    for (Map.Entry<Long, long[]> d : forwardedStatement.entrySet()) {
                        TablePart current = head.get(d.getKey());
                        from.add(current);
                        versions.add(made(current.withDeleted(d.getValue()), current, made));
                    }
                    for (TablePart p : w.added) {
                        int i = saved == null ? -1 : indexOfOwn(saved.added, p.id());
                        if (i < 0) {
                            fresh.add(p); // new in the statement
                        } else if (saved.added.get(i) != p) {
                            from.add(saved.added.get(i)); // rows of an earlier statement's that this one deleted
                            versions.add(p);
                        }
                    }
                    if (!fresh.isEmpty() || !from.isEmpty()) {
                        statement.put(t, List.of(fresh, from, versions));
                    }
                }
                Function<Table, List<TablePart>> after = ForeignKeys.after(changes);
                for (Map.Entry<Table, List<List<TablePart>>> e : statement.entrySet()) {
                    if (ForeignKeys.involved(catalog, e.getKey())) {
                        List<List<TablePart>> d = e.getValue();
                        ForeignKeys.check(catalog, e.getKey(), d.get(0), d.get(1), d.get(2), after);
                    }
                }
            });
        } finally {
            made.forEach(TablePart::release);
        }
    }

    /**
     * For each part of {@code head} named in {@code deleted} (rows by part id), the part into
     * {@code old} and its version with those rows deleted too into {@code replacement} (new
     * versions noted in {@code made}); false, a write conflict, when a part is gone or already has
     * one of the rows deleted.
     */
    private static boolean deletedVersions(Map<Long, long[]> deleted, Map<Long, TablePart> head, List<TablePart> old,
                                           List<TablePart> replacement, List<TablePart> made) {
        for (Map.Entry<Long, long[]> d : deleted.entrySet()) {
            TablePart current = head.get(d.getKey());
            if (current == null || overlaps(current.deleted(), d.getValue())) {
                return false;
            }
            old.add(current);
            replacement.add(made(current.withDeleted(d.getValue()), current, made));
        }
        return true;
    }

    /** {@code version} of {@code part}, noted in {@code made} to be released when it is a new one. */
    private static TablePart made(TablePart version, TablePart part, List<TablePart> made) {
        if (version != part) {
            made.add(version);
        }
        return version;
    }

    private static long[] union(long[] a, long[] b) {
        for (int k = 0; k < a.length; k++) {
            a[k] |= b[k];
        }
        return a;
    }

    /**
     * Checks the keys as committing now would, with the statement's changes: every deletion so far
     * and {@code deleted}, every new part so far and {@code added}. Deletions of parts the newest
     * version no longer has are left to the commit, which refuses them anyway.
     */
    private void checkKeys(Table table, Map<Long, long[]> deleted, List<TablePart> added) {
        Writes w = writes.get(table);
        Map<Long, long[]> marks = new HashMap<>();
        List<TablePart> own = new ArrayList<>();
        if (w != null) {
            w.deleted.forEach((id, bits) -> marks.put(id, bits.clone()));
            own.addAll(w.added);
        }
        List<TablePart> ownVersions = new ArrayList<>();
        deleted.forEach((id, bits) -> {
            int i = indexOfOwn(own, id);
            if (i >= 0) {
                TablePart version = own.get(i).withDeleted(bits);
                own.set(i, version);
                ownVersions.add(version);
            } else {
                marks.merge(id, bits.clone(), (a, b) -> {
                    for (int k = 0; k < a.length; k++) {
                        a[k] |= b[k];
                    }
                    return a;
                });
            }
        });
        own.addAll(added);
        List<TablePart> versions = new ArrayList<>();
        try {
            catalog.clock().underCommitLock(() -> {
                Map<Long, TablePart> head = table.headById();
                Map<Long, long[]> forwarded = table.forward(marks, head);
                if (forwarded == null) {
                    return; // a write conflict: the commit reports it
                }
                List<TablePart> replaced = new ArrayList<>();
                for (Map.Entry<Long, long[]> e : forwarded.entrySet()) {
                    TablePart current = head.get(e.getKey());
                    if (current == null || overlaps(current.deleted(), e.getValue())) {
                        return; // a write conflict: the commit reports it
                    }
                    replaced.add(current);
                    versions.add(current.withDeleted(e.getValue()));
                }
                List<TablePart> all = new ArrayList<>(versions);
                all.addAll(own);
                table.prepareKeys(replaced, all);
            });
        } finally {
            versions.forEach(TablePart::release);
            ownVersions.forEach(TablePart::release); // made for the check only
        }
    }

    /** The index of the part with id {@code partId} in {@code parts}, or -1. */
    private static int indexOfOwn(List<TablePart> parts, long partId) {
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).id() == partId) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Captures the changes made so far, for {@link #rollbackTo}: per table the deleted rows and
     * the new parts, each retained for the savepoint until it is released.
     */
    public synchronized Savepoint savepoint() {
        checkOpen();
        Map<Table, Writes> copy = new LinkedHashMap<>();
        try {
            for (Map.Entry<Table, Writes> e : writes.entrySet()) {
                copy.put(e.getKey(), e.getValue().copy());
            }
        } catch (RuntimeException e) {
            copy.values().forEach(Writes::release);
            throw e;
        }
        Savepoint savepoint = new Savepoint(this, copy);
        savepoints.add(savepoint);
        return savepoint;
    }

    /**
     * Goes back to the changes {@code savepoint} captured: what was changed after it is dropped
     * (its new parts freed), the savepoints taken after it are released, and it stays, to be
     * rolled back to again.
     *
     * @throws IllegalArgumentException when {@code savepoint} is another transaction's, or was released
     */
    public synchronized void rollbackTo(Savepoint savepoint) {
        checkOpen();
        int at = indexOf(savepoint);
        Map<Table, Writes> restored = new LinkedHashMap<>();
        try {
            for (Map.Entry<Table, Writes> e : savepoint.writes.entrySet()) {
                restored.put(e.getKey(), e.getValue().copy());
            }
        } catch (RuntimeException e) {
            restored.values().forEach(Writes::release);
            throw e;
        }
        releaseFrom(at + 1);
        writes.values().forEach(Writes::release);
        writes.clear();
        writes.putAll(restored);
    }

    /**
     * Releases {@code savepoint} and every savepoint taken after it, freeing what only they held;
     * the changes stay. Nothing to do once the transaction ended or the savepoint was released.
     *
     * @throws IllegalArgumentException when {@code savepoint} is another transaction's
     */
    public synchronized void release(Savepoint savepoint) {
        if (savepoint.transaction != this) {
            throw new IllegalArgumentException("the savepoint is another transaction's");
        }
        if (!ended && !savepoint.released) {
            releaseFrom(indexOf(savepoint));
        }
    }

    /** The savepoints not released, oldest first. */
    public synchronized List<Savepoint> savepoints() {
        return List.copyOf(savepoints);
    }

    private int indexOf(Savepoint savepoint) {
        if (savepoint.transaction != this) {
            throw new IllegalArgumentException("the savepoint is another transaction's");
        }
        int at = savepoints.indexOf(savepoint);
        if (at < 0) {
            throw new IllegalArgumentException("the savepoint was released");
        }
        return at;
    }

    /** Releases the savepoints from index {@code from} on. */
    private void releaseFrom(int from) {
        List<Savepoint> later = savepoints.subList(from, savepoints.size());
        try {
            later.forEach(Savepoint::release);
        } finally {
            later.clear();
        }
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
                tables.sort(Table.LOCK_ORDER); // one order for every commit: none waits for another in a cycle
                List<Table> locked = new ArrayList<>(tables.size());
                try {
                    for (Table t : tables) {
                        t.lockWrites();
                        locked.add(t);
                    }
                    catalog.clock().commit(ts -> publish(tables, ts));
                } finally {
                    locked.forEach(Table::unlockWritesOnly);
                }
                catalog.clock().awaitOwed(); // durable before commit() returns, waited for without the tables' locks
                tables.forEach(catalog::committed);
            }
        } finally {
            end();
        }
    }

    /**
     * Checks every table's changes against its newest version (rows changed meanwhile, keys
     * repeated), then makes the new versions at {@code ts}: all tables or none.
     */
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
        Map<Table, List<TablePart>> replaced = new HashMap<>();
        Map<Table, List<TablePart>> versions = new HashMap<>();
        Map<Table, List<KeySet.Change>> keys = new HashMap<>();
        try {
            for (Table t : tables) {
                Writes w = writes.get(t);
                List<TablePart> old = new ArrayList<>(w.deleted.size());
                List<TablePart> next = new ArrayList<>(w.deleted.size() + w.added.size());
                replaced.put(t, old);
                versions.put(t, next);
                for (Map.Entry<Long, long[]> e : w.deleted.entrySet()) {
                    TablePart current = heads.get(t).get(e.getKey());
                    old.add(current);
                    next.add(current.withDeleted(e.getValue()));
                }
                List<TablePart> all = new ArrayList<>(next);
                all.addAll(w.added);
                keys.put(t, t.prepareKeys(old, all));
            }
            Map<Table, ForeignKeys.Change> changes = new HashMap<>();
            boolean involved = false;
            for (Table t : tables) {
                List<TablePart> all = new ArrayList<>(versions.get(t));
                all.addAll(writes.get(t).added);
                changes.put(t, new ForeignKeys.Change(replaced.get(t), all));
                involved |= ForeignKeys.involved(catalog, t);
            }
            if (involved) {
                ForeignKeys.check(catalog, changes);
            }
        } catch (RuntimeException | Error e) {
            versions.values().forEach(v -> v.forEach(TablePart::release)); // never published
            throw e;
        }
        for (int i = 0; i < tables.size(); i++) {
            Table t = tables.get(i);
            Writes w = writes.get(t);
            List<TablePart> next = new ArrayList<>(versions.get(t));
            next.addAll(w.added);
            try {
                t.swap(replaced.get(t), next, ts, keys.get(t), false);
            } catch (RuntimeException | Error e) {
                // the log refuses a commit before its first table changes (a read-only or closed
                // database): the versions made for this table and the ones after were never published
                for (Table later : tables.subList(i, tables.size())) {
                    versions.get(later).forEach(TablePart::release);
                }
                throw e;
            }
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
            releaseFrom(0);
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
