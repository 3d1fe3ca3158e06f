package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.storage.TablePart;

import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * A range's first rows in ORDER BY order, at most OFFSET + FETCH of them: a bounded heap whose
 * head is the last row kept, replaced by any row that sorts before it.
 */
final class TopNTask extends RowScanTask<PriorityQueue<Object[]>> {
    private final List<Projection> projections;
    private final long limit;
    private final Comparator<Object[]> order;
    private final PriorityQueue<Object[]> heap;

    /** {@code plan} has ORDER BY keys and a FETCH. */
    TopNTask(ScanKernel kernel, PlanNode.VidScan plan, TablePart part, PartFilter filter, BitVector bits, int from, int to,
             BooleanSupplier cancelled) {
        super(kernel, plan.projections(), part, filter, bits, from, to, cancelled);
        this.projections = plan.projections();
        this.limit = plan.ordering().limit();
        this.order = plan.ordering().comparator();
        this.heap = new PriorityQueue<>(order.reversed());
    }

    @Override
    boolean full() {
        return limit == 0;
    }

    @Override
    void accept(int offset) {
        if (full()) {
            return;
        }
        Object[] out = project(projections, offset);
        if (heap.size() < limit) {
            heap.add(out);
        } else if (order.compare(out, heap.peek()) < 0) {
            heap.poll();
            heap.add(out);
        }
    }

    @Override
    PriorityQueue<Object[]> result() {
        return heap;
    }
}
