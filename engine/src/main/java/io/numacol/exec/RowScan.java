package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.TaskClass;
import io.numacol.scheduler.TaskGroup;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * The rows of a {@link PlanNode.VidScan} without aggregate, its projections evaluated on
 * internal values: each task materializes its range's rows ({@link RowsTask}), or keeps its top
 * N in a bounded heap under ORDER BY with FETCH ({@link TopNTask}). Without ORDER BY the rows
 * leave as the scan goes ({@link #stream}); else all tasks' rows are sorted once they are done.
 */
final class RowScan {
    /** Tasks a {@link Stream} keeps in flight, per unit of the concurrency hint. */
    static final int WINDOW_PER_HINT = 2;

    private final Scheduler scheduler;
    private final ScanKernel kernel = ScanKernels.get();

    RowScan(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** All the plan's rows, ordered, offset and fetched, as computed (before {@link PlanNode.VidScan#output}). */
    List<Object[]> rows(PlanNode.VidScan plan, BooleanSupplier cancelled) {
        if (plan.streams()) {
            List<Object[]> rows = new ArrayList<>();
            try (Stream stream = stream(plan, cancelled)) {
                for (List<Object[]> batch = stream.next(); batch != null; batch = stream.next()) {
                    rows.addAll(batch);
                }
            }
            return rows;
        }
        try (TableSnapshot snapshot = plan.table().snapshot()) {
            int hint = Math.max(1, scheduler.concurrencyHint());
            List<Collection<Object[]>> tasks = VidRanges.run(plan, snapshot.parts(), Morsels.rangeRows(snapshot.rowCount(), hint),
                    scheduler.newStatement(), TaskClass.MATERIALIZE, tasks(plan, cancelled), cancelled);
            List<Object[]> rows = new ArrayList<>();
            for (Collection<Object[]> t : tasks) {
                rows.addAll(t);
            }
            return VidRanges.order(plan.ordering(), rows);
        }
    }

    /** The tasks: each keeps its top N rows under ORDER BY with FETCH, else its rows. */
    private VidRanges.PartTasks<Collection<Object[]>> tasks(PlanNode.VidScan plan, BooleanSupplier cancelled) {
        Ordering ordering = plan.ordering();
        boolean topN = ordering != null && !ordering.keys().isEmpty() && ordering.limit() >= 0;
        return (part, filter) -> {
            BitVector bits = VidRanges.bits(part, filter);
            return topN ? (from, to) -> new TopNTask(kernel, plan, part, filter, bits, from, to, cancelled)
                    : (from, to) -> new RowsTask(kernel, plan, part, filter, bits, from, to, cancelled);
        };
    }

    /**
     * The rows of a plan that {@link PlanNode.VidScan#streams}, task by task in scan order, with
     * at most {@link #WINDOW_PER_HINT} times the concurrency hint tasks in flight: the caller
     * holds a few tasks' rows rather than the result's, and the workers scan ahead while it reads
     * a batch (a stream that ran a wave of tasks and then waited for the caller would leave the
     * workers idle between waves and pay a wake-up per wave). An unordered LIMIT submits no task
     * once it has its rows. The stream reads one snapshot throughout, so its parts (even ones
     * merges have replaced) stay in memory until it ends or is closed: a JDBC ResultSet left open
     * holds them.
     */
    Stream stream(PlanNode.VidScan plan, BooleanSupplier cancelled) {
        if (!plan.streams()) {
            throw new IllegalArgumentException("an aggregate or ORDER BY needs every row first");
        }
        return new Stream(plan, cancelled);
    }

    /** Batches of rows, one per task; see {@link #stream}. */
    final class Stream implements ResultStream {
        private final PlanNode.VidScan plan;
        private final BooleanSupplier cancelled;
        private final TableSnapshot snapshot;
        private final Statement statement;
        private final int window;
        private final int rangeRows;
        private final List<TablePart> parts;
        private final int[] read;
        /** Submitted tasks in scan order, each in a group of its own so that it can be awaited alone. */
        private final ArrayDeque<Running> running = new ArrayDeque<>();
        private int partIndex;
        private PartFilter filter;
        private BitVector bits;
        /** The current part's morsels, the next one to submit at {@code nextMorsel}. */
        private List<Morsels.Morsel> morsels;
        private int nextMorsel;
        private long skip;
        /** Rows still wanted, -1 for all. */
        private long remaining;
        private boolean closed;

        private record Running(RowsTask task, TaskGroup group) {
        }

        private Stream(PlanNode.VidScan plan, BooleanSupplier cancelled) {
            this.plan = plan;
            this.cancelled = cancelled;
            this.statement = scheduler.newStatement(); // first: it may refuse (closing), the snapshot must then not be taken
            this.snapshot = plan.table().snapshot();
            this.parts = snapshot.parts().stream().filter(p -> p.liveRowCount() > 0).toList();
            this.read = VidRanges.columnsRead(plan);
            int hint = Math.max(1, scheduler.concurrencyHint());
            this.window = hint * WINDOW_PER_HINT;
            this.rangeRows = Morsels.rangeRows(snapshot.rowCount(), hint);
            this.skip = plan.ordering() == null ? 0 : plan.ordering().offset();
            this.remaining = plan.ordering() == null ? -1 : plan.ordering().fetch();
        }

        @Override
        public List<Object[]> next() {
            try {
                return nextBatch();
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        private List<Object[]> nextBatch() {
            while (!closed) {
                submitUpToWindow();
                Running head = running.poll();
                if (head == null) {
                    close();
                    break;
                }
                head.group().await();
                if (cancelled.getAsBoolean()) {
                    close();
                    throw new CancellationException("statement cancelled");
                }
                List<Object[]> rows = new ArrayList<>();
                for (Object[] row : head.task().result()) {
                    if (skip > 0) {
                        skip--;
                    } else if (remaining != 0) {
                        rows.add(row);
                        remaining -= remaining > 0 ? 1 : 0;
                    }
                }
                if (!rows.isEmpty()) {
                    submitUpToWindow(); // the workers go on while the caller reads these rows
                    return rows;
                }
            }
            return null;
        }

        /** Submits the next ranges until the window is full, the table is read or the LIMIT is met. */
        private void submitUpToWindow() {
            while (running.size() < window && partIndex < parts.size() && remaining != 0) {
                TablePart part = parts.get(partIndex);
                if (morsels == null) {
                    filter = PartFilter.of(plan.filter(), part, Fork.tasks(statement, Morsels.affinity(plan.table(), part)));
                    morsels = VidRanges.morsels(plan, part, filter, rangeRows);
                    if (morsels.isEmpty()) { // the filter rules the part out
                        partIndex++;
                        morsels = null;
                        continue;
                    }
                    bits = VidRanges.bits(part, filter);
                    nextMorsel = 0;
                }
                Morsels.Morsel m = morsels.get(nextMorsel++);
                RowsTask task = new RowsTask(kernel, plan, part, filter, bits, m.from(), m.to(), cancelled);
                task.accountAs(m, Morsels.bytes(part, read, m.to() - m.from()));
                running.add(new Running(task, statement.submitAlone(task::run, m.affinity(), TaskClass.MATERIALIZE)));
                if (nextMorsel == morsels.size()) {
                    partIndex++;
                    morsels = null;
                }
            }
        }

        /**
         * Ends the stream: tasks still in flight are cancelled and awaited (none may outlive the
         * snapshot whose parts it reads), then the snapshot is released.
         */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                try {
                    for (Running r : running) {
                        r.group().abandon();
                    }
                    running.clear();
                } finally {
                    snapshot.close();
                }
            }
        }
    }
}
