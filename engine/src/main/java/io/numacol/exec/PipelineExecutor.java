package io.numacol.exec;

import io.numacol.memory.NumaMemory;
import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskContext;
import io.numacol.storage.Column;
import io.numacol.storage.ColumnType;
import io.numacol.storage.Partitioning;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Runs a {@link PlanNode} tree as morsel-driven pipelines (morsel paper §3). The tree is cut at
 * its pipeline breakers: a hash join's build side, an aggregate, a sort. A pipeline is a source
 * (a table scan, or the rows a breaker below made), the operators over it up to the next breaker
 * (filters, projections, hash-join probes), and a sink (a store of rows, an aggregate's groups).
 * Pipelines a pipeline depends on run first, each to completion.
 *
 * <p>A pipeline runs as tasks. Over a table, a task takes a morsel of one part, with the affinity
 * of the node holding its rows ({@link Morsels}, as {@link QueryExecutor} does); over a breaker's
 * rows, a run of pages, with the affinity of the node whose worker filled them. A task scans a
 * 1024-row block at a time into a {@link Chunk}, pushes it through task-local instances of the
 * operators into a task-local sink; the sinks are combined when all tasks are done.
 * Cancellation is polled between blocks.
 *
 * <p>An aggregate runs in two phases (morsel paper §4.4): each worker groups its tasks' rows in
 * a {@link GroupTable} of its own; then one task per hash partition merges that partition's groups
 * of all tables.
 */
public final class PipelineExecutor {
    /** String dictionaries up to this size have their decoded values cached per task. */
    private static final int STRING_CACHE_LIMIT = 1 << 16;
    /** Build sides up to this many rows filter their probe side below its breakers. */
    private static final long RUNTIME_FILTER_ROWS = 1 << 22;
    /**
     * Blocks of a scan that keep at most this many rows are gathered into full chunks before the
     * pipeline's operators see them: each operator's work per chunk (a probe's passes and the
     * gather of every column of its pairs) outweighed its work per row on the 30 of 1024
     * lineitems that Q5's key filters keep.
     */
    private static final int SPARSE_ROWS = Chunk.CAPACITY / 4;
    /**
     * Groups at which a worker's aggregate table is set aside for the merge and another begun:
     * Q18's 1.5 million orders grouped 50% slower in tables twice as large, Q13 slower in tables
     * half as large.
     */
    private static final int LOCAL_GROUPS = 1 << 16;
    /** Pages of an intermediate result per task. */
    private static final int PAGES_PER_TASK = 16;

    private final Scheduler scheduler;
    private final NumaMemory memory;
    private final ScanKernel kernel = ScanKernels.get();

    /** An executor whose intermediates are not held against a limit, its hash tables in the C heap (tests). */
    public PipelineExecutor(Scheduler scheduler) {
        this(scheduler, null);
    }

    /**
     * An executor whose intermediates are reserved in {@code memory}'s limit while an execution
     * runs, its large hash tables in {@code memory} (null: no limit, the C heap).
     */
    public PipelineExecutor(Scheduler scheduler, NumaMemory memory) {
        this.scheduler = scheduler;
        this.memory = memory;
    }

    /**
     * The plan's rows as internal Java values (see {@link InternalValues}). {@code cancelled} is
     * polled between blocks; once it answers true the statement is cancelled and this throws
     * CancellationException.
     */
    public List<Object[]> execute(PlanNode plan, BooleanSupplier cancelled) {
        try (MemoryReservation reservation = memory == null ? MemoryReservation.NONE : MemoryReservation.of(memory)) {
            return rows(plan, cancelled, reservation).toRows();
        }
    }

    /** The plan's rows as pages, each knowing the node whose worker filled it. */
    RowStore rows(PlanNode plan, BooleanSupplier cancelled, MemoryReservation reservation) {
        PlanNode pruned = ColumnPruning.prune(plan);
        try (Run run = new Run(scheduler.newStatement(), cancelled, reservation)) {
            run.countUses(pruned);
            return run.materialize(pruned);
        }
    }

    /** Where a pipeline's rows come from. */
    private sealed interface Source {
    }

    /**
     * A table scan, with the build keys of hash joins directly above it tested on the vids of
     * their columns ({@code keys}, table column to keys) before a value is decoded; over the
     * parts of {@code pinned} (a snapshot the execution holds) or, when null, of a snapshot
     * taken when the pipeline runs.
     */
    private record TableSource(PlanNode.Scan scan, Map<Integer, KeyFilter> keys, TableSnapshot pinned) implements Source {
        TableSource {
            keys = Map.copyOf(keys);
        }

        /** This scan with {@code filter}'s keys tested on {@code tableColumn} too; null if that column has keys already. */
        TableSource withKeys(int tableColumn, KeyFilter filter) {
            Map<Integer, KeyFilter> more = new HashMap<>(keys);
            if (more.putIfAbsent(tableColumn, filter) != null) {
                return null;
            }
            return new TableSource(scan, more, pinned);
        }
    }

    private record StoreSource(RowStore rows) implements Source {
    }

    /** A source, the operators over it, and whether it is known to give no row (a probe of an empty build side). */
    private record Pipeline(Source source, List<OperatorFactory> operators, List<ColumnType> types,
                            TaskClass taskClass, boolean empty) {
        Pipeline with(OperatorFactory operator, List<ColumnType> outTypes, TaskClass taskClass) {
            List<OperatorFactory> ops = new ArrayList<>(operators);
            ops.add(operator);
            return new Pipeline(source, ops, outTypes, taskClass, empty);
        }

        /** The same pipeline, its tasks of {@code taskClass} (the class of the sink's work, as an aggregate's). */
        Pipeline as(TaskClass taskClass) {
            return new Pipeline(source, operators, types, taskClass, empty);
        }

        Pipeline none() {
            return new Pipeline(source, operators, types, taskClass, true);
        }
    }

    /**
     * Makes an operator's task-local instance, for a task over rows of {@code partition} of a PP
     * table (-1: any rows), which a join run partition by partition needs.
     */
    private interface OperatorFactory {
        Operator create(int partition);
    }

    /** A pipeline operator with task-local state: it pushes what it makes of each chunk to {@code out}. */
    private interface Operator {
        void push(Chunk in, ChunkSink out);

        /** The task ends: push what is still held. */
        @SuppressWarnings("UnusedVariable") // what overriding operators push to
        default void finish(ChunkSink out) {
        }
    }

    /** One execution of a plan: its statement, whose task groups the pipelines run in. */
    private final class Run implements AutoCloseable {
        private final Statement statement;
        private final BooleanSupplier cancelled;
        private final MemoryReservation reservation;
        /** How many parents hold each node of the plan: a node held twice (a view used twice) runs once. */
        private final IdentityHashMap<PlanNode, Integer> uses = new IdentityHashMap<>();
        /** The rows of the shared breakers run so far (stores are read-only). */
        private final IdentityHashMap<PlanNode, RowStore> breakers = new IdentityHashMap<>();
        /** Snapshots pinned for joins run partition by partition, held until the execution ends. */
        private final List<TableSnapshot> pinned = new ArrayList<>();

        Run(Statement statement, BooleanSupplier cancelled, MemoryReservation reservation) {
            this.statement = statement;
            this.cancelled = cancelled;
            this.reservation = reservation;
        }

        @Override
        public void close() {
            pinned.forEach(TableSnapshot::close);
        }

        /** A store whose pages count against this execution's reservation. */
        RowStore store(List<ColumnType> types) {
            return new RowStore(types, reservation);
        }

        void countUses(PlanNode node) {
            if (uses.merge(node, 1, Integer::sum) > 1) {
                return;
            }
            switch (node) {
                case PlanNode.Scan scan -> { }
                case PlanNode.Rows rows -> { }
                case PlanNode.Project project -> countUses(project.input());
                case PlanNode.Filter filter -> countUses(filter.input());
                case PlanNode.Aggregate aggregate -> countUses(aggregate.input());
                case PlanNode.Sort sort -> countUses(sort.input());
                case PlanNode.HashJoin join -> {
                    countUses(join.left());
                    countUses(join.right());
                }
            }
        }

        /** Whether the plan holds {@code node} more than once. */
        boolean shared(PlanNode node) {
            return uses.getOrDefault(node, 0) > 1;
        }

        /** The rows of {@code node}, all of them, in order when it is a sort. */
        RowStore materialize(PlanNode node) {
            if (shared(node) && (node instanceof PlanNode.Aggregate || node instanceof PlanNode.Sort || node instanceof PlanNode.Rows)) {
                RowStore known = breakers.get(node);
                if (known == null) {
                    known = materializeNode(node);
                    breakers.put(node, known);
                }
                return known;
            }
            return materializeNode(node);
        }

        private RowStore materializeNode(PlanNode node) {
            return switch (node) {
                case PlanNode.Aggregate aggregate -> aggregate(aggregate);
                case PlanNode.Sort sort -> RowSorter.sort(materialize(sort.input()), sort.ordering());
                case PlanNode.Rows rows -> RowStore.of(rows.types(), rows.rows().get());
                default -> {
                    Pipeline pipeline = compile(node);
                    RowStore result = store(pipeline.types());
                    run(pipeline, () -> store(pipeline.types())).forEach(result::addAll);
                    yield result;
                }
            };
        }

        /**
         * Groups in worker-local tables, then merges them a hash partition per task. A table per
         * worker thread rather than per task, as in the morsel paper: each of Q13's dozen tasks
         * over orders met most of the 150,000 customers, and made and merged them all again.
         * A worker runs one task at a time, and a pipeline's tasks never wait inside. A table
         * that reaches {@link #LOCAL_GROUPS} groups is set aside for the merge and the worker
         * starts another, so that a table stays near the core's cache where groups come in runs
         * (Q18's lineitems by order).
         */
        private RowStore aggregate(PlanNode.Aggregate aggregate) {
            Pipeline input = compile(aggregate.input());
            Map<Thread, GroupTable> byWorker = new ConcurrentHashMap<>();
            Queue<GroupTable> full = new ConcurrentLinkedQueue<>();
            run(input.as(TaskClass.AGGREGATE), () -> (ChunkSink) chunk -> {
                GroupTable local = byWorker.computeIfAbsent(Thread.currentThread(), t -> new GroupTable(aggregate, reservation));
                local.accept(chunk);
                if (local.groups() >= LOCAL_GROUPS) {
                    full.add(local);
                    byWorker.remove(Thread.currentThread());
                }
            });
            List<GroupTable> locals = new ArrayList<>(full);
            locals.addAll(byWorker.values());
            RowStore result = store(aggregate.types());
            if (aggregate.keys().length == 0) { // one row, also over no rows
                GroupTable total = GroupTable.forMerge(aggregate, reservation);
                for (GroupTable local : locals) {
                    if (local.groups() > 0) {
                        total.merge(local, 0);
                    }
                }
                if (total.groups() == 0) {
                    total.accept(new Chunk(aggregate.input().types()));
                }
                total.writeTo(result, aggregate.types());
                return result;
            }
            long groups = locals.stream().mapToLong(GroupTable::groups).sum();
            int partitions = groups < 4 * Chunk.CAPACITY ? 1 : Integer.highestOneBit(Math.max(1, 4 * scheduler.concurrencyHint()) * 2 - 1);
            int[][][] byPartition = new int[locals.size()][][];
            for (int t = 0; t < locals.size(); t++) {
                byPartition[t] = partition(locals.get(t), partitions);
            }
            RowStore[] merged = new RowStore[partitions];
            statement.runStage(group -> {
                for (int p = 0; p < partitions; p++) {
                    int partition = p;
                    group.submit(context -> {
                        GroupTable table = GroupTable.forMerge(aggregate, reservation);
                        int groupsMerged = 0;
                        for (int t = 0; t < locals.size(); t++) {
                            for (int g : byPartition[t][partition]) {
                                if ((++groupsMerged & 4095) == 0 && cancelled.getAsBoolean()) {
                                    throw new CancellationException("statement cancelled");
                                }
                                table.merge(locals.get(t), g);
                            }
                        }
                        RowStore out = store(aggregate.types());
                        out.fillOn(context.node());
                        table.writeTo(out, aggregate.types());
                        merged[partition] = out;
                    }, Affinity.none(), TaskClass.AGGREGATE);
                }
            }, cancelled);
            for (RowStore m : merged) {
                result.addAll(m);
            }
            return result;
        }

        /** The pipeline that computes {@code node}; the pipelines it depends on are run on the way. */
        private Pipeline compile(PlanNode node) {
            return switch (node) {
                case PlanNode.Scan scan -> new Pipeline(new TableSource(scan, Map.of(), null), List.of(), scan.types(), TaskClass.SCAN, false);
                case PlanNode.Aggregate a -> stored(a);
                case PlanNode.Sort s -> stored(s);
                case PlanNode.Rows r -> stored(r);
                case PlanNode.Project project -> {
                    List<ColumnType> types = project.types();
                    int[] columns = project.columns();
                    // a join below gathers only the columns its pairs put out that are read here
                    Pipeline input = columns != null && project.input() instanceof PlanNode.HashJoin join
                            ? join(join, columns) : compile(project.input());
                    if (columns != null) {
                        yield input.with(p -> (in, out) -> out.accept(select(in, columns, types)), types, input.taskClass());
                    }
                    yield input.with(p -> {
                        ChunkEvaluator evaluator = new ChunkEvaluator(project.exprs());
                        return (in, out) -> out.accept(evaluator.evaluate(in));
                    }, types, input.taskClass());
                }
                case PlanNode.Filter filter -> {
                    Pipeline input = compile(filter.input());
                    List<ColumnType> types = filter.types();
                    RowPredicate condition = filter.condition();
                    if (condition instanceof RowPredicate.InKeys k && k.keys() != null && k.keys().testsVids()
                            && input.operators().isEmpty() && input.source() instanceof TableSource table) {
                        int keyColumn = table.scan().columns()[k.column()];
                        TableSource keyed = table.scan().isRowId(keyColumn) ? null : table.withKeys(keyColumn, k.keys());
                        if (keyed != null) {
                            yield new Pipeline(keyed, input.operators(), input.types(), input.taskClass(), input.empty());
                        }
                    }
                    yield input.with(p -> new Operator() {
                        private final ConditionKernel kernel = new ConditionKernel(condition);
                        private final boolean[] keep = new boolean[Chunk.CAPACITY];
                        private final int[] rows = new int[Chunk.CAPACITY];
                        private final Chunk kept = new Chunk(types).allocate();

                        @Override
                        public void push(Chunk in, ChunkSink out) {
                            kernel.keep(in, keep);
                            int n = 0;
                            for (int r = 0; r < in.size; r++) {
                                if (keep[r]) {
                                    rows[n++] = r;
                                }
                            }
                            if (n == 0) {
                                return;
                            }
                            for (int c = 0; c < kept.width(); c++) {
                                kept.gather(c, in, c, rows, n);
                            }
                            kept.size = n;
                            out.accept(kept);
                        }
                    }, types, input.taskClass());
                }
                case PlanNode.HashJoin join -> join(join, null);
            };
        }

        /**
         * The pipeline of a join's output, its build side run on the way; of the output columns
         * only {@code read} ones (all when null) are filled in, the others hold what they held.
         */
        private Pipeline join(PlanNode.HashJoin join, int[] read) {
            PlanNode buildSide = join.buildLeft() ? join.left() : join.right();
            PlanNode probeSide = join.buildLeft() ? join.right() : join.left();
            int[] buildKeys = join.buildLeft() ? join.leftKeys() : join.rightKeys();
            int[] probeKeys = join.buildLeft() ? join.rightKeys() : join.leftKeys();
            CoPartition co = coPartition(join, buildSide, buildKeys, probeSide, probeKeys);
            if (co != null) {
                return joinByPartition(join, co, buildSide, buildKeys, probeSide, probeKeys, read);
            }
            RowStore built = materialize(buildSide);
            Pipeline probe = compile(filteredProbe(join, built, buildKeys, probeSide, probeKeys));
            List<ColumnType> types = join.types();
            boolean probeAlone = join.probeDecides() && join.kind() != PlanNode.JoinKind.SEMI;
            if (built.rows() == 0 && !probeAlone) {
                return probe.with(p -> (in, out) -> { }, types, TaskClass.JOIN_PROBE).none();
            }
            JoinHashTable table = build(new RowStore[] {built}, buildKeys, join.nullsEqual())[0];
            if (!join.buildDecides()) {
                return probe.with(p -> new Probe(table, probeKeys, join, null, read), types, TaskClass.JOIN_PROBE);
            }
            // the build rows put out depend on every probe row: run the probe to the end first
            boolean[] marks = new boolean[(int) built.capacity()];
            Pipeline marking = probe.with(p -> new Probe(table, probeKeys, join, marks, null), types, TaskClass.JOIN_PROBE);
            RowStore result = store(types);
            run(marking, () -> store(types)).forEach(result::addAll);
            result.addAll(buildRows(join, built, marks));
            return new Pipeline(new StoreSource(result), List.of(), types, TaskClass.MATERIALIZE, false);
        }

        /**
         * Whether the join can run partition by partition: both sides are rows of one PP table
         * each (scanned, filtered, columns picked), the two tables of a table group, the join's
         * keys include their partition keys pair by pair, and the build rows need not wait for
         * every probe row (a probe row's matches are all in its own partition). The snapshots
         * of both tables are pinned for the execution, so that the parts judged are the parts
         * read. Null when it cannot.
         */
        private CoPartition coPartition(PlanNode.HashJoin join, PlanNode buildSide, int[] buildKeys, PlanNode probeSide,
                                        int[] probeKeys) {
            if (join.buildDecides() || buildKeys.length == 0) {
                return null;
            }
            Traced build = Traced.of(buildSide, buildKeys);
            Traced probe = Traced.of(probeSide, probeKeys);
            if (build == null || probe == null || partitioningOf(build.scan().table().parts()) == null
                    || partitioningOf(probe.scan().table().parts()) == null) {
                return null; // the common case, decided without a snapshot
            }
            TableSnapshot builds = build.scan().table().snapshot();
            TableSnapshot probes;
            try {
                probes = probe.scan().table().snapshot();
            } catch (RuntimeException e) {
                builds.close();
                throw e;
            }
            Partitioning bp = partitioningOf(builds.parts());
            Partitioning pp = partitioningOf(probes.parts());
            if (bp == null || pp == null || !bp.sameGroup(pp) || !covers(bp, build.columns(), pp, probe.columns())) {
                builds.close();
                probes.close();
                return null;
            }
            pinned.add(builds);
            pinned.add(probes);
            return new CoPartition(bp.count(), builds, probes);
        }

        /**
         * The join run partition by partition (thesis §6.3, table groups): the build side's rows
         * are kept apart by partition, each partition's hash table is built by tasks on the
         * partition's node, and a probe task over a part of partition {@code p} probes table
         * {@code p} alone: no exchange, and each table a partition's size.
         */
        private Pipeline joinByPartition(PlanNode.HashJoin join, CoPartition co, PlanNode buildSide, int[] buildKeys,
                                         PlanNode probeSide, int[] probeKeys, int[] read) {
            CO_PARTITIONED_JOINS.increment();
            Pipeline buildPipeline = pin(compile(buildSide), co.build());
            RowStore[] built = new RowStore[co.partitions()];
            for (int p = 0; p < built.length; p++) {
                built[p] = store(buildPipeline.types());
            }
            for (PipelineTask<RowStore> task : runTasks(buildPipeline, () -> store(buildPipeline.types()))) {
                built[task.partition()].addAll(task.sink);
            }
            RowStore all = store(buildPipeline.types());
            for (RowStore b : built) {
                all.addAll(b);
            }
            Pipeline probe = pin(compile(filteredProbe(join, all, buildKeys, probeSide, probeKeys)), co.probe());
            List<ColumnType> types = join.types();
            boolean probeAlone = join.probeDecides() && join.kind() != PlanNode.JoinKind.SEMI;
            if (all.rows() == 0 && !probeAlone) {
                return probe.with(p -> (in, out) -> { }, types, TaskClass.JOIN_PROBE).none();
            }
            JoinHashTable[] tables = build(built, buildKeys, join.nullsEqual());
            return probe.with(p -> new Probe(tables[p], probeKeys, join, null, read), types, TaskClass.JOIN_PROBE);
        }

        /** The pipeline over the parts of {@code snapshot}, a snapshot of the table its scan reads. */
        private Pipeline pin(Pipeline pipeline, TableSnapshot snapshot) {
            if (!(pipeline.source() instanceof TableSource(PlanNode.Scan scan, var keys, var none)) || scan.table() != snapshot.table()) {
                throw new IllegalStateException("a join by partitions expected a scan of " + snapshot.table().name() + " under "
                        + pipeline.source());
            }
            return new Pipeline(new TableSource(scan, keys, snapshot), pipeline.operators(), pipeline.types(), pipeline.taskClass(),
                    pipeline.empty());
        }

        /**
         * The hash tables of a join's build side, one per store (one per partition for a join by
         * partitions), filled by tasks over runs of their pages, on the nodes that filled them.
         */
        private JoinHashTable[] build(RowStore[] built, int[] keys, boolean[] nullsEqual) {
            JoinHashTable[] tables = new JoinHashTable[built.length];
            statement.runStage(group -> {
                for (int p = 0; p < built.length; p++) {
                    JoinHashTable table = new JoinHashTable(built[p], keys, nullsEqual);
                    tables[p] = table;
                    for (RowStore.PageRun run : built[p].runs(PAGES_PER_TASK)) {
                        group.submit(context -> {
                            if (!cancelled.getAsBoolean() && !context.isCancelled()) {
                                table.insert(run.from(), run.to());
                            }
                        }, run.affinity(), TaskClass.JOIN_BUILD);
                    }
                }
            }, cancelled);
            return tables;
        }

        /**
         * The probe side with its rows that cannot match dropped below its pipeline breakers (see
         * {@link RuntimeFilters}), when the join drops them too and the build side is not large.
         */
        private PlanNode filteredProbe(PlanNode.HashJoin join, RowStore built, int[] buildKeys, PlanNode probeSide,
                                       int[] probeKeys) {
            boolean unmatchedDropped = switch (join.kind()) {
                case INNER, SEMI -> true;
                case ANTI -> join.buildLeft();
                case LEFT, RIGHT, FULL -> !join.probeDecides();
            };
            if (!unmatchedDropped || built.rows() == 0 || built.rows() > RUNTIME_FILTER_ROWS) {
                return probeSide;
            }
            PlanNode filtered = probeSide;
            for (int i = 0; i < buildKeys.length; i++) {
                if (!join.nullsEqual()[i]) { // each key's equality is a condition every match meets
                    int key = buildKeys[i];
                    PlanNode pushed = RuntimeFilters.push(filtered, probeKeys[i],
                            () -> KeyFilter.of(built.pages(), key, built.types().get(key), built.rows()), this::shared, built.rows());
                    filtered = pushed == null ? filtered : pushed;
                }
            }
            return filtered;
        }

        /**
         * The build rows a join puts out once every probe row was seen: SEMI the marked ones,
         * ANTI the others, an outer join the others with NULLs for the probe side's columns.
         */
        private RowStore buildRows(PlanNode.HashJoin join, RowStore built, boolean[] marks) {
            List<ColumnType> types = join.types();
            boolean wanted = join.kind() == PlanNode.JoinKind.SEMI;
            boolean pairs = join.kind() != PlanNode.JoinKind.SEMI && join.kind() != PlanNode.JoinKind.ANTI;
            int buildWidth = built.types().size();
            int buildAt = join.buildLeft() ? 0 : types.size() - buildWidth;
            int probeAt = join.buildLeft() ? buildWidth : 0;
            int probeWidth = types.size() - buildWidth;
            RowStore out = store(types);
            Chunk chunk = new Chunk(types).allocate();
            List<Chunk> pages = built.pages();
            for (int p = 0; p < pages.size(); p++) {
                Chunk page = pages.get(p);
                for (int r = 0; r < page.size; r++) {
                    if (marks[p << RowStore.PAGE_SHIFT | r] != wanted) {
                        continue;
                    }
                    int o = chunk.size++;
                    for (int c = 0; c < buildWidth; c++) {
                        chunk.copy(buildAt + c, o, page, c, r);
                    }
                    for (int c = 0; pairs && c < probeWidth; c++) {
                        chunk.setNull(probeAt + c, o);
                    }
                    if (chunk.size == Chunk.CAPACITY) {
                        out.accept(chunk);
                        chunk.size = 0;
                    }
                }
                if (cancelled.getAsBoolean()) {
                    throw new CancellationException("statement cancelled");
                }
            }
            out.accept(chunk);
            return out;
        }

        private Pipeline stored(PlanNode breaker) {
            return new Pipeline(new StoreSource(materialize(breaker)), List.of(), breaker.types(), TaskClass.MATERIALIZE, false);
        }

        /** Runs a pipeline to the end into task-local sinks, which it returns in the order of the source's rows. */
        private <S extends ChunkSink> List<S> run(Pipeline pipeline, Supplier<S> sinks) {
            return runTasks(pipeline, sinks).stream().map(t -> t.sink).toList();
        }

        /** Runs a pipeline to the end; returns its tasks, with their sinks, in the order of the source's rows. */
        private <S extends ChunkSink> List<PipelineTask<S>> runTasks(Pipeline pipeline, Supplier<S> sinks) {
            List<PipelineTask<S>> tasks = new ArrayList<>();
            if (!pipeline.empty()) {
                switch (pipeline.source()) {
                    case TableSource(PlanNode.Scan scan, var _, TableSnapshot pinnedSnapshot) -> {
                        try (TableSnapshot own = pinnedSnapshot == null ? scan.table().snapshot() : null) {
                            TableSnapshot snapshot = pinnedSnapshot == null ? own : pinnedSnapshot;
                            // no task may outlive the snapshot whose parts it reads: runStage abandons them on failure
                            statement.runStage(group -> {
                                int rangeRows = QueryExecutor.rangeRows(snapshot.rowCount(), Math.max(1, scheduler.concurrencyHint()));
                                int[] read = Morsels.columnsRead(scan.filter(), scan.tableColumns());
                                for (TablePart part : snapshot.parts()) {
                                    if (part.liveRowCount() == 0) {
                                        continue;
                                    }
                                    PartFilter filter = PartFilter.of(scan.filter(), part, Fork.tasks(statement, QueryExecutor.affinity(scan.table(), part)));
                                    // one BitVector per part: ranges start at multiples of 1024, so tasks never share a word
                                    BitVector bits = filter == null ? null : new BitVector(part.rowCount());
                                    int driving = Morsels.drivingColumn(part, scan.filter(), read);
                                    for (Morsels.Morsel m : Morsels.of(scan.table(), part, driving, rangeRows)) {
                                        PipelineTask<S> task = new PipelineTask<>(pipeline, sinks.get(), cancelled);
                                        task.scan(part, filter, bits, m, Morsels.bytes(part, read, m.to() - m.from()));
                                        tasks.add(task);
                                        group.submit(task::run, m.affinity(), pipeline.taskClass());
                                    }
                                }
                            }, cancelled);
                        }
                    }
                    case StoreSource(RowStore rows) -> statement.runStage(group -> {
                        for (RowStore.PageRun run : rows.runs(PAGES_PER_TASK)) {
                            PipelineTask<S> task = new PipelineTask<>(pipeline, sinks.get(), cancelled);
                            task.pages(rows.pages().subList(run.from(), run.to()));
                            tasks.add(task);
                            group.submit(task::run, run.affinity(), pipeline.taskClass());
                        }
                    }, cancelled);
                }
            }
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("statement cancelled");
            }
            return tasks;
        }
    }

    /** Joins run partition by partition so far in this process: for tests and diagnostics. */
    private static final LongAdder CO_PARTITIONED_JOINS = new LongAdder();

    public static long coPartitionedJoins() {
        return CO_PARTITIONED_JOINS.sum();
    }

    /** A join's two pinned snapshots, of tables of one table group of {@code partitions} partitions. */
    private record CoPartition(int partitions, TableSnapshot build, TableSnapshot probe) {
    }

    /**
     * A join side whose rows are a table scan's rows, unchanged but for filters and column
     * picks: the scan, and the table columns the side's {@code keys} are.
     */
    private record Traced(PlanNode.Scan scan, int[] columns) {
        static Traced of(PlanNode side, int[] keys) {
            int[] columns = keys.clone();
            PlanNode node = side;
            while (true) {
                switch (node) {
                    case PlanNode.Filter f -> node = f.input();
                    case PlanNode.Project p -> {
                        for (int i = 0; i < columns.length; i++) {
                            if (!(p.exprs().get(columns[i]) instanceof ChunkExpr.Column c)) {
                                return null;
                            }
                            columns[i] = c.column();
                        }
                        node = p.input();
                    }
                    case PlanNode.Scan scan -> {
                        for (int i = 0; i < columns.length; i++) {
                            columns[i] = scan.columns()[columns[i]];
                            if (scan.isRowId(columns[i])) {
                                return null; // no column of the table: no dictionary to test keys on
                            }
                        }
                        return new Traced(scan, columns);
                    }
                    default -> {
                        return null;
                    }
                }
            }
        }
    }

    /** The partitioning every one of {@code parts} was built under, or null when one has none or another. */
    private static Partitioning partitioningOf(List<TablePart> parts) {
        Partitioning common = parts.isEmpty() ? null : parts.getFirst().partitioning();
        for (TablePart part : parts) {
            if (common == null || !common.equals(part.partitioning())) {
                return null;
            }
        }
        return common;
    }

    /**
     * Whether each partition key is a join key pair: build column {@code b.keyColumns[j]} and
     * probe column {@code p.keyColumns[j]} at the same position {@code i} of the join's keys.
     */
    private static boolean covers(Partitioning b, int[] buildColumns, Partitioning p, int[] probeColumns) {
        for (int j = 0; j < b.keyColumns().length; j++) {
            boolean found = false;
            for (int i = 0; i < buildColumns.length && !found; i++) {
                found = buildColumns[i] == b.keyColumns()[j] && probeColumns[i] == p.keyColumns()[j];
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** Hash partition p of a table's groups: the numbers of the groups whose hash's low bits are p. */
    private static int[][] partition(GroupTable table, int partitions) {
        int[] counts = new int[partitions];
        int mask = partitions - 1;
        for (int g = 0; g < table.groups(); g++) {
            counts[(int) table.hash(g) & mask]++;
        }
        int[][] out = new int[partitions][];
        for (int p = 0; p < partitions; p++) {
            out[p] = new int[counts[p]];
        }
        Arrays.fill(counts, 0);
        for (int g = 0; g < table.groups(); g++) {
            int p = (int) table.hash(g) & mask;
            out[p][counts[p]++] = g;
        }
        return out;
    }

    /** {@code in}'s columns {@code columns} as a chunk sharing its arrays. */
    private static Chunk select(Chunk in, int[] columns, List<ColumnType> types) {
        Chunk out = new Chunk(types);
        for (int i = 0; i < columns.length; i++) {
            int c = columns[i];
            out.longs[i] = in.longs[c];
            out.doubles[i] = in.doubles[c];
            out.strings[i] = in.strings[c];
            out.nulls[i] = in.nulls[c];
        }
        out.size = in.size;
        return out;
    }

    /** Chunks an operator takes between two asks whether the statement should stop, minus one (a power of two). */
    private static final int STOP_CHECK_MASK = 7;

    /** One morsel (a part's IndexVector range, or pages of a breaker's rows) pushed through a pipeline into a sink of its own. */
    private final class PipelineTask<S extends ChunkSink> {
        private final Pipeline pipeline;
        private final BooleanSupplier cancelled;
        final S sink;
        private TablePart part;
        private PartFilter filter;
        private BitVector bits;
        private int from;
        private int to;
        /** A table scan's morsel and the bytes it reads, reported when the task ends. */
        private Morsels.Morsel morsel;
        private long bytes;
        private List<Chunk> pages;

        PipelineTask(Pipeline pipeline, S sink, BooleanSupplier cancelled) {
            this.pipeline = pipeline;
            this.sink = sink;
            this.cancelled = cancelled;
        }

        void scan(TablePart part, PartFilter filter, BitVector bits, Morsels.Morsel morsel, long bytes) {
            this.part = part;
            this.filter = filter;
            this.bits = bits;
            this.from = morsel.from();
            this.to = morsel.to();
            this.morsel = morsel;
            this.bytes = bytes;
        }

        void pages(List<Chunk> pages) {
            this.pages = pages;
        }

        /** The partition of the part this task scans; -1 for none (or pages). */
        int partition() {
            return part == null ? -1 : part.partition();
        }

        private boolean stop(TaskContext context) {
            if (cancelled.getAsBoolean() || context.isCancelled()) {
                context.statement().cancel();
                return true;
            }
            return false;
        }

        void run(TaskContext context) {
            if (sink instanceof RowStore store) {
                store.fillOn(context.node());
            }
            int partition = part == null ? -1 : part.partition();
            List<Operator> operators = pipeline.operators().stream().map(f -> f.create(partition)).toList();
            List<ChunkSink> sinks = new ArrayList<>(operators.size() + 1);
            sinks.add(sink);
            for (int i = operators.size() - 1; i >= 0; i--) { // sinks.get(k) feeds what operator size-k pushes
                Operator op = operators.get(i);
                ChunkSink out = sinks.getLast();
                sinks.add(new ChunkSink() {
                    private int pushed;

                    @Override
                    public void accept(Chunk chunk) {
                        // a join's probe may make millions of rows of one input block: the statement's
                        // stop is asked between the chunks each operator takes, not only between blocks
                        if ((++pushed & STOP_CHECK_MASK) == 0 && stop(context)) {
                            throw new CancellationException("statement cancelled");
                        }
                        op.push(chunk, out);
                    }
                });
            }
            ChunkSink head = sinks.getLast();
            if (pages != null) {
                for (Chunk page : pages) {
                    if (stop(context)) {
                        return;
                    }
                    if (page.size > 0) {
                        head.accept(page);
                    }
                }
            } else {
                long start = context.busyClock();
                boolean finished = scanInto(head, context);
                Morsels.record(context, part, morsel, bytes, start);
                if (!finished) {
                    return;
                }
            }
            for (int i = 0; i < operators.size(); i++) {
                operators.get(i).finish(sinks.get(operators.size() - 1 - i));
            }
        }

        /** Pushes the range's rows a block at a time; false when the statement stopped. */
        private boolean scanInto(ChunkSink head, TaskContext context) {
            if (filter != null) {
                filter.eval(kernel, from, to, bits);
            }
            PlanNode.Scan scan = ((TableSource) pipeline.source()).scan();
            // build keys tested on vids: their columns, and their vid tests for this part, found once per task
            Map<Integer, KeyFilter> keys = ((TableSource) pipeline.source()).keys();
            // the most selective first: the others test only what it keeps
            Map<Integer, Double> shares = new HashMap<>();
            keys.forEach((c, k) -> shares.put(c, k.share(List.of(part.column(c).dictionary()))));
            int[] keyColumns = keys.keySet().stream().sorted(Comparator.comparing(shares::get)).mapToInt(Integer::intValue).toArray();
            KeyFilter.VidTest[] keyTests = new KeyFilter.VidTest[keyColumns.length];
            for (int k = 0; k < keyColumns.length; k++) {
                keyTests[k] = keys.get(keyColumns[k]).vidTest(part.column(keyColumns[k]).dictionary());
            }
            int[] columns = scan.columns();
            Chunk chunk = new Chunk(scan.types());
            Chunk sparse = null;
            Batch batch = new Batch(part);
            String[][] stringCache = new String[columns.length][];
            for (int block = from; block < to; block += Chunk.CAPACITY) {
                if (stop(context)) {
                    return false;
                }
                batch.select(block, Math.min(to, block + Chunk.CAPACITY), bits);
                for (int k = 0; k < keyColumns.length; k++) {
                    batch.retain(keyColumns[k], keyTests[k]);
                }
                if (batch.size() == 0) {
                    continue;
                }
                for (int i = 0; i < columns.length; i++) {
                    int c = columns[i];
                    if (scan.isRowId(c)) {
                        chunk.nulls[i] = null;
                        chunk.longs[i] = batch.rowIds();
                        continue;
                    }
                    chunk.nulls[i] = batch.nulls(c);
                    switch (chunk.types[i].storageKind()) {
                        case LONG -> chunk.longs[i] = batch.longs(c);
                        case DOUBLE -> chunk.doubles[i] = batch.doubles(c);
                        case STRING -> chunk.strings[i] = strings(batch, c, i, stringCache);
                    }
                }
                chunk.size = batch.size();
                if (chunk.size > SPARSE_ROWS) {
                    if (sparse != null && sparse.size > 0) { // first, to keep the rows in order
                        head.accept(sparse);
                        sparse.size = 0;
                    }
                    head.accept(chunk);
                    continue;
                }
                if (sparse == null) {
                    sparse = new Chunk(scan.types()).allocate();
                } else if (sparse.size + chunk.size > Chunk.CAPACITY) {
                    head.accept(sparse);
                    sparse.size = 0;
                }
                sparse.append(chunk);
            }
            if (sparse != null && sparse.size > 0) {
                head.accept(sparse);
            }
            return true;
        }

        private String[] strings(Batch batch, int column, int slot, String[][] cache) {
            Column c = part.column(column);
            StringDictionary d = (StringDictionary) c.dictionary();
            int[] vids = batch.vids(column);
            String[] out = new String[batch.size()];
            String[] known = cache[slot];
            if (known == null && d.size() <= STRING_CACHE_LIMIT) {
                known = cache[slot] = new String[d.size()];
            }
            int nullVid = c.nullVid();
            for (int i = 0; i < out.length; i++) {
                int vid = vids[i];
                if (vid == nullVid) {
                    continue;
                }
                if (known == null) {
                    out[i] = d.getString(vid);
                } else {
                    String s = known[vid];
                    if (s == null) {
                        s = d.getString(vid);
                        known[vid] = s;
                    }
                    out[i] = s;
                }
            }
            return out;
        }
    }

    /**
     * The probe of a hash join. The pairs of a chunk's rows and the build rows whose keys match
     * are gathered into a chunk of the join's left then right columns; the residual condition,
     * if any, is evaluated on it; what passes is put out (INNER and outer joins), marks its probe
     * row as matched (when the probe side decides: SEMI, ANTI, the outer side's rows without a
     * match, put out at the end of the chunk), and marks its build row (when the build side
     * decides: its rows are put out after the probe, see {@link Run#buildRows}).
     */
    private static final class Probe implements Operator {
        private final JoinHashTable table;
        private final int[] keys;
        private final boolean[] nullsEqual;
        private final RowPredicate residual;
        /** The probe's and the build's columns that a pair fills in, numbered within their side. */
        private final int[] probeColumns;
        private final int[] buildColumns;
        /** Where the probe's and the build's columns start in a pair, and how many each has. */
        private final int probeAt;
        private final int buildAt;
        private final int probeWidth;
        private final int buildWidth;
        private final boolean pairsOut;
        /** SEMI: put out the matched probe rows; ANTI and outer: the others. */
        private final boolean probeDecides;
        private final boolean wanted;
        /** The build rows matched, shared by all tasks (plain writes of true: the task group's end publishes them), or null. */
        private final boolean[] marks;
        private final Chunk pairs;
        private final int[] pairProbe = new int[Chunk.CAPACITY];
        private final int[] pairBuild = new int[Chunk.CAPACITY];
        private final boolean[] keep = new boolean[Chunk.CAPACITY];
        private final boolean[] matched = new boolean[Chunk.CAPACITY];
        private final long[] hashes = new long[Chunk.CAPACITY];
        private final boolean[] skip = new boolean[Chunk.CAPACITY];
        private final int[] candidates = new int[Chunk.CAPACITY];
        /** The candidates' chain links, read only to bring their rows into the cache together. */
        private final long[] touched = new long[Chunk.CAPACITY];
        private final ConditionKernel residualKernel;
        /** The probe rows put out on their own: SEMI and ANTI as they are, an outer join's with NULLs beside. */
        private final Chunk rest;

        /** {@code read}: the output columns that are read above (all when null); the others are not filled in. */
        Probe(JoinHashTable table, int[] keys, PlanNode.HashJoin join, boolean[] marks, int[] read) {
            this.table = table;
            this.keys = keys;
            this.nullsEqual = join.nullsEqual();
            this.residual = join.residual();
            this.residualKernel = residual == null ? null : new ConditionKernel(residual);
            this.marks = marks;
            boolean buildFirst = join.buildLeft();
            List<ColumnType> pairTypes = join.pairTypes();
            this.probeWidth = (buildFirst ? join.right() : join.left()).types().size();
            this.buildWidth = pairTypes.size() - probeWidth;
            this.probeAt = buildFirst ? buildWidth : 0;
            this.buildAt = buildFirst ? 0 : probeWidth;
            this.pairsOut = join.kind() != PlanNode.JoinKind.SEMI && join.kind() != PlanNode.JoinKind.ANTI;
            this.probeDecides = join.probeDecides();
            this.wanted = join.kind() == PlanNode.JoinKind.SEMI;
            this.pairs = new Chunk(pairTypes).allocate();
            this.rest = probeDecides ? new Chunk(join.types()).allocate() : null;
            // an output column is the pair's column of the same number (SEMI and ANTI put out the left's)
            BitSet filled = new BitSet();
            if (read == null) {
                filled.set(0, pairTypes.size());
            } else {
                Arrays.stream(read).forEach(filled::set);
                if (residual != null) {
                    filled.or(ColumnPruning.reads(residual));
                }
            }
            this.probeColumns = filled.get(probeAt, probeAt + probeWidth).stream().toArray();
            this.buildColumns = filled.get(buildAt, buildAt + buildWidth).stream().toArray();
        }

        @Override
        public void push(Chunk in, ChunkSink sink) {
            Arrays.fill(matched, 0, in.size, false);
            // without a residual nor pairs to put out, a key match alone decides
            boolean keysDecide = residual == null && !pairsOut;
            JoinHashTable.hashes(in, keys, hashes);
            JoinHashTable.unmatchable(in, keys, nullsEqual, skip);
            // each row's bucket first, then its first candidate's row, then the chains: the cache
            // misses of a loop's rows overlap, rather than one per probe row in turn
            for (int p = 0; p < in.size; p++) {
                candidates[p] = skip[p] ? -1 : table.first(hashes[p]);
            }
            for (int p = 0; p < in.size; p++) {
                touched[p] = candidates[p] < 0 ? 0 : table.touch(candidates[p]);
            }
            for (int p = 0; p < in.size; p++) {
                long hash = hashes[p];
                for (int row = candidates[p]; row >= 0; row = table.next(row, hash)) {
                    if (!table.matches(row, in, keys, p)) {
                        continue;
                    }
                    if (keysDecide) {
                        if (marks == null) {
                            matched[p] = true;
                            break;
                        }
                        if (!marks[row]) {
                            marks[row] = true; // read first: rows matched often stay in every core's cache
                        }
                        continue;
                    }
                    pairProbe[pairs.size] = p;
                    pairBuild[pairs.size] = row;
                    if (++pairs.size == Chunk.CAPACITY) {
                        flush(in, sink);
                    }
                }
            }
            flush(in, sink);
            if (probeDecides) {
                rest.size = 0;
                for (int p = 0; p < in.size; p++) {
                    if (matched[p] == wanted) {
                        int r = rest.size++;
                        for (int c : probeColumns) {
                            rest.copy(probeAt + c, r, in, c, p);
                        }
                        for (int c = 0; pairsOut && c < buildColumns.length; c++) {
                            rest.setNull(buildAt + buildColumns[c], r);
                        }
                    }
                }
                if (rest.size > 0) {
                    sink.accept(rest);
                }
            }
        }

        /** Gathers the pending pairs, keeps those the residual condition passes, and puts them out or marks their rows. */
        private void flush(Chunk in, ChunkSink sink) {
            int n = pairs.size;
            if (n == 0) {
                return;
            }
            for (int c : probeColumns) {
                pairs.gather(probeAt + c, in, c, pairProbe, n);
            }
            for (int c : buildColumns) {
                table.gather(c, pairBuild, n, pairs, buildAt + c);
            }
            boolean all = residual == null;
            if (all) {
                Arrays.fill(keep, 0, n, true);
            } else {
                residualKernel.keep(pairs, keep);
            }
            for (int i = 0; i < n; i++) {
                boolean k = keep[i];
                matched[pairProbe[i]] |= k;
                if (k && marks != null && !marks[pairBuild[i]]) {
                    marks[pairBuild[i]] = true;
                }
            }
            if (pairsOut) {
                if (!all) {
                    pairs.compact(keep);
                }
                if (pairs.size > 0) {
                    sink.accept(pairs);
                }
            }
            pairs.size = 0;
        }
    }
}
