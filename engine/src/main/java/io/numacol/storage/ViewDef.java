package io.numacol.storage;

import java.util.List;
import java.util.Objects;

/**
 * A view: a name for a query, expanded where it is used. The SQL layer checks the query when
 * the view is created and derives its columns where it is read.
 *
 * @param name    unique among the database's tables and views (ignoring case)
 * @param sql     the query, as written
 * @param columns the column names CREATE VIEW gave, or empty for the query's own
 */
public record ViewDef(String name, String sql, List<String> columns) {
    public ViewDef {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sql, "sql");
        columns = List.copyOf(columns);
        if (name.isBlank()) {
            throw new IllegalArgumentException("a view needs a name");
        }
    }
}
