package io.numacol.exec;

import io.numacol.storage.Partitioning;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.util.List;

/**
 * A hash join that can run partition by partition (thesis §6.3, table groups): both sides are
 * rows of one PP table each (scanned, filtered, columns picked), the two tables of a table group,
 * the join's keys include their partition keys pair by pair, and the build rows need not wait for
 * every probe row (a probe row's matches are all in its own partition). Holds the snapshots of
 * both tables, pinned for the execution, so that the parts judged are the parts read.
 */
record CoPartition(int partitions, TableSnapshot build, TableSnapshot probe) {

    /** The join's co-partitioning, its snapshots pinned in {@code execution}; null when it cannot run so. */
    static CoPartition of(PlanNode.HashJoin join, HashJoinBuild sides, Execution execution) {
        if (join.buildDecides() || sides.buildKeys.length == 0) {
            return null;
        }
        Traced build = Traced.of(sides.buildSide, sides.buildKeys);
        Traced probe = Traced.of(sides.probeSide, sides.probeKeys);
        if (build == null || probe == null || partitioningOf(build.scan().table().parts()) == null
                || partitioningOf(probe.scan().table().parts()) == null) {
            return null; // the common case, decided without a snapshot
        }
        TableSnapshot builds = build.scan().table().snapshot();
        TableSnapshot probes;
        try {
            probes = probe.scan().table().snapshot();
        } catch (RuntimeException e) {
            builds.close();
            throw e;
        }
        Partitioning bp = partitioningOf(builds.parts());
        Partitioning pp = partitioningOf(probes.parts());
        if (bp == null || pp == null || !bp.sameGroup(pp) || !covers(bp, build.columns(), pp, probe.columns())) {
            builds.close();
            probes.close();
            return null;
        }
        execution.pin(builds);
        execution.pin(probes);
        return new CoPartition(bp.count(), builds, probes);
    }

    /**
     * A join side whose rows are a table scan's rows, unchanged but for filters and column
     * picks: the scan, and the table columns the side's {@code keys} are.
     */
    private record Traced(PlanNode.Scan scan, int[] columns) {
        static Traced of(PlanNode side, int[] keys) {
            int[] columns = keys.clone();
            PlanNode node = side;
            while (true) {
                switch (node) {
                    case PlanNode.Filter f -> node = f.input();
                    case PlanNode.Project p -> {
                        for (int i = 0; i < columns.length; i++) {
                            if (!(p.exprs().get(columns[i]) instanceof ChunkExpr.Column c)) {
                                return null;
                            }
                            columns[i] = c.column();
                        }
                        node = p.input();
                    }
                    case PlanNode.Scan scan -> {
                        for (int i = 0; i < columns.length; i++) {
                            columns[i] = scan.columns()[columns[i]];
                            if (scan.isRowId(columns[i])) {
                                return null; // no column of the table: no dictionary to test keys on
                            }
                        }
                        return new Traced(scan, columns);
                    }
                    default -> {
                        return null;
                    }
                }
            }
        }
    }

    /** The partitioning every one of {@code parts} was built under, or null when one has none or another. */
    private static Partitioning partitioningOf(List<TablePart> parts) {
        Partitioning common = parts.isEmpty() ? null : parts.getFirst().partitioning();
        for (TablePart part : parts) {
            if (common == null || !common.equals(part.partitioning())) {
                return null;
            }
        }
        return common;
    }

    /**
     * Whether each partition key is a join key pair: build column {@code b.keyColumns[j]} and
     * probe column {@code p.keyColumns[j]} at the same position {@code i} of the join's keys.
     */
    private static boolean covers(Partitioning b, int[] buildColumns, Partitioning p, int[] probeColumns) {
        for (int j = 0; j < b.keyColumns().length; j++) {
            boolean found = false;
            for (int i = 0; i < buildColumns.length && !found; i++) {
                found = buildColumns[i] == b.keyColumns()[j] && probeColumns[i] == p.keyColumns()[j];
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }
}
