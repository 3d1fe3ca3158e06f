package io.numacol.calcite.plan;

import io.numacol.calcite.NumacolTable;
import io.numacol.calcite.rel.NumacolToEnumerableConverter;
import io.numacol.storage.Column;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.CyclicMetadataException;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * Join sizes from distinct counts, as textbooks estimate them: an equi-join of {@code L} and
 * {@code R} rows whose keys take {@code dL} and {@code dR} distinct values has
 * {@code L * R / max(dL, dR)} rows (of several keys, the one with the most values decides). Calcite's default multiplies {@code L * R} by a fixed 0.15
 * for each equality, so a key/foreign-key join and a many-to-many one look alike to join
 * ordering, and Q5 joined customers to suppliers on their nation (12 million rows) before
 * anything else. numacol knows distinct counts for free: they are its dictionaries' sizes.
 */
public final class JoinEstimates {
    private JoinEstimates() {
    }

    /** Distinct values of a numacol table's columns, from its parts' dictionaries. */
    public static final class DistinctCounts implements MetadataHandler<BuiltInMetadata.DistinctRowCount> {
        @Override
        public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
            return BuiltInMetadata.DistinctRowCount.DEF;
        }

        /** Called reflectively by Calcite's metadata dispatch. */
        public Double getDistinctRowCount(TableScan scan, RelMetadataQuery mq, ImmutableBitSet groupKey, RexNode predicate) {
            Double rows = mq.getRowCount(scan);
            Double selectivity = mq.getSelectivity(scan, predicate);
            if (rows == null || selectivity == null) {
                return null;
            }
            NumacolTable numacol = scan.getTable().unwrap(NumacolTable.class);
            if (numacol == null || (numacol.rowIds() && groupKey.get(numacol.table().schema().size()))) {
                // Calcite's answer for other tables; the row id of an UPDATE's or DELETE's source is unique
                return Boolean.TRUE.equals(mq.areColumnsUnique(scan, groupKey)) ? rows * selectivity : null;
            }
            double distinct = 1;
            try (TableSnapshot snapshot = numacol.table().snapshot()) {
                for (int column : groupKey) {
                    distinct *= distinct(snapshot.parts(), column);
                }
            }
            return RelMdUtil.numDistinctVals(Math.min(distinct, rows), rows * selectivity);
        }

        /**
         * A converter's distinct values are its input's. Calcite knows none for a converter, and
         * an aggregate over numacol rows then had a tenth of the rows in Calcite's convention that
         * it had in numacol's: Q13's and Q16's outer aggregates stayed in Calcite at a lower cost.
         */
        public Double getDistinctRowCount(NumacolToEnumerableConverter converter, RelMetadataQuery mq,
                                          ImmutableBitSet groupKey, RexNode predicate) {
            return mq.getDistinctRowCount(converter.getInput(), groupKey, predicate);
        }

        /**
         * A column's distinct values: the sum of its parts' dictionary sizes when the parts hold
         * disjoint ranges of integers (keys appended in order), else the largest (values repeat
         * across parts, as a nation key does).
         */
        private static double distinct(List<TablePart> parts, int column) {
            double sum = 0;
            double largest = 0;
            boolean disjoint = true;
            long previousHigh = Long.MIN_VALUE;
            for (TablePart part : parts) {
                Column c = part.column(column);
                int size = c.dictionary().size();
                sum += size;
                largest = Math.max(largest, size);
                if (size == 0) {
                    continue;
                }
                if (c.dictionary() instanceof LongDictionary d && d.getLong(0) > previousHigh) {
                    previousHigh = d.getLong(size - 1);
                } else {
                    disjoint = false;
                }
            }
            return Math.max(1, disjoint ? sum : largest);
        }
    }

    /** Join row counts from the distinct counts of their keys. */
    public static final class JoinRowCounts implements MetadataHandler<BuiltInMetadata.RowCount> {
        /** What Calcite's RelMdRowCount gives a set none of whose plans has an answer. */
        private static final double UNKNOWN_SET_ROWS = 1e6;

        @Override
        public MetadataDef<BuiltInMetadata.RowCount> getDef() {
            return BuiltInMetadata.RowCount.DEF;
        }

        /**
         * A planner set's rows as its plan's, or Calcite's estimate for a set it knows nothing of
         * where finding them comes back to the set itself (a Calcite defect, see the package {@code io.numacol.calcite.plan.rewrite}).
         */
        public Double getRowCount(RelSubset subset, RelMetadataQuery mq) {
            try {
                return mq.getRowCount(subset.stripped());
            } catch (CyclicMetadataException e) {
                return UNKNOWN_SET_ROWS;
            }
        }

        /** Called reflectively by Calcite's metadata dispatch. */
        public Double getRowCount(Join join, RelMetadataQuery mq) {
            JoinInfo info = join.analyzeCondition();
            Double left = mq.getRowCount(join.getLeft());
            Double right = mq.getRowCount(join.getRight());
            if (left == null || right == null || info.leftKeys.isEmpty()) {
                return RelMdUtil.getJoinRowCount(mq, join, join.getCondition()); // Calcite's default
            }
            double l = Math.max(1, left);
            double r = Math.max(1, right);
            // Keys are taken one at a time, the most selective deciding: a lineitem's part and
            // supplier keys together name one partsupp row, which no product of their counts says.
            double dl = 1;
            double dr = 1;
            for (int i = 0; i < info.leftKeys.size(); i++) {
                Double a = mq.getDistinctRowCount(join.getLeft(), ImmutableBitSet.of(info.leftKeys.get(i)), null);
                Double b = mq.getDistinctRowCount(join.getRight(), ImmutableBitSet.of(info.rightKeys.get(i)), null);
                if (a == null || b == null) {
                    return RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
                }
                double ka = Math.clamp(a, 1, l);
                double kb = Math.clamp(b, 1, r);
                if (Math.max(ka, kb) > Math.max(dl, dr)) {
                    dl = ka;
                    dr = kb;
                }
            }
            double rest = info.isEqui() ? 1 : RelMdUtil.guessSelectivity(
                    RexUtil.composeConjunction(join.getCluster().getRexBuilder(), info.nonEquiConditions));
            double inner = l * r / Math.max(dl, dr) * rest;
            double semi = l * Math.min(1, dr / dl) * rest;
            return switch (join.getJoinType()) {
                case INNER -> inner;
                case LEFT -> Math.max(inner, l);
                case RIGHT -> Math.max(inner, r);
                case FULL -> Math.max(inner, Math.max(l, r));
                case SEMI -> semi;
                case ANTI -> Math.max(1, l - semi);
                default -> RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
            };
        }
    }
}
