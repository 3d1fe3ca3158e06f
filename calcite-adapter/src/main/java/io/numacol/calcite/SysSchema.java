package io.numacol.calcite;

import io.numacol.calcite.cache.PlanCache;
import io.numacol.database.Database;
import io.numacol.storage.NamedSequence;
import io.numacol.memory.Component;
import io.numacol.placement.PageSocketMap;
import io.numacol.placement.Placement;
import io.numacol.placement.PlacerAlgorithm;
import io.numacol.placement.StealingCalibration;
import io.numacol.placement.Utilization;
import io.numacol.scheduler.BandwidthModel;
import io.numacol.scheduler.DataUsage;
import io.numacol.scheduler.StealPolicy;
import io.numacol.scheduler.TaskClass;
import io.numacol.storage.Column;
import io.numacol.storage.IndexDef;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.type.SqlTypeName;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

import static io.numacol.calcite.SystemTable.col;

/**
 * Schema {@code sys}: what numacol holds where. {@code nodes} (the topology, the bytes numacol
 * keeps on each node, its share of the memory limit, and of those bytes the hash tables of
 * running statements), {@code tables}, {@code columns} (per part: type, dictionary size, bitcase,
 * bytes per component) and {@code placements} (per part, column and component: pages per node as
 * the kernel reports them through a PageSocketMap, on a fake topology numacol's own record, and
 * the table's placement {@code spec} as ALTER TABLE .. SET PLACEMENT set it, DEFAULT if never,
 * and the part's {@code partition_id} when the table was placed PP),
 * {@code indexes}, {@code sequences} (each CREATE SEQUENCE's counter: the number nextval gives
 * next, whether it is past its end, and where the log has it, which a crash goes on from),
 * {@code constraints} (each PRIMARY KEY, UNIQUE and FOREIGN KEY constraint, its columns in
 * key order; each CHECK constraint, the columns it reads and its expression), {@code plan_cache} (the {@link PlanCache} of the database's statements),
 * {@code utilization} (per node: busy cores and bytes read per second over the last second and
 * ten, from {@link Utilization}; the {@code source} column says what the figures are),
 * {@code part_utilization} (the same per table part) and {@code task_classes} (the moving
 * average of each task class's bytes per second, which the ADAPTIVE steal policy reads),
 * {@code placer} (whether the DataPlacer runs, and its parameters), {@code placer_actions}
 * (what it did, when, and the figures that justified it), {@code stealing} (the ADAPTIVE steal
 * policy's threshold and its source) and {@code steal_calibration} (the experiment that found it).
 */
public final class SysSchema extends AbstractSchema {
    public static final String NAME = "sys";

    private final Database db;

    public SysSchema(Database db) {
        this.db = db;
    }

    @Override
    protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
        return Map.ofEntries(
                Map.entry("nodes", new SystemTable(List.of(
                        col("node_id", SqlTypeName.INTEGER), col("os_node", SqlTypeName.INTEGER),
                        col("cpus", SqlTypeName.VARCHAR), col("memory_bytes", SqlTypeName.BIGINT),
                        col("free_bytes", SqlTypeName.BIGINT), col("numacol_bytes", SqlTypeName.BIGINT),
                        col("distances", SqlTypeName.VARCHAR), col("topology", SqlTypeName.VARCHAR),
                        col("memory_limit_bytes", SqlTypeName.BIGINT), col("limit_used_bytes", SqlTypeName.BIGINT),
                        col("hash_table_bytes", SqlTypeName.BIGINT)),
                        root -> nodeRows())),
                Map.entry("tables", new SystemTable(List.of(
                        col("schema_name", SqlTypeName.VARCHAR), col("table_name", SqlTypeName.VARCHAR), col("row_count", SqlTypeName.BIGINT),
                        col("part_count", SqlTypeName.INTEGER), col("bytes", SqlTypeName.BIGINT),
                        col("deleted_rows", SqlTypeName.BIGINT)), root -> tableRows())),
                Map.entry("columns", new SystemTable(List.of(
                        col("schema_name", SqlTypeName.VARCHAR), col("table_name", SqlTypeName.VARCHAR), col("column_name", SqlTypeName.VARCHAR),
                        col("ordinal", SqlTypeName.INTEGER), col("type", SqlTypeName.VARCHAR),
                        col("nullable", SqlTypeName.BOOLEAN), col("part", SqlTypeName.INTEGER),
                        col("row_count", SqlTypeName.BIGINT), col("dictionary_size", SqlTypeName.INTEGER),
                        col("bitcase", SqlTypeName.INTEGER), col("dictionary_bytes", SqlTypeName.BIGINT),
                        col("index_vector_bytes", SqlTypeName.BIGINT), col("index_bytes", SqlTypeName.BIGINT),
                        col("placement", SqlTypeName.VARCHAR)), root -> columnRows())),
                Map.entry("placements", new SystemTable(List.of(
                        col("schema_name", SqlTypeName.VARCHAR), col("table_name", SqlTypeName.VARCHAR), col("column_name", SqlTypeName.VARCHAR),
                        col("part", SqlTypeName.INTEGER), col("component", SqlTypeName.VARCHAR),
                        col("bytes", SqlTypeName.BIGINT), col("node", SqlTypeName.INTEGER),
                        col("pages", SqlTypeName.BIGINT), col("interleaved", SqlTypeName.BOOLEAN),
                        col("source", SqlTypeName.VARCHAR), col("spec", SqlTypeName.VARCHAR),
                        col("partition_id", SqlTypeName.INTEGER)), root -> placementRows())),
                Map.entry("indexes", new SystemTable(List.of(
                        col("schema_name", SqlTypeName.VARCHAR), col("index_name", SqlTypeName.VARCHAR), col("table_name", SqlTypeName.VARCHAR),
                        col("columns", SqlTypeName.VARCHAR), col("is_unique", SqlTypeName.BOOLEAN),
                        col("built", SqlTypeName.BOOLEAN)), root -> indexRows())),
                Map.entry("sequences", new SystemTable(List.of(
                        col("schema_name", SqlTypeName.VARCHAR), col("sequence_name", SqlTypeName.VARCHAR),
                        col("next_value", SqlTypeName.BIGINT), col("exhausted", SqlTypeName.BOOLEAN),
                        col("logged_next_value", SqlTypeName.BIGINT)), root -> sequenceRows())),
                Map.entry("constraints", new SystemTable(List.of(
                        col("schema_name", SqlTypeName.VARCHAR), col("table_name", SqlTypeName.VARCHAR),
                        col("constraint_name", SqlTypeName.VARCHAR), col("constraint_type", SqlTypeName.VARCHAR),
                        col("column_names", SqlTypeName.VARCHAR), col("check_clause", SqlTypeName.VARCHAR)), root -> constraintRows())),
                Map.entry("utilization", new SystemTable(List.of(
                        col("node_id", SqlTypeName.INTEGER), col("cpus", SqlTypeName.INTEGER),
                        col("busy_cores", SqlTypeName.DOUBLE), col("bytes_per_second", SqlTypeName.DOUBLE),
                        col("busy_cores_10s", SqlTypeName.DOUBLE), col("bytes_per_second_10s", SqlTypeName.DOUBLE),
                        col("busy_seconds_total", SqlTypeName.DOUBLE), col("bytes_total", SqlTypeName.BIGINT),
                        col("source", SqlTypeName.VARCHAR)), root -> utilizationRows())),
                Map.entry("part_utilization", new SystemTable(List.of(
                        col("schema_name", SqlTypeName.VARCHAR), col("table_name", SqlTypeName.VARCHAR), col("part", SqlTypeName.INTEGER),
                        col("node", SqlTypeName.INTEGER),
                        col("busy_cores", SqlTypeName.DOUBLE), col("bytes_per_second", SqlTypeName.DOUBLE),
                        col("busy_seconds_total", SqlTypeName.DOUBLE), col("bytes_total", SqlTypeName.BIGINT)),
                        root -> partUtilizationRows())),
                Map.entry("task_classes", new SystemTable(List.of(
                        col("task_class", SqlTypeName.VARCHAR), col("bytes_per_second_average", SqlTypeName.DOUBLE),
                        col("bound", SqlTypeName.BOOLEAN)),
                        root -> taskClassRows())),
                Map.entry("stealing", new SystemTable(List.of(
                        col("steal_policy", SqlTypeName.VARCHAR), col("threshold_bytes_per_second", SqlTypeName.DOUBLE),
                        col("source", SqlTypeName.VARCHAR), col("decision", SqlTypeName.VARCHAR)), root -> stealingRows())),
                Map.entry("steal_calibration", new SystemTable(List.of(
                        col("exponent", SqlTypeName.INTEGER), col("stealing_queries_per_second", SqlTypeName.DOUBLE),
                        col("bound_queries_per_second", SqlTypeName.DOUBLE), col("task_bytes_per_second", SqlTypeName.DOUBLE),
                        col("stealing_wins", SqlTypeName.BOOLEAN)), root -> stealCalibrationRows())),
                Map.entry("placer_actions", new SystemTable(List.of(
                        col("acted_at", SqlTypeName.VARCHAR), col("acted_at_millis", SqlTypeName.BIGINT),
                        col("schema_name", SqlTypeName.VARCHAR), col("table_name", SqlTypeName.VARCHAR),
                        col("action", SqlTypeName.VARCHAR), col("row_count", SqlTypeName.BIGINT), col("from_node", SqlTypeName.INTEGER),
                        col("to_node", SqlTypeName.INTEGER), col("why", SqlTypeName.VARCHAR)), root -> placerActionRows())),
                Map.entry("placer", new SystemTable(List.of(
                        col("enabled", SqlTypeName.BOOLEAN), col("period_ms", SqlTypeName.BIGINT),
                        col("eligibility", SqlTypeName.DOUBLE), col("imbalance", SqlTypeName.DOUBLE),
                        col("saturation", SqlTypeName.DOUBLE), col("move_ns_per_page", SqlTypeName.DOUBLE),
                        col("partition_ns_per_page", SqlTypeName.DOUBLE)), root -> placerRows())),
                Map.entry("plan_cache", new SystemTable(List.of(
                        col("entries", SqlTypeName.BIGINT), col("capacity", SqlTypeName.BIGINT), col("hits", SqlTypeName.BIGINT),
                        col("misses", SqlTypeName.BIGINT), col("evictions", SqlTypeName.BIGINT), col("bytes", SqlTypeName.BIGINT),
                        col("capacity_bytes", SqlTypeName.BIGINT)), root -> planCacheRows())),
                Map.entry("storage", new SystemTable(List.of(
                        col("kind", SqlTypeName.VARCHAR), col("directory", SqlTypeName.VARCHAR),
                        col("durability", SqlTypeName.VARCHAR), col("log_bytes", SqlTypeName.BIGINT),
                        col("checkpoint_lsn", SqlTypeName.BIGINT), col("last_checkpoint", SqlTypeName.TIMESTAMP),
                        col("part_files", SqlTypeName.BIGINT)), root -> storageRows())));
    }

    /**
     * Where the data lives: a file database's directory, what its commits wait for, how much log a
     * restart would replay (the bytes since the last checkpoint), that checkpoint and its part files;
     * one row {@code memory} with nulls for a database in memory.
     */
    private List<Object[]> storageRows() {
        return db.durableStore().map(store -> {
            var s = store.status();
            return List.<Object[]>of(new Object[] {"file", s.directory().toString(), s.durability(), s.logBytesSinceCheckpoint(),
                s.checkpointLsn(), s.lastCheckpointMillis() == 0 ? null : s.lastCheckpointMillis(), s.partFiles()});
        }).orElseGet(() -> List.<Object[]>of(new Object[] {"memory", null, null, null, null, null, null}));
    }

    private List<Object[]> planCacheRows() {
        PlanCache cache = PlanCache.of(db);
        return List.<Object[]>of(new Object[] {cache.entries(), (long) cache.capacity(), cache.hits(), cache.misses(), cache.evictions(),
                cache.bytes(), cache.capacityBytes()});
    }

    /** CREATE INDEX is recorded, not built (IndexDef says why): {@code built} is false, so a user sees it. */
    private List<Object[]> indexRows() {
        List<Object[]> rows = new ArrayList<>();
        for (IndexDef ix : db.catalog().indexes()) {
            rows.add(new Object[] {ix.schema(), ix.name(), ix.table(), String.join(", ", ix.columns()), ix.unique(), false});
        }
        return rows;
    }

    /**
     * Each PRIMARY KEY and UNIQUE constraint (enforced, unlike a UNIQUE index), its columns in key
     * order; then each CHECK constraint, the columns it reads in the order it names them, and its
     * expression as written.
     */
    private List<Object[]> constraintRows() {
        List<Object[]> rows = new ArrayList<>();
        db.catalog().tables().stream().filter(t -> !t.isDropped())
                .sorted(Comparator.comparing(Table::schemaName).thenComparing(Table::name)).forEach(table -> {
                    TableSchema schema = table.schema();
                    schema.keys().stream().sorted(Comparator.comparing(k -> !k.primary())).forEach(k -> rows.add(new Object[] {
                        table.schemaName(), table.name(), k.name(), k.primary() ? "PRIMARY KEY" : "UNIQUE",
                        k.columns().stream().map(c -> schema.column(c).name()).collect(Collectors.joining(", ")), null}));
                    schema.foreignKeys().forEach(f -> rows.add(new Object[] {table.schemaName(), table.name(), f.name(), "FOREIGN KEY",
                        f.columns().stream().map(c -> schema.column(c).name()).collect(Collectors.joining(", ")), null}));
                    schema.checks().forEach(c -> rows.add(new Object[] {table.schemaName(), table.name(), c.name(), "CHECK",
                        String.join(", ", CheckExpressions.columns(c.expression(), schema)), c.expression()}));
                });
        return rows;
    }

    private List<Object[]> nodeRows() {
        Topology t = db.topology();
        List<Object[]> rows = new ArrayList<>();
        for (NumaNode n : t.nodes()) {
            rows.add(new Object[] {n.id(), n.osNode(), Arrays.toString(n.cpus()), n.memoryBytes(),
                t.freeMemory(n.id()), db.memory().accounting().bytes(n.id()), Arrays.toString(n.distances()),
                t.description(), db.memory().limit().nodeBytes(n.id()), db.memory().limit().usedBytes(n.id()),
                db.memory().accounting().bytes(n.id(), Component.HASH_TABLE)});
        }
        return rows;
    }

    private List<Object[]> tableRows() {
        List<Object[]> rows = new ArrayList<>();
        forEachTable((table, parts) -> {
            long bytes = parts.stream().flatMap(p -> p.columns().stream())
                    .mapToLong(c -> Arrays.stream(Component.values()).mapToLong(c::byteSize).sum()).sum();
            // row_count: rows a query sees; deleted_rows: rows still held until a merge compacts their part
            rows.add(new Object[] {table.schemaName(), table.name(), parts.stream().mapToLong(TablePart::liveRowCount).sum(), parts.size(), bytes,
                parts.stream().mapToLong(p -> p.deleted().count()).sum()});
        });
        return rows;
    }

    private List<Object[]> columnRows() {
        List<Object[]> rows = new ArrayList<>();
        forEachTable((table, parts) -> {
            for (int p = 0; p < parts.size(); p++) {
                for (int c = 0; c < table.schema().size(); c++) {
                    TableSchema.ColumnDef def = table.schema().column(c);
                    Column col = parts.get(p).column(c);
                    rows.add(new Object[] {table.schemaName(), table.name(), def.name(), c + 1, def.type().toString(), def.nullable(), p,
                        (long) col.rowCount(), col.dictionary().size(), col.bitcase(),
                        col.byteSize(Component.DICTIONARY), col.byteSize(Component.INDEX_VECTOR),
                        col.byteSize(Component.INDEX), col.placement().toString()});
                }
            }
        });
        return rows;
    }

    /** Figures of numacol's own accounting: these machines give no CPU PMU (see DataUsage). */
    static final String UTILIZATION_SOURCE = "numacol task accounting: run time of scan tasks on this node's data, "
            + "IndexVector bytes of the rows they scanned (no hardware counters)";

    private List<Object[]> utilizationRows() {
        Utilization u = db.utilization();
        DataUsage usage = db.scheduler().dataUsage();
        BandwidthModel model = db.scheduler().bandwidthModel();
        String source = model == null ? UTILIZATION_SOURCE : UTILIZATION_SOURCE + "; scans wait under a bandwidth model of "
                + model.bytesPerSecond() + " bytes/s per node, remote reads counted " + BandwidthModel.REMOTE_FACTOR + "x";
        List<Object[]> rows = new ArrayList<>();
        for (NumaNode n : db.topology().nodes()) {
            Utilization.Rate last = u.node(n.id(), Duration.ofSeconds(1));
            Utilization.Rate ten = u.node(n.id(), Duration.ofSeconds(10));
            rows.add(new Object[] {n.id(), n.cpus().length, last.busyCores(), last.bytesPerSecond(), ten.busyCores(),
                ten.bytesPerSecond(), usage.busyNanos(n.id()) / 1e9, usage.bytes(n.id()), source});
        }
        return rows;
    }

    /** Per part, the last second's rates and the totals; {@code node} holds most of its IndexVector pages. */
    private List<Object[]> partUtilizationRows() {
        Utilization u = db.utilization();
        List<Object[]> rows = new ArrayList<>();
        forEachTable((table, parts) -> {
            for (int p = 0; p < parts.size(); p++) {
                TablePart part = parts.get(p);
                PageSocketMap psm = new PageSocketMap(db.memory());
                part.columns().forEach(c -> psm.add(c.indexVector().segment()));
                Utilization.Rate last = u.part(part, Duration.ofSeconds(1));
                rows.add(new Object[] {table.schemaName(), table.name(), p, psm.majorityNode(), last.busyCores(), last.bytesPerSecond(),
                    part.usage().busyNanos() / 1e9, part.usage().bytes()});
            }
        });
        return rows;
    }

    private List<Object[]> taskClassRows() {
        DataUsage usage = db.scheduler().dataUsage();
        return Arrays.stream(TaskClass.values()).map(c -> new Object[] {c.name(), usage.throughput(c), db.stealBinds(c)}).toList();
    }

    /** The ADAPTIVE policy's threshold and where it comes from. */
    private List<Object[]> stealingRows() {
        StealPolicy policy = db.config().stealPolicy();
        double threshold = db.stealThreshold();
        StealingCalibration.Result calibration = db.stealCalibration();
        String source;
        if (db.config().stealThreshold() > 0) {
            source = "connection property stealThreshold";
        } else if (calibration != null) {
            source = "calibrated (thesis §6.4 experiment" + (db.config().nodeBandwidth() > 0 ? ", under the bandwidth model)" : ")");
        } else if (db.stealCalibrating()) {
            source = "calibrating: nothing is bound until it ends";
        } else if (policy != StealPolicy.ADAPTIVE) {
            source = "not used: steal policy " + policy;
        } else if (db.topology().nodeCount() < 2) {
            source = "not used: one node, no remote node to steal from";
        } else {
            source = "not known: the calibration failed (see the log); nothing is bound";
        }
        return List.<Object[]>of(new Object[] {policy.name(), Double.isNaN(threshold) ? null : threshold, source,
            calibration == null ? null : calibration.how()});
    }

    private List<Object[]> stealCalibrationRows() {
        StealingCalibration.Result calibration = db.stealCalibration();
        return calibration == null ? List.of() : calibration.steps().stream().map(s -> new Object[] {s.power(), s.stealingQps(),
            s.boundQps(), s.taskBytesPerSecond(), s.stealingWins()}).toList();
    }

    private List<Object[]> placerActionRows() {
        return db.placerActions().stream().map(a -> {
            Instant at = (Instant) a[0];
            int from = (Integer) a[4];
            return new Object[] {at.toString(), at.toEpochMilli(), a[8], a[1], a[2], a[3], from < 0 ? null : from, a[5], a[6]};
        }).toList();
    }

    private List<Object[]> placerRows() {
        PlacerAlgorithm.Parameters p = db.placerParameters();
        return List.<Object[]>of(p == null ? new Object[] {false, null, null, null, null, null, null}
                : new Object[] {true, p.period().toMillis(), p.eligibility(), p.imbalance(), p.saturation(),
                    p.moveNanosPerPage(), p.partitionNanosPerPage()});
    }

    /** One row per (part, column, component, node holding pages of it). */
    private List<Object[]> placementRows() {
        List<Object[]> rows = new ArrayList<>();
        String source = db.topology().isFake() ? "numacol (fake topology)" : "kernel (move_pages)";
        forEachTable((table, parts) -> {
            Placement placement = db.placement(table);
            String spec = placement == null ? "DEFAULT" : placement.toString();
            for (int p = 0; p < parts.size(); p++) {
                int partition = parts.get(p).partition();
                for (int c = 0; c < table.schema().size(); c++) {
                    Column col = parts.get(p).column(c);
                    for (Map.Entry<Component, List<MemorySegment>> e : col.segments().entrySet()) {
                        PageSocketMap psm = new PageSocketMap(db.memory());
                        e.getValue().forEach(psm::add);
                        long bytes = e.getValue().stream().mapToLong(MemorySegment::byteSize).sum();
                        boolean interleaved = psm.ranges().stream().anyMatch(PageSocketMap.Range::isInterleaved);
                        long[] pages = psm.pagesPerNode();
                        for (int node = 0; node < db.topology().nodeCount(); node++) {
                            if (pages[node] > 0) {
                                rows.add(new Object[] {table.schemaName(), table.name(), col.name(), p, e.getKey().name(), bytes, node,
                                    pages[node], interleaved, source, spec, partition < 0 ? null : partition});
                            }
                        }
                    }
                }
            }
        });
        return rows;
    }

    /** Each table with its parts, retained meanwhile: a merge or DROP may free them while they are read. */
    private void forEachTable(BiConsumer<Table, List<TablePart>> action) {
        db.catalog().tables().stream().sorted(Comparator.comparing(Table::schemaName).thenComparing(Table::name)).forEach(table -> {
            if (table.isDropped()) {
                return; // dropped since the catalog was read
            }
            try (TableSnapshot snapshot = table.snapshot()) {
                action.accept(table, snapshot.parts());
            } catch (IllegalStateException dropped) {
                // dropped between the check and the snapshot
            }
        });
    }

    @Override
    public String toString() {
        return db.catalog().tables().stream().map(Table::displayName).collect(Collectors.joining(", ", "sys of [", "]"));
    }

    /** One row per sequence, by schema and name: its counter now and where the log has it. */
    private List<Object[]> sequenceRows() {
        List<Object[]> rows = new ArrayList<>();
        db.catalog().sequences().stream()
                .sorted(Comparator.comparing((NamedSequence q) -> q.def().schema()).thenComparing(q -> q.def().name()))
                .forEach(q -> {
                    NamedSequence.Position now = q.position();
                    rows.add(new Object[]{q.def().schema(), q.def().name(), now.next(), now.exhausted(), q.reserved().next()});
                });
        return rows;
    }
}
