package io.numacol.storage;

import java.util.List;
import java.util.Objects;

/**
 * An index a CREATE INDEX named: recorded in the {@link Catalog} (and {@code sys.indexes}). No
 * structure of its own is built: the parts of its table built after it (new rows, merges, the
 * DataPlacer's moves) carry the per-part {@link InvertedIndex} of its first column, as they do
 * for the first column of a key ({@link Table#indexedColumns()}), and an equality on that column
 * probes it ({@link KeyLookup}); parts built before it are scanned until a merge rebuilds them. A
 * UNIQUE index is not enforced (yet): a PRIMARY KEY or UNIQUE constraint of the table is
 * ({@link TableSchema#keys()}).
 *
 * @param schema  the schema of the index and its table
 * @param name    the index name, unique in its schema (ignoring case)
 * @param table   the indexed table's name, as created
 * @param columns the indexed columns' names, as the table spells them, in index order
 * @param unique  whether it was CREATE UNIQUE INDEX
 */
public record IndexDef(String schema, String name, String table, List<String> columns, boolean unique) {
    public IndexDef {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        if (name.isBlank()) {
            throw new IllegalArgumentException("an index needs a name");
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("index " + name + " names no column");
        }
    }
}
