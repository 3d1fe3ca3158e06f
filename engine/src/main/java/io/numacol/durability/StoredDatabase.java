package io.numacol.durability;

import io.numacol.placement.Placement;
import io.numacol.storage.Catalog;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Table;

import java.util.function.IntFunction;

/**
 * What a {@link DurableStore} needs of the database whose tables it keeps: the catalog, and the
 * tables' placements, which the database keeps beside the catalog. The database implements it,
 * so that this package does not depend on the database's.
 */
public interface StoredDatabase {

    Catalog catalog();

    /** The nodes the database places data on. */
    io.numacol.topology.Topology topology();

    /** The table's placement as set, or null for the default. */
    Placement placement(Table table);

    /** How the table deals its rows to partitions, or null. */
    Partitioning partitioning(Table table);

    /** Sets a table's placement as the files recorded it, moving nothing. */
    void restorePlacement(Table table, Placement placement, Partitioning partitioning);

    /**
     * Where a part of {@code table} read back goes: whole on its partition's node when it is of
     * partition {@code partition} of the table's partitioning, else (-1, or a table not placed PP)
     * as a new part of the table would.
     */
    IntFunction<ColumnPlacement> restoredPartPlacement(Table table, int partition);

    /** Drops a table (a logged DROP or ALTER replayed). */
    void dropTable(Table table);
}
