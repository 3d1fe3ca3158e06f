package io.numacol.database;

import io.numacol.placement.Placement;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bulk load into one table, the fast path for many rows (DuckDB's Appender, numacol's way).
 * Each row is checked whole when appended; rows become visible together at {@link #flush()} or
 * {@link #close()}, never in part. Every {@code rowsPerPart} rows close a part, and parts go to
 * the nodes in turn, so a large table ends up physically partitioned over the machine.
 */
public final class Appender implements AutoCloseable {
    /** Which node the next part of any table goes to: spreads parts, and small tables, over nodes. */
    private static final AtomicInteger NEXT_NODE = new AtomicInteger();

    private final Database database;
    private final Table table;
    private final List<TablePart> pending = new ArrayList<>();
    private PartBuilder part;
    private long appended;

    Appender(Database database, Table table) {
        this.database = database;
        this.table = table;
    }

    public Table table() {
        return table;
    }

    public Appender append(Object... row) {
        database.checkOpen();
        if (part == null) {
            part = table.newPart();
        }
        part.addRow(row);
        appended++;
        if (part.rowCount() >= database.config().rowsPerPart()) {
            buildPart();
        }
        return this;
    }

    /** Rows appended so far, flushed or not. */
    public long appendedRows() {
        return appended;
    }

    /** Makes every appended row visible, all at once. */
    public void flush() {
        if (part != null && part.rowCount() > 0) {
            buildPart();
        }
        if (!pending.isEmpty()) {
            try {
                table.addParts(pending);
            } catch (RuntimeException e) {
                discard();
                throw e;
            }
            pending.clear();
        }
    }

    /** Forgets every row appended since the last flush and frees what they took. */
    public void discard() {
        pending.forEach(TablePart::release);
        pending.clear();
        part = null;
    }

    @Override
    public void close() {
        flush();
    }

    private void buildPart() {
        int node = Math.floorMod(NEXT_NODE.getAndIncrement(), database.topology().nodeCount());
        Placement placement = new Placement.Node(node);
        PartBuilder full = part;
        part = null;
        pending.add(full.build(c -> placement.forColumn(c, database.topology()), false));
    }
}
