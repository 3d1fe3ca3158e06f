package io.numacol.exec;

import io.numacol.placement.PageSocketMap;
import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scan.VidPredicate;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.StatementFailedException;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskContext;
import io.numacol.scheduler.TaskGroup;
import io.numacol.storage.Column;
import io.numacol.storage.IndexVector;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Runs a {@link QueryPlan} on the scheduler (thesis §5.3.1, §5.5; morsel paper §6.3-6.4): each
 * part is cut into IndexVector ranges of whole 1024-row blocks, about four per unit of the
 * concurrency hint in all, each a task with the affinity of the node holding the part. A task
 * evaluates the part's vid predicates into a BitVector for its range, then:
 * <ul>
 *   <li>aggregates a {@link Batch} of selected rows at a time into primitive accumulators
 *       ({@link VectorAggregator}), or, for COUNT/SUM over a range of one column (SUM when its
 *       dictionary is dense), counts and sums vids in the scan kernel itself;</li>
 *   <li>or materializes rows (into a bounded heap for top-N), handed back a wave of tasks at a
 *       time ({@link #stream});</li>
 *   <li>or, for what the vectorized path does not take (DISTINCT, keys wider than 63 bits,
 *       expressions that are not {@link NumericExpr}s), aggregates row by row into a task-local
 *       hash table keyed by the group columns' vids.</li>
 * </ul>
 * Keys become values only at the end of a task, since each part has its own dictionaries;
 * then the task tables are merged.
 */
public final class QueryExecutor {
    private static final int BLOCK = IndexVector.BLOCK_ROWS;
    /** Dictionaries up to this size have their values cached per task (Q1's flags, quantities, discounts). */
    private static final int VALUE_CACHE_LIMIT = 4096;
    /** Fewer groups than this are merged on the calling thread: tasks would cost more than they save. */
    static final int PARALLEL_MERGE_GROUPS = 20_000;
    /** Tasks per unit of the concurrency hint for a scan (morsels, not one range per worker). */
    static final int TASKS_PER_HINT = 4;
    /** Below this a task costs more to schedule than it saves. */
    private static final int MIN_TASK_ROWS = 16 * BLOCK;
    /** Morsels of at most this many rows (morsel paper: ~100k), so that one part never is one long task. */
    private static final int MAX_TASK_ROWS = 256 * BLOCK;

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
            int rangeRows = rangeRows(snapshot.rowCount(), hint);

            Statement statement = scheduler.newStatement();
            TaskGroup group = statement.newTaskGroup();
            TaskClass taskClass = plan.aggregation() != null ? TaskClass.AGGREGATE : TaskClass.MATERIALIZE;
            List<RangeTask> tasks = new ArrayList<>();
            try {
                for (TablePart part : parts) {
                    if (part.rowCount() == 0) {
                        continue;
                    }
                    Affinity affinity = affinity(plan, part);
                    PartFilter filter = plan.filter() == null ? null : plan.filter().prepare(part, Fork.tasks(statement, affinity));
                    // one BitVector per part: tasks' ranges start at multiples of 1024, so their words never overlap
                    BitVector bits = filter == null ? null : new BitVector(part.rowCount());
                    for (int from = 0; from < part.rowCount(); from += rangeRows) {
                        RangeTask task = new RangeTask(plan, part, filter, bits, from, Math.min(part.rowCount(), from + rangeRows),
                                cancelled, hint, vectors);
                        tasks.add(task);
                        group.submit(task::run, affinity, taskClass);
                    }
                }
            } catch (Throwable t) {
                group.abandon(); // no task may outlive the snapshot whose parts it reads
                throw t;
            }
            group.await();
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("statement cancelled");
            }
            return plan.aggregation() != null ? mergeGroups(plan, tasks, statement, hint) : mergeRows(plan, tasks);
        }
    }

    /**
     * Rows per task, whole blocks: the rows over {@link #TASKS_PER_HINT} times the concurrency
     * hint, between {@link #MIN_TASK_ROWS} and {@link #MAX_TASK_ROWS}. Several tasks per worker
     * let tasks of unequal cost (a part whose dictionary is not dense, a part on a busy node)
     * still end evenly; the hint still shrinks the split when the machine is busy. This departs
     * from the thesis, where an operator makes at most the hint's number of tasks.
     */
    static int rangeRows(long rows, int hint) {
        long tasks = (long) hint * TASKS_PER_HINT;
        long perTask = Math.max(MIN_TASK_ROWS, Math.min(MAX_TASK_ROWS, (rows + tasks - 1) / tasks));
        return (int) Math.min(Integer.MAX_VALUE - BLOCK, (perTask + BLOCK - 1) / BLOCK * BLOCK);
    }

    /** Whether rows can leave before the whole table is scanned: no aggregate and no ORDER BY to wait for. */
    public static boolean streams(QueryPlan plan) {
        return plan.aggregation() == null && (plan.ordering() == null || plan.ordering().keys().isEmpty());
    }

    /**
     * The rows of a plan that {@link #streams}, a wave of at most concurrency-hint tasks at a
     * time: the caller holds one wave's rows rather than the result's, the next wave starts when
     * it asks, and an unordered LIMIT submits no task once it has its rows. The stream reads
     * one snapshot throughout, so its parts (even ones merges have replaced) stay in memory
     * until it ends or is closed: a JDBC ResultSet left open holds them.
     */
    public RowStream stream(QueryPlan plan, BooleanSupplier cancelled) {
        if (!streams(plan)) {
            throw new IllegalArgumentException("an aggregate or ORDER BY needs every row first: use execute");
        }
        return new RowStream(plan, cancelled);
    }

    /** Batches of rows from waves of tasks; see {@link #stream}. Not thread-safe: one consumer. */
    public final class RowStream implements AutoCloseable {
        private final QueryPlan plan;
        private final BooleanSupplier cancelled;
        private final TableSnapshot snapshot;
        private final Statement statement;
        private final int wave;
        private final int rangeRows;
        private final List<TablePart> parts;
        private int partIndex;
        private int nextFrom;
        private PartFilter filter;
        private BitVector bits;
        private Affinity affinity;
        private long skip;
        /** Rows still wanted, -1 for all. */
        private long remaining;
        private boolean closed;

        private RowStream(QueryPlan plan, BooleanSupplier cancelled) {
            this.plan = plan;
            this.cancelled = cancelled;
            this.statement = scheduler.newStatement(); // first: it may refuse (closing), the snapshot must then not be taken
            this.snapshot = plan.table().snapshot();
            this.parts = snapshot.parts().stream().filter(p -> p.rowCount() > 0).toList();
            this.wave = Math.max(1, scheduler.concurrencyHint());
            this.rangeRows = rangeRows(snapshot.rowCount(), wave);
            this.skip = plan.ordering() == null ? 0 : plan.ordering().offset();
            this.remaining = plan.ordering() == null ? -1 : plan.ordering().fetch();
        }

        /** The next batch of rows, or null once there are no more (then the stream is closed). */
        public List<Object[]> next() {
            try {
                return nextWave();
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        private List<Object[]> nextWave() {
            while (!closed) {
                if (remaining == 0 || partIndex == parts.size()) {
                    close();
                    break;
                }
                List<RangeTask> tasks = submitWave();
                if (cancelled.getAsBoolean()) {
                    close();
                    throw new CancellationException("statement cancelled");
                }
                List<Object[]> rows = new ArrayList<>();
                for (RangeTask t : tasks) {
                    for (Object[] row : t.rows) {
                        if (skip > 0) {
                            skip--;
                        } else if (remaining != 0) {
                            rows.add(row);
                            remaining -= remaining > 0 ? 1 : 0;
                        }
                    }
                }
                if (!rows.isEmpty()) {
                    return rows;
                }
            }
            return null;
        }

        /** Runs the next ranges, at most one wave of them, and waits for them. */
        private List<RangeTask> submitWave() {
            TaskGroup group = statement.newTaskGroup();
            List<RangeTask> tasks = new ArrayList<>(wave);
            try {
                while (tasks.size() < wave && partIndex < parts.size()) {
                    TablePart part = parts.get(partIndex);
                    if (nextFrom == 0) {
                        affinity = affinity(plan, part);
                        filter = plan.filter() == null ? null : plan.filter().prepare(part, Fork.tasks(statement, affinity));
                        bits = filter == null ? null : new BitVector(part.rowCount());
                    }
                    int to = Math.min(part.rowCount(), nextFrom + rangeRows);
                    RangeTask task = new RangeTask(plan, part, filter, bits, nextFrom, to, cancelled, 1, false);
                    tasks.add(task);
                    group.submit(task::run, affinity, TaskClass.MATERIALIZE);
                    nextFrom = to;
                    if (to == part.rowCount()) {
                        partIndex++;
                        nextFrom = 0;
                    }
                }
            } catch (Throwable t) {
                group.abandon();
                throw t;
            }
            group.await();
            return tasks;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                snapshot.close();
            }
        }
    }

    private static Affinity affinity(QueryPlan plan, TablePart part) {
        return affinity(plan.table(), part);
    }

    /** The node holding the part's IndexVectors (the Appender places a part whole on one node). */
    static Affinity affinity(Table table, TablePart part) {
        int node = part.homeNode(p -> {
            PageSocketMap psm = new PageSocketMap(table.memory());
            psm.add(p.column(0).indexVector().segment());
            return psm.majorityNode();
        });
        return node < 0 ? Affinity.none() : Affinity.node(node);
    }

    private static List<Object[]> mergeRows(QueryPlan plan, List<RangeTask> tasks) {
        List<Object[]> rows = new ArrayList<>();
        for (RangeTask t : tasks) {
            rows.addAll(t.rows != null ? t.rows : t.heap);
        }
        return order(plan.ordering(), rows);
    }

    /**
     * Phase 2 of the aggregation (morsel paper §6.3): each task left its groups in
     * {@code partitions} hash partitions; partition p of all tasks merges into one table, by one
     * merge task per partition when there are many groups, on this thread when there are few.
     */
    private static List<Object[]> mergeGroups(QueryPlan plan, List<RangeTask> tasks, Statement statement, int partitions) {
        Aggregation agg = plan.aggregation();
        List<List<Object[]>> merged = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            merged.add(null);
        }
        long groups = tasks.stream().mapToLong(t -> t.groups.size()).sum();
        if (groups < PARALLEL_MERGE_GROUPS || partitions == 1) {
            for (int p = 0; p < partitions; p++) {
                merged.set(p, mergePartition(tasks, p));
            }
        } else {
            TaskGroup group = statement.newTaskGroup();
            try {
                for (int p = 0; p < partitions; p++) {
                    int partition = p;
                    group.submit(context -> merged.set(partition, mergePartition(tasks, partition)), Affinity.none(),
                            TaskClass.AGGREGATE);
                }
            } catch (Throwable t) {
                group.abandon();
                throw t;
            }
            group.await();
        }
        List<Object[]> rows = new ArrayList<>();
        merged.forEach(rows::addAll);
        if (rows.isEmpty() && agg.groupKeys().length == 0) {
            rows.add(Arrays.stream(newAccumulators(agg)).map(Accumulator::result).toArray());
        }
        return order(plan.ordering(), rows);
    }

    private static List<Object[]> mergePartition(List<RangeTask> tasks, int partition) {
        Map<List<Object>, Accumulator[]> merged = new HashMap<>();
        for (RangeTask t : tasks) {
            t.groups.partition(partition).forEach((key, accs) -> {
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

    private static Accumulator[] newAccumulators(Aggregation agg) {
        return agg.calls().stream().map(Accumulator::create).toArray(Accumulator[]::new);
    }

    /** One IndexVector range of one part, and what it produced. */
    private final class RangeTask {
        private final QueryPlan plan;
        private final TablePart part;
        private final PartFilter filter;
        private final BitVector bits;
        private final int from;
        private final int to;
        private final BooleanSupplier cancelled;
        private final int partitions;
        private final boolean vectors;
        /** The columns read, and each one's vids for the current block. */
        private final int[] columns;
        private final int[] slot;
        private final int[][] vids;
        private final Object[] row;
        /** Per column, the values of its vids once looked up (null for large dictionaries). */
        private final Object[][] values;

        List<Object[]> rows;
        PriorityQueue<Object[]> heap;
        /** The task's groups by value, in hash partitions for the merge. */
        PartitionedGroups groups;

        RangeTask(QueryPlan plan, TablePart part, PartFilter filter, BitVector bits, int from, int to,
                  BooleanSupplier cancelled, int partitions, boolean vectors) {
            this.plan = plan;
            this.vectors = vectors;
            this.part = part;
            this.filter = filter;
            this.bits = bits;
            this.from = from;
            this.to = to;
            this.cancelled = cancelled;
            this.partitions = partitions;
            // the row-at-a-time path's scratch; a vectorized task keeps its own in a Batch
            this.columns = vectors ? new int[0]
                    : needed(plan).stream().flatMapToInt(p -> Arrays.stream(p.columns())).distinct().toArray();
            this.slot = new int[part.columns().size()];
            Arrays.fill(slot, -1);
            for (int i = 0; i < columns.length; i++) {
                slot[columns[i]] = i;
            }
            this.vids = new int[columns.length][BLOCK];
            this.row = new Object[part.columns().size()];
            this.values = new Object[part.columns().size()][];
            for (int c : columns) {
                int size = part.column(c).dictionary().size() + 1; // + the null vid
                if (size <= VALUE_CACHE_LIMIT) {
                    values[c] = new Object[size];
                }
            }
        }

        /** The projections the task evaluates: all of them, or an aggregate's keys and inputs. */
        private static List<Projection> needed(QueryPlan plan) {
            if (plan.aggregation() == null) {
                return plan.projections();
            }
            List<Projection> used = new ArrayList<>();
            Arrays.stream(plan.aggregation().groupKeys()).forEach(k -> used.add(plan.projections().get(k)));
            plan.aggregation().calls().stream().filter(c -> c.input() >= 0)
                    .forEach(c -> used.add(plan.projections().get(c.input())));
            return used;
        }

        /** A column's value of a vid; small dictionaries' values are looked up once per task. */
        private Object valueOf(int column, int vid) {
            Object[] cache = values[column];
            if (cache == null) {
                return InternalValues.of(part.column(column), vid);
            }
            Object v = cache[vid];
            if (v == null && vid != part.column(column).nullVid()) {
                v = InternalValues.of(part.column(column), vid);
                cache[vid] = v;
            }
            return v;
        }

        void run(TaskContext context) {
            if (cancelled.getAsBoolean() || context.isCancelled()) {
                context.statement().cancel();
                return;
            }
            if (vectors && sumOnIndexVector()) {
                return;
            }
            if (filter != null) {
                filter.eval(kernel, from, to, bits);
            }
            if (vectors) {
                aggregateBatches(context);
                return;
            }
            Sink sink = plan.aggregation() != null ? new GroupSink() : new RowSink();
            for (int block = from; block < to; block += BLOCK) {
                if (cancelled.getAsBoolean() || context.isCancelled()) {
                    context.statement().cancel();
                    return;
                }
                if (sink.full()) {
                    break; // an unordered LIMIT has its rows
                }
                int end = Math.min(to, block + BLOCK);
                if (bits != null && bits.cardinality(block, end) == 0) {
                    continue;
                }
                for (int i = 0; i < columns.length; i++) {
                    part.column(columns[i]).indexVector().decode(block, end, vids[i], 0);
                }
                for (int r = block; r < end; r++) {
                    if (bits == null || bits.get(r)) {
                        sink.accept(r - block);
                    }
                }
            }
            sink.finish();
        }

        /**
         * COUNT(*), COUNT(c) and SUM(c) without GROUP BY, filtered by at most a range of c
         * itself, where c's dictionary is dense in this part: one pass of the scan kernel counts
         * the rows in the vid range and sums their vids, and SUM(c) is count * first value + that
         * sum. Nothing is decoded into arrays, no BitVector is written. False when the plan does
         * not have that shape here.
         */
        private boolean sumOnIndexVector() {
            Aggregation agg = plan.aggregation();
            if (agg.groupKeys().length > 0) {
                return false;
            }
            int column = -1;
            for (AggregateCall call : agg.calls()) {
                if (call.input() < 0) {
                    continue;
                }
                if (call.distinct() || call.kind() == AggregateCall.Kind.MIN || call.kind() == AggregateCall.Kind.MAX
                        || !(plan.projections().get(call.input()) instanceof Projection.ColumnRef ref)
                        || (column >= 0 && ref.column() != column)) {
                    return false;
                }
                column = ref.column();
            }
            VidPredicate.Between range;
            if (filter == null) {
                if (column < 0) {
                    column = 0; // COUNT(*) alone: any column's vids will do
                }
                int size = part.column(column).dictionary().size();
                range = size == 0 ? new VidPredicate.Between(1, 0) : new VidPredicate.Between(0, size - 1); // vids of values, not NULL
            } else if (filter instanceof PartFilter.Leaf leaf && leaf.predicate() instanceof VidPredicate.Between between) {
                int filtered = columnOf(leaf.iv());
                if (filtered < 0 || (column >= 0 && filtered != column)) {
                    return false;
                }
                column = filtered;
                range = between;
            } else {
                return false;
            }
            Column c = part.column(column);
            boolean valuesOnly = agg.calls().stream().anyMatch(call -> call.input() >= 0);
            if (valuesOnly && !range.isEmpty() && Integer.compareUnsigned(range.hi(), c.dictionary().size()) >= 0) {
                return false; // the range takes in NULL rows, which COUNT(c) and SUM(c) must skip
            }
            boolean sums = agg.calls().stream().anyMatch(call -> call.kind() == AggregateCall.Kind.SUM);
            NumericExpr.Type type = VectorAggregator.numericType(c.type());
            if (sums && (type == null || type.approximate() || !(c.dictionary() instanceof LongDictionary d) || !d.isDense())) {
                return false;
            }
            long[] countAndSum = new long[2];
            if (filter != null || valuesOnly) {
                kernel.countAndSumVids(c.indexVector(), from, to, range, countAndSum);
            }
            long rows = filter == null ? to - from : countAndSum[0];
            groups = new PartitionedGroups(partitions);
            if (rows == 0) {
                return true; // no row, no group: the merge answers an empty aggregate
            }
            Accumulator[] accs = new Accumulator[agg.calls().size()];
            for (int i = 0; i < accs.length; i++) {
                AggregateCall call = agg.calls().get(i);
                accs[i] = call.kind() == AggregateCall.Kind.SUM
                        ? exactSum(countAndSum[0], countAndSum[1], ((LongDictionary) c.dictionary()).getLong(0), type)
                        : Accumulator.count(call.input() < 0 ? rows : countAndSum[0]);
            }
            groups.put(List.of(), accs);
            return true;
        }

        private int columnOf(IndexVector iv) {
            for (int c = 0; c < part.columns().size(); c++) {
                if (part.column(c).indexVector() == iv) {
                    return c;
                }
            }
            return -1;
        }

        /** count * first + vidSum, in a long when it fits. */
        private static Accumulator exactSum(long count, long vidSum, long first, NumericExpr.Type type) {
            int scale = type.fractional() ? type.scale() : -1;
            long product = count * first;
            long total = product + vidSum;
            boolean fits = Math.multiplyHigh(count, first) == (product >> 63) && ((product ^ total) & (vidSum ^ total)) >= 0;
            if (fits) {
                return Accumulator.exactSum(count, total, null, scale);
            }
            BigDecimal exact = BigDecimal.valueOf(count).multiply(BigDecimal.valueOf(first))
                    .add(BigDecimal.valueOf(vidSum));
            return Accumulator.exactSum(count, 0, new BigDecimal(exact.toBigInteger(), Math.max(scale, 0)), scale);
        }

        /** The vectorized GROUP BY: a {@link Batch} per block into primitive accumulators. */
        private void aggregateBatches(TaskContext context) {
            Batch batch = new Batch(part);
            VectorAggregator aggregator = new VectorAggregator(plan, batch);
            for (int block = from; block < to; block += BLOCK) {
                if (cancelled.getAsBoolean() || context.isCancelled()) {
                    context.statement().cancel();
                    return;
                }
                batch.select(block, Math.min(to, block + BLOCK), bits);
                aggregator.add();
            }
            groups = aggregator.finish(partitions);
        }

        private int vid(int column, int offset) {
            return vids[slot[column]][offset];
        }

        private Object value(Projection p, int offset) {
            return switch (p) {
                case Projection.ColumnRef ref -> valueOf(ref.column(), vid(ref.column(), offset));
                case Projection.Computed c -> {
                    for (int column : c.columns()) {
                        row[column] = valueOf(column, vid(column, offset));
                    }
                    yield c.function().apply(row);
                }
            };
        }

        private interface Sink {
            void accept(int offset);

            default boolean full() {
                return false;
            }

            void finish();
        }

        private final class RowSink implements Sink {
            private final long limit = plan.ordering() == null ? -1 : plan.ordering().limit();
            private final Comparator<Object[]> order = plan.ordering() == null || plan.ordering().keys().isEmpty()
                    ? null : plan.ordering().comparator();

            RowSink() {
                if (order != null && limit >= 0) {
                    heap = new PriorityQueue<>(order.reversed());
                } else {
                    rows = new ArrayList<>();
                }
            }

            @Override
            public boolean full() {
                return limit == 0 || (rows != null && limit > 0 && rows.size() >= limit);
            }

            @Override
            public void accept(int offset) {
                if (full()) {
                    return; // an unordered LIMIT needs no more rows from this task
                }
                Object[] out = new Object[plan.projections().size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = value(plan.projections().get(i), offset);
                }
                if (heap == null) {
                    rows.add(out);
                } else if (heap.size() < limit) {
                    heap.add(out);
                } else if (order.compare(out, heap.peek()) < 0) {
                    heap.poll();
                    heap.add(out);
                }
            }

            @Override
            public void finish() {
            }
        }

        /** Task-local hash table keyed by the group columns' vids, packed in a long when they fit. */
        private final class GroupSink implements Sink {
            private final Aggregation agg = plan.aggregation();
            private final int[] keyColumns;
            private final int[] bits;
            private final boolean packed;
            private final Map<Object, Accumulator[]> local = new HashMap<>();

            GroupSink() {
                keyColumns = Arrays.stream(agg.groupKeys())
                        .map(k -> ((Projection.ColumnRef) plan.projections().get(k)).column()).toArray();
                bits = Arrays.stream(keyColumns).map(c -> part.column(c).bitcase()).toArray();
                packed = Arrays.stream(bits).sum() <= 63;
            }

            @Override
            public void accept(int offset) {
                Object key;
                if (packed) {
                    long k = 0;
                    for (int i = 0; i < keyColumns.length; i++) {
                        k = k << bits[i] | vid(keyColumns[i], offset);
                    }
                    key = k;
                } else {
                    int[] k = new int[keyColumns.length];
                    for (int i = 0; i < k.length; i++) {
                        k[i] = vid(keyColumns[i], offset);
                    }
                    key = new VidKey(k);
                }
                Accumulator[] accs = local.computeIfAbsent(key, x -> newAccumulators(agg));
                for (int i = 0; i < accs.length; i++) {
                    int input = agg.calls().get(i).input();
                    accs[i].add(input < 0 ? null : value(plan.projections().get(input), offset));
                }
            }

            @Override
            public void finish() {
                groups = new PartitionedGroups(partitions);
                local.forEach((key, accs) -> {
                    List<Object> valueKey;
                    if (key instanceof Long k) {
                        valueKey = VectorAggregator.keyValues(part, keyColumns, bits, k);
                    } else {
                        int[] v = ((VidKey) key).vids();
                        Object[] values = new Object[v.length];
                        for (int i = 0; i < v.length; i++) {
                            values[i] = InternalValues.of(part.column(keyColumns[i]), v[i]);
                        }
                        valueKey = Arrays.asList(values);
                    }
                    groups.put(valueKey, accs);
                });
            }
        }
    }

    private record VidKey(int[] vids) {
        @Override
        public boolean equals(Object o) {
            return o instanceof VidKey k && Arrays.equals(vids, k.vids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(vids);
        }
    }
}
