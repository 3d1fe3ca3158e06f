package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.TaskClass;
import io.numacol.storage.TablePart;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The morsels of a {@link PlanNode.VidScan} (thesis §5.3.1, §5.5; morsel paper §6.3-6.4): each
 * part cut into IndexVector ranges of whole 1024-row blocks, about four per unit of the
 * concurrency hint in all, each a {@link RangeTask} with the affinity of the node holding its
 * rows ({@link Morsels}: no range straddles two nodes' pages). A task evaluates the part's vid
 * predicates into a BitVector for its range, then does what its operator ({@link VidAggregate},
 * {@link RowScan}) chose for the plan, and for the part where its dictionaries decide.
 */
final class VidRanges {
    private VidRanges() {
    }

    /** How one part's ranges are run: chosen once per plan, then per part where the part's dictionaries decide. */
    @FunctionalInterface
    interface PartTasks<R> {
        RangeTasks<R> of(TablePart part, PartFilter filter);
    }

    /** The task of one range of a part. */
    @FunctionalInterface
    interface RangeTasks<R> {
        RangeTask<? extends R> task(int from, int to);
    }

    /**
     * Runs a task per morsel of every one of {@code parts} as one stage of {@code statement}, and
     * answers what each one left, in scan order.
     */
    static <R> List<R> run(PlanNode.VidScan plan, List<TablePart> parts, int rangeRows, Statement statement,
                           TaskClass taskClass, PartTasks<R> strategy, BooleanSupplier cancelled) {
        List<RangeTask<? extends R>> tasks = new ArrayList<>();
        int[] read = columnsRead(plan);
        // no task may outlive the snapshot whose parts it reads: runStage abandons them on failure
        statement.runStage(group -> {
            for (TablePart part : parts) {
                if (part.liveRowCount() == 0) {
                    continue;
                }
                PartFilter filter = PartFilter.of(plan.filter(), part, Fork.tasks(statement, Morsels.affinity(plan.table(), part)));
                if (PartFilter.excludesAll(filter)) {
                    continue;
                }
                RangeTasks<R> ranges = strategy.of(part, filter);
                for (Morsels.Morsel m : morsels(plan, part, filter, rangeRows)) {
                    RangeTask<? extends R> task = ranges.task(m.from(), m.to());
                    task.accountAs(m, Morsels.bytes(part, read, m.to() - m.from()));
                    tasks.add(task);
                    group.submit(task::run, m.affinity(), taskClass);
                }
            }
        }, cancelled);
        List<R> results = new ArrayList<>(tasks.size());
        for (RangeTask<? extends R> task : tasks) {
            results.add(task.result());
        }
        return results;
    }

    /** One BitVector per part: tasks' ranges start at multiples of 1024, so their words never overlap. */
    static BitVector bits(TablePart part, PartFilter filter) {
        return filter == null ? null : new BitVector(part.rowCount());
    }

    /** The ranges of {@code part} a scan reads: those that may hold a row {@code filter} keeps. */
    static List<Morsels.Morsel> morsels(PlanNode.VidScan plan, TablePart part, PartFilter filter, int rangeRows) {
        return PartFilter.within(filter,
                Morsels.of(plan.table(), part, Morsels.drivingColumn(part, plan.filter(), projected(plan)), rangeRows));
    }

    private static int[] projected(PlanNode.VidScan plan) {
        return plan.projections().stream().flatMapToInt(p -> Arrays.stream(p.columns())).toArray();
    }

    /** The columns a plan's scan reads: its filter's and its projections'. */
    static int[] columnsRead(PlanNode.VidScan plan) {
        return Morsels.columnsRead(plan.filter(), projected(plan));
    }

    /** {@code rows} in {@code ordering}'s order (null: as they are), its offset skipped and at most its fetch kept. */
    static List<Object[]> order(Ordering ordering, List<Object[]> rows) {
        if (ordering == null) {
            return rows;
        }
        if (!ordering.keys().isEmpty()) {
            rows.sort(ordering.comparator());
        }
        int from = (int) Math.min(rows.size(), ordering.offset());
        int to = ordering.fetch() < 0 ? rows.size() : (int) Math.min(rows.size(), from + ordering.fetch());
        return rows.subList(from, to);
    }
}
