package io.numacol.exec;

import io.numacol.scheduler.TaskContext;
import io.numacol.storage.types.ColumnType;

import java.util.List;

/**
 * Where a pipeline's rows end: the side of a pipeline breaker that takes them (a store of rows,
 * an aggregate's groups). Each task pushes into a local sink, made when the task starts on its
 * worker; the breaker combines them once every task is done.
 */
@FunctionalInterface
interface PipelineSink<L extends ChunkSink> {

    /** The local sink of the task {@code context} runs. */
    L local(TaskContext context);

    /** A store of rows per task, its pages filled on the node of the task's worker. */
    static PipelineSink<RowStore> stores(Execution execution, List<ColumnType> types) {
        return context -> {
            RowStore store = execution.store(types);
            store.fillOn(context.node());
            return store;
        };
    }
}
