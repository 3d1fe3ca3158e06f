package io.numacol.storage;

import java.util.List;
import java.util.Objects;

/**
 * A view: a name for a query, expanded where it is used. The SQL layer checks the query when
 * the view is created and derives its columns where it is read.
 *
 * @param schema     the catalog schema the view is in
 * @param name       unique among the schema's tables and views (ignoring case)
 * @param sql        the query, as written
 * @param columns    the column names CREATE VIEW gave, or empty for the query's own
 * @param resolvedIn the schema the query's unqualified names were read in when the view was
 *                   created (the session's then): they name the same tables wherever it is used
 */
public record ViewDef(String schema, String name, String sql, List<String> columns, String resolvedIn) {
    public ViewDef {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(resolvedIn, "resolvedIn");
        Objects.requireNonNull(sql, "sql");
        columns = List.copyOf(columns);
        if (name.isBlank()) {
            throw new IllegalArgumentException("a view needs a name");
        }
    }
}
