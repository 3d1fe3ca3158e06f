package io.numacol.exec;

import io.numacol.scheduler.TaskContext;
import io.numacol.storage.IndexVector;
import io.numacol.storage.TablePart;

import java.util.function.BooleanSupplier;

/**
 * One IndexVector range of one part, run as one task of {@link QueryExecutor}, and what it leaves
 * for the merge ({@code R}). Ranges start at multiples of 1024 rows, so the tasks of one part can
 * share its BitVector: their words never overlap. Each subclass is one way to run a range, chosen
 * for the plan (and the part) before any task is submitted.
 */
abstract class RangeTask<R> {
    static final int BLOCK = IndexVector.BLOCK_ROWS;

    final TablePart part;
    final int from;
    final int to;
    private final BooleanSupplier cancelled;

    RangeTask(TablePart part, int from, int to, BooleanSupplier cancelled) {
        this.part = part;
        this.from = from;
        this.to = to;
        this.cancelled = cancelled;
    }

    final void run(TaskContext context) {
        if (stopped(context)) {
            return;
        }
        runRange(context);
    }

    /** Runs the range; polls {@link #stopped} between blocks. */
    abstract void runRange(TaskContext context);

    /** What the task produced, once it ran to its end. */
    abstract R result();

    /**
     * Whether the statement is to stop: the caller's {@code cancelled} answered true, which then
     * cancels the numacol statement, or the statement is cancelled already.
     */
    final boolean stopped(TaskContext context) {
        if (cancelled.getAsBoolean() || context.isCancelled()) {
            context.statement().cancel();
            return true;
        }
        return false;
    }
}
