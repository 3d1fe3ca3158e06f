package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.storage.TablePart;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A range's GROUP BY row by row on boxed values, for what {@link VectorAggregator} does not take
 * (DISTINCT, keys wider than 63 bits, expressions that are not {@link NumericExpr}s, DECIMALs
 * that leave a long), and the reference the vectorized path is tested against: a task-local hash
 * table keyed by the group columns' vids, packed in a long when they fit.
 */
final class BoxedAggregateTask extends RowScanTask<PartitionedGroups> {
    private final PlanNode.VidScan plan;
    private final Aggregation agg;
    private final int partitions;
    private final int[] keyColumns;
    private final int[] keyBits;
    private final boolean packed;
    private final Map<Object, Accumulator[]> local = new HashMap<>();
    private PartitionedGroups groups;

    BoxedAggregateTask(ScanKernel kernel, PlanNode.VidScan plan, TablePart part, PartFilter filter, BitVector bits,
                       int from, int to, BooleanSupplier cancelled, int partitions) {
        super(kernel, read(plan), part, filter, bits, from, to, cancelled);
        this.plan = plan;
        this.agg = plan.aggregation();
        this.partitions = partitions;
        keyColumns = Arrays.stream(agg.groupKeys())
                .map(k -> ((Projection.ColumnRef) plan.projections().get(k)).column()).toArray();
        keyBits = Arrays.stream(keyColumns).map(c -> part.column(c).bitcase()).toArray();
        packed = Arrays.stream(keyBits).sum() <= 63;
    }

    /** The projections the task evaluates: the aggregate's keys and inputs. */
    private static List<Projection> read(PlanNode.VidScan plan) {
        List<Projection> used = new ArrayList<>();
        Arrays.stream(plan.aggregation().groupKeys()).forEach(k -> used.add(plan.projections().get(k)));
        plan.aggregation().calls().stream().filter(c -> c.input() >= 0)
                .forEach(c -> used.add(plan.projections().get(c.input())));
        return used;
    }

    @Override
    void accept(int offset) {
        Object key;
        if (packed) {
            long k = 0;
            for (int i = 0; i < keyColumns.length; i++) {
                k = k << keyBits[i] | vid(keyColumns[i], offset);
            }
            key = k;
        } else {
            int[] k = new int[keyColumns.length];
            for (int i = 0; i < k.length; i++) {
                k[i] = vid(keyColumns[i], offset);
            }
            key = new VidKey(k);
        }
        Accumulator[] accs = local.computeIfAbsent(key, x -> Accumulator.create(agg));
        for (int i = 0; i < accs.length; i++) {
            int input = agg.calls().get(i).input();
            accs[i].add(input < 0 ? null : value(plan.projections().get(input), offset));
        }
    }

    /** Keys become values only here, since each part has its own dictionaries. */
    @Override
    void finish() {
        groups = new PartitionedGroups(partitions);
        local.forEach((key, accs) -> {
            List<Object> valueKey;
            if (key instanceof Long k) {
                valueKey = VectorAggregator.keyValues(part, keyColumns, keyBits, k);
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

    @Override
    PartitionedGroups result() {
        return groups;
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
