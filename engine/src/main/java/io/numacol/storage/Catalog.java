package io.numacol.storage;

import io.numacol.memory.NumaMemory;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The tables of one database, by name (ignoring case). */
public final class Catalog {
    private final NumaMemory memory;
    private final ConcurrentHashMap<String, Table> tables = new ConcurrentHashMap<>();

    public Catalog(NumaMemory memory) {
        this.memory = memory;
    }

    public NumaMemory memory() {
        return memory;
    }

    public Table create(String name, TableSchema schema) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a table needs a name");
        }
        Table table = new Table(name, schema, memory);
        if (tables.putIfAbsent(TableSchema.key(name), table) != null) {
            throw new IllegalArgumentException("table " + name + " already exists");
        }
        return table;
    }

    public Optional<Table> find(String name) {
        return Optional.ofNullable(tables.get(TableSchema.key(name)));
    }

    public Table get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("table " + name + " does not exist"));
    }

    /** Removes a table; its memory is freed once no reader holds a snapshot of it. */
    public void drop(String name) {
        Table table = tables.remove(TableSchema.key(name));
        if (table == null) {
            throw new IllegalArgumentException("table " + name + " does not exist");
        }
        table.drop();
    }

    public Collection<Table> tables() {
        return tables.values();
    }
}
