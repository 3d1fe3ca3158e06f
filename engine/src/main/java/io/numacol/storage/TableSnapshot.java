package io.numacol.storage;

import java.util.List;

/** A table's parts as of one moment, kept alive (retained) until closed. */
public final class TableSnapshot implements AutoCloseable {
    private final Table table;
    private final List<TablePart> parts;
    private boolean closed;

    TableSnapshot(Table table, List<TablePart> parts) {
        this.table = table;
        this.parts = List.copyOf(parts);
    }

    public Table table() {
        return table;
    }

    public List<TablePart> parts() {
        return parts;
    }

    /** Row positions of its parts, deleted rows included: what scans step through. */
    public long rowCount() {
        return parts.stream().mapToLong(TablePart::rowCount).sum();
    }

    /** Rows, deleted ones not counted. */
    public long liveRowCount() {
        return parts.stream().mapToLong(TablePart::liveRowCount).sum();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            parts.forEach(TablePart::release);
        }
    }
}
