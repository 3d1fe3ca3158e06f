package io.numacol.exec;

import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A hash aggregate over decoded values, a pipeline breaker in two phases (morsel paper §4.4).
 * Sink: each worker groups its tasks' rows in a {@link GroupTable} of its own (its local state,
 * found by the task's worker slot). Combine: once every task is done, one task per hash partition
 * merges that partition's groups of all tables. Finalize: the merged groups as rows.
 *
 * <p>A table per worker rather than per task, as in the morsel paper: when the groups are spread
 * over the whole input (customers met in every morsel of orders), each task would make and merge
 * most groups again. A table that reaches {@link #LOCAL_GROUPS} groups is set aside for the merge
 * and its worker starts another, so that a table stays near the core's cache where groups come in
 * runs (line items by order).
 */
final class HashAggregate {
    /**
     * Groups at which a worker's table is set aside: 64K groups of a few columns stay in a core's
     * caches, where inserts into runs of equal keys are cheap; larger tables miss the cache on
     * most inserts, smaller ones leave the merge the same groups many times.
     */
    private static final int LOCAL_GROUPS = 1 << 16;

    private final PlanNode.Aggregate aggregate;
    private final Execution execution;
    /** Each worker's current table. */
    private final WorkerLocal<GroupTable> byWorker;
    /** Tables set aside full, for the merge. */
    private final Queue<GroupTable> full = new ConcurrentLinkedQueue<>();

    HashAggregate(PlanNode.Aggregate aggregate, Execution execution) {
        this.aggregate = aggregate;
        this.execution = execution;
        this.byWorker = new WorkerLocal<>(() -> new GroupTable(aggregate, execution.reservation()));
    }

    /** The aggregate's rows over its input pipeline's, which this runs. */
    RowStore run(Pipeline input) {
        execution.run(input.as(TaskClass.AGGREGATE), this::local);
        return combine();
    }

    /** A task's sink: its worker's table, set aside once full. */
    private ChunkSink local(TaskContext context) {
        return chunk -> {
            GroupTable table = byWorker.get(context);
            table.accept(chunk);
            if (table.groups() >= LOCAL_GROUPS) {
                full.add(table);
                byWorker.drop(context);
            }
        };
    }

    private RowStore combine() {
        List<GroupTable> locals = new ArrayList<>(full);
        locals.addAll(byWorker.all());
        RowStore result = execution.store(aggregate.types());
        if (aggregate.keys().length == 0) { // one row, also over no rows
            GroupTable total = GroupTable.forMerge(aggregate, execution.reservation());
            for (GroupTable local : locals) {
                if (local.groups() > 0) {
                    total.merge(local, 0);
                }
            }
            if (total.groups() == 0) {
                total.accept(new Chunk(aggregate.input().types()));
            }
            total.writeTo(result, aggregate.types());
            return result;
        }
        long groups = locals.stream().mapToLong(GroupTable::groups).sum();
        int partitions = groups < 4 * Chunk.CAPACITY ? 1 : Integer.highestOneBit(4 * execution.concurrencyHint() * 2 - 1);
        int[][][] byPartition = new int[locals.size()][][];
        for (int t = 0; t < locals.size(); t++) {
            byPartition[t] = partition(locals.get(t), partitions);
        }
        RowStore[] merged = new RowStore[partitions];
        execution.stage(group -> {
            for (int p = 0; p < partitions; p++) {
                int partition = p;
                group.submit(context -> {
                    GroupTable table = GroupTable.forMerge(aggregate, execution.reservation());
                    int groupsMerged = 0;
                    for (int t = 0; t < locals.size(); t++) {
                        for (int g : byPartition[t][partition]) {
                            if ((++groupsMerged & 4095) == 0) {
                                execution.checkStop();
                            }
                            table.merge(locals.get(t), g);
                        }
                    }
                    RowStore out = execution.store(aggregate.types());
                    out.fillOn(context.node());
                    table.writeTo(out, aggregate.types());
                    merged[partition] = out;
                }, Affinity.none(), TaskClass.AGGREGATE);
            }
        });
        for (RowStore m : merged) {
            result.addAll(m);
        }
        return result;
    }

    /** Hash partition p of a table's groups: the numbers of the groups whose hash's low bits are p. */
    private static int[][] partition(GroupTable table, int partitions) {
        int[] counts = new int[partitions];
        int mask = partitions - 1;
        for (int g = 0; g < table.groups(); g++) {
            counts[(int) table.hash(g) & mask]++;
        }
        int[][] out = new int[partitions][];
        for (int p = 0; p < partitions; p++) {
            out[p] = new int[counts[p]];
        }
        Arrays.fill(counts, 0);
        for (int g = 0; g < table.groups(); g++) {
            int p = (int) table.hash(g) & mask;
            out[p][counts[p]++] = g;
        }
        return out;
    }
}
