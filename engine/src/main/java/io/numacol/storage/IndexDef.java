package io.numacol.storage;

import java.util.List;
import java.util.Objects;

/**
 * An index a CREATE INDEX named: recorded in the {@link Catalog} (and {@code sys.indexes}), not
 * built. numacol answers lookups by scanning its bit-packed columns with vectorized predicates, a
 * few cycles per row, so a secondary structure per CREATE INDEX would cost memory and load time
 * for little; the per-part {@link InvertedIndex} is the structure a lookup index will use when
 * one pays. A UNIQUE index is not enforced (yet): a PRIMARY KEY or UNIQUE constraint of the
 * table is ({@link TableSchema#keys()}).
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
