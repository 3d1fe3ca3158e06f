package io.numacol.exec;

import io.numacol.scheduler.TaskContext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * One morsel of a pipeline (a part's IndexVector range, or pages of a breaker's rows) pushed
 * through task-local instances of the pipeline's operators into the task's local sink.
 */
final class PipelineTask<L extends ChunkSink> {
    private final Pipeline pipeline;
    private final PipelineSink<L> sinks;
    private final Execution execution;
    /** The morsel scanned, or null when the task reads {@code pages}. */
    private final TableScan scan;
    private final List<Chunk> pages;
    /** The task's local sink, made when it starts; read once the pipeline's tasks are done. */
    private L sink;

    PipelineTask(Pipeline pipeline, PipelineSink<L> sinks, Execution execution, TableScan scan, List<Chunk> pages) {
        this.pipeline = pipeline;
        this.sinks = sinks;
        this.execution = execution;
        this.scan = scan;
        this.pages = pages;
    }

    L sink() {
        return sink;
    }

    /** The partition of the part this task scans; -1 for none (or pages). */
    int partition() {
        return scan == null ? -1 : scan.partition();
    }

    private boolean stop(TaskContext context) {
        if (execution.stopped() || context.isCancelled()) {
            context.statement().cancel();
            return true;
        }
        return false;
    }

    private void checkStop(TaskContext context) {
        if (stop(context)) {
            throw new CancellationException("statement cancelled");
        }
    }

    void run(TaskContext context) {
        sink = sinks.local(context);
        int partition = partition();
        List<PipelineOperator> operators = pipeline.operators().stream().map(f -> f.create(partition)).toList();
        List<ChunkSink> chain = new ArrayList<>(operators.size() + 1);
        // a join's probe may make millions of rows of one input block (a cross join of 3,000 rows
        // makes 3,000 chunks of each): the statement's stop is asked before every chunk an
        // operator or the sink takes, not only between blocks. A chunk is 1,024 rows, and the
        // ask a volatile read and a clock read: a timeout or cancel() ends within a chunk's work
        chain.add(chunk -> {
            checkStop(context);
            sink.accept(chunk);
        });
        for (int i = operators.size() - 1; i >= 0; i--) { // chain.get(k) feeds what operator size-k pushes
            PipelineOperator op = operators.get(i);
            ChunkSink out = chain.getLast();
            chain.add(chunk -> {
                checkStop(context);
                op.push(chunk, out);
            });
        }
        ChunkSink head = chain.getLast();
        if (scan == null) {
            for (Chunk page : pages) {
                if (stop(context)) {
                    return;
                }
                if (page.size > 0) {
                    head.accept(page);
                }
            }
        } else if (!scan.run(head, context, this::stop)) {
            return;
        }
        for (int i = 0; i < operators.size(); i++) {
            operators.get(i).finish(chain.get(operators.size() - 1 - i));
        }
    }
}
