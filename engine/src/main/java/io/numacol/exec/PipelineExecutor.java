package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskContext;
import io.numacol.scheduler.TaskGroup;
import io.numacol.storage.Column;
import io.numacol.storage.ColumnType;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Runs a {@link PlanNode} tree as morsel-driven pipelines (morsel paper §3): the tree is cut at
 * each hash join's build side; a pipeline is a table scan, the operators above it up to the next
 * breaker (projections, hash-join probes), and a sink (a build side's rows, or the result).
 * Build pipelines run first, each to completion, then the pipeline that probes them.
 *
 * <p>Each pipeline runs as tasks over IndexVector ranges of the scanned table's parts, with the
 * affinity of the node holding the part (as {@link QueryExecutor} does). A task scans its range a
 * 1024-row block at a time into a {@link Chunk}, pushes it through a task-local instance of each
 * operator and appends what comes out to a task-local {@link RowStore}; the stores are gathered
 * when all tasks are done. Cancellation is polled between blocks.
 */
public final class PipelineExecutor {
    /** String dictionaries up to this size have their decoded values cached per task. */
    private static final int STRING_CACHE_LIMIT = 1 << 16;

    private final Scheduler scheduler;
    private final ScanKernel kernel = ScanKernels.get();

    public PipelineExecutor(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * The plan's rows as internal Java values (see {@link InternalValues}). {@code cancelled} is
     * polled between blocks; once it answers true the statement is cancelled and this throws
     * CancellationException.
     */
    public List<Object[]> execute(PlanNode plan, BooleanSupplier cancelled) {
        Statement statement = scheduler.newStatement();
        RowStore result = run(compile(plan, statement, cancelled), statement, cancelled);
        return result.toRows();
    }

    /** A scan, the operators over it, and whether it is known to give no row (a probe of an empty build side). */
    private record Pipeline(PlanNode.Scan source, List<OperatorFactory> operators, List<ColumnType> types,
                            TaskClass taskClass, boolean empty) {
        Pipeline with(OperatorFactory operator, List<ColumnType> outTypes, TaskClass taskClass) {
            List<OperatorFactory> ops = new ArrayList<>(operators);
            ops.add(operator);
            return new Pipeline(source, ops, outTypes, taskClass, empty);
        }

        Pipeline none() {
            return new Pipeline(source, operators, types, taskClass, true);
        }
    }

    /** Makes an operator's task-local instance. */
    private interface OperatorFactory {
        Operator create();
    }

    /** A pipeline operator with task-local state: it pushes what it makes of each chunk to {@code out}. */
    private interface Operator {
        void push(Chunk in, ChunkSink out);

        /** The task ends: push what is still held. */
        default void finish(ChunkSink out) {
        }
    }

    private interface ChunkSink {
        void accept(Chunk chunk);
    }

    /** The pipeline that computes {@code node}; the build sides of its joins are run on the way. */
    private Pipeline compile(PlanNode node, Statement statement, BooleanSupplier cancelled) {
        return switch (node) {
            case PlanNode.Scan scan -> new Pipeline(scan, List.of(), scan.types(), TaskClass.SCAN, false);
            case PlanNode.Project project -> {
                Pipeline input = compile(project.input(), statement, cancelled);
                List<ColumnType> types = project.types();
                int[] columns = project.columns();
                yield input.with(() -> (in, out) -> out.accept(select(in, columns, types)), types, input.taskClass());
            }
            case PlanNode.Filter filter -> {
                Pipeline input = compile(filter.input(), statement, cancelled);
                List<ColumnType> types = filter.types();
                RowPredicate condition = filter.condition();
                yield input.with(() -> new Operator() {
                    private final Chunk kept = new Chunk(types).allocate();

                    @Override
                    public void push(Chunk in, ChunkSink out) {
                        kept.size = 0;
                        for (int r = 0; r < in.size; r++) {
                            if (condition.eval(in, r) == RowPredicate.TRUE) {
                                for (int c = 0; c < kept.width(); c++) {
                                    kept.copy(c, kept.size, in, c, r);
                                }
                                kept.size++;
                            }
                        }
                        if (kept.size > 0) {
                            out.accept(kept);
                        }
                    }
                }, types, input.taskClass());
            }
            case PlanNode.HashJoin join -> {
                PlanNode buildSide = join.buildLeft() ? join.left() : join.right();
                PlanNode probeSide = join.buildLeft() ? join.right() : join.left();
                int[] buildKeys = join.buildLeft() ? join.leftKeys() : join.rightKeys();
                int[] probeKeys = join.buildLeft() ? join.rightKeys() : join.leftKeys();
                RowStore built = run(compile(buildSide, statement, cancelled), statement, cancelled);
                Pipeline probe = compile(probeSide, statement, cancelled);
                List<ColumnType> types = join.types();
                if (built.rows() == 0 && (join.kind() == PlanNode.JoinKind.INNER || join.kind() == PlanNode.JoinKind.SEMI)) {
                    yield probe.with(() -> (in, out) -> { }, types, TaskClass.JOIN_PROBE).none();
                }
                JoinHashTable table = new JoinHashTable(built, buildKeys, join.nullsEqual());
                yield probe.with(() -> new Probe(table, probeKeys, join.nullsEqual(), join.kind(), join.buildLeft(),
                        probeSide.types().size(), types), types, TaskClass.JOIN_PROBE);
            }
        };
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

    /** Runs a pipeline to the end: its rows, gathered from the tasks' stores. */
    private RowStore run(Pipeline pipeline, Statement statement, BooleanSupplier cancelled) {
        RowStore result = new RowStore(pipeline.types());
        if (pipeline.empty()) {
            return result;
        }
        PlanNode.Scan scan = pipeline.source();
        List<ScanTask> tasks = new ArrayList<>();
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            int hint = Math.max(1, scheduler.concurrencyHint());
            int rangeRows = QueryExecutor.rangeRows(snapshot.rowCount(), hint);
            TaskGroup group = statement.newTaskGroup();
            try {
                for (TablePart part : snapshot.parts()) {
                    if (part.rowCount() == 0) {
                        continue;
                    }
                    PartFilter filter = scan.filter() == null ? null : scan.filter().prepare(part);
                    // one BitVector per part: ranges start at multiples of 1024, so tasks never share a word
                    BitVector bits = filter == null ? null : new BitVector(part.rowCount());
                    Affinity affinity = QueryExecutor.affinity(scan.table(), part);
                    for (int from = 0; from < part.rowCount(); from += rangeRows) {
                        ScanTask task = new ScanTask(pipeline, part, filter, bits, from,
                                Math.min(part.rowCount(), from + rangeRows), cancelled);
                        tasks.add(task);
                        group.submit(task::run, affinity, pipeline.taskClass());
                    }
                }
            } finally {
                group.await(); // no task may outlive the snapshot whose parts it reads
            }
        }
        if (cancelled.getAsBoolean()) {
            throw new CancellationException("statement cancelled");
        }
        for (ScanTask task : tasks) {
            result.addAll(task.rows);
        }
        return result;
    }

    /** One IndexVector range of one part pushed through the pipeline into a store of its own. */
    private final class ScanTask {
        private final Pipeline pipeline;
        private final TablePart part;
        private final PartFilter filter;
        private final BitVector bits;
        private final int from;
        private final int to;
        private final BooleanSupplier cancelled;
        final RowStore rows;

        ScanTask(Pipeline pipeline, TablePart part, PartFilter filter, BitVector bits, int from, int to,
                 BooleanSupplier cancelled) {
            this.pipeline = pipeline;
            this.part = part;
            this.filter = filter;
            this.bits = bits;
            this.from = from;
            this.to = to;
            this.cancelled = cancelled;
            this.rows = new RowStore(pipeline.types());
        }

        void run(TaskContext context) {
            if (filter != null) {
                filter.eval(kernel, from, to, bits);
            }
            List<Operator> operators = pipeline.operators().stream().map(OperatorFactory::create).toList();
            List<ChunkSink> sinks = new ArrayList<>(operators.size() + 1);
            sinks.add(rows::append);
            for (int i = operators.size() - 1; i >= 0; i--) { // sinks.get(k) feeds what operator size-k pushes
                Operator op = operators.get(i);
                ChunkSink out = sinks.getLast();
                sinks.add(chunk -> op.push(chunk, out));
            }
            ChunkSink head = sinks.getLast();
            int[] columns = pipeline.source().columns();
            Chunk chunk = new Chunk(pipeline.source().types());
            Batch batch = new Batch(part);
            String[][] stringCache = new String[columns.length][];
            for (int block = from; block < to; block += Chunk.CAPACITY) {
                if (cancelled.getAsBoolean() || context.isCancelled()) {
                    context.statement().cancel();
                    return;
                }
                batch.select(block, Math.min(to, block + Chunk.CAPACITY), bits);
                if (batch.size() == 0) {
                    continue;
                }
                for (int i = 0; i < columns.length; i++) {
                    int c = columns[i];
                    chunk.nulls[i] = batch.nulls(c);
                    switch (chunk.types[i].storageKind()) {
                        case LONG -> chunk.longs[i] = batch.longs(c);
                        case DOUBLE -> chunk.doubles[i] = batch.doubles(c);
                        case STRING -> chunk.strings[i] = strings(batch, c, i, stringCache);
                    }
                }
                chunk.size = batch.size();
                head.accept(chunk);
            }
            for (int i = 0; i < operators.size(); i++) {
                operators.get(i).finish(sinks.get(operators.size() - 1 - i));
            }
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
                    out[i] = s != null ? s : (known[vid] = d.getString(vid));
                }
            }
            return out;
        }
    }

    /**
     * The probe of a hash join: for each row of a chunk, the build rows whose keys match, put out
     * as rows of the join (left's columns, then the right's) a chunk of its own at a time.
     */
    private static final class Probe implements Operator {
        private final JoinHashTable table;
        private final int[] keys;
        private final boolean[] nullsEqual;
        private final PlanNode.JoinKind kind;
        private final int probeWidth;
        /** Where the probe's and the build's columns start in an output row, and how many the build has. */
        private final int probeAt;
        private final int buildAt;
        private final int buildWidth;
        private final Chunk out;

        Probe(JoinHashTable table, int[] keys, boolean[] nullsEqual, PlanNode.JoinKind kind, boolean buildFirst,
              int probeWidth, List<ColumnType> types) {
            this.table = table;
            this.keys = keys;
            this.nullsEqual = nullsEqual;
            this.kind = kind;
            this.probeWidth = probeWidth;
            this.out = new Chunk(types).allocate();
            this.buildWidth = kind == PlanNode.JoinKind.INNER || kind == PlanNode.JoinKind.LEFT ? out.width() - probeWidth : 0;
            this.probeAt = buildFirst ? buildWidth : 0;
            this.buildAt = buildFirst ? 0 : probeWidth;
        }

        @Override
        public void push(Chunk in, ChunkSink sink) {
            for (int p = 0; p < in.size; p++) {
                boolean matched = false;
                if (JoinHashTable.matchable(in, p, keys, nullsEqual)) {
                    long hash = JoinHashTable.hash(in, p, keys);
                    for (int row = table.first(hash); row >= 0; row = table.next(row, hash)) {
                        if (!table.matches(row, in, keys, p)) {
                            continue;
                        }
                        matched = true;
                        if (kind == PlanNode.JoinKind.SEMI) {
                            emit(in, p, -1, sink);
                        }
                        if (kind != PlanNode.JoinKind.INNER && kind != PlanNode.JoinKind.LEFT) {
                            break;
                        }
                        emit(in, p, row, sink);
                    }
                }
                if (!matched && (kind == PlanNode.JoinKind.LEFT || kind == PlanNode.JoinKind.ANTI)) {
                    emit(in, p, -1, sink);
                }
            }
        }

        /** Appends the join row of probe row {@code p} and build row {@code row} (-1: NULLs, or none for SEMI/ANTI). */
        private void emit(Chunk in, int p, int row, ChunkSink sink) {
            int r = out.size;
            for (int c = 0; c < probeWidth; c++) {
                out.copy(probeAt + c, r, in, c, p);
            }
            if (buildWidth > 0) {
                if (row < 0) {
                    for (int c = 0; c < buildWidth; c++) {
                        out.setNull(buildAt + c, r);
                    }
                } else {
                    Chunk page = table.page(row);
                    int b = row & RowStore.PAGE_MASK;
                    for (int c = 0; c < buildWidth; c++) {
                        out.copy(buildAt + c, r, page, c, b);
                    }
                }
            }
            if (++out.size == Chunk.CAPACITY) {
                sink.accept(out);
                out.size = 0;
            }
        }

        @Override
        public void finish(ChunkSink sink) {
            if (out.size > 0) {
                sink.accept(out);
                out.size = 0;
            }
        }
    }
}
