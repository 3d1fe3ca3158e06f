package io.numacol.exec;

import io.numacol.storage.Dictionary;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.StorageKind;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Pushes a hash join's {@link KeyFilter} into its probe side, as deep as the key column can be
 * followed: through filters, column projections and sorts without a limit, into the group keys
 * of an aggregate's input, into either side of an inner join and the left side of a semi or anti
 * join. Probe rows whose key is not among the build side's keys join nothing, and a row below a
 * group key or a join only makes rows with that same key, so dropping such rows early changes no
 * result. It pays below a pipeline breaker, and right above a scan when the keys are few beside
 * the column's distinct values: there the scan tests them on vids before it decodes a value
 * ({@link KeyFilter#vidTest}), cheaper than the probe's lookup in a hash table that has
 * outgrown the caches. Elsewhere the probe drops those rows as cheaply.
 */
final class RuntimeFilters {
    private RuntimeFilters() {
    }

    /**
     * {@code probe} with rows whose column {@code column} is not among the keys dropped below a
     * breaker or right above a scan, or null when neither pays; {@code keys} is made only when
     * the filter goes below a breaker or may go above a scan. Nodes {@code shared} with other
     * parts of the plan are filtered above, never rebuilt.
     */
    static PlanNode push(PlanNode probe, int column, Supplier<KeyFilter> keys,
                         Predicate<PlanNode> shared, long buildRows) {
        Pushed planned = into(probe, column, null, shared);
        if (planned.belowBreaker) {
            return into(probe, column, keys.get(), shared).node;
        }
        if (planned.scanRows == 0 || buildRows > planned.scanRows
                || probe.types().get(column).storageKind() == StorageKind.DOUBLE) {
            return null;
        }
        // Above a scan it pays where the keys are few beside the column's values, so that the test
        // drops most rows before the probe looks them up, and the test is cheap: a bit per row
        // of a dense key column, or once per value where values repeat (a foreign key column's
        // dictionary is smaller than its rows).
        KeyFilter made = keys.get();
        // the dictionaries are read from a snapshot: parts a placer or merge swaps out meanwhile
        // stay readable until it closes (a part of the table's head may be freed under a reader
        // that holds no reference to it)
        try (TableSnapshot snapshot = planned.scan.table().snapshot()) {
            List<Dictionary> dictionaries = snapshot.parts().stream().map(p -> p.column(planned.tableColumn).dictionary()).toList();
            long values = dictionaries.stream().mapToLong(Dictionary::size).sum();
            boolean few = made.share(dictionaries) < 0.5;
            boolean cheap = made.testsValues() || 2 * values <= planned.scanRows;
            return few && cheap ? into(probe, column, made, shared).node : null;
        }
    }

    /**
     * Where the filter went: below a breaker, or right above {@code scan} of {@code scanRows}
     * rows, on its table's column {@code tableColumn} (null and 0 if not).
     */
    private record Pushed(PlanNode node, boolean belowBreaker, PlanNode.Scan scan, int tableColumn, long scanRows) {
        Pushed(PlanNode node, boolean belowBreaker) {
            this(node, belowBreaker, null, -1, 0);
        }

        Pushed(PlanNode node, boolean belowBreaker, Pushed scanned) {
            this(node, belowBreaker, scanned.scan, scanned.tableColumn, scanned.scanRows);
        }

        /** The same place, seen from {@code above} (a filter or projection over it). */
        Pushed over(PlanNode above) {
            return new Pushed(above, belowBreaker, this);
        }

        /** A filter right above a scan of {@code column}: the scan, the table's column, its rows. */
        static Pushed atScan(PlanNode node, PlanNode.Scan scan, int column) {
            return new Pushed(node, false, scan, scan.columns()[column], scan.table().rowCount());
        }
    }

    private static Pushed into(PlanNode node, int column, KeyFilter keys, Predicate<PlanNode> shared) {
        Pushed here = new Pushed(new PlanNode.Filter(node, new RowPredicate.InKeys(column, keys)), false);
        if (shared.test(node) && !(node instanceof PlanNode.Scan)) {
            return here; // the plan holds it elsewhere too: it runs once, for all its parents, unfiltered
        } // a scan runs for each parent anyway (a table read twice): a filter over it changes no other
        return switch (node) {
            case PlanNode.Scan scan -> scan.isRowId(scan.columns()[column]) ? here : Pushed.atScan(here.node, scan, column);
            case PlanNode.VidScan scan -> here;
            case PlanNode.Filter filter -> {
                Pushed below = into(filter.input(), column, keys, shared);
                yield below.over(new PlanNode.Filter(below.node, filter.condition()));
            }
            case PlanNode.Project project -> {
                if (!(project.exprs().get(column) instanceof ChunkExpr.Column c)) {
                    yield here;
                }
                Pushed below = into(project.input(), c.column(), keys, shared);
                yield below.over(new PlanNode.Project(below.node, project.exprs()));
            }
            case PlanNode.Sort sort -> {
                if (sort.ordering().fetch() >= 0 || sort.ordering().offset() > 0) {
                    yield here; // the rows a limit keeps depend on all rows
                }
                Pushed below = into(sort.input(), column, keys, shared);
                yield new Pushed(new PlanNode.Sort(below.node, sort.ordering()), true);
            }
            case PlanNode.Aggregate aggregate -> {
                if (column >= aggregate.keys().length) {
                    yield here;
                }
                Pushed below = into(aggregate.input(), aggregate.keys()[column], keys, shared);
                yield new Pushed(new PlanNode.Aggregate(below.node, aggregate.keys(), aggregate.calls(), aggregate.types()), true);
            }
            case PlanNode.HashJoin join -> {
                // an inner join's row has its columns from one row of each side; a semi or anti join's
                // rows are rows of its left side
                if (join.kind() != PlanNode.JoinKind.INNER && join.kind() != PlanNode.JoinKind.SEMI
                        && join.kind() != PlanNode.JoinKind.ANTI) {
                    yield here;
                }
                int leftWidth = join.left().types().size();
                boolean left = column < leftWidth;
                Pushed below = into(left ? join.left() : join.right(), left ? column : column - leftWidth, keys, shared);
                boolean intoBuild = left == join.buildLeft();
                yield new Pushed(new PlanNode.HashJoin(left ? below.node : join.left(), left ? join.right() : below.node,
                        join.leftKeys(), join.rightKeys(), join.nullsEqual(), join.kind(), join.buildLeft(), join.residual()),
                        below.belowBreaker || intoBuild, intoBuild ? new Pushed(null, false) : below);
            }
        };
    }
}
