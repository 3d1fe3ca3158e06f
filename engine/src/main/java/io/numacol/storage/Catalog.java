package io.numacol.storage;

import io.numacol.memory.NumaMemory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The tables of one database and the indexes named on them, by name (ignoring case). */
public final class Catalog {
    private final NumaMemory memory;
    private final ConcurrentHashMap<String, Table> tables = new ConcurrentHashMap<>();
    /** Changed under this catalog's lock, with the table they name, so no index outlives its table. */
    private final ConcurrentHashMap<String, IndexDef> indexes = new ConcurrentHashMap<>();

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

    /** Removes a table and its indexes; its memory is freed once no reader holds a snapshot of it. */
    public void drop(String name) {
        Table table;
        synchronized (this) {
            table = tables.remove(TableSchema.key(name));
            if (table == null) {
                throw new IllegalArgumentException("table " + name + " does not exist");
            }
            indexes.values().removeIf(ix -> TableSchema.key(ix.table()).equals(TableSchema.key(name)));
        }
        table.drop();
    }

    /**
     * Records an index on existing columns of an existing table ({@link IndexDef} says why it is
     * not built). {@code columns} may be spelled in any case; the definition keeps the table's.
     */
    public synchronized IndexDef createIndex(String name, String table, List<String> columns, boolean unique) {
        Table t = get(table);
        if (indexes.containsKey(TableSchema.key(name))) {
            throw new IllegalArgumentException("index " + name + " already exists");
        }
        List<String> spelled = new ArrayList<>();
        for (String column : columns) {
            int i = t.schema().indexOf(column);
            if (i < 0) {
                throw new IllegalArgumentException("index " + name + ": table " + t.name() + " has no column " + column);
            }
            String c = t.schema().column(i).name();
            if (spelled.contains(c)) {
                throw new IllegalArgumentException("index " + name + " names column " + c + " twice");
            }
            spelled.add(c);
        }
        IndexDef def = new IndexDef(name, t.name(), spelled, unique);
        indexes.put(TableSchema.key(name), def);
        return def;
    }

    public Optional<IndexDef> findIndex(String name) {
        return Optional.ofNullable(indexes.get(TableSchema.key(name)));
    }

    public synchronized void dropIndex(String name) {
        if (indexes.remove(TableSchema.key(name)) == null) {
            throw new IllegalArgumentException("index " + name + " does not exist");
        }
    }

    public Collection<IndexDef> indexes() {
        return indexes.values();
    }

    public Collection<Table> tables() {
        return tables.values();
    }
}
