package io.numacol.database;

import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.StatementFailedException;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskGroup;
import io.numacol.storage.CatalogView;
import io.numacol.storage.CheckViolationException;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.NotNullViolationException;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Partitioning;
import io.numacol.storage.RowCheck;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.Transaction;
import io.numacol.storage.types.ColumnType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Bulk load into one table, the fast path for many rows (DuckDB's Appender, numacol's way).
 * Each row is checked whole when appended (its values against the columns' types and NOT NULL,
 * then against the table's CHECK constraints); rows become visible together at {@link #flush()} or
 * {@link #close()}, never in part. Every {@code rowsPerPart} rows close a part, and parts go to
 * the nodes in turn, so a large table ends up physically partitioned over the machine; a table
 * placed PP deals each row to its partition's part instead, on the partition's node.
 */
public final class Appender implements AutoCloseable {
    private final Database database;
    private final Table table;
    /** Parts cut since the last flush, built (or being built) in the background, in order. */
    private final List<PartBuild> pending = new ArrayList<>();
    /** How rows are dealt to partitions (PP), or null: parts in arrival order. */
    private final Partitioning partitioning;
    /** The part being filled, per partition (one without a partitioning); null entries until a row comes. */
    private final PartBuilder[] parts;
    /** Where a ROUND ROBIN dealing starts: appenders take turns, so one-row INSERTs are dealt in turn too. */
    private final long firstRow;
    private long appended;
    /** {@link #appended} at the last flush: what a discard goes back to. */
    private long flushed;
    /**
     * Runs while a flush waits for another change of the table, and while the appender waits for
     * its parts' builds; throws to stop the wait.
     */
    private Runnable checkStop = () -> { };
    /** The table's CHECK constraints, compiled ({@link Table#rowCheck()}): taken at the first row, null until then or without checks. */
    private RowCheck checks;

    Appender(Database database, Table table) {
        this.database = database;
        this.table = table;
        this.partitioning = database.partitioning(table);
        this.parts = new PartBuilder[partitioning == null ? 1 : partitioning.count()];
        this.firstRow = partitioning == null ? 0 : database.placements().nextRoundRobinStart();
    }

    public Table table() {
        return table;
    }

    /**
     * Checks a row whole and takes it, or refuses it (IllegalArgumentException naming the row
     * number since this appender was made, the column and the value; a {@link
     * CheckViolationException} naming the CHECK constraint it fails and the row) and takes nothing
     * of it.
     */
    public Appender append(Object... row) {
        database.checkOpen();
        int p = 0;
        PartBuilder part;
        try {
            Object[] stored = builder(0).convert(row);
            check(stored);
            if (partitioning != null) {
                p = partitioning.partitionOf(stored, firstRow + appended);
            }
            part = builder(p);
            part.addStored(stored);
        } catch (CheckViolationException e) {
            throw e;
        } catch (NotNullViolationException e) {
            throw NotNullViolationException.of(table.name(), e.column(), appended + 1, e);
        } catch (IllegalArgumentException e) {
            // PartBuilder counts rows per part; the user counts rows of the whole load.
            String why = e.getCause() instanceof IllegalArgumentException c ? c.getMessage() : e.getMessage();
            throw new IllegalArgumentException("row " + (appended + 1) + " of table " + table.name() + ": " + why, e);
        }
        appended++;
        if (part.rowCount() >= database.config().rowsPerPart()) {
            try {
                buildPart(p);
            } catch (RuntimeException e) {
                // a build failed (out of memory, say): the rows since the last flush are lost as a
                // flush would lose them, so that a close after this throw has nothing to rethrow
                discard();
                throw e;
            }
        }
        return this;
    }

    /** Refuses a row (its stored values) that a CHECK constraint of the table makes FALSE. */
    private void check(Object[] stored) {
        if (checks == null) {
            if (table.schema().checks().isEmpty()) {
                return;
            }
            checks = table.rowCheck();
        }
        TableSchema.CheckDef failed = checks.failed(stored);
        if (failed != null) {
            throw CheckViolationException.of(table.name(), failed.name(), rowText(stored));
        }
    }

    /** A row's stored values as PostgreSQL shows a failing row: {@code (1, abc, null)}. */
    private String rowText(Object[] stored) {
        StringBuilder text = new StringBuilder("(");
        for (int i = 0; i < stored.length; i++) {
            ColumnType type = table.schema().column(i).type();
            Object value = switch (stored[i]) {
                case null -> null;
                case Long l -> type.toJava(l);
                case Double d -> type.toJava(d);
                case String s -> type.toJava(s);
                default -> stored[i];
            };
            text.append(i == 0 ? "" : ", ").append(value == null ? "null" : type.codec().toText(type, value));
        }
        return text.append(')').toString();
    }

    private PartBuilder builder(int partition) {
        PartBuilder b = parts[partition];
        if (b == null) {
            b = parts[partition] = table.newPart();
            if (partitioning != null) {
                b.inPartition(partitioning, partition);
            }
        }
        return b;
    }

    /**
     * Lets a statement stop while a flush waits for another change of the table or for its parts'
     * builds: {@code check} runs every few milliseconds of the wait and stops it by throwing; the
     * rows are then discarded.
     */
    public Appender stoppedBy(Runnable check) {
        this.checkStop = check;
        return this;
    }

    /** Rows appended so far, flushed or not (discarded ones no longer count). */
    public long appendedRows() {
        return appended;
    }

    /** Makes every appended row visible, all at once (in a transaction: hands them to it, for its commit). */
    public void flush() {
        publish(List.of(), List.of(), Map.of());
    }

    /**
     * In a transaction: hands the appended rows to it together with an UPDATE's deletions
     * ({@code deleted}: per part id, a bitmap over its positions), so that its keys are checked
     * with both (an UPDATE that keeps a row's key repeats no key).
     */
    void flushChanging(Map<Long, long[]> deleted) {
        publish(List.of(), List.of(), deleted);
    }

    /**
     * Makes every appended row visible, and {@code versions} in place of {@code replaced}, all at
     * once (an UPDATE's new rows and the parts it deleted their old versions from, holding
     * {@link Table#lockWrites()}).
     */
    void flushReplacing(List<TablePart> replaced, List<TablePart> versions) {
        publish(replaced, versions, Map.of());
    }

    private void publish(List<TablePart> replaced, List<TablePart> versions, Map<Long, long[]> deleted) {
        try {
            for (int p = 0; p < parts.length; p++) {
                if (parts[p] != null && parts[p].rowCount() > 0) {
                    buildPart(p);
                }
            }
        } catch (RuntimeException e) {
            discard(); // an earlier part's build failed
            throw e;
        }
        if (!pending.isEmpty() || !replaced.isEmpty() || !deleted.isEmpty()) {
            boolean[] published = {false};
            try {
                Transaction transaction = transaction();
                List<TablePart> built = new ArrayList<>(versions);
                for (PartBuild b : pending) {
                    built.add(b.await(checkStop));
                }
                if (transaction != null && replaced.isEmpty()) {
                    transaction.change(table, deleted, built); // published when the transaction commits
                    pending.clear();
                    flushed = appended;
                    return;
                }
                table.replaceParts(replaced, built, checkStop, () -> published[0] = true);
            } catch (RuntimeException e) {
                if (published[0]) {
                    // the table holds the parts (what failed came after: the log, a wait for durability),
                    // so they are the table's to free, not this appender's: readers may hold them already
                    pending.clear();
                    flushed = appended;
                    throw e;
                }
                discard();
                throw e;
            }
            pending.clear();
            database.afterFlush(table);
        }
        flushed = appended;
    }

    /** The transaction of the statement on this thread (its {@link CatalogView}'s), or null: rows then commit at the flush. */
    private Transaction transaction() {
        CatalogView view = CatalogView.current(table.catalog());
        return view == null ? null : view.transaction();
    }

    /**
     * Forgets every row appended since the last flush and frees what they took. The builds of
     * their parts are stopped first, all of them before waiting for any: one queued never starts,
     * one running gives up within milliseconds, so a stopped statement does not wait for parts
     * nobody will see (hundreds of milliseconds each).
     */
    public void discard() {
        for (PartBuild b : pending) {
            b.stop();
        }
        for (PartBuild b : pending) {
            b.release();
        }
        pending.clear();
        Arrays.fill(parts, null);
        appended = flushed;
    }

    /**
     * Appends every row, then flushes them all at once; if any row is refused (or the source
     * fails) nothing of them, nor anything else appended since the last flush, is stored, and
     * the error names the row. Returns the number of rows.
     */
    public long appendAll(Iterable<Object[]> rows) {
        long before = appended;
        try {
            for (Object[] row : rows) {
                append(row);
            }
            flush();
        } catch (RuntimeException | Error e) {
            discard();
            throw e;
        }
        return appended - before;
    }

    /**
     * Appends every record of a CSV source (see {@link CsvFormat}: empty unquoted field = NULL)
     * and flushes them at once. Text is converted per column type (BOOLEAN true/false, numbers
     * as Java parses them, DATE yyyy-mm-dd, TIMESTAMP yyyy-mm-dd hh:mm:ss[.fff]); a malformed record fails the whole load naming its
     * line, the column and the value, and nothing of it is stored. Returns the rows loaded.
     */
    public long appendCsv(Reader csv, CsvFormat format) {
        return appendCsv(csv, format, () -> { });
    }

    /**
     * {@link #appendCsv(Reader, CsvFormat)}, running {@code check} every 65,536 characters and
     * every few milliseconds while it waits for its parts' builds (as a {@link #stoppedBy} check
     * does): what it throws (a CancellationException of a canceled statement) stops the load, and
     * nothing of it is stored.
     */
    public long appendCsv(Reader csv, CsvFormat format, Runnable check) {
        Runnable before = checkStop;
        checkStop = () -> {
            before.run();
            check.run();
        };
        try {
            return appendCsvChecked(csv, format, check);
        } finally {
            checkStop = before;
        }
    }

    private long appendCsvChecked(Reader csv, CsvFormat format, Runnable check) {
        CsvReader reader = new CsvReader(csv instanceof BufferedReader ? csv : new BufferedReader(csv), format.delimiter(),
                format.maxRecordChars(), check);
        TableSchema schema = table.schema();
        long before = appended;
        try {
            if (format.header()) {
                reader.next();
            }
            for (List<String> fields; (fields = reader.next()) != null; ) {
                if (fields.size() == 1 && fields.get(0) == null) {
                    continue; // a blank line
                }
                if (fields.size() != schema.size()) {
                    throw new IllegalArgumentException("line " + reader.recordLine() + ": table " + table.name() + " has "
                            + schema.size() + " columns but the line has " + fields.size() + " fields");
                }
                Object[] row = new Object[fields.size()];
                try {
                    for (int i = 0; i < row.length; i++) {
                        row[i] = valueOfText(schema.column(i), fields.get(i), format.zone());
                    }
                    append(row);
                } catch (NotNullViolationException e) {
                    throw e.prefixed("line " + reader.recordLine() + ": ");
                } catch (CheckViolationException e) {
                    throw e.prefixed("line " + reader.recordLine() + ": ");
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("line " + reader.recordLine() + ": " + e.getMessage(), e);
                }
            }
            flush();
        } catch (IOException e) {
            discard();
            throw new UncheckedIOException("reading CSV for table " + table.name() + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            discard();
            throw e;
        }
        return appended - before;
    }

    /**
     * A value written as text (a CSV field, a DEFAULT) as the Java value the column's type takes
     * ({@link io.numacol.storage.types.TypeCodec#valueOfText}: strings pass through for DECIMAL, DATE,
     * TIMESTAMP, TIME, CHAR, VARCHAR, UUID, which the column checks; a TIMESTAMP WITH TIME ZONE becomes
     * its Instant, read in UTC when it has no offset; a VARBINARY is {@code \x} and hex digits); null stays null.
     */
    public static Object valueOfText(TableSchema.ColumnDef column, String text) {
        return valueOfText(column, text, ZoneOffset.UTC);
    }

    /** {@link #valueOfText(TableSchema.ColumnDef, String)}, a TIMESTAMP WITH TIME ZONE without an offset read in {@code zone}. */
    public static Object valueOfText(TableSchema.ColumnDef column, String text, ZoneId zone) {
        if (text == null) {
            return null;
        }
        try {
            return column.type().codec().valueOfText(column.type(), text, zone);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("column " + column.name() + ": value '" + text + "' is not a valid " + column.type());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("column " + column.name() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        flush();
    }

    /**
     * Cuts the rows so far into a part and builds it (dictionaries, vids, bit packing) on a
     * worker while the caller appends the next rows: a load is then bound by whichever is slower,
     * producing rows or building parts, not by their sum. Beyond {@link #BUILDS_IN_FLIGHT}
     * unfinished builds the caller waits for the oldest, which bounds the heap the builders hold;
     * built parts stay off-heap until the flush publishes them, as before.
     */
    private void buildPart(int partition) {
        PartBuilder full = parts[partition];
        parts[partition] = null;
        pending.add(new PartBuild(full, partitioning == null ? database.placements().newPartPlacement(table)
                : database.placements().partitionPlacement(partition)));
        int building = 0;
        for (int i = pending.size() - 1; i >= 0; i--) {
            if (!pending.get(i).isDone() && ++building > BUILDS_IN_FLIGHT) {
                pending.get(i).await(checkStop);
            }
        }
    }

    private static final int BUILDS_IN_FLIGHT = 2;

    /**
     * How often a wait for a build runs {@link #checkStop}: a stop has no way to wake the waiter,
     * and a statement should end within some tens of milliseconds of its timeout or cancel().
     */
    private static final long STOP_POLL_MILLIS = 5;

    /** One part's build, on the scheduler, or on the caller's thread when the scheduler takes no more work. */
    private final class PartBuild {
        private TaskGroup group;
        private volatile TablePart built;
        private RuntimeException failure;
        private boolean released;

        PartBuild(PartBuilder builder, IntFunction<ColumnPlacement> placement) {
            try {
                group = database.scheduler().newStatement().newTaskGroup();
                // the build gives up once stop() cancels its statement
                group.submit(context -> built = builder.build(placement, false, context::isCancelled), Affinity.none(),
                        TaskClass.OTHER);
            } catch (IllegalStateException closing) {
                group = null;
                built = builder.build(placement, false);
            }
        }

        boolean isDone() {
            return group == null || group.isDone();
        }

        /**
         * The built part; rethrows what its build threw, or CancellationException when the wait was
         * interrupted. Runs {@code checkStop} every {@value Appender#STOP_POLL_MILLIS} ms of the
         * wait, which it stops by throwing (the build goes on until {@link #stop()}).
         */
        TablePart await(Runnable checkStop) {
            if (group != null && failure == null) {
                try {
                    while (!group.await(STOP_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                        checkStop.run();
                    }
                    group = null;
                } catch (StatementFailedException e) {
                    failure = e.getCause() instanceof RuntimeException r ? r : e;
                    group = null;
                }
            }
            if (failure != null) {
                throw failure;
            }
            return built;
        }

        /**
         * Makes a build that has not ended give up: a queued one never runs, a running one throws
         * at its next {@link io.numacol.storage.BuildStop} check and frees what it built so far.
         */
        void stop() {
            if (group != null) {
                group.statement().cancel();
            }
        }

        /** Frees the part once its build is over (a failed or stopped build freed its own memory); never throws. */
        void release() {
            if (group != null) {
                try {
                    group.await(); // returns, even interrupted, only once the build task has
                } catch (RuntimeException e) {
                    // failed or cancelled: whatever was built is in built, or nothing was
                }
                group = null;
            }
            if (!released && built != null) {
                released = true;
                built.release();
            }
        }
    }
}
