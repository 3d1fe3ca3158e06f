package io.numacol.storage;

import io.numacol.storage.types.ColumnType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/** A table's columns in order. Names are unique ignoring case, as SQL identifiers compare. */
public final class TableSchema {

    /** One column: name, type and whether NULL is allowed. */
    public record ColumnDef(String name, ColumnType type, boolean nullable) {
        public ColumnDef {
            Objects.requireNonNull(type, "type");
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a column needs a name");
            }
        }

        @Override
        public String toString() {
            return name + " " + type + (nullable ? "" : " NOT NULL");
        }
    }

    /**
     * A PRIMARY KEY or UNIQUE constraint: no two rows of the table have the same values in
     * {@code columns} (positions in the schema); a row with a NULL in one of them is not
     * compared, as SQL says. A primary key's columns are NOT NULL.
     */
    public record KeyDef(String name, List<Integer> columns, boolean primary) {
        public KeyDef {
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("a key needs at least one column");
            }
            columns = List.copyOf(columns);
        }
    }

    private final List<ColumnDef> columns;
    private final List<KeyDef> keys;
    private final Map<String, Integer> byName = new HashMap<>();

    public TableSchema(List<ColumnDef> columns) {
        this(columns, List.of());
    }

    public TableSchema(List<ColumnDef> columns, List<KeyDef> keys) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.columns = List.copyOf(columns);
        for (int i = 0; i < columns.size(); i++) {
            if (byName.putIfAbsent(key(columns.get(i).name()), i) != null) {
                throw new IllegalArgumentException("column " + columns.get(i).name() + " is defined twice");
            }
        }
        this.keys = List.copyOf(keys);
        int primaries = 0;
        for (KeyDef k : this.keys) {
            for (int c : k.columns()) {
                if (c < 0 || c >= columns.size()) {
                    throw new IllegalArgumentException("key " + k.name() + " names no column at position " + c);
                }
                if (k.primary() && columns.get(c).nullable()) {
                    throw new IllegalArgumentException("primary key column " + columns.get(c).name() + " must be NOT NULL");
                }
            }
            primaries += k.primary() ? 1 : 0;
        }
        if (primaries > 1) {
            throw new IllegalArgumentException("a table has at most one PRIMARY KEY");
        }
    }

    /** The PRIMARY KEY and UNIQUE constraints, enforced on every change of the table's rows. */
    public List<KeyDef> keys() {
        return keys;
    }

    /**
     * This schema's keys carried to {@code next} (an ALTER TABLE's), each column found by its
     * name as {@code rename} maps it; a key that loses a column is dropped.
     */
    public TableSchema keysTo(TableSchema next, UnaryOperator<String> rename) {
        List<KeyDef> carried = new ArrayList<>();
        for (KeyDef k : keys) {
            List<Integer> at = new ArrayList<>();
            for (int c : k.columns()) {
                String name = rename.apply(columns.get(c).name());
                int i = name == null ? -1 : next.indexOf(name);
                if (i < 0) {
                    break;
                }
                at.add(i);
            }
            if (at.size() == k.columns().size()) {
                carried.add(new KeyDef(k.name(), at, k.primary()));
            }
        }
        return carried.isEmpty() ? next : new TableSchema(next.columns(), carried);
    }

    public static TableSchema of(ColumnDef... columns) {
        return new TableSchema(List.of(columns));
    }

    public List<ColumnDef> columns() {
        return columns;
    }

    public int size() {
        return columns.size();
    }

    public ColumnDef column(int i) {
        return columns.get(i);
    }

    /** The position of a column, or -1. */
    public int indexOf(String name) {
        return byName.getOrDefault(key(name), -1);
    }

    static String key(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return columns.toString();
    }
}
