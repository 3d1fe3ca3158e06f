package io.numacol.exec;

import io.numacol.storage.types.ColumnType;

import java.util.List;

/**
 * Columns computed from each input row. When every column is an input column the output chunk
 * shares the input's arrays (nothing is copied); else the expressions are evaluated a chunk at a
 * time into arrays of the task's own.
 */
final class ProjectOperator implements PipelineOperator {
    private final List<ColumnType> types;
    /** The input columns picked, or null when something is computed. */
    private final int[] columns;
    private final ChunkEvaluator evaluator;

    /** A task's instance: {@code types} and {@code columns} are the projection's, found once per pipeline. */
    ProjectOperator(PlanNode.Project project, List<ColumnType> types, int[] columns) {
        this.types = types;
        this.columns = columns;
        this.evaluator = columns == null ? new ChunkEvaluator(project.exprs()) : null;
    }

    @Override
    public void push(Chunk in, ChunkSink out) {
        out.accept(columns != null ? select(in, columns, types) : evaluator.evaluate(in));
    }

    /** {@code in}'s columns {@code columns} as a chunk sharing its arrays. */
    static Chunk select(Chunk in, int[] columns, List<ColumnType> types) {
        Chunk out = new Chunk(types);
        for (int i = 0; i < columns.length; i++) {
            int c = columns[i];
            out.longs[i] = in.longs[c];
            out.doubles[i] = in.doubles[c];
            out.strings[i] = in.strings[c];
            out.nulls[i] = in.nulls[c];
        }
        out.size = in.size;
        return out;
    }
}
