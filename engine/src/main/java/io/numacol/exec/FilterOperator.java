package io.numacol.exec;

import io.numacol.storage.types.ColumnType;

import java.util.List;

/** The rows of each chunk for which a condition is TRUE, gathered into a chunk of the task's own. */
final class FilterOperator implements PipelineOperator {
    private final ConditionKernel kernel;
    private final boolean[] keep = new boolean[Chunk.CAPACITY];
    private final int[] rows = new int[Chunk.CAPACITY];
    private final Chunk kept;

    FilterOperator(RowPredicate condition, List<ColumnType> types) {
        this.kernel = new ConditionKernel(condition);
        this.kept = new Chunk(types).allocate();
    }

    @Override
    public void push(Chunk in, ChunkSink out) {
        kernel.keep(in, keep);
        int n = 0;
        for (int r = 0; r < in.size; r++) {
            if (keep[r]) {
                rows[n++] = r;
            }
        }
        if (n == 0) {
            return;
        }
        for (int c = 0; c < kept.width(); c++) {
            kept.gather(c, in, c, rows, n);
        }
        kept.size = n;
        out.accept(kept);
    }
}
