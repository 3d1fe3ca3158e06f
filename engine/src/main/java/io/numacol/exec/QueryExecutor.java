package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.StatementFailedException;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskGroup;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Runs a {@link QueryPlan} on the scheduler (thesis §5.3.1, §5.5; morsel paper §6.3-6.4): each
 * part is cut into IndexVector ranges of whole 1024-row blocks, about four per unit of the
 * concurrency hint in all, each a task with the affinity of the node holding its rows
 * ({@link Morsels}: no range straddles two nodes' pages). A task
 * evaluates the part's vid predicates into a BitVector for its range, then, by a strategy chosen
 * once for the plan (and the part, where its dictionaries decide), a {@link RangeTask}:
 * <ul>
 *   <li>aggregates a {@link Batch} of selected rows at a time into primitive accumulators
 *       ({@link VectorAggregateTask}), or, for COUNT/SUM over a range of one column (SUM when its
 *       dictionary is dense), counts and sums vids in the scan kernel itself
 *       ({@link IndexVectorSumTask});</li>
 *   <li>or materializes rows ({@link RowsTask}; into a bounded heap for top-N, {@link TopNTask}),
 *       handed back a wave of tasks at a time ({@link #stream});</li>
 *   <li>or, for what the vectorized path does not take (DISTINCT, keys wider than 63 bits,
 *       expressions that are not {@link NumericExpr}s), aggregates row by row into a task-local
 *       hash table keyed by the group columns' vids ({@link BoxedAggregateTask}).</li>
 * </ul>
 * Keys become values only at the end of a task, since each part has its own dictionaries;
 * then the task tables are merged.
 */
public final class QueryExecutor {
    /** Fewer groups than this are merged on the calling thread: tasks would cost more than they save. */
    static final int PARALLEL_MERGE_GROUPS = 20_000;

    private final Scheduler scheduler;
    private final ScanKernel kernel = ScanKernels.get();
    private final boolean vectorized;

    public QueryExecutor(Scheduler scheduler) {
        this(scheduler, true);
    }

    /** {@code vectorized} false: aggregate row by row on boxed values, the reference the vectorized path is tested against. */
    QueryExecutor(Scheduler scheduler, boolean vectorized) {
        this.scheduler = scheduler;
        this.vectorized = vectorized;
    }

    /**
     * The plan's output rows. {@code cancelled} is polled between blocks; once it answers true
     * the numacol statement is cancelled and this throws CancellationException.
     */
    public List<Object[]> execute(QueryPlan plan, BooleanSupplier cancelled) {
        if (streams(plan)) {
            List<Object[]> rows = new ArrayList<>();
            try (RowStream stream = stream(plan, cancelled)) {
                for (List<Object[]> batch = stream.next(); batch != null; batch = stream.next()) {
                    rows.addAll(batch);
                }
            }
            return rows;
        }
        if (vectorized && plan.aggregation() != null) {
            try {
                return execute(plan, cancelled, true);
            } catch (StatementFailedException e) {
                if (!(e.getCause() instanceof NumericExpr.BeyondLong)) {
                    throw e;
                }
                // a DECIMAL left a long: legal SQL, computed again on BigDecimals
            }
        }
        return execute(plan, cancelled, false);
    }

    private List<Object[]> execute(QueryPlan plan, BooleanSupplier cancelled, boolean tryVectors) {
        try (TableSnapshot snapshot = plan.table().snapshot()) {
            List<TablePart> parts = snapshot.parts();
            boolean vectors = tryVectors && VectorAggregator.supports(plan, parts);
            int hint = Math.max(1, scheduler.concurrencyHint());
            int rangeRows = Morsels.rangeRows(snapshot.rowCount(), hint);

            Statement statement = scheduler.newStatement();
            if (plan.aggregation() == null) {
                List<Collection<Object[]>> rows = runRanges(plan, parts, rangeRows, statement, TaskClass.MATERIALIZE,
                        rowTasks(plan, cancelled), cancelled);
                return mergeRows(plan, rows);
            }
            List<PartitionedGroups> groups = runRanges(plan, parts, rangeRows, statement, TaskClass.AGGREGATE,
                    aggregateTasks(plan, cancelled, hint, vectors), cancelled);
            return mergeGroups(plan, groups, statement, hint);
        }
    }

    /**
     * Runs a task per morsel of every part, with the affinity of the node holding its rows, and
     * answers what each one left.
     */
    private static <R> List<R> runRanges(QueryPlan plan, List<TablePart> parts, int rangeRows, Statement statement,
                                         TaskClass taskClass, PartTasks<R> strategy, BooleanSupplier cancelled) {
        List<RangeTask<? extends R>> tasks = new ArrayList<>();
        int[] read = columnsRead(plan);
        // no task may outlive the snapshot whose parts it reads: runStage abandons them on failure
        statement.runStage(group -> {
            for (TablePart part : parts) {
                if (part.liveRowCount() == 0) {
                    continue;
                }
                PartFilter filter = PartFilter.of(plan.filter(), part, Fork.tasks(statement, affinity(plan, part)));
                RangeTasks<R> ranges = strategy.of(part, filter);
                for (Morsels.Morsel m : morsels(plan, part, rangeRows)) {
                    RangeTask<? extends R> task = ranges.task(m.from(), m.to());
                    task.accountAs(m, Morsels.bytes(part, read, m.to() - m.from()));
                    tasks.add(task);
                    group.submit(task::run, m.affinity(), taskClass);
                }
            }
        }, cancelled);
        List<R> results = new ArrayList<>(tasks.size());
        for (RangeTask<? extends R> task : tasks) {
            results.add(task.result());
        }
        return results;
    }

    /** How one part's ranges are run: chosen once per plan, then per part where the part's dictionaries decide. */
    @FunctionalInterface
    private interface PartTasks<R> {
        RangeTasks<R> of(TablePart part, PartFilter filter);
    }

    /** The task of one range of a part. */
    @FunctionalInterface
    private interface RangeTasks<R> {
        RangeTask<? extends R> task(int from, int to);
    }

    /**
     * An aggregate's tasks: vectorized ones (a part in the shape {@link IndexVectorSumTask}
     * takes is summed on its IndexVectors), or with {@code vectors} false row-at-a-time ones.
     */
    private PartTasks<PartitionedGroups> aggregateTasks(QueryPlan plan, BooleanSupplier cancelled, int partitions,
                                                        boolean vectors) {
        if (!vectors) {
            return (part, filter) -> {
                BitVector bits = bits(part, filter);
                return (from, to) -> new BoxedAggregateTask(kernel, plan, part, filter, bits, from, to, cancelled, partitions);
            };
        }
        return (part, filter) -> {
            IndexVectorSumTask.Shape shape = IndexVectorSumTask.shape(plan, part, filter);
            if (shape != null) {
                return (from, to) -> new IndexVectorSumTask(kernel, shape, part, from, to, cancelled, partitions);
            }
            BitVector bits = bits(part, filter);
            return (from, to) -> new VectorAggregateTask(kernel, plan, part, filter, bits, from, to, cancelled, partitions);
        };
    }

    /** The tasks of a plan without aggregate: each keeps its top N rows under ORDER BY with FETCH, else its rows. */
    private PartTasks<Collection<Object[]>> rowTasks(QueryPlan plan, BooleanSupplier cancelled) {
        Ordering ordering = plan.ordering();
        boolean topN = ordering != null && !ordering.keys().isEmpty() && ordering.limit() >= 0;
        return (part, filter) -> {
            BitVector bits = bits(part, filter);
            return topN ? (from, to) -> new TopNTask(kernel, plan, part, filter, bits, from, to, cancelled)
                    : (from, to) -> new RowsTask(kernel, plan, part, filter, bits, from, to, cancelled);
        };
    }

    /** One BitVector per part: tasks' ranges start at multiples of 1024, so their words never overlap. */
    private static BitVector bits(TablePart part, PartFilter filter) {
        return filter == null ? null : new BitVector(part.rowCount());
    }

    /** Whether rows can leave before the whole table is scanned: no aggregate and no ORDER BY to wait for. */
    public static boolean streams(QueryPlan plan) {
        return plan.aggregation() == null && (plan.ordering() == null || plan.ordering().keys().isEmpty());
    }

    /**
     * The rows of a plan that {@link #streams}, task by task in scan order, with at most
     * {@link #WINDOW_PER_HINT} times the concurrency hint tasks in flight: the caller holds a few
     * tasks' rows rather than the result's, and the workers scan ahead while it reads a batch (a
     * stream that ran a wave of tasks and then waited for the caller left the workers idle
     * between waves and paid a wake-up per wave: at 2M rows, half of a selective query's time).
     * An unordered LIMIT submits no task once it has its rows. The stream reads one snapshot
     * throughout, so its parts (even ones merges have replaced) stay in memory until it ends or
     * is closed: a JDBC ResultSet left open holds them.
     */
    public RowStream stream(QueryPlan plan, BooleanSupplier cancelled) {
        if (!streams(plan)) {
            throw new IllegalArgumentException("an aggregate or ORDER BY needs every row first: use execute");
        }
        return new RowStream(plan, cancelled);
    }

    /** Tasks a {@link RowStream} keeps in flight, per unit of the concurrency hint. */
    static final int WINDOW_PER_HINT = 2;

    /** Batches of rows, one per task; see {@link #stream}. Not thread-safe: one consumer. */
    public final class RowStream implements AutoCloseable {
        private final QueryPlan plan;
        private final BooleanSupplier cancelled;
        private final TableSnapshot snapshot;
        private final Statement statement;
        private final int window;
        private final int rangeRows;
        private final List<TablePart> parts;
        private final int[] read;
        /** Submitted tasks in scan order, each in a group of its own so that it can be awaited alone. */
        private final ArrayDeque<Running> running = new ArrayDeque<>();
        private int partIndex;
        private PartFilter filter;
        private BitVector bits;
        /** The current part's morsels, the next one to submit at {@code nextMorsel}. */
        private List<Morsels.Morsel> morsels;
        private int nextMorsel;
        private long skip;
        /** Rows still wanted, -1 for all. */
        private long remaining;
        private boolean closed;

        private record Running(RowsTask task, TaskGroup group) {
        }

        private RowStream(QueryPlan plan, BooleanSupplier cancelled) {
            this.plan = plan;
            this.cancelled = cancelled;
            this.statement = scheduler.newStatement(); // first: it may refuse (closing), the snapshot must then not be taken
            this.snapshot = plan.table().snapshot();
            this.parts = snapshot.parts().stream().filter(p -> p.liveRowCount() > 0).toList();
            this.read = columnsRead(plan);
            int hint = Math.max(1, scheduler.concurrencyHint());
            this.window = hint * WINDOW_PER_HINT;
            this.rangeRows = Morsels.rangeRows(snapshot.rowCount(), hint);
            this.skip = plan.ordering() == null ? 0 : plan.ordering().offset();
            this.remaining = plan.ordering() == null ? -1 : plan.ordering().fetch();
        }

        /** The next batch of rows, or null once there are no more (then the stream is closed). */
        public List<Object[]> next() {
            try {
                return nextBatch();
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        private List<Object[]> nextBatch() {
            while (!closed) {
                submitUpToWindow();
                Running head = running.poll();
                if (head == null) {
                    close();
                    break;
                }
                head.group().await();
                if (cancelled.getAsBoolean()) {
                    close();
                    throw new CancellationException("statement cancelled");
                }
                List<Object[]> rows = new ArrayList<>();
                for (Object[] row : head.task().result()) {
                    if (skip > 0) {
                        skip--;
                    } else if (remaining != 0) {
                        rows.add(row);
                        remaining -= remaining > 0 ? 1 : 0;
                    }
                }
                if (!rows.isEmpty()) {
                    submitUpToWindow(); // the workers go on while the caller reads these rows
                    return rows;
                }
            }
            return null;
        }

        /** Submits the next ranges until the window is full, the table is read or the LIMIT is met. */
        private void submitUpToWindow() {
            while (running.size() < window && partIndex < parts.size() && remaining != 0) {
                TablePart part = parts.get(partIndex);
                if (morsels == null) {
                    filter = PartFilter.of(plan.filter(), part, Fork.tasks(statement, affinity(plan, part)));
                    bits = bits(part, filter);
                    morsels = morsels(plan, part, rangeRows);
                    nextMorsel = 0;
                }
                Morsels.Morsel m = morsels.get(nextMorsel++);
                RowsTask task = new RowsTask(kernel, plan, part, filter, bits, m.from(), m.to(), cancelled);
                task.accountAs(m, Morsels.bytes(part, read, m.to() - m.from()));
                TaskGroup group = statement.newTaskGroup();
                running.add(new Running(task, group));
                group.submit(task::run, m.affinity(), TaskClass.MATERIALIZE);
                if (nextMorsel == morsels.size()) {
                    partIndex++;
                    morsels = null;
                }
            }
        }

        /**
         * Ends the stream: tasks still in flight are cancelled and awaited (none may outlive the
         * snapshot whose parts it reads), then the snapshot is released.
         */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                try {
                    for (Running r : running) {
                        r.group().abandon();
                    }
                    running.clear();
                } finally {
                    snapshot.close();
                }
            }
        }
    }

    private static Affinity affinity(QueryPlan plan, TablePart part) {
        return Morsels.affinity(plan.table(), part);
    }

    private static List<Morsels.Morsel> morsels(QueryPlan plan, TablePart part, int rangeRows) {
        return Morsels.of(plan.table(), part, Morsels.drivingColumn(part, plan.filter(), projected(plan)), rangeRows);
    }

    private static int[] projected(QueryPlan plan) {
        return plan.projections().stream().flatMapToInt(p -> Arrays.stream(p.columns())).toArray();
    }

    /** The columns a plan's scan reads: its filter's and its projections'. */
    private static int[] columnsRead(QueryPlan plan) {
        return Morsels.columnsRead(plan.filter(), projected(plan));
    }

    private static List<Object[]> mergeRows(QueryPlan plan, List<Collection<Object[]>> tasks) {
        List<Object[]> rows = new ArrayList<>();
        for (Collection<Object[]> t : tasks) {
            rows.addAll(t);
        }
        return order(plan.ordering(), rows);
    }

    /**
     * Phase 2 of the aggregation (morsel paper §6.3): each task left its groups in
     * {@code partitions} hash partitions; partition p of all tasks merges into one table, by one
     * merge task per partition when there are many groups, on this thread when there are few.
     */
    private static List<Object[]> mergeGroups(QueryPlan plan, List<PartitionedGroups> tasks, Statement statement, int partitions) {
        Aggregation agg = plan.aggregation();
        List<List<Object[]>> merged = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            merged.add(null);
        }
        long groups = tasks.stream().mapToLong(PartitionedGroups::size).sum();
        if (groups < PARALLEL_MERGE_GROUPS || partitions == 1) {
            for (int p = 0; p < partitions; p++) {
                merged.set(p, mergePartition(tasks, p));
            }
        } else {
            statement.runStage(group -> {
                for (int p = 0; p < partitions; p++) {
                    int partition = p;
                    group.submit(context -> merged.set(partition, mergePartition(tasks, partition)), Affinity.none(),
                            TaskClass.AGGREGATE);
                }
            });
        }
        List<Object[]> rows = new ArrayList<>();
        merged.forEach(rows::addAll);
        if (rows.isEmpty() && agg.groupKeys().length == 0) {
            rows.add(Arrays.stream(Accumulator.create(agg)).map(Accumulator::result).toArray());
        }
        return order(plan.ordering(), rows);
    }

    private static List<Object[]> mergePartition(List<PartitionedGroups> tasks, int partition) {
        Map<List<Object>, Accumulator[]> merged = new HashMap<>();
        for (PartitionedGroups t : tasks) {
            t.partition(partition).forEach((key, accs) -> {
                Accumulator[] into = merged.putIfAbsent(key, accs);
                if (into != null) {
                    for (int i = 0; i < accs.length; i++) {
                        into[i].merge(accs[i]);
                    }
                }
            });
        }
        List<Object[]> rows = new ArrayList<>(merged.size());
        merged.forEach((key, accs) -> {
            Object[] row = new Object[key.size() + accs.length];
            key.toArray(row);
            for (int i = 0; i < accs.length; i++) {
                row[key.size() + i] = accs[i].result();
            }
            rows.add(row);
        });
        return rows;
    }

    private static List<Object[]> order(Ordering ordering, List<Object[]> rows) {
        if (ordering == null) {
            return rows;
        }
        if (!ordering.keys().isEmpty()) {
            rows.sort(ordering.comparator());
        }
        int from = (int) Math.min(rows.size(), ordering.offset());
        int to = ordering.fetch() < 0 ? rows.size() : (int) Math.min(rows.size(), from + ordering.fetch());
        return rows.subList(from, to);
    }
}
