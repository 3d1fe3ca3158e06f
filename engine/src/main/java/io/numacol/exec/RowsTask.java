package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.storage.TablePart;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A range's rows in scan order, the plan's projections evaluated row by row: all of them for an
 * ORDER BY without LIMIT (sorted in the merge), else at most an unordered LIMIT's, after which
 * the task reads no further block.
 */
final class RowsTask extends RowScanTask<List<Object[]>> {
    private final List<Projection> projections;
    /** Rows to keep, -1 for all. */
    private final long limit;
    private final List<Object[]> rows = new ArrayList<>();

    RowsTask(ScanKernel kernel, PlanNode.VidScan plan, TablePart part, PartFilter filter, BitVector bits, int from, int to,
             BooleanSupplier cancelled) {
        super(kernel, plan.projections(), part, filter, bits, from, to, cancelled);
        this.projections = plan.projections();
        this.limit = plan.ordering() == null ? -1 : plan.ordering().limit();
    }

    @Override
    boolean full() {
        return limit == 0 || (limit > 0 && rows.size() >= limit);
    }

    @Override
    void accept(int offset) {
        if (full()) {
            return; // an unordered LIMIT needs no more rows from this task
        }
        rows.add(project(projections, offset));
    }

    @Override
    List<Object[]> result() {
        return rows;
    }
}
