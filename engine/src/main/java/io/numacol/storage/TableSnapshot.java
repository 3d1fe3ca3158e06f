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

    public long rowCount() {
        return parts.stream().mapToLong(TablePart::rowCount).sum();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            parts.forEach(TablePart::release);
        }
    }
}
