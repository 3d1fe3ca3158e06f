package io.numacol.exec;

import io.numacol.scan.ScanKernel;
import io.numacol.scan.VidPredicate;
import io.numacol.scheduler.TaskContext;
import io.numacol.storage.Column;
import io.numacol.storage.IndexVector;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.TablePart;

import java.math.BigDecimal;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * COUNT(*), COUNT(c) and SUM(c) without GROUP BY, filtered by at most a range of c itself, where
 * c's dictionary is dense in the part: one pass of the scan kernel counts the rows in the vid
 * range and sums their vids, and SUM(c) is count * first value + that sum. Nothing is decoded
 * into arrays, no BitVector is written.
 */
final class IndexVectorSumTask extends RangeTask<PartitionedGroups> {
    private final ScanKernel kernel;
    private final Shape shape;
    private final int partitions;
    private PartitionedGroups groups;

    /**
     * What the tasks over one part share: the aggregate, the column c counted and summed, the
     * range of its vids that qualifies, whether a filter made that range (else every row
     * qualifies), and whether a call reads c's values (COUNT(c), SUM(c)) rather than only rows.
     */
    record Shape(Aggregation agg, Column column, VidPredicate.Between range, boolean filtered, boolean valuesOnly,
                 NumericExpr.Type type) {
    }

    /** The plan's shape over the part, or null when the plan does not have that shape there. */
    static Shape shape(PlanNode.VidScan plan, TablePart part, PartFilter filter) {
        Aggregation agg = plan.aggregation();
        if (agg.groupKeys().length > 0) {
            return null;
        }
        int column = -1;
        for (AggregateCall call : agg.calls()) {
            if (call.input() < 0) {
                continue;
            }
            if (call.distinct() || call.kind() == AggregateKind.MIN || call.kind() == AggregateKind.MAX
                    || !(plan.projections().get(call.input()) instanceof Projection.ColumnRef ref)
                    || (column >= 0 && ref.column() != column)) {
                return null;
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
            int filtered = columnOf(part, leaf.iv());
            if (filtered < 0 || (column >= 0 && filtered != column)) {
                return null;
            }
            column = filtered;
            range = between;
        } else {
            return null;
        }
        Column c = part.column(column);
        boolean valuesOnly = agg.calls().stream().anyMatch(call -> call.input() >= 0);
        if (valuesOnly && !range.isEmpty() && Integer.compareUnsigned(range.hi(), c.dictionary().size()) >= 0) {
            return null; // the range takes in NULL rows, which COUNT(c) and SUM(c) must skip
        }
        boolean sums = agg.calls().stream().anyMatch(call -> call.kind().sums());
        NumericExpr.Type type = VectorAggregator.numericType(c.type());
        if (sums && (type == null || type.approximate() || !(c.dictionary() instanceof LongDictionary d) || !d.isDense())) {
            return null;
        }
        return new Shape(agg, c, range, filter != null, valuesOnly, type);
    }

    private static int columnOf(TablePart part, IndexVector iv) {
        for (int c = 0; c < part.columns().size(); c++) {
            if (part.column(c).indexVector() == iv) {
                return c;
            }
        }
        return -1;
    }

    IndexVectorSumTask(ScanKernel kernel, Shape shape, TablePart part, int from, int to, BooleanSupplier cancelled,
                       int partitions) {
        super(part, from, to, cancelled);
        this.kernel = kernel;
        this.shape = shape;
        this.partitions = partitions;
    }

    @Override
    void runRange(TaskContext context) {
        Aggregation agg = shape.agg();
        Column c = shape.column();
        long[] countAndSum = new long[2];
        if (shape.filtered() || shape.valuesOnly()) {
            kernel.countAndSumVids(c.indexVector(), from, to, shape.range(), countAndSum);
        }
        long rows = !shape.filtered() ? to - from : countAndSum[0];
        groups = new PartitionedGroups(partitions);
        if (rows == 0) {
            return; // no row, no group: the merge answers an empty aggregate
        }
        Accumulator[] accs = new Accumulator[agg.calls().size()];
        for (int i = 0; i < accs.length; i++) {
            AggregateCall call = agg.calls().get(i);
            accs[i] = call.kind().sums()
                    ? exactSum(countAndSum[0], countAndSum[1], ((LongDictionary) c.dictionary()).getLong(0), shape.type())
                    : Accumulator.count(call.input() < 0 ? rows : countAndSum[0]);
        }
        groups.put(List.of(), accs);
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

    @Override
    PartitionedGroups result() {
        return groups;
    }
}
