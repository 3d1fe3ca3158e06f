package io.numacol.checkpoint;

import io.numacol.storage.Partitioning;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One table as a {@link CatalogImage} records it: enough to create it again (its durable id,
 * schema, keys, placement and partitioning) and the part files holding its rows.
 *
 * <p>A column's {@link TableSchema.Identity} holds a live {@link io.numacol.storage.Sequence}, which
 * compares by identity: an entry read back has a new sequence (restored at the number the written
 * one would have given next), so it does not {@code equals} the written entry when it has an
 * identity column, though every field of it is the same.
 *
 * @param id           the table's durable id: positive, never reused, what the write-ahead log names it by
 * @param schemaName   the catalog schema it is in
 * @param name         its name
 * @param columns      its columns in order, with types, nullability, defaults and identity
 * @param keys         its PRIMARY KEY and UNIQUE constraints, by column position
 * @param foreignKeys  its FOREIGN KEY constraints, by column position and the parent's name
 * @param placement    its placement as {@code ALTER TABLE .. PLACEMENT} spells it ({@code RR}, {@code NODE(1)}, ...)
 * @param partitioning its physical partitioning resolved against its columns, or null for none
 * @param parts        its part files, in the table's order of parts (empty in an image of the log,
 *                     whose rows are in the log)
 * @param checks       its CHECK constraints, their expressions as SQL text
 */
public record TableEntry(long id, String schemaName, String name, List<ColumnDef> columns, List<TableSchema.KeyDef> keys,
                         List<TableSchema.ForeignKeyDef> foreignKeys, String placement, Partitioning partitioning, List<PartRef> parts,
                         List<TableSchema.CheckDef> checks) {

    public TableEntry {
        if (id <= 0) {
            throw new IllegalArgumentException("a durable table id is positive, table " + name + " has " + id);
        }
        Objects.requireNonNull(schemaName, "schemaName");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(placement, "placement");
        columns = List.copyOf(columns);
        keys = List.copyOf(keys);
        foreignKeys = List.copyOf(foreignKeys);
        parts = List.copyOf(parts);
        checks = List.copyOf(checks);
        new TableSchema(columns, keys, foreignKeys, checks); // refuses no columns, duplicate names and bad keys, as the catalog would
        Set<String> files = new HashSet<>();
        for (PartRef part : parts) {
            if (!files.add(part.fileName())) {
                throw new IllegalArgumentException("table " + name + " names part file " + part.fileName() + " twice");
            }
        }
        if (partitioning != null) {
            for (int key : partitioning.keyColumns()) {
                Objects.checkIndex(key, columns.size());
            }
        }
    }

    /** A table without foreign keys or CHECK constraints. */
    public TableEntry(long id, String schemaName, String name, List<ColumnDef> columns, List<TableSchema.KeyDef> keys,
                      String placement, Partitioning partitioning, List<PartRef> parts) {
        this(id, schemaName, name, columns, keys, List.of(), placement, partitioning, parts, List.of());
    }

    /** A table without CHECK constraints. */
    public TableEntry(long id, String schemaName, String name, List<ColumnDef> columns, List<TableSchema.KeyDef> keys,
                      List<TableSchema.ForeignKeyDef> foreignKeys, String placement, Partitioning partitioning, List<PartRef> parts) {
        this(id, schemaName, name, columns, keys, foreignKeys, placement, partitioning, parts, List.of());
    }

    /** A table without foreign keys. */
    public TableEntry(long id, String schemaName, String name, List<ColumnDef> columns, List<TableSchema.KeyDef> keys,
                      String placement, Partitioning partitioning, List<PartRef> parts, List<TableSchema.CheckDef> checks) {
        this(id, schemaName, name, columns, keys, List.of(), placement, partitioning, parts, checks);
    }

    /** The columns and constraints as a {@link TableSchema}, to create the table with. */
    public TableSchema schema() {
        return new TableSchema(columns, keys, foreignKeys, checks);
    }

    /** Bytes of all its part files. */
    public long bytes() {
        return parts.stream().mapToLong(PartRef::size).sum();
    }
}
