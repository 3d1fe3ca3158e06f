package io.numacol.database;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.placement.PageSocketMap;
import io.numacol.placement.PlacerAlgorithm;
import io.numacol.placement.Utilization;
import io.numacol.scheduler.BandwidthModel;
import io.numacol.storage.Catalog;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.IndexVector;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.NumaNode;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The DataPlacer (thesis §6.3): every period it reads the utilization histories of the nodes and
 * of the table parts ({@link Utilization}) and takes at most one action that {@link
 * PlacerAlgorithm} (Algorithms 1-3, Table 6.1) chooses: move a hot part to a colder node, cut one
 * in two halves on two nodes, or merge the pieces of a table it cut once they are idle onto the
 * coldest node. Moves keep the pages' addresses, so queries read on; cuts and merges build the
 * new parts beside the old and swap them in at once, and the old parts are freed when their last
 * reader lets go. Every action is kept (the last {@value #KEPT_ACTIONS}) for {@code
 * sys.placer_actions}, with the figures that justified it.
 *
 * <p>The speeds that size the eligibility windows are measured at start-up on a mock column (a
 * page move and a part build, as the thesis calibrates on a mock table). A node's memory
 * throughput bound is the bandwidth model's when one is on, else unbounded: numacol has no
 * measure of the hardware's here.
 */
final class DataPlacer {
    static final int KEPT_ACTIONS = 1000;
    private static final System.Logger LOG = System.getLogger(DataPlacer.class.getName());

    /** One action as {@code sys.placer_actions} shows it. */
    record ActionRecord(Instant at, long period, String schema, String table, String action, long rows, int from, int to, String why) {
    }

    private final Database db;
    private final PlacerAlgorithm algorithm;
    private final Deque<ActionRecord> actions = new ArrayDeque<>();
    /** Actions taken since the start, per kind (move, partition, merge): the kept records drop the oldest. Guarded by this. */
    private final Map<String, Long> counts = new HashMap<>();
    /** Per part the placer cut from another: into how many pieces that part's original is cut. Guarded by this. */
    private final IdentityHashMap<TablePart, Integer> pieces = new IdentityHashMap<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean paused;
    /** Periods decided so far; written under this object's monitor. */
    private volatile long periods;

    DataPlacer(Database db, Duration period) {
        this.db = db;
        double[] speeds = calibrate();
        this.algorithm = new PlacerAlgorithm(PlacerAlgorithm.Parameters.defaults(period, speeds[0], speeds[1]));
        this.thread = Thread.ofPlatform().daemon().name("numacol-data-placer").unstarted(this::loop);
    }

    PlacerAlgorithm.Parameters parameters() {
        return algorithm.parameters();
    }

    void start() {
        thread.start();
    }

    /** While paused the placer decides nothing (histories are still sampled). */
    void pause(boolean pause) {
        paused = pause;
    }

    void close() {
        closed = true;
        thread.interrupt();
        try {
            if (thread.isAlive()) {
                thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        boolean warned = false;
        while (!closed) {
            try {
                Thread.sleep(algorithm.parameters().period());
            } catch (InterruptedException e) {
                return;
            }
            if (paused) {
                continue;
            }
            try {
                runOnce();
            } catch (RuntimeException e) {
                if (!warned) { // a failed action changes nothing; say it once, not every period
                    LOG.log(System.Logger.Level.WARNING, "the numacol DataPlacer could not act (said once)", e);
                    warned = true;
                }
            }
        }
    }

    /** The periods decided so far (a paused placer decides none). */
    long periods() {
        return periods;
    }

    /** The actions taken, oldest first. */
    synchronized List<ActionRecord> actions() {
        return List.copyOf(actions);
    }

    /** Actions of {@code kind} (move, partition, merge) taken since the placer started. */
    synchronized long count(String kind) {
        return counts.getOrDefault(kind, 0L);
    }

    private synchronized void remember(ActionRecord r) {
        counts.merge(r.action(), 1L, Long::sum);
        if (actions.size() == KEPT_ACTIONS) {
            actions.removeFirst();
        }
        actions.addLast(r);
    }

    /** A table part as the algorithm sees it. */
    private record PartUnit(Table owner, TablePart part, int node, long pages, int partitions, Utilization utilization)
            implements PlacerAlgorithm.Unit {
        @Override
        public String table() {
            return owner.displayName(); // one name per table, whatever its schema
        }

        @Override
        public Utilization.Rate rate(Duration window) {
            return utilization.part(part, window);
        }
    }

    /** One period: decides and acts; returns what it did. Runs on the placer's thread, or a test's. */
    synchronized Optional<ActionRecord> runOnce() {
        periods++;
        Utilization u = db.utilization();
        Duration period = algorithm.parameters().period();
        BandwidthModel model = db.scheduler().bandwidthModel();
        List<PlacerAlgorithm.NodeLoad> nodes = new ArrayList<>();
        for (NumaNode n : db.topology().nodes()) {
            nodes.add(new PlacerAlgorithm.NodeLoad(n.id(), n.cpus().length,
                    model == null ? Double.MAX_VALUE : model.bytesPerSecond(), u.node(n.id(), period)));
        }
        List<PartUnit> units = new ArrayList<>();
        IdentityHashMap<Table, List<PlacerAlgorithm.Unit>> cut = new IdentityHashMap<>();
        List<TableSnapshot> snapshots = new ArrayList<>();
        try {
            for (Table table : db.catalog().tables()) {
                if (table.isDropped()) {
                    continue;
                }
                TableSnapshot snapshot;
                try {
                    snapshot = table.snapshot();
                } catch (IllegalStateException dropped) {
                    continue;
                }
                snapshots.add(snapshot);
                for (TablePart part : snapshot.parts()) {
                    int node = PageSocketMap.homeNode(db.memory(), part); // as scans see it
                    long bytes = part.columns().stream().flatMap(c -> c.allSegments().stream()).mapToLong(MemorySegment::byteSize).sum();
                    long pages = (bytes + db.memory().pageSize() - 1) / db.memory().pageSize();
                    Integer n = pieces.get(part);
                    // a part of under two blocks is not cut: it counts as cut as far as it can be; nor is a
                    // part of a PP table: its table is partitioned as its user asked, and a cut would split
                    // a partition of a table group over two nodes
                    int partitions = n != null ? n
                            : part.rowCount() < 2 * IndexVector.BLOCK_ROWS || part.partitioning() != null ? nodes.size() : 1;
                    PartUnit unit = new PartUnit(table, part, node, pages, partitions, u);
                    units.add(unit);
                    if (n != null) {
                        cut.computeIfAbsent(table, t -> new ArrayList<>()).add(unit);
                    }
                }
            }
            // pieces a background merge, an UPDATE or a DROP has replaced since are pieces no more
            Set<TablePart> current = Collections.newSetFromMap(new IdentityHashMap<>());
            units.forEach(unit -> current.add(unit.part()));
            pieces.keySet().retainAll(current);
            List<PlacerAlgorithm.Partitioned> partitioned = new ArrayList<>();
            cut.forEach((table, list) -> {
                if (list.size() > 1) {
                    partitioned.add(new PlacerAlgorithm.Partitioned(table.displayName(), list));
                }
            });
            Optional<PlacerAlgorithm.Action> action = algorithm.decide(nodes, units, partitioned);
            if (action.isEmpty()) {
                return Optional.empty();
            }
            Optional<ActionRecord> done = act(action.get());
            done.ifPresent(this::remember);
            return done;
        } finally {
            snapshots.forEach(TableSnapshot::close);
        }
    }

    private Optional<ActionRecord> act(PlacerAlgorithm.Action action) {
        return switch (action) {
            case PlacerAlgorithm.Move m -> {
                PartUnit u = (PartUnit) m.unit();
                boolean[] moved = {false};
                db.whileNotMerging(u.owner(), () -> {
                    u.owner().lockWrites();
                    try {
                        if (u.owner().parts().contains(u.part())) {
                            u.part().moveTo(c -> ColumnPlacement.onNode(m.to()));
                            moved[0] = true;
                        }
                    } finally {
                        u.owner().unlockWrites();
                    }
                });
                String why = m.why();
                if (moved[0] && u.part().partitioning() != null) {
                    List<String> along = moveGroupPartition(u.owner(), u.part(), m.to());
                    why += along.isEmpty() ? "" : "; with partition " + u.part().partition() + " of its table group: " + String.join(", ", along);
                }
                yield moved[0] ? Optional.of(new ActionRecord(Instant.now(), periods, u.owner().schemaName(), u.owner().name(), "move", u.part().rowCount(), m.from(),
                        m.to(), why)) : Optional.empty();
            }
            case PlacerAlgorithm.Partition p -> {
                PartUnit u = (PartUnit) p.unit();
                int half = u.part().rowCount() / 2;
                List<TablePart> halves = List.of(build(u.owner(), List.of(u.part()), 0, half, p.from()),
                        build(u.owner(), List.of(u.part()), half, u.part().rowCount(), p.to()));
                if (!swap(u.owner(), List.of(u.part()), halves)) {
                    yield Optional.empty();
                }
                pieces.remove(u.part());
                halves.forEach(h -> pieces.put(h, 2 * u.partitions()));
                yield Optional.of(new ActionRecord(Instant.now(), periods, u.owner().schemaName(), u.owner().name(), "partition", u.part().rowCount(), p.from(), p.to(),
                        p.why()));
            }
            case PlacerAlgorithm.Merge m -> {
                List<PartUnit> parts = m.table().pieces().stream().map(PartUnit.class::cast).toList();
                Table owner = parts.getFirst().owner();
                List<TablePart> old = parts.stream().map(PartUnit::part).toList();
                long rows = old.stream().mapToLong(TablePart::rowCount).sum();
                if (rows > Integer.MAX_VALUE - 8) {
                    old.forEach(pieces::remove); // too big to be one part again: they stay pieces, and stop counting as cut
                    yield Optional.empty();
                }
                TablePart merged = build(owner, old, -1, -1, m.to());
                if (!swap(owner, old, List.of(merged))) {
                    yield Optional.empty();
                }
                old.forEach(pieces::remove);
                yield Optional.of(new ActionRecord(Instant.now(), periods, owner.schemaName(), owner.name(), "merge", rows, -1, m.to(), m.why()));
            }
        };
    }

    /**
     * Moves the parts of the same partition of the tables in {@code moved}'s table group (PP
     * alike, thesis §6.3) to {@code node} too, so that their joins by partition stay on one
     * node; returns the names of the tables whose parts moved.
     */
    private List<String> moveGroupPartition(Table owner, TablePart moved, int node) {
        List<String> along = new ArrayList<>();
        for (Table table : db.catalog().tables()) {
            // only tables with a part of this partition of the group are locked: an UPDATE of any
            // other table does not hold the placer up
            if (table.isDropped() || table.parts().stream().noneMatch(part -> part != moved && sameGroupPartition(part, moved))) {
                continue;
            }
            db.whileNotMerging(table, () -> {
                table.lockWrites();
                try {
                    boolean any = false;
                    for (TablePart part : table.parts()) {
                        if (part != moved && sameGroupPartition(part, moved) && PageSocketMap.homeNode(db.memory(), part) != node) {
                            part.moveTo(c -> ColumnPlacement.onNode(node));
                            any = true;
                        }
                    }
                    if (any && table != owner) {
                        along.add(table.displayName());
                    }
                } finally {
                    table.unlockWrites();
                }
            });
        }
        return along;
    }

    private static boolean sameGroupPartition(TablePart part, TablePart moved) {
        return part.partitioning() != null && part.partition() == moved.partition() && part.partitioning().sameGroup(moved.partitioning());
    }

    /** A part of {@code sources}' rows ({@code [from, to)} of the single source, or all for from < 0), on {@code node}. */
    private static TablePart build(Table table, List<TablePart> sources, int from, int to, int node) {
        PartBuilder builder = table.newPart();
        for (TablePart source : sources) {
            if (from < 0) {
                builder.appendPart(source);
            } else {
                builder.appendRows(source, from, to);
            }
        }
        return builder.build(c -> ColumnPlacement.onNode(node), false);
    }

    /** Swaps the new parts in for the old unless the table changed meanwhile; frees the new ones then. */
    private boolean swap(Table table, List<TablePart> old, List<TablePart> replacement) {
        boolean[] swapped = {false};
        db.whileNotMerging(table, () -> {
            try {
                swapped[0] = table.tryReplaceParts(old, replacement);
            } catch (IllegalArgumentException | IllegalStateException e) {
                // dropped, or its parts replaced since the decision
            }
        });
        if (!swapped[0]) {
            replacement.forEach(TablePart::release);
        }
        return swapped[0];
    }

    /**
     * Nanoseconds per page of a page move and of a part build, measured on a mock column of 64K
     * rows: they size Algorithm 1's windows (how long an action on a part would take).
     */
    private double[] calibrate() {
        int rows = 1 << 16;
        int last = db.topology().nodeCount() - 1;
        long pageSize = db.memory().pageSize();
        NodeArena arena = db.memory().newArena();
        double move;
        try {
            MemorySegment mock = arena.allocate(256 * pageSize, MemoryPlacement.onNode(0), Component.OTHER);
            mock.fill((byte) 1);
            long start = System.nanoTime();
            db.memory().movePages(mock.address(), mock.byteSize(), MemoryPlacement.onNode(last));
            move = Math.max(1, (System.nanoTime() - start) / 256.0);
        } finally {
            arena.close();
        }
        Table mock = db.catalog().detached(Catalog.MAIN, "placer_calibration", TableSchema.of(
                new TableSchema.ColumnDef("v", ColumnType.bigint(), false)));
        PartBuilder builder = mock.newPart();
        long start = System.nanoTime();
        for (long i = 0; i < rows; i++) {
            builder.addRow(i * 7919 % rows);
        }
        TablePart part = builder.build(c -> ColumnPlacement.onNode(last), false);
        long nanos = System.nanoTime() - start;
        long bytes = part.columns().stream().flatMap(c -> c.allSegments().stream()).mapToLong(MemorySegment::byteSize).sum();
        part.release();
        double partition = Math.max(1, nanos / Math.max(1.0, (double) bytes / pageSize));
        return new double[] {move, partition};
    }
}
