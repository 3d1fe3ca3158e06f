package io.numacol.database;

import io.numacol.durability.DurableStore;
import io.numacol.durability.ReadOnlyStore;
import io.numacol.durability.StorageOptions;
import io.numacol.durability.StoredDatabase;
import io.numacol.memory.MemoryLimit;
import io.numacol.memory.NumaMemory;
import io.numacol.placement.Placement;
import io.numacol.placement.PlacerAlgorithm;
import io.numacol.placement.StealingCalibration;
import io.numacol.placement.ThresholdAdvisor;
import io.numacol.placement.Utilization;
import io.numacol.scheduler.InlineScheduler;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.SchedulerConfig;
import io.numacol.scheduler.StealPolicy;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.WorkerPoolScheduler;
import io.numacol.storage.Catalog;
import io.numacol.storage.CatalogView;
import io.numacol.storage.ChangeLog;
import io.numacol.storage.CheckViolationException;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.Partitioning;
import io.numacol.storage.NamedSequence;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.ViewDef;
import io.numacol.topology.Topology;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * One in-process numacol database: its topology, node-placed memory, catalog and scheduler.
 * Closing it drops every table (memory is freed once running readers let go) and stops the
 * scheduler's threads.
 */
public final class Database implements AutoCloseable, StoredDatabase {
    private final DatabaseConfig config;
    private final Topology topology;
    private final NumaMemory memory;
    private final Catalog catalog;
    private final Scheduler scheduler;
    private final PartMerger merger = new PartMerger(this);
    private final TablePlacements placements;
    private static final System.Logger LOG = System.getLogger(Database.class.getName());

    private final Utilization utilization;
    /** The database's meters in the configured registry, or null without one. */
    private final DatabaseMetrics metrics;
    /** Samples {@link #utilization} every {@value Utilization#PERIOD_MILLIS} ms while the database is open. */
    private final Thread sampler;
    /** Null unless the configuration turns it on. */
    private final DataPlacer placer;
    /** Binds the task classes above the stealing threshold under ADAPTIVE. */
    private final ThresholdAdvisor stealAdvisor = new ThresholdAdvisor();
    /** The §6.4 experiment's outcome once it has run (ADAPTIVE on more than one node, no threshold given). */
    private volatile StealingCalibration.Result stealCalibration;
    /** Runs the experiment in the background, so that opening a database does not wait for it; or null. */
    private final Thread stealCalibrator;
    /**
     * Outcomes of the experiment per machine shape in this process: the thesis runs it once per
     * server, and a service that opens many databases should not pay it (nor load the machine) each time.
     */
    private static final Map<String, StealingCalibration.Result> CALIBRATIONS = new ConcurrentHashMap<>();
    private volatile boolean closed;
    /** A file database's log and checkpoints; null for a database in memory. */
    private final DurableStore durable;
    /** The file database's store when it is open read-only (then {@link #durable} is null). */
    private final ReadOnlyStore readOnly;

    private Database(DatabaseConfig config, StorageOptions storage) {
        this.config = config;
        this.topology = Topology.fromSpec(config.topology());
        this.memory = NumaMemory.create(topology, MemoryLimit.parse(config.memoryLimit(), topology));
        this.catalog = new Catalog(memory);
        catalog.onCommit(merger::afterFlush); // a transaction's one-row parts merge as an auto-commit statement's do
        this.placements = new TablePlacements(topology, config, catalog, merger);
        SchedulerConfig sc = SchedulerConfig.defaults().withStealPolicy(config.stealPolicy())
                .withGroupsPerNode(config.groupsPerNode()).withNodeBandwidth(config.nodeBandwidth())
                .withHardAffinityAdvisor(stealAdvisor);
        if (config.meterRegistry() != null) {
            sc = sc.withMeterRegistry(config.meterRegistry());
        }
        this.scheduler = config.inlineScheduler() ? new InlineScheduler(topology, sc) : new WorkerPoolScheduler(topology, sc);
        stealAdvisor.readFrom(scheduler.dataUsage());
        this.stealCalibrator = startStealingThreshold();
        this.utilization = new Utilization(scheduler.dataUsage(), catalog);
        this.metrics = config.meterRegistry() == null ? null
                : new DatabaseMetrics(this, config.meterRegistry(), utilization, scheduler.dataUsage());
        this.sampler = Thread.ofPlatform().daemon().name("numacol-utilization").unstarted(this::sampleUntilClosed);
        sampler.start();
        DurableStore store = null;
        ReadOnlyStore reading = null;
        if (storage != null) {
            try {
                // read back before any placer or statement moves a part
                if (storage.readOnly()) {
                    reading = ReadOnlyStore.open(this, storage);
                } else {
                    store = DurableStore.open(this, storage);
                }
            } catch (RuntimeException | Error e) {
                closeEngine();
                throw e;
            }
        }
        this.durable = store;
        this.readOnly = reading;
        this.placer = config.placerOn(topology) ? new DataPlacer(this, Duration.ofMillis(config.placerPeriod())) : null;
        if (placer != null) {
            placer.start();
        }
    }

    /**
     * Sets the ADAPTIVE threshold from the configuration, or from an earlier calibration of the
     * same machine shape in this process, or starts the calibration; returns its thread or null.
     */
    private Thread startStealingThreshold() {
        if (config.stealThreshold() > 0) {
            stealAdvisor.setThreshold((double) config.stealThreshold());
            return null;
        }
        if (config.stealPolicy() != StealPolicy.ADAPTIVE || topology.nodeCount() < 2 || config.inlineScheduler()) {
            return null; // inline, tasks are never stolen: there is nothing to calibrate
        }
        String machine = topology.description() + ";groupsPerNode=" + config.groupsPerNode() + ";nodeBandwidth=" + config.nodeBandwidth();
        StealingCalibration.Result known = CALIBRATIONS.get(machine);
        if (known != null) {
            stealCalibration = known;
            stealAdvisor.setThreshold(known.threshold());
            return null;
        }
        return Thread.ofPlatform().daemon().name("numacol-steal-calibration").start(() -> {
            try {
                StealingCalibration.Result result = new StealingCalibration(scheduler, memory, CALIBRATION_VECTOR_INTS,
                        CALIBRATION_STEP_MILLIS).run(() -> closed);
                if (result != null) {
                    CALIBRATIONS.putIfAbsent(machine, result);
                    stealCalibration = result;
                    stealAdvisor.setThreshold(result.threshold());
                    LOG.log(System.Logger.Level.INFO, "numacol's stealing threshold on " + machine + ": " + result.how());
                }
            } catch (RuntimeException e) {
                if (!closed) { // ADAPTIVE then steals everything, as TARGET: slower perhaps, never wrong
                    LOG.log(System.Logger.Level.WARNING, "numacol could not calibrate the stealing threshold", e);
                }
            }
        });
    }

    /** Each calibration client's vector: 8 MB of ints, large enough that a step reads far more than the caches hold. */
    private static final int CALIBRATION_VECTOR_INTS = 1 << 21;
    private static final long CALIBRATION_STEP_MILLIS = 200;

    /**
     * The ADAPTIVE policy's threshold in bytes per second per task (NaN while it is being
     * calibrated, or when nothing needs it: another policy, one node).
     */
    public double stealThreshold() {
        return stealAdvisor.threshold();
    }

    /** The calibration experiment's outcome, or null when it did not run (yet). */
    public StealingCalibration.Result stealCalibration() {
        return stealCalibration;
    }

    /** Whether the ADAPTIVE calibration is running now. */
    public boolean stealCalibrating() {
        return stealCalibrator != null && stealCalibrator.isAlive();
    }

    /** Whether ADAPTIVE binds the tasks of {@code taskClass} now. */
    public boolean stealBinds(TaskClass taskClass) {
        return config.stealPolicy() == StealPolicy.ADAPTIVE && stealAdvisor.hard(taskClass);
    }

    /** Whether the DataPlacer runs (connection property {@code placer}). */
    public boolean placerRunning() {
        return placer != null;
    }

    /**
     * The DataPlacer's actions so far, oldest first (the last {@value DataPlacer#KEPT_ACTIONS}):
     * time, table, action (move, partition, merge), rows, from node (-1 for a merge), to node,
     * the figures that justified it, the period it was taken in ({@link #placerPeriods}) and the
     * table's schema. Empty when it does not run.
     */
    public List<Object[]> placerActions() {
        return placer == null ? List.of() : placer.actions().stream().map(a -> new Object[] {a.at(), a.table(), a.action(),
            a.rows(), a.from(), a.to(), a.why(), a.period(), a.schema()}).toList();
    }

    /** The periods the DataPlacer has decided so far; 0 when it does not run. */
    public long placerPeriods() {
        return placer == null ? 0 : placer.periods();
    }

    /** The DataPlacer's parameters (Table 6.1 and the calibrated speeds), or null when it does not run. */
    public PlacerAlgorithm.Parameters placerParameters() {
        return placer == null ? null : placer.parameters();
    }

    /** Stops the DataPlacer's decisions until resumed (a no-op when it does not run); for experiments. */
    public void pausePlacer(boolean pause) {
        if (placer != null) {
            placer.pause(pause);
        }
    }

    /**
     * Stops the background merges of small parts until resumed ({@link #mergeParts} still merges
     * at once): for a load that merges once at its end, and tests that count parts.
     */
    public void pauseMerges(boolean pause) {
        if (pause) {
            merger.pause();
        } else {
            merger.resume();
        }
    }

    /** Runs one period of the DataPlacer now, for tests; false when it does not run or took no action. */
    public boolean runPlacerOnce() {
        return placer != null && placer.runOnce().isPresent();
    }

    void whileNotMerging(Table table, Runnable action) {
        merger.whileNotMerging(table, action);
    }

    private void sampleUntilClosed() {
        boolean warned = false;
        while (!closed) {
            try {
                Thread.sleep(Utilization.PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return; // close() interrupts
            }
            if (!closed) {
                try {
                    utilization.sample();
                } catch (RuntimeException e) {
                    // a sample missed is a gap in the histories, not a reason to stop sampling
                    if (!warned) {
                        LOG.log(System.Logger.Level.WARNING, "numacol could not sample utilization (said once)", e);
                        warned = true;
                    }
                }
            }
        }
    }

    /** Actions of {@code kind} (move, partition, merge) the DataPlacer took; 0 when it does not run. */
    long placerActions(String kind) {
        DataPlacer p = placer;
        return p == null ? 0 : p.count(kind);
    }

    /**
     * Records that a statement ran {@code nanos} (from its execution's start, planning included,
     * until its rows were read or closed) in the {@code numacol.statement} timer; nothing without a
     * meter registry ({@link DatabaseConfig#withMeterRegistry}).
     */
    public void recordStatement(long nanos) {
        if (metrics != null) {
            metrics.statement(nanos);
        }
    }

    /** Whether the database reports to a meter registry: statement timings are taken only then. */
    public boolean hasMetrics() {
        return metrics != null;
    }

    public static Database open() {
        return open(DatabaseConfig.defaults());
    }

    public static Database open(DatabaseConfig config) {
        return new Database(config, null);
    }

    /**
     * Opens the file database of {@code storage}'s directory (created if missing): reads its last
     * checkpoint and its log back, then makes every commit and DDL durable there.
     *
     * @throws io.numacol.durability.DatabaseLockedException another process has it open
     * @throws java.io.UncheckedIOException a file cannot be read or is damaged (the message names it)
     */
    public static Database open(DatabaseConfig config, StorageOptions storage) {
        return new Database(config, java.util.Objects.requireNonNull(storage, "storage"));
    }

    /** Whether this is a file database opened read-only: every change is refused. */
    public boolean isReadOnly() {
        return readOnly != null;
    }

    /** The file database's store, if this is one. */
    public java.util.Optional<DurableStore> durableStore() {
        return java.util.Optional.ofNullable(durable);
    }

    /**
     * Writes a checkpoint of a file database (CHECKPOINT): its tables in part files and a new
     * manifest, and drops the log they cover; nothing for a database in memory.
     */
    public void checkpoint() {
        checkOpen();
        if (durable != null) {
            durable.checkpoint();
        }
    }

    public DatabaseConfig config() {
        return config;
    }

    @Override
    public Topology topology() {
        return topology;
    }

    public NumaMemory memory() {
        return memory;
    }

    @Override
    public Catalog catalog() {
        return catalog;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    /** Utilization histories per node and per table part, sampled every {@value Utilization#PERIOD_MILLIS} ms. */
    public Utilization utilization() {
        return utilization;
    }

    /** A bulk appender for a table: rows are checked as they come and become visible at {@link Appender#flush()}. */
    public Appender appender(String table) {
        return appender(catalog.get(table));
    }

    /** A bulk appender for a table of this database's catalog (SQL's INSERT holds the table it planned for). */
    public Appender appender(Table table) {
        checkOpen();
        return new Appender(this, table);
    }

    /**
     * Loads a CSV file into a table in one go (see {@link Appender#appendCsv}): all its rows
     * become visible at once, or, if any line is malformed, none. Returns the rows loaded.
     */
    public long loadCsv(String table, Path file, CsvFormat format) {
        return loadCsv(catalog.get(table), file, format);
    }

    /** {@link #loadCsv(String, Path, CsvFormat)} into a table of any schema. */
    public long loadCsv(Table table, Path file, CsvFormat format) {
        return loadCsv(table, file, format, () -> { });
    }

    /**
     * {@link #loadCsv(Table, Path, CsvFormat)}, stopped (nothing stored) by what {@code check}
     * throws; it runs every 65,536 characters.
     */
    public long loadCsv(Table table, Path file, CsvFormat format, Runnable check) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return appender(table).appendCsv(reader, format, check);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Which files this database's SQL may read ({@link DatabaseConfig#fileAccess}). */
    public FileAccess fileAccess() {
        return config.fileAccess();
    }

    /**
     * Merges the table's small parts (those under half of {@code rowsPerPart}, which batched
     * inserts leave behind) into parts of up to {@code rowsPerPart} rows now, rather than in the
     * background after the next flush, and rebuilds parts with many deleted rows without them
     * ({@code PartMerger.COMPACT_DELETED_SHARE}); readers see the table whole throughout. Returns
     * how many merges were made. While another connection's statement or transaction holds the
     * table, a merge is handed to it to swap in as it lets go, counted, and merging stops there
     * (the next would read the same parts): this call does not wait for the holder, since the
     * holder may be waiting for something this thread holds.
     */
    public int mergeParts(String table) {
        return mergeParts(catalog.get(table));
    }

    /** {@link #mergeParts(String)} for a table of any schema. */
    public int mergeParts(Table table) {
        checkOpen();
        return merger.mergeAll(table);
    }

    /**
     * Drops a table and its indexes, once a merge of its parts under way has ended: its memory
     * is then freed as soon as no query reads it (at once when none does).
     */
    public void dropTable(String name) {
        dropTable(catalog.get(name));
    }

    /** {@link #dropTable(String)} for a table of any schema. */
    @Override
    public void dropTable(Table table) {
        checkOpen();
        merger.whileNotMerging(table, () -> catalog.drop(table));
        placements.forget(table);
    }

    /**
     * Drops a schema; with {@code cascade}, its views and tables first (each table as {@link
     * #dropTable(Table)} drops it), else only when it holds none.
     */
    public void dropSchema(String name, boolean cascade) {
        checkOpen();
        String spelled = catalog.findSchema(name).orElseThrow(() -> new IllegalArgumentException("schema " + name + " does not exist"));
        if (cascade && !spelled.equalsIgnoreCase(Catalog.MAIN)) {
            for (ViewDef view : List.copyOf(catalog.views())) {
                if (view.schema().equalsIgnoreCase(spelled)) {
                    catalog.dropView(view.schema(), view.name());
                }
            }
            for (Table table : List.copyOf(catalog.tables())) {
                if (table.schemaName().equalsIgnoreCase(spelled)) {
                    dropTable(table);
                }
            }
            for (NamedSequence sequence : List.copyOf(catalog.sequences())) {
                if (sequence.def().schema().equalsIgnoreCase(spelled)) {
                    catalog.dropSequence(sequence.def().schema(), sequence.def().name());
                }
            }
        }
        catalog.dropSchema(spelled); // fails if a table came meanwhile: nothing is dropped unseen
    }

    /**
     * Removes every row of a table at once (its parts are freed as soon as no query reads them)
     * and returns how many there were. Waits for an UPDATE or DELETE of the table under way.
     */
    public long truncate(String name) {
        return truncate(catalog.get(name));
    }

    /** {@link #truncate(String)} for a table of any schema. */
    public long truncate(Table table) {
        checkOpen();
        table.lockWrites();
        try {
            List<TablePart> parts = table.parts();
            long rows = parts.stream().mapToLong(TablePart::rowCount).sum();
            table.replaceParts(parts, List.of());
            return rows;
        } finally {
            table.unlockWrites();
        }
    }

    /**
     * Changes a table's name or columns (ALTER TABLE): a table of {@code schema} named {@code
     * name} is filled with {@code row} of each row of {@code old} (its values in the old
     * schema's order), then takes the old table's place at once. Readers of the old table go on
     * reading it; if any row is refused (a NULL for a NOT NULL column, a CHECK it fails), nothing
     * changes. Inserts, merges, UPDATEs and DELETEs of the table wait meanwhile. {@code column}
     * names each old column anew (null: dropped), for the table's indexes, keys and CHECK
     * constraints: unless {@code schema} has keys (checks) of its own, the old ones are carried,
     * a check's expression written anew with the new names, and one that reads a dropped column
     * dropped with it, as PostgreSQL does.
     */
    public void alterTable(Table old, String name, TableSchema schema, UnaryOperator<Object[]> row,
                           UnaryOperator<String> column) {
        // the keys, foreign keys and checks follow their columns (renamed; dropped with one), unless the new schema says its own
        TableSchema next = schema.keys().isEmpty() && schema.foreignKeys().isEmpty() ? old.schema().keysTo(schema, column) : schema;
        alterTable(old, name, schema.checks().isEmpty() ? old.schema().checksTo(next, column, catalog.checkCompiler()) : next,
                row, column, true);
    }

    /**
     * {@link #alterTable(Table, String, TableSchema, UnaryOperator, UnaryOperator)} with {@code
     * schema} taken as the whole new schema, constraints included ({@code complete}: a constraint
     * added or dropped), rather than carrying the old keys over when it names none.
     */
    public void alterTable(Table old, String name, TableSchema schema, UnaryOperator<Object[]> row,
                           UnaryOperator<String> column, boolean complete) {
        if (!complete) {
            alterTable(old, name, schema, row, column);
            return;
        }
        checkOpen();
        alter(old, name, schema, row, column, List.of(), () -> { });
    }

    /**
     * Gives a table exactly the PRIMARY KEY, UNIQUE and CHECK constraints of {@code schema}, which
     * has its columns (ALTER TABLE .. ADD CONSTRAINT, DROP CONSTRAINT): its rows are copied, as
     * {@link #alterTable} copies them, and each is checked against the constraints, so a constraint
     * that a stored row breaks is refused and nothing changes (a CHECK with {@link
     * CheckViolationException#bySomeRow}, a key with a KeyViolationException).
     */
    public void alterConstraints(Table old, TableSchema schema) {
        checkOpen();
        if (!schema.columns().equals(old.schema().columns())) {
            throw new IllegalArgumentException("table " + old.displayName() + ": new constraints keep the columns as they are");
        }
        alter(old, old.name(), schema, r -> r, c -> c, List.of(), () -> { });
    }

    /**
     * Adds {@code key} to {@code child}, which {@code schema} (its schema with the key) then has:
     * the table is rebuilt as {@link #alterTable} rebuilds it, once every row is shown to have its
     * parent ({@link Catalog#checkReferences}). The writes of both tables are held from the check
     * until the rebuilt table holds the key, as PostgreSQL's ADD FOREIGN KEY locks out writers of
     * both: a parent row deleted, or a child row added, between the two would be checked by
     * neither. A transaction that changed either before commits after, checked with the key.
     *
     * @throws io.numacol.storage.ForeignKeyViolationException naming a key without a parent row;
     *     nothing is altered
     */
    public void addForeignKey(Table child, TableSchema schema, TableSchema.ForeignKeyDef key) {
        checkOpen();
        if (!schema.foreignKeys().contains(key) || !schema.columns().equals(child.schema().columns())) {
            throw new IllegalArgumentException("table " + child.displayName() + ": the new schema is its own with the key added");
        }
        Table parent = catalog.get(key.parentSchema(), key.parentTable());
        alter(child, child.name(), schema, r -> r, c -> c, List.of(parent), () -> {
            // the parent looked up before its writes were held may have been altered (replaced) meanwhile: the
            // writes held would then be a dead table's, not those of the one the check reads
            if (parent.isDropped()) {
                throw new IllegalStateException("table " + parent.name() + " was altered or dropped meanwhile: run the ALTER again");
            }
            catalog.checkReferences(child, key);
        });
    }

    /**
     * The body of {@link #alterTable}, {@link #alterConstraints} and {@link #addForeignKey}:
     * {@code schema} is the new table's, whole; the writes of {@code alsoLocked} are held with the
     * table's, and {@code first} runs once they are, before a row is copied.
     */
    private void alter(Table old, String name, TableSchema schema, UnaryOperator<Object[]> row,
                       UnaryOperator<String> column, List<Table> alsoLocked, Runnable first) {
        merger.whileNotMerging(old, () -> {
            List<Table> tables = new ArrayList<>(alsoLocked);
            if (!tables.contains(old)) {
                tables.add(old);
            }
            tables.sort(Table.LOCK_ORDER);
            int locked = 0;
            try {
                for (Table t : tables) {
                    t.lockWrites();
                    locked++;
                }
                // the schema and rows were made for this table: another ALTER or a DROP came first
                if (old.isDropped()) {
                    throw new IllegalStateException("table " + old.name() + " was altered or dropped meanwhile: run the ALTER again");
                }
                first.run();
                Placement placement = placements.altered(old, column);
                Table replacement = catalog.detached(old.schemaName(), name, schema);
                if (durable == null) {
                    fillAltered(old, replacement, placement, row, column);
                } else {
                    durable.whileBuilding(replacement, () -> fillAltered(old, replacement, placement, row, column));
                }
            } finally {
                for (int i = locked - 1; i >= 0; i--) {
                    tables.get(i).unlockWrites();
                }
            }
        });
    }

    /** The body of {@link #alterTable}: fills {@code replacement} with {@code old}'s rows and puts it in its place. */
    private void fillAltered(Table old, Table replacement, Placement placement, UnaryOperator<Object[]> row,
                             UnaryOperator<String> column) {
        placements.placeAltered(old, replacement, placement);
        Appender appender = new Appender(this, replacement);
        try {
            try (TableSnapshot snapshot = newest(old)) {
                for (TablePart part : snapshot.parts()) {
                    for (int r = 0; r < part.rowCount(); r++) {
                        if (part.deleted().isDeleted(r)) {
                            continue;
                        }
                        Object[] values = new Object[part.columns().size()];
                        for (int c = 0; c < values.length; c++) {
                            values[c] = part.column(c).value(r);
                        }
                        try {
                            appender.append(row.apply(values));
                        } catch (CheckViolationException e) {
                            // a stored row, not a new one: PostgreSQL's words for an ALTER that finds it
                            throw CheckViolationException.bySomeRow(old.name(), e.constraint(), e);
                        }
                    }
                }
            }
            appender.flush();
            catalog.replace(old, replacement, column);
            placements.forget(old);
        } catch (RuntimeException | Error e) {
            placements.forget(replacement);
            appender.discard();
            replacement.replaceParts(replacement.parts(), List.of()); // flushed, but never in the catalog
            throw e;
        }
    }

    /**
     * {@code table}'s newest committed rows, whatever the calling statement's view reads: an ALTER
     * holds the table's writes and must copy every row committed before it took them, not only
     * those committed when its statement began (the rest were lost), nor miss the rows of a table
     * an earlier step of the same statement built (DROP CONSTRAINT ... CASCADE rebuilds a table
     * that references its own key twice, and its view saw neither version).
     */
    private static TableSnapshot newest(Table table) {
        CatalogView.Binding binding = CatalogView.binding();
        CatalogView before = binding.enter(null);
        try {
            return table.snapshot();
        } finally {
            binding.exit(before);
        }
    }

    PartMerger merger() {
        return merger;
    }

    void afterFlush(Table table) {
        merger.afterFlush(table);
    }

    /** Where tables' parts are placed; {@link Appender} and {@link PartMerger} ask it where theirs go. */
    TablePlacements placements() {
        return placements;
    }

    /** Sets a table's placement as a file database recorded it, moving nothing (see {@link DurableStore}). */
    @Override
    public void restorePlacement(Table table, Placement placement, Partitioning partitioning) {
        placements.restore(table, placement, partitioning);
    }

    /**
     * Where a part of {@code table} read back from a file database goes: a part of a partition on
     * that partition's node (as the table's PP placement put it), any other as a new part would.
     */
    @Override
    public IntFunction<ColumnPlacement> restoredPartPlacement(Table table, int partition) {
        return partition >= 0 && placements.partitioning(table) != null ? placements.partitionPlacement(partition)
                : placements.newPartPlacement(table);
    }

    /** The table's placement as set, or null for the default: each part on a node, the nodes in turn. */
    @Override
    public Placement placement(Table table) {
        return placements.placement(table);
    }

    /** How the table deals its rows to partitions (it is placed PP), or null. */
    @Override
    public Partitioning partitioning(Table table) {
        return placements.partitioning(table);
    }

    /**
     * Places a table anew (ALTER TABLE .. SET PLACEMENT): every part's pages move where {@code
     * placement} says (null: each part on a node, the nodes in turn), and so do the parts added
     * afterwards. Pages keep their addresses, so queries go on reading throughout; inserts,
     * merges, UPDATEs and DELETEs of the table wait (the parts a load under way built before keep
     * the placement they were built with). A PP placement deals the rows to its partitions
     * instead: new parts, each of one partition and on its node, are built beside the old ones
     * and swapped in at once. Returns how many pages the kernel could not move (pages it holds
     * elsewhere, on a machine short of memory on the target node).
     *
     * @throws IllegalArgumentException when {@code placement} names a node the topology lacks,
     *     or a column the table lacks
     */
    public long setPlacement(Table table, Placement placement) {
        checkOpen();
        return placements.set(table, placement);
    }

    public boolean isClosed() {
        return closed;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this numacol database is closed");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (placer != null) {
            placer.close();
        }
        try {
            if (durable != null) {
                // no merge starts once closed; one still running ends before the last checkpoint, whose log it needs
                List.copyOf(catalog.tables()).forEach(t -> merger.whileNotMerging(t, () -> { }));
                durable.close(); // a last checkpoint, before the tables are dropped from memory below
            }
        } finally {
            if (readOnly != null) {
                catalog.attachLog(ChangeLog.NONE); // the tables go from memory below: nothing to refuse, nothing to write
            }
            try {
                closeEngine();
            } finally {
                if (readOnly != null) {
                    readOnly.close(); // after the tables are dropped: a writer may take the directory then
                }
            }
        }
    }

    /** Stops the threads and frees the tables: the end of {@link #close}, and of a constructor that failed. */
    private void closeEngine() {
        closed = true;
        if (stealCalibrator != null) {
            try {
                stealCalibrator.join(); // sees closed within a few ms, and must not outlive the scheduler
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sampler.interrupt();
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // a merge still running swaps parts of its table: dropped after it, its parts are released once
        List.copyOf(catalog.tables()).forEach(t -> merger.whileNotMerging(t, () -> catalog.drop(t)));
        catalog.releaseRetired(); // what open statements still read goes too: the database is closed
        try {
            if (metrics != null) {
                metrics.close();
            }
            scheduler.close();
        } finally {
            if (config.meterRegistry() instanceof DatabaseMeterRegistry tagged) {
                tagged.detach(); // after the scheduler's meters went too
            }
        }
    }
}
