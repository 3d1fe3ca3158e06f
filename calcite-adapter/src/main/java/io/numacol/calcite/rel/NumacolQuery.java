package io.numacol.calcite.rel;

import io.numacol.calcite.NumacolTable;
import io.numacol.calcite.QueryCancel;
import io.numacol.calcite.SqlTypes;
import io.numacol.exec.PipelineExecutor;
import io.numacol.exec.PlanNode;
import io.numacol.exec.ResultStream;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;

import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CancellationException;
import java.util.function.Supplier;

/**
 * What a tree of {@link NumacolRel}s asks of the engine, stashed in the generated code of a
 * prepared statement, and how its rows reach Calcite. Each operator translates itself: a
 * one-table tree ({@link #oneTable}) into one pass over its table ({@link OneTableImplementor}),
 * fixed when the statement is prepared but for its filters; anything else into the pipeline
 * executor's plan ({@link PipelineImplementor}), compiled at each execution. Either way filters
 * are bound to an execution's dynamic parameters ({@link #enumerable}).
 */
public final class NumacolQuery {
    private final NumacolTable table;
    /** The one pass, if the tree is {@link #oneTable}. */
    private final OneTableImplementor oneTable;
    /** The tree, unless it is {@link #oneTable}: compiled to the pipeline executor's plan at each execution. */
    private final RelNode pipelineTree;
    private final List<RelDataType> outputTypes;

    /**
     * Rows computed whole, per execution (its DataContext) while it runs: Calcite's nested-loop
     * join asks for its inner side once per outer row, and must not run the query each time.
     */
    private final Map<DataContext, List<Object[]>> computed = new WeakHashMap<>();

    private NumacolQuery(RelNode top) {
        if (oneTable(top)) {
            oneTable = OneTableImplementor.of(top);
            pipelineTree = null;
            table = oneTable.table();
        } else {
            oneTable = null;
            pipelineTree = top;
            table = anyTable(top);
        }
        outputTypes = oneTable != null ? oneTable.outputTypes()
                : top.getRowType().getFieldList().stream().map(RelDataTypeField::getType).toList();
    }

    /** The query of a tree of numacol operators (the rules fix its shapes). */
    static NumacolQuery of(RelNode top) {
        return new NumacolQuery(top);
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

    /** The query's rows; called by the generated code of the statement. */
    public Enumerable<Object[]> enumerable(DataContext root) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                // Calcite's operators over these rows (a nested loop) never ask the statement's stop: each row does
                return QueryCancel.of(root).checking(rows(root));
            }
        };
    }

    /** The values of a one-column query; called by the generated code of the statement. */
    public Enumerable<Object> scalars(DataContext root) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object> enumerator() {
                Enumerator<Object[]> rows = rows(root);
                return QueryCancel.of(root).checking(new Enumerator<>() {
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
                });
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
        PlanNode.VidScan plan = oneTable != null ? oneTable.plan(root, null) : null;
        if (plan != null && plan.streams()) {
            return new Batches(plan, root);
        }
        List<Object[]> rows;
        synchronized (computed) {
            rows = computed.get(root);
        }
        if (rows == null) {
            QueryCancel stop = QueryCancel.of(root);
            PlanNode tree = plan != null ? plan : new PipelineImplementor(root).visit(pipelineTree);
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

    /** The types of a table's columns, which its filters' column numbers index. */
    static List<ColumnType> columnTypes(Table table) {
        return table.schema().columns().stream().map(TableSchema.ColumnDef::type).toList();
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
}
