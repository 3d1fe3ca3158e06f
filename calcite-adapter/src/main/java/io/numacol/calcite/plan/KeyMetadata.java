package io.numacol.calcite.plan;

import io.numacol.calcite.NumacolTable;
import io.numacol.calcite.plan.rewrite.NullComparisons;
import io.numacol.calcite.rel.ScanSelectivity;
import io.numacol.storage.Column;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.CyclicMetadataException;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;
import java.util.Set;

/**
 * Which columns of a numacol table are unique, read from the data: join ordering needs it to tell
 * a key/foreign-key join (at most one match per row) from a many-to-many one, and numacol tables
 * declare no keys. A NOT NULL integer-like column is unique when every part's dictionary is as
 * large as the part (no value twice within a part) and the parts' value ranges do not overlap.
 */
public final class KeyMetadata implements MetadataHandler<BuiltInMetadata.ColumnUniqueness> {

    /**
     * Calcite's default metadata with numacol's in front: uniqueness, distinct counts and the
     * selectivity of conditions of table scans, and join sizes from those ({@link JoinEstimates}).
     */
    public static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new KeyMetadata(), BuiltInMetadata.ColumnUniqueness.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new JoinEstimates.DistinctCounts(),
                    BuiltInMetadata.DistinctRowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new JoinEstimates.JoinRowCounts(), BuiltInMetadata.RowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new ScanSelectivity(),
                    BuiltInMetadata.Selectivity.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new JoinOrigins(), BuiltInMetadata.ColumnOrigin.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new JoinMaxRows(), BuiltInMetadata.MaxRowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new AcyclicPredicates(), BuiltInMetadata.Predicates.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));

    private KeyMetadata() {
    }

    /**
     * The most rows a join gives (a Calcite defect, see the package {@code io.numacol.calcite.plan.rewrite}). Calcite bounds every join by the
     * product of its sides' bounds, which a FULL join exceeds where nothing matches: two one-row
     * sides give two rows. Taken for one row, a FULL join's columns passed for unique, and a
     * DISTINCT over them (a decorrelated subquery's correlation values) was removed: rows doubled.
     */
    public static final class JoinMaxRows implements MetadataHandler<BuiltInMetadata.MaxRowCount> {
        @Override
        public MetadataDef<BuiltInMetadata.MaxRowCount> getDef() {
            return BuiltInMetadata.MaxRowCount.DEF;
        }

        /** Called reflectively by Calcite's metadata dispatch. */
        public Double getMaxRowCount(Join join, RelMetadataQuery mq) {
            Double left = mq.getMaxRowCount(join.getLeft());
            Double right = mq.getMaxRowCount(join.getRight());
            if (left == null || right == null) {
                return null;
            }
            return switch (join.getJoinType()) {
                // every pair matched, or none: the other cases lie between
                case FULL -> Math.max(left * right, left + right);
                case LEFT -> left * Math.max(right, 1D); // a row without a match still gives one
                case RIGHT -> Math.max(left, 1D) * right;
                case SEMI, ANTI -> left;
                default -> left * right;
            };
        }
    }

    /**
     * The predicates of a planner's set of equivalent plans, or none where finding them comes back
     * to the set itself (a Calcite defect, see the package {@code io.numacol.calcite.plan.rewrite}). Calcite follows a set's plan into its inputs'
     * sets; where a set's plan reads (through others) that set again, the lookup throws
     * CyclicMetadataException, and the row count of an aggregate above, which asks for its input's
     * predicates, failed the statement ("Error while applying rule SortRemoveRule"); and where
     * Calcite's own check of what it inferred fails (defect 23). No predicate is a safe answer:
     * they only narrow estimates and simplifications.
     */
    public static final class AcyclicPredicates implements MetadataHandler<BuiltInMetadata.Predicates> {
        @Override
        public MetadataDef<BuiltInMetadata.Predicates> getDef() {
            return BuiltInMetadata.Predicates.DEF;
        }

        /** Called reflectively by Calcite's metadata dispatch. */
        public RelOptPredicateList getPredicates(RelSubset subset, RelMetadataQuery mq) {
            try {
                return mq.getPulledUpPredicates(subset.stripped());
            } catch (CyclicMetadataException e) {
                return RelOptPredicateList.EMPTY;
            } catch (AssertionError e) {
                // defect 23: Calcite checks its own inference even without -ea, and a plan whose
                // predicates compare with NULL (a CASE that folds to a NULL of TIMESTAMP WITH TIME
                // ZONE) failed the statement from the join planner's uniqueness question
                if (!NullComparisons.isNullComparisonInPredicates(e)) {
                    throw e;
                }
                return RelOptPredicateList.EMPTY;
            }
        }
    }

    /**
     * No column of a join has a known origin (a Calcite defect, see the package {@code io.numacol.calcite.plan.rewrite}). LoptOptimizeJoinRule
     * takes a factor for a single table when its first column comes from one, so a factor
     * {@code t1 RIGHT JOIN t0} joined to t1 on t0.k = t1.k passed for a self-join of t1 on a
     * unique key; the join was removed and t0's columns read as t1's. Column origins serve only
     * that rule's self-join and semi-join rewrites.
     */
    public static final class JoinOrigins implements MetadataHandler<BuiltInMetadata.ColumnOrigin> {
        @Override
        public MetadataDef<BuiltInMetadata.ColumnOrigin> getDef() {
            return BuiltInMetadata.ColumnOrigin.DEF;
        }

        /** Called reflectively by Calcite's metadata dispatch. */
        public Set<RelColumnOrigin> getColumnOrigins(Join join, RelMetadataQuery mq, int column) {
            return null;
        }
    }

    @Override
    public MetadataDef<BuiltInMetadata.ColumnUniqueness> getDef() {
        return BuiltInMetadata.ColumnUniqueness.DEF;
    }

    /** Called reflectively by Calcite's metadata dispatch. */
    public Boolean areColumnsUnique(TableScan scan, RelMetadataQuery mq, ImmutableBitSet columns, boolean ignoreNulls) {
        RelOptTable table = scan.getTable();
        NumacolTable numacol = table.unwrap(NumacolTable.class);
        if (numacol == null) {
            return table.isKey(columns);
        }
        if (numacol.rowIds() && columns.get(numacol.table().schema().size())) {
            return true; // the row id of an UPDATE's or DELETE's source
        }
        try (TableSnapshot snapshot = numacol.table().snapshot()) {
            for (int column : columns) {
                if (!numacol.table().schema().column(column).nullable() && unique(snapshot.parts(), column)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A filter's columns are unique where its input's are (a Calcite defect, see the package {@code io.numacol.calcite.plan.rewrite}): Calcite
     * also counts the columns its predicates make constant ({@code vs} is unique in {@code t
     * WHERE k = 2} for a key k), which is right for the filtered rows, but LoptOptimizeJoinRule
     * judges a self-join's keys on such a factor and took {@code t a0 JOIN t a1 ON a0.vs = a1.vs
     * WHERE a0.k = 2} for a join of each row with itself: a1's columns were read from a0.
     * Called reflectively by Calcite's metadata dispatch.
     */
    public Boolean areColumnsUnique(Filter filter, RelMetadataQuery mq, ImmutableBitSet columns, boolean ignoreNulls) {
        return mq.areColumnsUnique(filter.getInput(), columns, ignoreNulls);
    }

    /**
     * An aggregate's columns are unique where they hold its group keys, or where its input's
     * columns under them are unique (a Calcite defect, see the package {@code io.numacol.calcite.plan.rewrite}). Calcite also reads a MIN, MAX
     * or ANY_VALUE column as its argument, which holds for one such column (its value is some
     * row's), but not for one with a FILTER (NULL in every group with no row passing it) nor for
     * two (their values can come from different rows): {@code MAX(k) FILTER (WHERE FALSE)} passed
     * for unique where k is a key, and a DISTINCT above such groups was removed (duplicate rows
     * of an EXCEPT). Called reflectively by Calcite's metadata dispatch.
     */
    public Boolean areColumnsUnique(Aggregate aggregate, RelMetadataQuery mq, ImmutableBitSet columns, boolean ignoreNulls) {
        Double maxRows = mq.getMaxRowCount(aggregate);
        if (maxRows != null && maxRows <= 1) {
            return true;
        }
        if (!Aggregate.isSimple(aggregate)) {
            return false; // grouping sets repeat key values
        }
        RelOptPredicateList predicates = mq.getPulledUpPredicates(aggregate);
        ImmutableBitSet.Builder known = columns.rebuild();
        for (RexNode constant : predicates.constantMap.keySet()) {
            if (constant instanceof RexInputRef ref) {
                known.set(ref.getIndex());
            }
        }
        ImmutableBitSet withConstants = known.build();
        int groups = aggregate.getGroupCount();
        if (withConstants.contains(ImmutableBitSet.range(groups))) {
            return true;
        }
        ImmutableBitSet.Builder keys = ImmutableBitSet.builder();
        for (int column : withConstants) {
            if (column < groups) {
                keys.set(aggregate.getGroupSet().nth(column));
            }
        }
        ImmutableBitSet inputKeys = keys.build();
        if (Boolean.TRUE.equals(mq.areColumnsUnique(aggregate.getInput(), inputKeys, ignoreNulls))) {
            return true;
        }
        for (int column : columns) {
            if (column >= groups) {
                AggregateCall call = aggregate.getAggCallList().get(column - groups);
                if (passesThrough(call)
                        && Boolean.TRUE.equals(mq.areColumnsUnique(aggregate.getInput(), inputKeys.set(call.getArgList().get(0)), ignoreNulls))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether every value of {@code call} is its argument's value in some row of the group. */
    private static boolean passesThrough(AggregateCall call) {
        return !call.hasFilter() && call.getArgList().size() == 1 && switch (call.getAggregation().getKind()) {
            case MIN, MAX, ANY_VALUE -> true;
            default -> false;
        };
    }

    private static boolean unique(List<TablePart> parts, int column) {
        long[][] ranges = new long[parts.size()][];
        for (int p = 0; p < parts.size(); p++) {
            TablePart part = parts.get(p);
            Column c = part.column(column);
            if (!(c.dictionary() instanceof LongDictionary d) || d.size() != part.rowCount()) {
                return false;
            }
            ranges[p] = part.rowCount() == 0 ? null : new long[] {d.getLong(0), d.getLong(d.size() - 1)};
        }
        // Parts are few (thousands of rows at least each): compare every pair.
        for (int a = 0; a < ranges.length; a++) {
            for (int b = a + 1; b < ranges.length; b++) {
                if (ranges[a] != null && ranges[b] != null && ranges[a][0] <= ranges[b][1] && ranges[b][0] <= ranges[a][1]) {
                    return false;
                }
            }
        }
        return true;
    }
}
