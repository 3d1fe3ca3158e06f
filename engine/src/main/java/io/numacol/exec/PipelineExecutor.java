package io.numacol.exec;

import io.numacol.memory.NumaMemory;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.TaskClass;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * Runs a {@link PlanNode} tree as morsel-driven pipelines (morsel paper §3). The tree is cut at
 * its pipeline breakers: a hash join's build side, an aggregate, a sort. A pipeline is a source
 * (a {@link TableScan}, or the rows a breaker below made), the operators over it up to the next
 * breaker ({@link FilterOperator}, {@link ProjectOperator}, {@link HashJoinProbe}), and a sink (a
 * store of rows, a {@link HashAggregate}'s groups). Pipelines a pipeline depends on run first,
 * each to completion. This class only cuts; the operators are classes of their own, and
 * {@link Execution} turns a pipeline into tasks.
 */
public final class PipelineExecutor {
    private final Scheduler scheduler;
    private final NumaMemory memory;

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
        if (plan instanceof PlanNode.VidScan top) { // as computed: a SUM past a long's digits is exact only while no operator stores it
            return vidRows(top, cancelled);
        }
        try (MemoryReservation reservation = memory == null ? MemoryReservation.NONE : MemoryReservation.of(memory)) {
            return rows(plan, cancelled, reservation).toRows(cancelled);
        }
    }

    /**
     * The plan's rows as they become ready: a one-table scan without aggregate nor ORDER BY
     * streams them as its tasks end (see {@link RowScan#stream}); any other plan answers them
     * whole, in one batch, once they are all computed.
     */
    public ResultStream open(PlanNode plan, BooleanSupplier cancelled) {
        if (plan instanceof PlanNode.VidScan top && top.streams()) {
            ResultStream rows = new RowScan(scheduler).stream(top, cancelled);
            return new ResultStream() {
                @Override
                public List<Object[]> next() {
                    List<Object[]> batch = rows.next();
                    if (batch != null) {
                        batch.replaceAll(top.output());
                    }
                    return batch;
                }

                @Override
                public void close() {
                    rows.close();
                }
            };
        }
        return ResultStream.of(execute(plan, cancelled));
    }

    /** The rows of a one-table scan on vids, each turned into its caller's internal values by the node's output. */
    private List<Object[]> vidRows(PlanNode.VidScan plan, BooleanSupplier cancelled) {
        List<Object[]> rows = plan.aggregation() != null ? new VidAggregate(scheduler, true).rows(plan, cancelled)
                : new RowScan(scheduler).rows(plan, cancelled);
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            out.add(plan.output().apply(row));
        }
        return out;
    }

    /** The plan's rows as pages, each knowing the node whose worker filled it. */
    RowStore rows(PlanNode plan, BooleanSupplier cancelled, MemoryReservation reservation) {
        PlanNode pruned = ColumnPruning.prune(plan);
        try (Execution execution = new Execution(scheduler, cancelled, reservation)) {
            Cutter cutter = new Cutter(execution, this);
            cutter.countUses(pruned);
            return cutter.materialize(pruned);
        }
    }

    /** Cuts one execution's plan into pipelines, runs the ones below a pipeline first, and answers the top's rows. */
    private static final class Cutter {
        private final Execution execution;
        private final PipelineExecutor executor;
        /** How many parents hold each node of the plan: a node held twice (a view used twice) runs once. */
        private final IdentityHashMap<PlanNode, Integer> uses = new IdentityHashMap<>();
        /** The rows of the shared breakers run so far (stores are read-only). */
        private final IdentityHashMap<PlanNode, RowStore> breakers = new IdentityHashMap<>();

        Cutter(Execution execution, PipelineExecutor executor) {
            this.execution = execution;
            this.executor = executor;
        }

        void countUses(PlanNode node) {
            if (uses.merge(node, 1, Integer::sum) > 1) {
                return;
            }
            switch (node) {
                case PlanNode.Scan scan -> { }
                case PlanNode.VidScan scan -> { }
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
            if (shared(node) && (node instanceof PlanNode.Aggregate || node instanceof PlanNode.Sort || node instanceof PlanNode.VidScan)) {
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
                case PlanNode.Aggregate aggregate -> new HashAggregate(aggregate, execution).run(compile(aggregate.input()));
                case PlanNode.Sort sort -> RowSorter.sort(materialize(sort.input()), sort.ordering());
                case PlanNode.VidScan scan -> RowStore.of(scan.types(), executor.vidRows(scan, execution::stopped));
                default -> gather(compile(node));
            };
        }

        /** A pipeline's rows, run to the end into a store per task, in the source's order. */
        private RowStore gather(Pipeline pipeline) {
            RowStore result = execution.store(pipeline.types());
            execution.run(pipeline, PipelineSink.stores(execution, pipeline.types())).forEach(result::addAll);
            return result;
        }

        /** The pipeline that computes {@code node}; the pipelines it depends on are run on the way. */
        private Pipeline compile(PlanNode node) {
            return switch (node) {
                case PlanNode.Scan scan -> Pipeline.of(new PipelineSource.TableSource(scan, Map.of(), null), scan.types(),
                        TaskClass.SCAN);
                case PlanNode.Aggregate a -> stored(a);
                case PlanNode.Sort s -> stored(s);
                case PlanNode.VidScan v -> stored(v);
                case PlanNode.Project project -> {
                    int[] columns = project.columns();
                    List<ColumnType> types = project.types();
                    // a join below gathers only the columns its pairs put out that are read here
                    Pipeline input = columns != null && project.input() instanceof PlanNode.HashJoin join
                            ? join(join, columns) : compile(project.input());
                    yield input.with(p -> new ProjectOperator(project, types, columns), types, input.taskClass());
                }
                case PlanNode.Filter filter -> {
                    Pipeline input = compile(filter.input());
                    RowPredicate condition = filter.condition();
                    if (condition instanceof RowPredicate.InKeys k && k.keys() != null && k.keys().testsVids()
                            && input.operators().isEmpty() && input.source() instanceof PipelineSource.TableSource table) {
                        int keyColumn = table.scan().columns()[k.column()];
                        PipelineSource.TableSource keyed = table.scan().isRowId(keyColumn) ? null : table.withKeys(keyColumn, k.keys());
                        if (keyed != null) {
                            yield input.over(keyed);
                        }
                    }
                    List<ColumnType> types = filter.types();
                    yield input.with(p -> new FilterOperator(condition, types), types, input.taskClass());
                }
                case PlanNode.HashJoin join -> join(join, null);
            };
        }

        /**
         * The pipeline of a join's output, its build side run on the way; of the output columns
         * only {@code read} ones (all when null) are filled in, the others hold what they held.
         */
        private Pipeline join(PlanNode.HashJoin join, int[] read) {
            HashJoinBuild sides = new HashJoinBuild(join, execution);
            CoPartition co = CoPartition.of(join, sides, execution);
            if (co != null) {
                return joinByPartition(join, sides, co, read);
            }
            RowStore built = materialize(sides.buildSide);
            Pipeline probe = compile(sides.filteredProbe(built, this::shared));
            List<ColumnType> types = join.types();
            if (sides.nothingOut(built)) {
                return probe.with(p -> (in, out) -> { }, types, TaskClass.JOIN_PROBE).none();
            }
            JoinHashTable table = sides.build(new RowStore[] {built})[0];
            if (!join.buildDecides()) {
                return probe.with(p -> new HashJoinProbe(table, sides.probeKeys, join, null, read), types, TaskClass.JOIN_PROBE);
            }
            // the build rows put out depend on every probe row: run the probe to the end first
            boolean[] marks = new boolean[(int) built.capacity()];
            RowStore result = gather(probe.with(p -> new HashJoinProbe(table, sides.probeKeys, join, marks, null), types,
                    TaskClass.JOIN_PROBE));
            result.addAll(sides.buildRows(built, marks));
            return Pipeline.of(new PipelineSource.StoreSource(result), types, TaskClass.MATERIALIZE);
        }

        /**
         * The join run partition by partition (thesis §6.3, table groups): the build side's rows
         * are kept apart by partition, each partition's hash table is built by tasks on the
         * partition's node, and a probe task over a part of partition {@code p} probes table
         * {@code p} alone: no exchange, and each table a partition's size.
         */
        private Pipeline joinByPartition(PlanNode.HashJoin join, HashJoinBuild sides, CoPartition co, int[] read) {
            CO_PARTITIONED_JOINS.increment();
            Pipeline buildPipeline = pin(compile(sides.buildSide), co.build());
            RowStore[] built = new RowStore[co.partitions()];
            for (int p = 0; p < built.length; p++) {
                built[p] = execution.store(buildPipeline.types());
            }
            for (PipelineTask<RowStore> task : execution.runTasks(buildPipeline, PipelineSink.stores(execution, buildPipeline.types()))) {
                built[task.partition()].addAll(task.sink());
            }
            RowStore all = execution.store(buildPipeline.types());
            for (RowStore b : built) {
                all.addAll(b);
            }
            Pipeline probe = pin(compile(sides.filteredProbe(all, this::shared)), co.probe());
            List<ColumnType> types = join.types();
            if (sides.nothingOut(all)) {
                return probe.with(p -> (in, out) -> { }, types, TaskClass.JOIN_PROBE).none();
            }
            JoinHashTable[] tables = sides.build(built);
            return probe.with(p -> new HashJoinProbe(tables[p], sides.probeKeys, join, null, read), types, TaskClass.JOIN_PROBE);
        }

        /** The pipeline over the parts of {@code snapshot}, a snapshot of the table its scan reads. */
        private static Pipeline pin(Pipeline pipeline, TableSnapshot snapshot) {
            if (!(pipeline.source() instanceof PipelineSource.TableSource(PlanNode.Scan scan, var keys, var none))
                    || scan.table() != snapshot.table()) {
                throw new IllegalStateException("a join by partitions expected a scan of " + snapshot.table().name() + " under "
                        + pipeline.source());
            }
            return pipeline.over(new PipelineSource.TableSource(scan, keys, snapshot));
        }

        private Pipeline stored(PlanNode breaker) {
            return Pipeline.of(new PipelineSource.StoreSource(materialize(breaker)), breaker.types(), TaskClass.MATERIALIZE);
        }
    }

    /** Joins run partition by partition so far in this process: for tests and diagnostics. */
    private static final LongAdder CO_PARTITIONED_JOINS = new LongAdder();

    public static long coPartitionedJoins() {
        return CO_PARTITIONED_JOINS.sum();
    }
}
