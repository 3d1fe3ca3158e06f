package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scheduler.TaskContext;
import io.numacol.storage.TablePart;

import java.util.function.BooleanSupplier;

/**
 * The vectorized GROUP BY of a range: the filter into the part's BitVector, then a {@link Batch}
 * of selected rows per block into a {@link VectorAggregator}'s primitive accumulators.
 */
final class VectorAggregateTask extends RangeTask<PartitionedGroups> {
    private final ScanKernel kernel;
    private final PlanNode.VidScan plan;
    private final PartFilter filter;
    private final BitVector bits;
    private final int partitions;
    private PartitionedGroups groups;

    VectorAggregateTask(ScanKernel kernel, PlanNode.VidScan plan, TablePart part, PartFilter filter, BitVector bits,
                        int from, int to, BooleanSupplier cancelled, int partitions) {
        super(part, from, to, cancelled);
        this.kernel = kernel;
        this.plan = plan;
        this.filter = filter;
        this.bits = bits;
        this.partitions = partitions;
    }

    @Override
    void runRange(TaskContext context) {
        if (filter != null) {
            filter.eval(kernel, from, to, bits);
        }
        Batch batch = new Batch(part);
        VectorAggregator aggregator = new VectorAggregator(plan, batch);
        for (int block = from; block < to; block += BLOCK) {
            if (stopped(context)) {
                return;
            }
            batch.select(block, Math.min(to, block + BLOCK), bits);
            aggregator.add();
        }
        groups = aggregator.finish(partitions);
    }

    @Override
    PartitionedGroups result() {
        return groups;
    }
}
