package io.numacol.storage;

import io.numacol.memory.NumaMemory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A named table: a schema and a set of {@link TablePart}s. The set is swapped whole, so a
 * reader's {@link #snapshot()} sees either all of a change or none of it.
 */
public final class Table {
    private final String name;
    private final TableSchema schema;
    private final NumaMemory memory;
    private volatile List<TablePart> parts = List.of();
    private boolean dropped;

    Table(String name, TableSchema schema, NumaMemory memory) {
        this.name = name;
        this.schema = schema;
        this.memory = memory;
    }

    public String name() {
        return name;
    }

    public TableSchema schema() {
        return schema;
    }

    public NumaMemory memory() {
        return memory;
    }

    /** The current parts, unretained: for reports; queries use {@link #snapshot()}. */
    public List<TablePart> parts() {
        return parts;
    }

    public long rowCount() {
        return parts.stream().mapToLong(TablePart::rowCount).sum();
    }

    /** A builder for one new part of this table. */
    public PartBuilder newPart() {
        return new PartBuilder(this);
    }

    /** The current parts, each retained until the snapshot closes. */
    public TableSnapshot snapshot() {
        while (true) {
            List<TablePart> current = parts;
            List<TablePart> retained = new ArrayList<>(current.size());
            for (TablePart p : current) {
                if (!p.tryRetain()) {
                    break;
                }
                retained.add(p);
            }
            if (retained.size() == current.size()) {
                return new TableSnapshot(this, retained);
            }
            // a part was freed by a concurrent swap: that swap published a new list, take that one
            retained.forEach(TablePart::release);
        }
    }

    /** Publishes new parts at once: a reader's snapshot has all of them or none. */
    public void addParts(List<TablePart> added) {
        replaceParts(List.of(), added);
    }

    /** Replaces some parts by others at once (re-placement, merges); the old ones go when their readers do. */
    public synchronized void replaceParts(List<TablePart> old, List<TablePart> replacement) {
        checkNotDropped();
        List<TablePart> next = new ArrayList<>(parts);
        for (TablePart p : old) {
            if (!next.remove(Objects.requireNonNull(p))) {
                throw new IllegalArgumentException(p + " is not a part of table " + name);
            }
        }
        next.addAll(replacement);
        parts = List.copyOf(next);
        old.forEach(TablePart::release);
    }

    synchronized void drop() {
        checkNotDropped();
        dropped = true;
        List<TablePart> old = parts;
        parts = List.of();
        old.forEach(TablePart::release);
    }

    private void checkNotDropped() {
        if (dropped) {
            throw new IllegalStateException("table " + name + " was dropped");
        }
    }

    @Override
    public String toString() {
        return name + schema;
    }
}
