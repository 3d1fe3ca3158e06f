package io.numacol.database;

import io.numacol.storage.Table;
import io.numacol.storage.TablePart;

import java.util.List;

/**
 * An UPDATE or DELETE of one table: copy-on-write of the table's rows. Parts are immutable, so
 * the statement reads every row once, passes each on as it stays (or as it was changed, or not at
 * all), and the rows passed on replace every part it read at once. Readers keep the parts of
 * their snapshot; a failed statement (a refused value, the memory limit) leaves the table as it
 * was. From {@link #begin} to {@link #close} no other change of the table's parts happens
 * (inserts, merges and other rewrites wait), so the parts replaced are the parts the statement
 * read; a statement whose row count differs from theirs fails instead of losing rows.
 *
 * <p>The whole table is rewritten, even for one changed row: a part-wise rewrite needs to know
 * which part a row came from, which the scans do not tell yet. A statement that changes no row
 * rewrites nothing.
 */
public final class TableRewrite implements AutoCloseable {
    private final Table table;
    private final List<TablePart> read;
    private final long rowsRead;
    private final Appender appender;
    private boolean done;

    private TableRewrite(Database database, Table table, Runnable checkStop) {
        this.table = table;
        table.lockWrites(checkStop);
        try {
            table.checkNotDropped(); // planned against a table ALTER replaced or DROP removed
            this.read = table.parts();
            this.rowsRead = read.stream().mapToLong(TablePart::rowCount).sum();
            this.appender = database.appender(table);
        } catch (RuntimeException | Error e) {
            table.unlockWrites();
            throw e;
        }
    }

    /**
     * Starts a rewrite of {@code table}: other changes of it wait until {@link #close()}. Read it
     * after this. While another change holds the table, {@code checkStop} runs every few
     * milliseconds and may stop the wait by throwing.
     */
    public static TableRewrite begin(Database database, Table table, Runnable checkStop) {
        return new TableRewrite(database, table, checkStop);
    }

    public Table table() {
        return table;
    }

    /** Takes a row of the new contents, checked as an INSERT checks it (IllegalArgumentException naming the column and value). */
    public void keep(Object[] row) {
        appender.append(row);
    }

    /**
     * Publishes the rows kept in place of every row read, at once. {@code rowsSeen} is how many
     * rows the statement read: anything but the table's row count means it did not read the
     * table whole, and nothing is changed.
     */
    public void commit(long rowsSeen) {
        if (rowsSeen != rowsRead) {
            throw new IllegalStateException("table " + table.name() + " has " + rowsRead + " rows but the statement read "
                    + rowsSeen + ": nothing was changed");
        }
        appender.flushReplacing(read);
        done = true;
    }

    /** Frees the rows kept unless committed, and lets other changes of the table go on. */
    @Override
    public void close() {
        try {
            if (!done) {
                appender.discard();
            }
        } finally {
            table.unlockWrites();
        }
    }
}
