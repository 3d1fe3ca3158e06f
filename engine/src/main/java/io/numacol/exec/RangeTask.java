package io.numacol.exec;

import io.numacol.scheduler.TaskContext;
import io.numacol.storage.IndexVector;
import io.numacol.storage.TablePart;

import java.util.function.BooleanSupplier;

/**
 * One IndexVector range of one part, run as one task of a {@link PlanNode.VidScan}'s operator ({@link VidRanges}), and what it leaves
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
    /** What the task reports when it ends (see {@link #accountAs}); null: nothing. */
    private Morsels.Morsel morsel;
    private long bytes;

    RangeTask(TablePart part, int from, int to, BooleanSupplier cancelled) {
        this.part = part;
        this.from = from;
        this.to = to;
        this.cancelled = cancelled;
    }

    /** Has the task report its run time and {@code bytes} read from {@code morsel}'s node when it ends. */
    final void accountAs(Morsels.Morsel morsel, long bytes) {
        this.morsel = morsel;
        this.bytes = bytes;
    }

    final void run(TaskContext context) {
        if (stopped(context)) {
            return;
        }
        long start = context.busyClock();
        runRange(context);
        if (morsel != null) {
            Morsels.record(context, part, morsel, bytes, start);
        }
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
