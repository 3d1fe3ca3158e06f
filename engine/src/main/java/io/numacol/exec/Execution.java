package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scheduler.Scheduler;
import io.numacol.scheduler.Statement;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * One execution of a plan, as its operators see it: the statement its stages run in, its stop
 * (cancel flag or timeout), the reservation its intermediates count against, and the snapshots it
 * pins. The one place pipelines become tasks ({@link #run}) and stages are awaited.
 */
final class Execution implements AutoCloseable {
    /** Pages of an intermediate result per task. */
    static final int PAGES_PER_TASK = 16;

    private final Scheduler scheduler;
    private final Statement statement;
    private final BooleanSupplier cancelled;
    private final MemoryReservation reservation;
    private final ScanKernel kernel = ScanKernels.get();
    /** Snapshots pinned for joins run partition by partition, held until the execution ends. */
    private final List<TableSnapshot> pinned = new ArrayList<>();

    Execution(Scheduler scheduler, BooleanSupplier cancelled, MemoryReservation reservation) {
        this.scheduler = scheduler;
        this.statement = scheduler.newStatement();
        this.cancelled = cancelled;
        this.reservation = reservation;
    }

    @Override
    public void close() {
        pinned.forEach(TableSnapshot::close);
    }

    MemoryReservation reservation() {
        return reservation;
    }

    int concurrencyHint() {
        return Math.max(1, scheduler.concurrencyHint());
    }

    /** Whether the statement was cancelled or timed out. */
    boolean stopped() {
        return cancelled.getAsBoolean();
    }

    /** Throws CancellationException once the statement was cancelled or timed out. */
    void checkStop() {
        if (cancelled.getAsBoolean()) {
            throw new CancellationException("statement cancelled");
        }
    }

    /** Holds {@code snapshot} until the execution ends. */
    void pin(TableSnapshot snapshot) {
        pinned.add(snapshot);
    }

    /** A store whose pages count against this execution's reservation. */
    RowStore store(List<ColumnType> types) {
        return new RowStore(types, reservation);
    }

    /** Runs one stage of the statement: the tasks {@code stage} submits, awaited, ended as cancelled on a stop. */
    void stage(Statement.Stage stage) {
        statement.runStage(stage, cancelled);
    }

    /** Runs a pipeline to the end into task-local sinks, which it returns in the order of the source's rows. */
    <L extends ChunkSink> List<L> run(Pipeline pipeline, PipelineSink<L> sink) {
        return runTasks(pipeline, sink).stream().map(PipelineTask::sink).toList();
    }

    /** Runs a pipeline to the end; returns its tasks, with their sinks, in the order of the source's rows. */
    <L extends ChunkSink> List<PipelineTask<L>> runTasks(Pipeline pipeline, PipelineSink<L> sink) {
        List<PipelineTask<L>> tasks = new ArrayList<>();
        if (!pipeline.empty()) {
            switch (pipeline.source()) {
                case PipelineSource.TableSource(PlanNode.Scan scan, var keys, TableSnapshot pinnedSnapshot) -> {
                    try (TableSnapshot own = pinnedSnapshot == null ? scan.table().snapshot() : null) {
                        TableSnapshot snapshot = pinnedSnapshot == null ? own : pinnedSnapshot;
                        // no task may outlive the snapshot whose parts it reads: runStage abandons them on failure
                        stage(group -> {
                            int rangeRows = Morsels.rangeRows(snapshot.rowCount(), concurrencyHint());
                            int[] read = Morsels.columnsRead(scan.filter(), scan.tableColumns());
                            for (TablePart part : snapshot.parts()) {
                                if (part.liveRowCount() == 0) {
                                    continue;
                                }
                                PartFilter filter = PartFilter.of(scan.filter(), part,
                                        Fork.tasks(statement, Morsels.affinity(scan.table(), part)));
                                if (PartFilter.excludesAll(filter)) {
                                    continue;
                                }
                                // one BitVector per part: ranges start at multiples of 1024, so tasks never share a word
                                BitVector bits = filter == null ? null : new BitVector(part.rowCount());
                                int driving = Morsels.drivingColumn(part, scan.filter(), read);
                                for (Morsels.Morsel m : PartFilter.within(filter, Morsels.of(scan.table(), part, driving, rangeRows))) {
                                    TableScan morsel = new TableScan(kernel, scan, keys, part, filter, bits, m,
                                            Morsels.bytes(part, read, m.to() - m.from()));
                                    PipelineTask<L> task = new PipelineTask<>(pipeline, sink, this, morsel, null);
                                    tasks.add(task);
                                    group.submit(task::run, m.affinity(), pipeline.taskClass());
                                }
                            }
                        });
                    }
                }
                case PipelineSource.StoreSource(RowStore rows) -> stage(group -> {
                    for (RowStore.PageRun run : rows.runs(PAGES_PER_TASK)) {
                        PipelineTask<L> task = new PipelineTask<>(pipeline, sink, this, null, rows.pages().subList(run.from(), run.to()));
                        tasks.add(task);
                        group.submit(task::run, run.affinity(), pipeline.taskClass());
                    }
                });
            }
        }
        checkStop();
        tasks.forEach(t -> Objects.requireNonNull(t.sink(), "a task of a finished pipeline never ran"));
        return tasks;
    }
}
