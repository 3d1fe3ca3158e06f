package io.numacol.exec;

/**
 * An operator inside a pipeline (a filter, a projection, a hash join's probe): it pushes what it
 * makes of each chunk on to the next. An instance belongs to one task, so that its fields are
 * the task's local state; what its tasks share (a join's hash table) is given to its {@link
 * Factory}, made once per execution.
 */
interface PipelineOperator {

    void push(Chunk in, ChunkSink out);

    /** The task ends: push what is still held. */
    @SuppressWarnings("UnusedVariable") // what overriding operators push to
    default void finish(ChunkSink out) {
    }

    /**
     * Makes an operator's task-local instance, for a task over rows of {@code partition} of a PP
     * table (-1: any rows), which a join run partition by partition needs.
     */
    @FunctionalInterface
    interface Factory {
        PipelineOperator create(int partition);
    }
}
