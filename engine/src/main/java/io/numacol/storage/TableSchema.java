package io.numacol.storage;

import io.numacol.storage.types.ColumnType;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

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

    private final List<ColumnDef> columns;
    private final Map<String, Integer> byName = new HashMap<>();

    public TableSchema(List<ColumnDef> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.columns = List.copyOf(columns);
        for (int i = 0; i < columns.size(); i++) {
            if (byName.putIfAbsent(key(columns.get(i).name()), i) != null) {
                throw new IllegalArgumentException("column " + columns.get(i).name() + " is defined twice");
            }
        }
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
