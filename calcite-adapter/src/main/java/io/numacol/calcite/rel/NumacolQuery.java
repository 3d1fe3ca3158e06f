package io.numacol.calcite.rel;

import io.numacol.calcite.NumacolTable;
import io.numacol.calcite.QueryCancel;
import io.numacol.calcite.SqlTypes;
import io.numacol.exec.AggregateCall;
import io.numacol.exec.AggregateKind;
import io.numacol.exec.Aggregation;
import io.numacol.exec.ColumnFilter;
import io.numacol.exec.Ordering;
import io.numacol.exec.PipelineExecutor;
import io.numacol.exec.PlanNode;
import io.numacol.exec.Projection;
import io.numacol.exec.ResultStream;
import io.numacol.exec.RowPredicate;
import io.numacol.storage.ColumnType;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.CancellationException;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * What a tree of {@link NumacolRel}s asks of the engine, stashed in the generated code of a
 * prepared statement. Everything but the filter is fixed when the statement is prepared; the
 * filter is bound to its dynamic parameters at each execution ({@link #enumerable}).
 */
public final class NumacolQuery {
    private NumacolTable table;
    private final List<RexNode> conditions = new ArrayList<>();
    private List<Projection> projections;
    private boolean projected;
    private Aggregation aggregation;
    private Ordering ordering;
    private List<RelDataType> outputTypes;

    /**
     * Rows computed whole, per execution (its DataContext) while it runs: Calcite's nested-loop
     * join asks for its inner side once per outer row, and must not run the query each time.
     */
    private final Map<DataContext, List<Object[]>> computed = new WeakHashMap<>();

    /** The tree, unless it is {@link #oneTable}: compiled to the pipeline executor's plan at each execution. */
    private RelNode pipelineTree;

    /** The query of a tree of numacol operators (the rules fix its shapes). */
    static NumacolQuery of(RelNode top) {
        NumacolQuery query = new NumacolQuery();
        if (oneTable(top)) {
            query.add(top);
        } else {
            query.pipelineTree = top;
            query.table = anyTable(top);
        }
        query.output(top.getRowType());
        return query;
    }

    /**
     * Whether {@code rel} runs as one pass over one table on its vids ({@link PlanNode.VidScan}):
     * a scan, vid filters, one projection, an aggregate grouping by columns, a sort, in that
     * order. Anything else compiles to the pipeline executor's other operators.
     */
    static boolean oneTable(RelNode rel) {
        RelNode r = rel;
        if (r instanceof NumacolSort sort) {
            r = sort.getInput();
        }
        if (r instanceof NumacolAggregate agg) {
            if (agg.getGroupType() != Aggregate.Group.SIMPLE
                    || !agg.getAggCallList().stream().allMatch(NumacolRules::supported)
                    || (agg.getInput() instanceof NumacolProject p
                    && !agg.getGroupSet().asList().stream().allMatch(k -> p.getProjects().get(k) instanceof RexInputRef))) {
                return false; // group keys must be columns: tasks group by their vids
            }
            r = agg.getInput();
        }
        if (r instanceof NumacolProject project) {
            if (!project.getProjects().stream().allMatch(RowExpressions::supports)) {
                return false;
            }
            r = project.getInput();
        }
        while (r instanceof NumacolFilter filter && !filter.isResidual()) {
            r = filter.getInput();
        }
        return r instanceof NumacolTableScan scan && !scan.numacolTable().rowIds(); // row ids: the pipeline executor's scan
    }

    private static NumacolTable anyTable(RelNode rel) {
        return rel instanceof NumacolTableScan scan ? scan.numacolTable() : anyTable(rel.getInput(0));
    }

    /** Adds a tree of numacol operators, inputs first. */
    private void add(RelNode rel) {
        if (!(rel instanceof NumacolTableScan)) {
            add(rel.getInput(0));
        }
        switch (rel) {
            case NumacolTableScan scan -> scan(scan.numacolTable());
            case NumacolFilter filter -> filter(filter.getCondition());
            case NumacolProject project -> project(project.getProjects());
            case NumacolAggregate agg -> aggregate(agg.getGroupSet(), agg.getAggCallList());
            case NumacolSort sort -> sort(sort.getCollation(), sort.offset, sort.fetch);
            default -> throw new IllegalStateException("not a numacol operator: " + rel);
        }
    }

    private void scan(NumacolTable scanned) {
        this.table = scanned;
        this.projections = IntStream.range(0, scanned.table().schema().size())
                .<Projection>mapToObj(Projection.ColumnRef::new).toList();
    }

    /** Operators arrive bottom up in the rules' order; anything else is a planner surprise, not a wrong answer. */
    private void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("numacol cannot run " + what + " here");
        }
    }

    private void filter(RexNode condition) {
        check(!projected && aggregation == null && ordering == null, "a filter");
        conditions.add(condition);
    }

    private void project(List<RexNode> exprs) {
        check(!projected && aggregation == null && ordering == null, "a projection");
        projected = true;
        projections = exprs.stream().map(RowExpressions::projection).toList();
    }

    private void aggregate(ImmutableBitSet groupSet, List<org.apache.calcite.rel.core.AggregateCall> calls) {
        check(aggregation == null && ordering == null, "an aggregate");
        aggregation = new Aggregation(groupSet.toArray(), calls.stream().map(NumacolQuery::aggregateCall).toList());
    }

    /** A Calcite aggregate call as the engine's: the one translation both engine paths read. */
    static AggregateCall aggregateCall(org.apache.calcite.rel.core.AggregateCall call) {
        int arg = call.getArgList().isEmpty() ? -1 : call.getArgList().getFirst();
        AggregateKind kind = switch (call.getAggregation().getKind()) {
            case COUNT -> arg < 0 ? AggregateKind.COUNT_STAR : AggregateKind.COUNT;
            case SUM -> AggregateKind.SUM;
            case SUM0 -> AggregateKind.SUM0;
            case MIN -> AggregateKind.MIN;
            case MAX -> AggregateKind.MAX;
            default -> throw new IllegalStateException("not a numacol aggregate: " + call);
        };
        return new AggregateCall(kind, arg, call.filterArg, call.isDistinct());
    }

    private void sort(RelCollation collation, RexNode offset, RexNode fetch) {
        check(ordering == null, "a sort");
        ordering = ordering(collation, offset, fetch);
    }

    private static Ordering ordering(RelCollation collation, RexNode offset, RexNode fetch) {
        List<Ordering.Key> keys = new ArrayList<>();
        for (RelFieldCollation c : collation.getFieldCollations()) {
            RelFieldCollation.NullDirection nulls = c.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
                    ? c.direction.defaultNullDirection() : c.nullDirection;
            keys.add(new Ordering.Key(c.getFieldIndex(), c.direction.isDescending(),
                    nulls == RelFieldCollation.NullDirection.FIRST));
        }
        return new Ordering(keys, offset == null ? 0 : longValue(offset), fetch == null ? -1 : longValue(fetch));
    }

    private void output(RelDataType rowType) {
        outputTypes = rowType.getFieldList().stream().map(RelDataTypeField::getType).toList();
    }

    private static long longValue(RexNode literal) {
        Long v = ((RexLiteral) literal).getValueAs(Long.class);
        return v == null ? 0 : v;
    }

    /** The query's rows; called by the generated code of the statement. */
    public Enumerable<Object[]> enumerable(DataContext root) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                return stoppable(rows(root), QueryCancel.of(root));
            }
        };
    }

    /** The values of a one-column query; called by the generated code of the statement. */
    public Enumerable<Object> scalars(DataContext root) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object> enumerator() {
                Enumerator<Object[]> rows = rows(root);
                return stoppable(new Enumerator<>() {
                    @Override
                    public Object current() {
                        return rows.current()[0];
                    }

                    @Override
                    public boolean moveNext() {
                        return rows.moveNext();
                    }

                    @Override
                    public void reset() {
                        rows.reset();
                    }

                    @Override
                    public void close() {
                        rows.close();
                    }
                }, QueryCancel.of(root));
            }
        };
    }

    /** The rows, values numacol keeps as strings (VARBINARY, UUID) turned into Calcite's classes. */
    private Enumerator<Object[]> rows(DataContext root) {
        Enumerator<Object[]> rows = keptRows(root);
        if (outputTypes.stream().noneMatch(SqlTypes::keptAsString)) {
            return rows;
        }
        return Linq4j.transform(rows, row -> {
            Object[] out = row.clone(); // a whole result may be kept for the next enumeration
            for (int i = 0; i < out.length; i++) {
                out[i] = SqlTypes.fromKept(out[i], outputTypes.get(i));
            }
            return out;
        });
    }

    /** Aggregates, sorted rows and joins come whole; other rows in the engine's batches, a task's rows each. */
    private Enumerator<Object[]> keptRows(DataContext root) {
        PlanNode.VidScan plan = pipelineTree == null ? plan(root, null) : null;
        if (plan != null && plan.streams()) {
            return new Batches(plan, root);
        }
        List<Object[]> rows;
        synchronized (computed) {
            rows = computed.get(root);
        }
        if (rows == null) {
            QueryCancel stop = QueryCancel.of(root);
            PlanNode tree = plan != null ? plan : compile(pipelineTree, root, new HashMap<>());
            rows = cancellable(stop, () -> executor().execute(tree, stop::shouldStop));
            synchronized (computed) {
                computed.put(root, rows);
            }
        }
        return Linq4j.enumerator(rows);
    }

    private PipelineExecutor executor() {
        return new PipelineExecutor(table.database().scheduler(), table.database().memory());
    }

    /** Walks the engine's batches, asking for the next only when the consumer reaches it. */
    private final class Batches implements Enumerator<Object[]> {
        private final PlanNode.VidScan plan;
        private final QueryCancel stop;
        private ResultStream stream;
        private List<Object[]> batch = List.of();
        private int next;
        private Object[] current;

        Batches(PlanNode.VidScan plan, DataContext root) {
            this.plan = plan;
            this.stop = QueryCancel.of(root);
        }

        @Override
        public Object[] current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            while (next == batch.size()) {
                if (stream == null) {
                    stream = executor().open(plan, stop::shouldStop);
                }
                List<Object[]> rows = cancellable(stop, stream::next);
                if (rows == null) {
                    current = null;
                    return false;
                }
                batch = rows;
                next = 0;
            }
            current = batch.get(next++);
            return true;
        }

        @Override
        public void reset() {
            close();
            batch = List.of();
            next = 0;
        }

        @Override
        public void close() {
            if (stream != null) {
                stream.close();
                stream = null;
            }
        }
    }

    /**
     * Rows handed to Calcite's operators, checking every 1024 whether the statement was canceled
     * or timed out: Calcite's own loops (a nested-loop join over these rows) never check.
     */
    private static <T> Enumerator<T> stoppable(Enumerator<T> rows, QueryCancel stop) {
        return new Enumerator<>() {
            private int count;

            @Override
            public T current() {
                return rows.current();
            }

            @Override
            public boolean moveNext() {
                if ((count++ & QueryCancel.CHECK_MASK) == 0) {
                    stop.check();
                }
                return rows.moveNext();
            }

            @Override
            public void reset() {
                rows.reset();
            }

            @Override
            public void close() {
                rows.close();
            }
        };
    }

    /**
     * Each subtree's text, made once per subtree rather than at each execution of a prepared or
     * cached plan (rels are equal only to themselves, so the map holds each plan's own nodes).
     */
    private static final Map<RelNode, String> SHAPES = Collections.synchronizedMap(new WeakHashMap<>());

    /** A tree of numacol operators as the pipeline executor's plan, filters bound to {@code root}'s parameters. */
    private static PlanNode compile(RelNode rel, DataContext root, Map<String, PlanNode> compiled) {
        // equal subtrees (Q15's revenue view, used twice) compile to one node, which the executor runs once
        String plan = SHAPES.computeIfAbsent(rel, RelOptUtil::toString);
        PlanNode known = compiled.get(plan);
        if (known == null) {
            known = compileNode(rel, root, compiled);
            compiled.put(plan, known);
        }
        return known;
    }

    private static PlanNode compileNode(RelNode rel, DataContext root, Map<String, PlanNode> compiled) {
        return switch (rel) {
            case NumacolAggregate agg when oneTable(agg) && fewGroups(agg) -> oneTableRows(agg, root);
            case NumacolSort sort when sort.getInput() instanceof NumacolAggregate agg && oneTable(sort) && fewGroups(agg)
                    -> oneTableRows(sort, root);
            case NumacolTableScan scan -> new PlanNode.Scan(scan.numacolTable().table(), null,
                    IntStream.range(0, scan.getRowType().getFieldCount()).toArray());
            case NumacolFilter filter when filter.isResidual() -> new PlanNode.Filter(compile(filter.getInput(), root, compiled),
                    RowConditions.bind(filter.getCondition(), RowConditions.types(filter.getInput()), root));
            case NumacolFilter filter -> {
                PlanNode.Scan scan = (PlanNode.Scan) compile(filter.getInput(), root, compiled);
                List<ColumnType> types = columnTypes(scan.table());
                ColumnFilter bound = Predicates.bind(filter.getCondition(), types, root);
                yield new PlanNode.Scan(scan.table(), scan.filter() == null ? bound
                        : new ColumnFilter.And(List.of(scan.filter(), bound)), scan.columns());
            }
            case NumacolProject project -> {
                PlanNode input = compile(project.getInput(), root, compiled);
                if (input instanceof PlanNode.Scan scan && project.getProjects().stream().allMatch(e -> e instanceof RexInputRef)) {
                    // decode only the columns used
                    int[] refs = project.getProjects().stream().mapToInt(e -> ((RexInputRef) e).getIndex()).toArray();
                    yield new PlanNode.Scan(scan.table(), scan.filter(), IntStream.of(refs).map(r -> scan.columns()[r]).toArray());
                }
                List<ColumnType> types = input.types();
                yield new PlanNode.Project(input, project.getProjects().stream()
                        .map(e -> Objects.requireNonNull(RowExpressions.chunkExpr(e, types, root), e::toString)).toList());
            }
            case NumacolJoin join -> {
                JoinInfo info = join.analyzeCondition();
                boolean[] nullsEqual = new boolean[info.leftKeys.size()];
                for (int i = 0; i < nullsEqual.length; i++) {
                    nullsEqual[i] = !info.nullExclusionFlags.get(i);
                }
                PlanNode.JoinKind kind = switch (join.getJoinType()) {
                    case INNER -> PlanNode.JoinKind.INNER;
                    case LEFT -> PlanNode.JoinKind.LEFT;
                    case RIGHT -> PlanNode.JoinKind.RIGHT;
                    case FULL -> PlanNode.JoinKind.FULL;
                    case SEMI -> PlanNode.JoinKind.SEMI;
                    case ANTI -> PlanNode.JoinKind.ANTI;
                    default -> throw new IllegalStateException("not a numacol join: " + join);
                };
                PlanNode left = compile(join.getLeft(), root, compiled);
                PlanNode right = compile(join.getRight(), root, compiled);
                RowPredicate residual = null;
                RexNode rest = NumacolRules.residual(join, info);
                if (rest != null) {
                    List<ColumnType> pair = new ArrayList<>(left.types());
                    pair.addAll(right.types());
                    residual = RowConditions.bind(rest, pair, root);
                }
                yield new PlanNode.HashJoin(left, right, info.leftKeys.toIntArray(), info.rightKeys.toIntArray(), nullsEqual,
                        kind, join.buildsLeft(), residual);
            }
            case NumacolAggregate agg -> {
                List<AggregateCall> calls = agg.getAggCallList().stream().map(NumacolQuery::aggregateCall).toList();
                yield new PlanNode.Aggregate(compile(agg.getInput(), root, compiled), agg.getGroupSet().toArray(), calls,
                        RowExpressions.chunkTypes(agg));
            }
            case NumacolSort sort -> new PlanNode.Sort(compile(sort.getInput(), root, compiled),
                    ordering(sort.getCollation(), sort.offset, sort.fetch));
            default -> throw new IllegalStateException("not a numacol operator: " + rel);
        };
    }

    /**
     * Groups up to this many a one-table aggregate below a pipeline runs on vids ({@link
     * PlanNode.VidScan}); with more, the hash aggregate over decoded values: the aggregate on vids
     * merges its tasks' groups on boxed keys, whose cost grows with the groups.
     */
    private static final long FEW_GROUPS = 1 << 10;

    /**
     * Whether a one-table aggregate has at most {@link #FEW_GROUPS} groups, as far as the
     * dictionaries of its key columns tell (the largest per part, a lower bound on the column's
     * distinct values): then grouping on vids into arrays wins; with many groups the hash
     * aggregation over decoded values does, since the vid path merges boxed keys.
     */
    private static boolean fewGroups(NumacolAggregate agg) {
        RelNode input = agg.getInput();
        List<Integer> keys = agg.getGroupSet().asList();
        if (input instanceof NumacolProject p) {
            keys = keys.stream().map(k -> ((RexInputRef) p.getProjects().get(k)).getIndex()).toList();
            input = p.getInput();
        }
        while (input instanceof NumacolFilter f) {
            input = f.getInput();
        }
        Table table = ((NumacolTableScan) input).numacolTable().table();
        double groups = 1;
        try (TableSnapshot snapshot = table.snapshot()) {
            for (int key : keys) {
                int largest = 1;
                for (TablePart part : snapshot.parts()) {
                    largest = Math.max(largest, part.column(key).dictionary().size());
                }
                groups *= largest;
            }
        }
        return groups <= FEW_GROUPS;
    }

    /**
     * A one-table aggregate below a join or a computed projection, run on vids: the pipeline
     * executor's hash aggregation over decoded values cannot match its grouping on vids when
     * groups are few.
     */
    private static PlanNode oneTableRows(RelNode rel, DataContext root) {
        return of(rel).plan(root, RowExpressions.chunkTypes(rel));
    }

    /** The types of a table's columns, which its filters' column numbers index. */
    static List<ColumnType> columnTypes(Table table) {
        return table.schema().columns().stream().map(TableSchema.ColumnDef::type).toList();
    }

    /**
     * The one-table query bound to {@code root}'s parameters, its rows of {@code types} (null: it
     * is the plan's top) turned into the Java classes Calcite's generated code expects.
     */
    private PlanNode.VidScan plan(DataContext root, List<ColumnType> types) {
        List<ColumnType> columnTypes = columnTypes(table.table());
        ColumnFilter filter = null;
        if (!conditions.isEmpty()) {
            List<ColumnFilter> bound = conditions.stream().map(c -> Predicates.bind(c, columnTypes, root)).toList();
            filter = bound.size() == 1 ? bound.getFirst() : new ColumnFilter.And(bound);
        }
        boolean computed = aggregation != null || projections.stream().anyMatch(p -> p instanceof Projection.Computed);
        return new PlanNode.VidScan(table.table(), filter, projections, aggregation, ordering, types, computed ? this::toInternal : null);
    }

    /** Statement.cancel() sets Calcite's flag; setQueryTimeout only leaves a timeout in the context: say which. */
    private static <T> T cancellable(QueryCancel stop, Supplier<T> work) {
        try {
            return work.get();
        } catch (CancellationException e) {
            if (stop.timedOut()) {
                stop.check();
            }
            throw e;
        }
    }

    /** Computed values as the Java classes Calcite's generated code expects. */
    private Object[] toInternal(Object[] row) {
        for (int i = 0; i < row.length; i++) {
            row[i] = SqlTypes.toInternal(row[i], outputTypes.get(i));
        }
        return row;
    }
}
