package io.numacol.storage;

import java.util.Objects;

/**
 * What a COMMENT ON said of a table or of one of its columns: kept in the {@link Catalog} (and
 * its logged image, so that a file database keeps it), and given as REMARKS by JDBC's getTables
 * and getColumns, where tools that document a schema read it.
 *
 * @param schema the table's schema, as created
 * @param table  the table's name, as created
 * @param column the column's name as the table spells it, or null for the table's own comment
 * @param text   the comment
 */
public record CommentDef(String schema, String table, String column, String text) {
    public CommentDef {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(text, "text");
    }
}
