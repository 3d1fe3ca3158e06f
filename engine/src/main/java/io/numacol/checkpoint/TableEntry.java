package io.numacol.checkpoint;

import io.numacol.storage.Partitioning;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One table as the manifest records it: enough to create it again (its schema, placement and
 * partitioning) and the part files holding its rows.
 *
 * @param schemaName   the catalog schema it is in
 * @param name         its name
 * @param columns      its columns in order, with types and nullability
 * @param placement    its placement as {@code ALTER TABLE .. PLACEMENT} spells it ({@code RR}, {@code NODE(1)}, ...)
 * @param partitioning its physical partitioning resolved against its columns, or null for none
 * @param parts        its part files, in the table's order of parts
 */
public record TableEntry(String schemaName, String name, List<ColumnDef> columns, String placement, Partitioning partitioning,
                         List<PartRef> parts) {

    public TableEntry {
        Objects.requireNonNull(schemaName, "schemaName");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(placement, "placement");
        columns = List.copyOf(columns);
        parts = List.copyOf(parts);
        new TableSchema(columns); // refuses no columns and duplicate names, as the catalog would
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

    /** The columns as a {@link TableSchema}, to create the table with. */
    public TableSchema schema() {
        return new TableSchema(columns);
    }

    /** Bytes of all its part files. */
    public long bytes() {
        return parts.stream().mapToLong(PartRef::size).sum();
    }
}
