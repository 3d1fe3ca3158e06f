package io.numacol.exec;

import io.numacol.scheduler.TaskClass;
import io.numacol.storage.types.ColumnType;

import java.util.List;
import java.util.function.Predicate;

/**
 * The build side of a hash join, the join's state shared by its tasks: which side is built and
 * on which keys, the hash tables built on the build rows (by tasks on the nodes whose workers
 * filled the rows' pages), the runtime filter those rows give the probe side, and, when the
 * build side's rows decide what is put out, the build rows put out once the probe is done.
 */
final class HashJoinBuild {
    /** Build sides up to this many rows filter their probe side below its breakers. */
    private static final long RUNTIME_FILTER_ROWS = 1 << 22;

    private final PlanNode.HashJoin join;
    private final Execution execution;
    final PlanNode buildSide;
    final PlanNode probeSide;
    final int[] buildKeys;
    final int[] probeKeys;

    HashJoinBuild(PlanNode.HashJoin join, Execution execution) {
        this.join = join;
        this.execution = execution;
        this.buildSide = join.buildLeft() ? join.left() : join.right();
        this.probeSide = join.buildLeft() ? join.right() : join.left();
        this.buildKeys = join.buildLeft() ? join.leftKeys() : join.rightKeys();
        this.probeKeys = join.buildLeft() ? join.rightKeys() : join.leftKeys();
    }

    /** Whether no probe row can be put out over {@code built} rows: an empty build side, unless probe rows go out alone. */
    boolean nothingOut(RowStore built) {
        boolean probeAlone = join.probeDecides() && join.kind() != PlanNode.JoinKind.SEMI;
        return built.rows() == 0 && !probeAlone;
    }

    /**
     * The hash tables of the build side, one per store (one per partition for a join by
     * partitions), filled by tasks over runs of their pages, on the nodes that filled them.
     */
    JoinHashTable[] build(RowStore[] built) {
        JoinHashTable[] tables = new JoinHashTable[built.length];
        execution.stage(group -> {
            for (int p = 0; p < built.length; p++) {
                JoinHashTable table = new JoinHashTable(built[p], buildKeys, join.nullsEqual());
                tables[p] = table;
                for (RowStore.PageRun run : built[p].runs(Execution.PAGES_PER_TASK)) {
                    group.submit(context -> {
                        if (!execution.stopped() && !context.isCancelled()) {
                            table.insert(run.from(), run.to());
                        }
                    }, run.affinity(), TaskClass.JOIN_BUILD);
                }
            }
        });
        return tables;
    }

    /**
     * The probe side with its rows that cannot match dropped below its pipeline breakers (see
     * {@link RuntimeFilters}), when the join drops them too and the build side is not large;
     * {@code shared} tells the nodes the plan holds more than once, which must not change.
     */
    PlanNode filteredProbe(RowStore built, Predicate<PlanNode> shared) {
        boolean unmatchedDropped = switch (join.kind()) {
            case INNER, SEMI -> true;
            case ANTI -> join.buildLeft();
            case LEFT, RIGHT, FULL -> !join.probeDecides();
        };
        if (!unmatchedDropped || built.rows() == 0 || built.rows() > RUNTIME_FILTER_ROWS) {
            return probeSide;
        }
        PlanNode filtered = probeSide;
        for (int i = 0; i < buildKeys.length; i++) {
            if (!join.nullsEqual()[i]) { // each key's equality is a condition every match meets
                int key = buildKeys[i];
                PlanNode pushed = RuntimeFilters.push(filtered, probeKeys[i],
                        () -> KeyFilter.of(built.pages(), key, built.types().get(key), built.rows()), shared, built.rows());
                filtered = pushed == null ? filtered : pushed;
            }
        }
        return filtered;
    }

    /**
     * The build rows the join puts out once every probe row was seen: SEMI the marked ones,
     * ANTI the others, an outer join the others with NULLs for the probe side's columns.
     */
    RowStore buildRows(RowStore built, boolean[] marks) {
        List<ColumnType> types = join.types();
        boolean wanted = join.kind() == PlanNode.JoinKind.SEMI;
        boolean pairs = join.kind() != PlanNode.JoinKind.SEMI && join.kind() != PlanNode.JoinKind.ANTI;
        int buildWidth = built.types().size();
        int buildAt = join.buildLeft() ? 0 : types.size() - buildWidth;
        int probeAt = join.buildLeft() ? buildWidth : 0;
        int probeWidth = types.size() - buildWidth;
        RowStore out = execution.store(types);
        Chunk chunk = new Chunk(types).allocate();
        List<Chunk> pages = built.pages();
        for (int p = 0; p < pages.size(); p++) {
            Chunk page = pages.get(p);
            for (int r = 0; r < page.size; r++) {
                if (marks[p << RowStore.PAGE_SHIFT | r] != wanted) {
                    continue;
                }
                int o = chunk.size++;
                for (int c = 0; c < buildWidth; c++) {
                    chunk.copy(buildAt + c, o, page, c, r);
                }
                for (int c = 0; pairs && c < probeWidth; c++) {
                    chunk.setNull(probeAt + c, o);
                }
                if (chunk.size == Chunk.CAPACITY) {
                    out.accept(chunk);
                    chunk.size = 0;
                }
            }
            execution.checkStop();
        }
        out.accept(chunk);
        return out;
    }
}
