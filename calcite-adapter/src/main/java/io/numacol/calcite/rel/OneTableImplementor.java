package io.numacol.calcite.rel;

import io.numacol.calcite.NumacolTable;
import io.numacol.calcite.SqlTypes;
import io.numacol.exec.Aggregation;
import io.numacol.exec.ColumnFilter;
import io.numacol.exec.Ordering;
import io.numacol.exec.PlanNode;
import io.numacol.exec.Projection;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.DataContext;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A one-table tree of {@link NumacolRel}s ({@link NumacolQuery#oneTable}) as one pass over its
 * table on vids: each operator adds itself, inputs first ({@link NumacolRel#implement(OneTableImplementor)}),
 * to the scan, filters, projection, aggregation and ordering kept here, which {@link #plan} binds
 * to an execution's parameters as a {@link PlanNode.VidScan}.
 */
public final class OneTableImplementor {
    private NumacolTable table;
    private final List<RexNode> conditions = new ArrayList<>();
    private List<Projection> projections;
    private boolean projected;
    private Aggregation aggregation;
    private Ordering ordering;
    private final List<RelDataType> outputTypes;

    private OneTableImplementor(RelDataType rowType) {
        this.outputTypes = rowType.getFieldList().stream().map(RelDataTypeField::getType).toList();
    }

    /** The one-table tree {@code top} (the rules fix its shapes) as one pass. */
    static OneTableImplementor of(RelNode top) {
        OneTableImplementor implementor = new OneTableImplementor(top.getRowType());
        implementor.visit(top);
        return implementor;
    }

    /** Adds {@code rel}, its inputs first. */
    void visit(RelNode rel) {
        ((NumacolRel) rel).implement(this);
    }

    /** The table scanned. */
    NumacolTable table() {
        return table;
    }

    void scan(NumacolTable scanned) {
        this.table = scanned;
        this.projections = IntStream.range(0, scanned.table().schema().size())
                .<Projection>mapToObj(Projection.ColumnRef::new).toList();
    }

    /** Operators arrive bottom up in the rules' order; anything else is a planner surprise, not a wrong answer. */
    void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("numacol cannot run " + what + " here");
        }
    }

    void filter(RexNode condition) {
        check(!projected && aggregation == null && ordering == null, "a filter");
        conditions.add(condition);
    }

    void project(List<RexNode> exprs) {
        check(!projected && aggregation == null && ordering == null, "a projection");
        projected = true;
        projections = exprs.stream().map(RowExpressions::projection).toList();
    }

    void aggregate(ImmutableBitSet groupSet, List<org.apache.calcite.rel.core.AggregateCall> calls) {
        check(aggregation == null && ordering == null, "an aggregate");
        aggregation = new Aggregation(groupSet.toArray(), calls.stream().map(NumacolAggregate::engineCall).toList());
    }

    void sort(Ordering sorted) {
        check(ordering == null, "a sort");
        ordering = sorted;
    }

    /** The types of the rows put out, as Calcite's generated code reads them. */
    List<RelDataType> outputTypes() {
        return outputTypes;
    }

    /**
     * The one-table query bound to {@code root}'s parameters, its rows of {@code types} (null: it
     * is the plan's top) turned into the Java classes Calcite's generated code expects.
     */
    PlanNode.VidScan plan(DataContext root, List<ColumnType> types) {
        List<ColumnType> columnTypes = NumacolQuery.columnTypes(table.table());
        ColumnFilter filter = null;
        if (!conditions.isEmpty()) {
            List<ColumnFilter> bound = conditions.stream().map(c -> Predicates.bind(c, columnTypes, root)).toList();
            filter = bound.size() == 1 ? bound.getFirst() : new ColumnFilter.And(bound);
        }
        boolean computed = aggregation != null || projections.stream().anyMatch(p -> p instanceof Projection.Computed);
        return new PlanNode.VidScan(table.table(), filter, projections, aggregation, ordering, types, computed ? this::toInternal : null);
    }

    /** Computed values as the Java classes Calcite's generated code expects. */
    private Object[] toInternal(Object[] row) {
        for (int i = 0; i < row.length; i++) {
            row[i] = SqlTypes.toInternal(row[i], outputTypes.get(i));
        }
        return row;
    }
}
