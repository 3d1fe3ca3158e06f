package io.numacol.database;

import io.numacol.storage.CatalogView;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.Transaction;
import io.numacol.storage.WriteConflictException;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Transactions on the column store: a snapshot as of the start (REPEATABLE READ) or of each
 * statement (READ COMMITTED), the transaction's own changes on top, nothing seen by others before
 * the commit, first committer wins, and every version's memory freed once no reader needs it.
 */
class TransactionTest {
    private final Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"));

    @AfterEach
    void close() {
        db.close();
        assertThat(db.memory().liveAllocations()).isZero();
    }

    private Table table() {
        Table t = db.catalog().create("accounts", TableSchema.of(
                new TableSchema.ColumnDef("id", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("balance", ColumnType.bigint(), false)));
        try (Appender a = db.appender(t)) {
            for (long id = 0; id < 10; id++) {
                a.append(id, 100L);
            }
        }
        return t;
    }

    /** The ids and balances {@code table} shows to a reader in {@code view} (null: the newest data), sorted by id. */
    private static List<List<Long>> rows(Table table, CatalogView view) {
        Supplier<List<List<Long>>> read = () -> {
            List<List<Long>> out = new ArrayList<>();
            try (TableSnapshot s = table.snapshot()) {
                for (TablePart p : s.parts()) {
                    for (int r = 0; r < p.rowCount(); r++) {
                        if (!p.deleted().isDeleted(r)) {
                            out.add(List.of((Long) p.column(0).value(r), (Long) p.column(1).value(r)));
                        }
                    }
                }
            }
            out.sort((a, b) -> Long.compare(a.get(0), b.get(0)));
            return out;
        };
        return view == null ? read.get() : CatalogView.runIn(view, read::get);
    }

    /** Sets the balance of account {@code id} as an UPDATE does: deletes the row, appends its new version. */
    private static void update(Database db, Table table, long id, long balance) {
        try (TableChange change = TableChange.begin(db, table, () -> { })) {
            try (TableSnapshot s = table.snapshot()) {
                for (TablePart p : s.parts()) {
                    for (int r = 0; r < p.rowCount(); r++) {
                        if (!p.deleted().isDeleted(r) && (Long) p.column(0).value(r) == id) {
                            change.delete(p.rowId(r));
                        }
                    }
                }
            }
            change.insert(new Object[] {id, balance});
            change.commit();
        }
    }

    private static long total(List<List<Long>> rows) {
        return rows.stream().mapToLong(r -> r.get(1)).sum();
    }

    @Test
    void repeatableReadSeesItsSnapshotAndItsOwnChanges() {
        Table t = table();
        Transaction tx = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        CatalogView view = tx.statementView();
        update(db, t, 3, 50); // committed by another statement after the transaction began
        assertThat(rows(t, view)).contains(List.of(3L, 100L));
        assertThat(rows(t, null)).contains(List.of(3L, 50L));

        CatalogView.runIn(view, () -> {
            update(db, t, 4, 40);
            return null;
        });
        assertThat(rows(t, view)).contains(List.of(4L, 40L), List.of(3L, 100L)).hasSize(10);
        assertThat(rows(t, null)).contains(List.of(4L, 100L)); // not yet committed: no one else sees it
        tx.commit();
        assertThat(rows(t, null)).contains(List.of(3L, 50L), List.of(4L, 40L)).hasSize(10);
    }

    @Test
    void readCommittedTakesANewSnapshotPerStatement() {
        Table t = table();
        Transaction tx = db.catalog().begin(Transaction.Isolation.READ_COMMITTED);
        assertThat(rows(t, tx.statementView())).contains(List.of(3L, 100L));
        update(db, t, 3, 70);
        assertThat(rows(t, tx.statementView())).contains(List.of(3L, 70L));
        tx.rollback();
    }

    /**
     * At READ COMMITTED, a statement that begins after another transaction committed a change of a
     * row this one changed fails: its view would show the other's version of the row beside this
     * one's, and the transaction could only fail at its commit.
     */
    @Test
    void readCommittedStatementFailsOnceARowItChangedWasChangedByAnother() {
        Table t = table();
        Transaction tx = db.catalog().begin(Transaction.Isolation.READ_COMMITTED);
        CatalogView.runIn(tx.statementView(), () -> {
            update(db, t, 3, 70);
            return null;
        });
        assertThat(rows(t, tx.statementView())).contains(List.of(3L, 70L)).hasSize(10); // no conflict yet: goes on
        update(db, t, 4, 60); // another row: no conflict
        assertThat(rows(t, tx.statementView())).contains(List.of(3L, 70L), List.of(4L, 60L)).hasSize(10);
        update(db, t, 3, 50); // the row this transaction updated
        assertThatThrownBy(tx::statementView).isInstanceOf(WriteConflictException.class).hasMessageContaining("roll it back");
        assertThatThrownBy(tx::statementView).isInstanceOf(WriteConflictException.class);
        assertThatThrownBy(tx::commit).isInstanceOf(WriteConflictException.class);
        assertThat(rows(t, null)).contains(List.of(3L, 50L), List.of(4L, 60L)).hasSize(10);
    }

    @Test
    void rollbackKeepsNothingAndFreesItsRows() {
        Table t = table();
        int before = db.memory().liveAllocations();
        Transaction tx = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        CatalogView view = tx.statementView();
        CatalogView.runIn(view, () -> {
            try (Appender a = db.appender(t)) {
                a.append(100L, 1L);
            }
            update(db, t, 5, 0);
            return null;
        });
        assertThat(rows(t, view)).hasSize(11).contains(List.of(5L, 0L));
        tx.rollback();
        assertThat(rows(t, null)).hasSize(10).contains(List.of(5L, 100L));
        assertThat(db.memory().liveAllocations()).isEqualTo(before);
    }

    @Test
    void firstCommitterWins() {
        Table t = table();
        Transaction first = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        Transaction second = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        CatalogView v1 = first.statementView();
        CatalogView v2 = second.statementView();
        CatalogView.runIn(v1, () -> {
            update(db, t, 7, 1);
            return null;
        });
        CatalogView.runIn(v2, () -> {
            update(db, t, 7, 2);
            update(db, t, 8, 2);
            return null;
        });
        first.commit();
        assertThatThrownBy(second::commit).isInstanceOf(WriteConflictException.class).hasMessageContaining("accounts");
        assertThat(second.isEnded()).isTrue();
        List<List<Long>> after = rows(t, null);
        assertThat(after).contains(List.of(7L, 1L), List.of(8L, 100L)).hasSize(10); // nothing of the second kept
    }

    @Test
    void disjointChangesBothCommit() {
        Table t = table();
        Transaction first = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        Transaction second = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        CatalogView.runIn(first.statementView(), () -> {
            update(db, t, 1, 90);
            update(db, t, 2, 110);
            return null;
        });
        CatalogView.runIn(second.statementView(), () -> {
            update(db, t, 3, 80);
            update(db, t, 4, 120);
            return null;
        });
        assertThat(total(rows(t, first.statementView()))).isEqualTo(1000);
        first.commit();
        second.commit();
        assertThat(rows(t, null)).contains(List.of(1L, 90L), List.of(2L, 110L), List.of(3L, 80L), List.of(4L, 120L));
        assertThat(total(rows(t, null))).isEqualTo(1000);
    }

    /** A reader that began before a commit keeps the version it read while the commit's version is the newest. */
    @Test
    void versionsLiveAsLongAsTheirReaders() {
        Table t = table();
        CatalogView reader = db.catalog().beginRead();
        for (int i = 0; i < 5; i++) {
            update(db, t, i, 0);
        }
        assertThat(total(rows(t, reader))).isEqualTo(1000);
        assertThat(total(rows(t, null))).isEqualTo(500);
        reader.close();
        assertThat(total(rows(t, null))).isEqualTo(500);
    }

    private static void insert(Database db, Table table, CatalogView view, long id, long balance) {
        CatalogView.runIn(view, () -> {
            try (Appender a = db.appender(table)) {
                a.append(id, balance);
            }
            return null;
        });
    }

    private static void update(Database db, Table table, CatalogView view, long id, long balance) {
        CatalogView.runIn(view, () -> {
            update(db, table, id, balance);
            return null;
        });
    }

    @Test
    void rollbackToASavepointKeepsWhatCameBeforeItAndFreesWhatCameAfter() {
        Table t = table();
        int before = db.memory().liveAllocations();
        Transaction tx = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        CatalogView view = tx.statementView();
        update(db, t, view, 1, 10);
        insert(db, t, view, 20, 20);
        Transaction.Savepoint first = tx.savepoint();
        int atFirst = db.memory().liveAllocations();

        update(db, t, view, 2, 0);
        update(db, t, view, 1, 11); // deletes the row this transaction added before the savepoint
        update(db, t, view, 20, 21); // and the one it inserted
        insert(db, t, view, 30, 30);
        Transaction.Savepoint second = tx.savepoint();
        insert(db, t, view, 40, 40);
        assertThat(rows(t, view)).hasSize(13).contains(List.of(1L, 11L), List.of(2L, 0L), List.of(20L, 21L), List.of(40L, 40L));
        assertThat(tx.savepoints()).containsExactly(first, second);

        tx.rollbackTo(first);
        assertThat(rows(t, view)).hasSize(11).contains(List.of(1L, 10L), List.of(2L, 100L), List.of(20L, 20L))
                .doesNotContain(List.of(30L, 30L), List.of(40L, 40L));
        assertThat(second.isReleased()).isTrue(); // taken after the one rolled back to
        assertThat(tx.savepoints()).containsExactly(first);
        assertThat(db.memory().liveAllocations()).isEqualTo(atFirst);
        assertThatThrownBy(() -> tx.rollbackTo(second)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("released");

        update(db, t, view, 3, 3);
        tx.rollbackTo(first); // again: the savepoint stays
        assertThat(rows(t, view)).hasSize(11).contains(List.of(3L, 100L), List.of(1L, 10L));
        assertThat(rows(t, null)).hasSize(10).contains(List.of(1L, 100L)); // nothing seen by others yet

        update(db, t, view, 4, 4);
        tx.commit();
        assertThat(first.isReleased()).isTrue();
        assertThat(rows(t, null)).hasSize(11).contains(List.of(1L, 10L), List.of(4L, 4L), List.of(20L, 20L), List.of(2L, 100L));
        assertThat(db.memory().liveAllocations()).isGreaterThanOrEqualTo(before);
    }

    @Test
    void releasingASavepointKeepsTheChangesAndReleasesTheLaterOnes() {
        Table t = table();
        Transaction tx = db.catalog().begin(Transaction.Isolation.READ_COMMITTED);
        Transaction.Savepoint empty = tx.savepoint();
        update(db, t, tx.statementView(), 5, 5);
        Transaction.Savepoint a = tx.savepoint();
        insert(db, t, tx.statementView(), 50, 50);
        Transaction.Savepoint b = tx.savepoint();
        tx.release(a);
        assertThat(a.isReleased()).isTrue();
        assertThat(b.isReleased()).isTrue();
        tx.release(a); // once released, nothing to do
        assertThat(tx.savepoints()).containsExactly(empty);
        assertThat(rows(t, tx.statementView())).hasSize(11).contains(List.of(5L, 5L), List.of(50L, 50L));
        tx.rollbackTo(empty);
        assertThat(tx.hasChanges()).isFalse();
        assertThat(rows(t, tx.statementView())).hasSize(10).contains(List.of(5L, 100L));

        Transaction other = db.catalog().begin(Transaction.Isolation.READ_COMMITTED);
        assertThatThrownBy(() -> other.rollbackTo(empty)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another transaction");
        other.rollback();
        insert(db, t, tx.statementView(), 60, 60);
        tx.savepoint();
        tx.rollback(); // the savepoints' parts go with the transaction
        assertThat(empty.isReleased()).isTrue();
        assertThat(rows(t, null)).hasSize(10);
    }

    /** A savepoint's view of the new parts holds them: a later delete of their rows replaces them in the transaction only. */
    @Test
    void aSavepointSurvivesAConflictFreeCommitOfAnother() {
        Table t = table();
        Transaction tx = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        update(db, t, tx.statementView(), 6, 60);
        Transaction.Savepoint sp = tx.savepoint();
        update(db, t, 7, 70); // another statement commits meanwhile
        update(db, t, tx.statementView(), 6, 61);
        tx.rollbackTo(sp);
        tx.commit();
        assertThat(rows(t, null)).hasSize(10).contains(List.of(6L, 60L), List.of(7L, 70L));
    }

    /**
     * A merge while a transaction is open: the transaction's deletions of rows of the merged parts
     * follow the rows into the merged part (its commit keeps them), and a row another transaction
     * deleted before the merge is still a write conflict.
     */
    @Test
    void deletionsFollowTheirRowsIntoAMergedPart() {
        db.merger().pause();
        Table t = table();
        for (long id = 10; id < 14; id++) { // small parts of their own
            try (Appender a = db.appender(t)) {
                a.append(id, 100L);
            }
        }
        Transaction tx = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        Transaction loser = db.catalog().begin(Transaction.Isolation.REPEATABLE_READ);
        CatalogView.runIn(tx.statementView(), () -> {
            update(db, t, 11, 1);
            update(db, t, 2, 2);
            return null;
        });
        CatalogView.runIn(loser.statementView(), () -> {
            update(db, t, 12, 3);
            return null;
        });
        update(db, t, 12, 4); // committed first: the loser's row goes before the merge
        int before = t.parts().size();
        assertThat(db.merger().mergeAll(t)).isPositive();
        assertThat(t.parts().size()).isLessThan(before);
        tx.commit();
        assertThat(rows(t, null)).contains(List.of(11L, 1L), List.of(2L, 2L), List.of(12L, 4L)).hasSize(14);
        assertThat(total(rows(t, null))).isEqualTo(1000 + 400 - 100 + 1 - 100 + 2 - 100 + 4);
        assertThatThrownBy(loser::commit).isInstanceOf(WriteConflictException.class);
        assertThat(rows(t, null)).hasSize(14);
    }

    /** READ COMMITTED after a merge of a part it deleted from: the next statement goes on (no spurious conflict), and a savepoint's deletions follow too. */
    @Test
    void readCommittedGoesOnAfterAMergeAndSoDoItsSavepoints() {
        db.merger().pause();
        Table t = table();
        for (long id = 10; id < 13; id++) {
            try (Appender a = db.appender(t)) {
                a.append(id, 100L);
            }
        }
        Transaction tx = db.catalog().begin(Transaction.Isolation.READ_COMMITTED);
        CatalogView.runIn(tx.statementView(), () -> {
            update(db, t, 11, 1);
            return null;
        });
        Transaction.Savepoint saved = tx.savepoint();
        assertThat(db.merger().mergeAll(t)).isPositive();
        CatalogView next = tx.statementView(); // no WriteConflictException: the deletion follows its row
        assertThat(rows(t, next)).contains(List.of(11L, 1L)).doesNotContain(List.of(11L, 100L)).hasSize(13);
        tx.rollbackTo(saved);
        assertThat(rows(t, tx.statementView())).contains(List.of(11L, 1L)).doesNotContain(List.of(11L, 100L)).hasSize(13);
        tx.commit();
        assertThat(rows(t, null)).contains(List.of(11L, 1L)).hasSize(13);
    }
}
