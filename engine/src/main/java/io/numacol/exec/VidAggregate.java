package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.StatementFailedException;
import io.numacol.scheduler.TaskClass;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The aggregate of a {@link PlanNode.VidScan}: a perfect-hash aggregate on vids. Each task groups
 * its range by the vids of the key columns (a part's dictionaries number its values densely), by
 * a strategy chosen once for the plan and the part:
 * <ul>
 *   <li>a {@link Batch} of selected rows at a time into primitive accumulators
 *       ({@link VectorAggregateTask}), or, for COUNT/SUM over a range of one column (SUM when its
 *       dictionary is dense), counts and sums of vids in the scan kernel itself
 *       ({@link IndexVectorSumTask});</li>
 *   <li>or, for what the vectorized path does not take (DISTINCT, keys wider than 63 bits,
 *       expressions that are not {@link NumericExpr}s), row by row into a task-local hash table
 *       keyed by the group columns' vids ({@link BoxedAggregateTask}).</li>
 * </ul>
 * Keys become values only at the end of a task, since each part has its own dictionaries; each
 * task leaves its groups in hash partitions, and partition p of all tasks merges into one table
 * (morsel paper §6.3), by a task per partition when there are many groups.
 */
final class VidAggregate {
    /** Fewer groups than this are merged on the calling thread: tasks would cost more than they save. */
    static final int PARALLEL_MERGE_GROUPS = 20_000;

    private final Scheduler scheduler;
    private final ScanKernel kernel = ScanKernels.get();
    private final boolean vectorized;

    /** {@code vectorized} false: aggregate row by row on boxed values, the reference the vectorized path is tested against. */
    VidAggregate(Scheduler scheduler, boolean vectorized) {
        this.scheduler = scheduler;
        this.vectorized = vectorized;
    }

    /** The plan's groups, ordered, as computed (before {@link PlanNode.VidScan#output}). */
    List<Object[]> rows(PlanNode.VidScan plan, BooleanSupplier cancelled) {
        if (vectorized) {
            try {
                return rows(plan, cancelled, true);
            } catch (StatementFailedException e) {
                if (!(e.getCause() instanceof NumericExpr.BeyondLong)) {
                    throw e;
                }
                // a DECIMAL left a long: legal SQL, computed again on BigDecimals (in a statement of its own: the first one failed)
            }
        }
        return rows(plan, cancelled, false);
    }

    private List<Object[]> rows(PlanNode.VidScan plan, BooleanSupplier cancelled, boolean tryVectors) {
        try (TableSnapshot snapshot = plan.table().snapshot()) {
            List<TablePart> parts = snapshot.parts();
            boolean vectors = tryVectors && VectorAggregator.supports(plan, parts);
            int hint = Math.max(1, scheduler.concurrencyHint());
            Statement statement = scheduler.newStatement();
            List<PartitionedGroups> groups = VidRanges.run(plan, parts, Morsels.rangeRows(snapshot.rowCount(), hint), statement,
                    TaskClass.AGGREGATE, tasks(plan, cancelled, hint, vectors), cancelled);
            return merge(plan, groups, statement, hint);
        }
    }

    /**
     * The tasks: vectorized ones (a part in the shape {@link IndexVectorSumTask} takes is summed
     * on its IndexVectors), or with {@code vectors} false row-at-a-time ones.
     */
    private VidRanges.PartTasks<PartitionedGroups> tasks(PlanNode.VidScan plan, BooleanSupplier cancelled, int partitions,
                                                         boolean vectors) {
        if (!vectors) {
            return (part, filter) -> {
                BitVector bits = VidRanges.bits(part, filter);
                return (from, to) -> new BoxedAggregateTask(kernel, plan, part, filter, bits, from, to, cancelled, partitions);
            };
        }
        return (part, filter) -> {
            IndexVectorSumTask.Shape shape = IndexVectorSumTask.shape(plan, part, filter);
            if (shape != null) {
                return (from, to) -> new IndexVectorSumTask(kernel, shape, part, from, to, cancelled, partitions);
            }
            BitVector bits = VidRanges.bits(part, filter);
            return (from, to) -> new VectorAggregateTask(kernel, plan, part, filter, bits, from, to, cancelled, partitions);
        };
    }

    /**
     * Phase 2 (morsel paper §6.3): each task left its groups in {@code partitions} hash
     * partitions; partition p of all tasks merges into one table, by one merge task per
     * partition when there are many groups, on this thread when there are few.
     */
    private static List<Object[]> merge(PlanNode.VidScan plan, List<PartitionedGroups> tasks, Statement statement, int partitions) {
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
        for (int i = 0; i < agg.calls().size(); i++) {
            if (agg.calls().get(i).kind() == AggregateKind.SUM0) {
                int column = agg.groupKeys().length + i;
                Object zero = zero(plan, agg.calls().get(i), rows, column);
                for (Object[] row : rows) {
                    if (row[column] == null) {
                        row[column] = zero;
                    }
                }
            }
        }
        return VidRanges.order(plan.ordering(), rows);
    }

    /**
     * A SUM0's value over no values, of the class its other values have (so that they sort
     * together): the input's numeric type's, else the class of a value the column has.
     */
    private static Object zero(PlanNode.VidScan plan, AggregateCall call, List<Object[]> rows, int column) {
        NumericExpr.Type type = switch (plan.projections().get(call.input())) {
            case Projection.ColumnRef ref -> VectorAggregator.numericType(plan.table().schema().columns().get(ref.column()).type());
            case Projection.Computed c -> c.numeric() == null ? null : c.numeric().type();
        };
        if (type != null) {
            return type.approximate() ? 0.0 : type.fractional() ? BigDecimal.valueOf(0, type.scale()) : (Object) 0L;
        }
        for (Object[] row : rows) {
            switch (row[column]) {
                case Double d -> {
                    return 0.0;
                }
                case Float f -> {
                    return 0.0f;
                }
                case BigDecimal d -> {
                    return BigDecimal.valueOf(0, d.scale());
                }
                case null, default -> { }
            }
        }
        return 0L;
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
}
