package io.numacol.database;

import io.numacol.placement.Placement;
import io.numacol.storage.Catalog;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * Where a database's table parts are placed: each table's {@link Placement} as ALTER TABLE ..
 * SET PLACEMENT set it (or none: each part on a node, the nodes in turn), and for a table placed
 * PP its {@link Partitioning} resolved against its columns; the node a new part (appended,
 * merged) goes to, the turns that spread parts and ROUND ROBIN dealings, and the moving or
 * re-dealing of a table's parts when its placement changes. It is apart from {@link Database}
 * because it is one concern with its own state (two maps kept in step, two counters) that the
 * loading, merging and altering of tables only consult: {@link Appender} and {@link PartMerger}
 * ask it where their parts go, and Database forwards SET PLACEMENT, DROP and ALTER TABLE to it.
 */
final class TablePlacements {
    private final Topology topology;
    private final DatabaseConfig config;
    private final Catalog catalog;
    private final PartMerger merger;
    /** Which node the next appended part goes to: spreads parts, and small tables, over the nodes. */
    private final AtomicInteger nextPartNode = new AtomicInteger();
    private final AtomicLong roundRobinStart = new AtomicLong();
    /** Tables placed by ALTER TABLE .. SET PLACEMENT; the others' parts go to a node each, in turn. */
    private final Map<Table, Placement> placements = new ConcurrentHashMap<>();
    /** Tables placed PP: how their rows are dealt, resolved against their columns. */
    private final Map<Table, Partitioning> partitionings = new ConcurrentHashMap<>();

    TablePlacements(Topology topology, DatabaseConfig config, Catalog catalog, PartMerger merger) {
        this.topology = topology;
        this.config = config;
        this.catalog = catalog;
        this.merger = merger;
    }

    /** Where the next appender's ROUND ROBIN dealing starts. */
    long nextRoundRobinStart() {
        return roundRobinStart.getAndIncrement();
    }

    private int nextPartNode() {
        return Math.floorMod(nextPartNode.getAndIncrement(), topology.nodeCount());
    }

    /**
     * Sets a table's placement as a file database's checkpoint or log recorded it, moving
     * nothing: the table is being read back, and its parts are read straight to where it says.
     */
    void restore(Table table, Placement placement, Partitioning partitioning) {
        if (placement == null) {
            placements.remove(table);
        } else {
            placement.checkAgainst(topology);
            placements.put(table, placement);
        }
        if (partitioning == null) {
            partitionings.remove(table);
        } else {
            partitionings.put(table, partitioning);
        }
    }

    /** The table's placement as set, or null for the default: each part on a node, the nodes in turn. */
    Placement placement(Table table) {
        return placements.get(table);
    }

    /** Where a new part of {@code table} (appended, merged) goes: its table's placement, else the next node in turn. */
    IntFunction<ColumnPlacement> newPartPlacement(Table table) {
        Placement placement = placements.get(table);
        return partPlacement(placement instanceof Placement.Partitioned ? null : placement);
    }

    /**
     * Where a new part made of {@code like}'s rows goes (a merge): its partition's node while the
     * table is placed PP, else as {@link #newPartPlacement} (a table placed otherwise since keeps
     * the partitions of its parts, not their nodes).
     */
    IntFunction<ColumnPlacement> newPartPlacement(Table table, TablePart like) {
        return like.partitioning() != null && partitionings.containsKey(table) ? partitionPlacement(like.partition())
                : newPartPlacement(table);
    }

    /** Where a part of partition {@code partition} of a PP table goes: whole on the partition's node. */
    IntFunction<ColumnPlacement> partitionPlacement(int partition) {
        ColumnPlacement node = ColumnPlacement.onNode(Placement.Partitioned.nodeOf(partition, topology));
        return c -> node;
    }

    /** How the table deals its rows to partitions (it is placed PP), or null. */
    Partitioning partitioning(Table table) {
        return partitionings.get(table);
    }

    /**
     * The partitioning {@code pp} names, on {@code table}'s columns; {@code before} (the table's
     * earlier one, or null) gives a RANGE partitioning its bounds, which else come from the data.
     */
    private Partitioning resolve(Table table, Placement.Partitioned pp, Partitioning before) {
        TableSchema schema = table.schema();
        int[] keys = new int[pp.keys().size()];
        List<ColumnType> types = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            keys[i] = schema.indexOf(pp.keys().get(i));
            if (keys[i] < 0) {
                throw new IllegalArgumentException(pp + ": table " + table.name() + " has no column " + pp.keys().get(i));
            }
            types.add(schema.column(keys[i]).type());
        }
        return switch (pp.kind()) {
            case HASH -> Partitioning.hash(pp.count(), keys, types);
            case ROUND_ROBIN -> Partitioning.roundRobin(pp.count());
            case RANGE -> Partitioning.range(pp.count(), keys[0], types.getFirst(),
                    before != null && before.kind() == Partitioning.Kind.RANGE ? before.bounds() : rangeBounds(table, keys[0], pp.count()));
        };
    }

    /** The spec with its keys named as the table's columns are named (as sys shows them). */
    private static Placement.Partitioned named(Table table, Placement.Partitioned pp) {
        return new Placement.Partitioned(pp.kind(), pp.count(), pp.keys().stream()
                .map(k -> table.schema().indexOf(k) < 0 ? k : table.schema().column(table.schema().indexOf(k)).name()).toList());
    }

    /** {@code pp} after an ALTER TABLE renames or drops columns; refused when it drops a key column. */
    private static Placement.Partitioned renamedKeys(Table table, Placement.Partitioned pp, UnaryOperator<String> column) {
        List<String> keys = new ArrayList<>();
        for (String k : pp.keys()) {
            String renamed = column.apply(table.schema().column(table.schema().indexOf(k)).name());
            if (renamed == null) {
                throw new IllegalArgumentException("column " + k + " is a partition key of table " + table.name() + " (" + pp
                        + "): set another PLACEMENT before dropping it");
            }
            keys.add(renamed);
        }
        return new Placement.Partitioned(pp.kind(), pp.count(), keys);
    }

    /**
     * The {@code count - 1} values that start partitions 1, 2, ... of a RANGE partitioning: the
     * quantiles of the key's values now (a sample of at most {@value #RANGE_SAMPLE} rows).
     */
    private static List<Object> rangeBounds(Table table, int key, int count) {
        List<Object> sample = new ArrayList<>();
        try (TableSnapshot snapshot = table.snapshot()) {
            long rows = snapshot.rowCount();
            long step = Math.max(1, rows / RANGE_SAMPLE);
            long at = 0;
            for (TablePart part : snapshot.parts()) {
                for (long r = Math.floorMod(-at, step); r < part.rowCount(); r += step) {
                    int vid = part.column(key).indexVector().get((int) r);
                    if (vid != part.column(key).nullVid() && !part.deleted().isDeleted((int) r)) {
                        sample.add(part.column(key).dictionary().stored(vid));
                    }
                }
                at += part.rowCount();
            }
        }
        if (sample.isEmpty()) {
            throw new IllegalArgumentException("PP(" + count + ") BY RANGE takes its bounds from the rows of the table, and "
                    + table.name() + " has no value in that column yet: load it, then ALTER TABLE " + table.name()
                    + " SET PLACEMENT PP(" + count + ") BY RANGE (" + table.schema().column(key).name() + ")");
        }
        sample.sort(null);
        List<Object> bounds = new ArrayList<>(count - 1);
        for (int i = 1; i < count; i++) {
            bounds.add(sample.get((int) ((long) i * sample.size() / count)));
        }
        return bounds;
    }

    private static final int RANGE_SAMPLE = 100_000;

    /**
     * Deals the table's rows to the partitions of {@code partitioning} anew: new parts are built
     * beside the old ones (readers go on reading those) and swapped in at once, {@code beforeSwap}
     * run between the two. The caller holds the table's writes.
     */
    private void repartition(Table table, Partitioning partitioning, Runnable beforeSwap) {
        int rowsPerPart = config.rowsPerPart();
        List<TablePart> built = new ArrayList<>();
        try (TableSnapshot snapshot = table.snapshot()) {
            PartBuilder[] open = new PartBuilder[partitioning.count()];
            long rowNumber = 0;
            for (TablePart part : snapshot.parts()) {
                int[] of = partitioning.partitionsOf(part, rowNumber);
                rowNumber += part.rowCount();
                for (int p : of) {
                    if (open[p] == null) {
                        open[p] = table.newPart().inPartition(partitioning, p);
                    }
                }
                PartBuilder.scatter(part, of, open);
                for (int p = 0; p < open.length; p++) {
                    if (open[p] != null && open[p].rowCount() >= rowsPerPart) {
                        built.add(open[p].build(partitionPlacement(p), false));
                        open[p] = null;
                    }
                }
            }
            for (int p = 0; p < open.length; p++) {
                if (open[p] != null && open[p].rowCount() > 0) {
                    built.add(open[p].build(partitionPlacement(p), false));
                }
            }
            beforeSwap.run();
            table.replacePartsKeepingRows(snapshot.parts(), built);
        } catch (RuntimeException | Error e) {
            built.forEach(TablePart::release);
            throw e;
        }
    }

    /** Where a part's columns go under {@code placement}; null: the whole part on the next node in turn. */
    private IntFunction<ColumnPlacement> partPlacement(Placement placement) {
        Placement p = placement != null ? placement : new Placement.Node(nextPartNode());
        return c -> p.forColumn(c, topology);
    }

    /**
     * Places a table anew, as {@link Database#setPlacement} says (its comment tells what moves,
     * what waits and what is returned); the database is known open.
     */
    long set(Table table, Placement placement) {
        if (placement != null) {
            placement.checkAgainst(topology);
        }
        long[] failed = {0};
        merger.whileNotMerging(table, () -> {
            table.lockWrites();
            try {
                if (placement instanceof Placement.Partitioned pp) {
                    Partitioning partitioning = resolve(table, pp, null);
                    Placement placedBefore = placements.get(table);
                    Partitioning dealtBefore = partitionings.get(table);
                    try {
                        // the new partitioning is logged before the parts dealt by it, so that a file database
                        // replaying the two finds each part's partition under the partitioning it was dealt by
                        // (Recovery keeps a part's partition only where its rows show it)
                        repartition(table, partitioning, () -> {
                            placements.put(table, named(table, pp));
                            partitionings.put(table, partitioning);
                            catalog.changed();
                        });
                    } catch (RuntimeException | Error e) {
                        if (partitionings.get(table) == partitioning) { // the catalog was logged, the parts were not swapped
                            restoreEntries(table, placedBefore, dealtBefore);
                            catalog.changed();
                        }
                        throw e;
                    }
                    return;
                } else {
                    try (TableSnapshot snapshot = table.snapshot()) {
                        for (TablePart part : snapshot.parts()) {
                            failed[0] += part.moveTo(partPlacement(placement));
                        }
                    }
                    partitionings.remove(table); // the parts keep their partitions; new rows are no longer dealt
                    if (placement != null) {
                        placements.put(table, placement);
                    } else {
                        placements.remove(table);
                    }
                }
                catalog.changed(); // plans of the table are planned anew: affinities follow the pages
            } finally {
                table.unlockWrites();
            }
        });
        return failed[0];
    }

    /**
     * {@code old}'s placement, for the table an ALTER TABLE makes of it: a PP placement's keys as
     * {@code column} names them anew (refused when it drops one); null for the default.
     */
    Placement altered(Table old, UnaryOperator<String> column) {
        Placement placement = placements.get(old);
        if (placement instanceof Placement.Partitioned pp) {
            placement = renamedKeys(old, pp, column);
        }
        return placement;
    }

    /**
     * Places {@code replacement}, the table an ALTER TABLE fills in {@code old}'s stead and not in
     * the catalog yet, as {@code placement} ({@link #altered}): a RANGE partitioning keeps
     * {@code old}'s bounds.
     */
    void placeAltered(Table old, Table replacement, Placement placement) {
        if (placement instanceof Placement.Partitioned pp) {
            // resolved first: a failure leaves no entry behind for the detached table
            partitionings.put(replacement, resolve(replacement, pp, partitionings.get(old)));
        }
        if (placement != null) {
            placements.put(replacement, placement);
        }
    }

    private void restoreEntries(Table table, Placement placement, Partitioning partitioning) {
        if (placement == null) {
            placements.remove(table);
        } else {
            placements.put(table, placement);
        }
        if (partitioning == null) {
            partitionings.remove(table);
        } else {
            partitionings.put(table, partitioning);
        }
    }

    /** Forgets the table's placement: it was dropped, or replaced by an ALTER TABLE, or never made it into the catalog. */
    void forget(Table table) {
        placements.remove(table);
        partitionings.remove(table);
    }
}
