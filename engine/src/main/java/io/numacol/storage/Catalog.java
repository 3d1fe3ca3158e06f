package io.numacol.storage;

import io.numacol.memory.NumaMemory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The tables and views of one database and the indexes named on tables, by name (ignoring case). */
public final class Catalog {
    private final NumaMemory memory;
    private final ConcurrentHashMap<String, Table> tables = new ConcurrentHashMap<>();
    /** Changed under this catalog's lock, with the table they name, so no index outlives its table. */
    private final ConcurrentHashMap<String, IndexDef> indexes = new ConcurrentHashMap<>();
    /** Tables and views share one name space: changed under this catalog's lock. */
    private final ConcurrentHashMap<String, ViewDef> views = new ConcurrentHashMap<>();
    /** Counts changes of the tables and views, so that what was derived from them knows when to derive again. */
    private final AtomicLong version = new AtomicLong();

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
        synchronized (this) {
            if (views.containsKey(TableSchema.key(name))) {
                throw new IllegalArgumentException("a view named " + name + " already exists");
            }
            if (tables.containsKey(TableSchema.key(name))) {
                throw new IllegalArgumentException("table " + name + " already exists");
            }
            Table table = new Table(name, schema, memory);
            tables.put(TableSchema.key(name), table);
            version.incrementAndGet();
            return table;
        }
    }

    /** A table that is not in the catalog (yet): what {@link #replace} puts in another's place. */
    public Table detached(String name, TableSchema schema) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a table needs a name");
        }
        return new Table(name, schema, memory);
    }

    /**
     * Puts {@code replacement} (from {@link #detached}) in the place of {@code old} at once, under
     * the replacement's name, and drops {@code old}. The indexes of {@code old} follow it, their
     * columns named as {@code column} renames them; one on a column it maps to null is dropped.
     */
    public void replace(Table old, Table replacement, UnaryOperator<String> column) {
        synchronized (this) {
            if (tables.get(TableSchema.key(old.name())) != old) {
                throw new IllegalArgumentException("table " + old.name() + " changed meanwhile");
            }
            String to = TableSchema.key(replacement.name());
            if (!to.equals(TableSchema.key(old.name()))) {
                if (views.containsKey(to)) {
                    throw new IllegalArgumentException("a view named " + replacement.name() + " already exists");
                }
                if (tables.containsKey(to)) {
                    throw new IllegalArgumentException("table " + replacement.name() + " already exists");
                }
            }
            tables.remove(TableSchema.key(old.name()));
            tables.put(to, replacement);
            version.incrementAndGet();
            for (IndexDef ix : List.copyOf(indexes.values())) {
                if (TableSchema.key(ix.table()).equals(TableSchema.key(old.name()))) {
                    indexes.remove(TableSchema.key(ix.name()));
                    List<String> columns = ix.columns().stream().map(column).toList();
                    if (columns.stream().allMatch(c -> c != null && replacement.schema().indexOf(c) >= 0)) {
                        indexes.put(TableSchema.key(ix.name()), new IndexDef(ix.name(), replacement.name(), columns, ix.unique()));
                    }
                }
            }
        }
        old.drop();
    }

    /** Records a change that plans depend on besides the tables and views (a table's placement): plans made before are not used again. */
    public void changed() {
        version.incrementAndGet();
    }

    /** A number that changes whenever a table or view is created, dropped, altered or replaced, or {@link #changed}. */
    public long version() {
        return version.get();
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
            version.incrementAndGet();
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

    /** Records a view (the SQL layer checked its query); OR REPLACE replaces a view, never a table. */
    public synchronized ViewDef createView(ViewDef view, boolean orReplace) {
        String key = TableSchema.key(view.name());
        if (tables.containsKey(key)) {
            throw new IllegalArgumentException("a table named " + view.name() + " already exists");
        }
        if (!orReplace && views.containsKey(key)) {
            throw new IllegalArgumentException("view " + view.name() + " already exists");
        }
        views.put(key, view);
        version.incrementAndGet();
        return view;
    }

    public Optional<ViewDef> findView(String name) {
        return Optional.ofNullable(views.get(TableSchema.key(name)));
    }

    public synchronized void dropView(String name) {
        version.incrementAndGet();
        if (views.remove(TableSchema.key(name)) == null) {
            throw new IllegalArgumentException("view " + name + " does not exist");
        }
    }

    public Collection<ViewDef> views() {
        return views.values();
    }

    public Collection<Table> tables() {
        return tables.values();
    }
}
