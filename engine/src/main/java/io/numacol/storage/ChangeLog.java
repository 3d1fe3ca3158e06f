package io.numacol.storage;

import java.util.List;

/**
 * Where a catalog's committed changes go to be made durable: a file database's write-ahead log,
 * or nowhere for a database in memory ({@link #NONE}). The {@link CommitClock} calls it in the
 * order of commits, so the log's order is the commit order: every change of a table's parts (a
 * transaction's new parts and deletions, a merge, a re-placement) reaches {@link #changed} under
 * the commit lock as it is published; {@link #committed} then logs them as one commit, still under
 * the lock; {@link #awaitDurable} waits, with the lock released, until the commit is as durable as
 * the database asks, so that concurrent committers share one force of the log (group commit).
 * A DDL reaches {@link #catalogChanged} when the catalog it changed is whole again.
 */
public interface ChangeLog {

    /** A database in memory: nothing is logged (every method's default). */
    ChangeLog NONE = new ChangeLog() {
    };

    /**
     * Before the commit lock: {@code parts} are about to be published to {@code table}. A file
     * database writes a big new part to its part file here, so that the commit lock is held for
     * a log record, not for the part's write and force.
     */
    default void prepare(Table table, List<TablePart> parts) {
    }

    /**
     * {@code table}'s parts change, {@code replacement} taking the place of {@code old}, in the
     * commit being published; called before the table's new version is made, under the commit
     * lock. A failure here (the log cannot be written) fails the commit.
     */
    default void changed(Table table, List<TablePart> old, List<TablePart> replacement) {
    }

    /**
     * {@link #changed}, for a change that keeps every row as it was (a merge, parts re-placed or
     * dealt again): a read-only database takes these, as they change where rows are, not what
     * the database holds.
     */
    default void changedKeepingRows(Table table, List<TablePart> old, List<TablePart> replacement) {
        changed(table, old, replacement);
    }

    /**
     * The commit being published at {@code timestamp} is whole: log what {@link #changed} handed
     * over as one commit, under the commit lock, before readers see it. Returns what {@link
     * #awaitDurable} waits for (0 when there was nothing to log).
     */
    default long committed(long timestamp) {
        return 0;
    }

    /** The commit being published failed: forget what {@link #changed} handed over for it. */
    default void discarded() {
    }

    /** Returns once the commit {@link #committed} answered {@code token} for is durable; called without the commit lock. */
    default void awaitDurable(long token) {
    }

    /** The catalog's tables, schemas, views or indexes changed (a DDL), under its monitor: log its new state, durably. */
    default void catalogChanged(Catalog catalog) {
    }
}
