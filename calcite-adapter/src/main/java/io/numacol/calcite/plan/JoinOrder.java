package io.numacol.calcite.plan;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The order of an inner-join block ({@link MultiJoin}) by dynamic programming over its connected
 * subsets (DPsub), as Selinger's optimizer and DuckDB's join-order optimizer choose it: of every
 * way to join two connected halves, the one whose intermediate results hold the fewest rows in
 * all (C_out), bushy trees included. Row counts are {@link JoinEstimates}' (distinct counts of
 * the keys, the most selective key deciding), worked out here on the factors' statistics without
 * building a plan per candidate. Blocks of more than {@link #DP_FACTORS} factors, and those whose
 * join graph is not connected, are left to Calcite's greedy LoptOptimizeJoinRule.
 */
final class JoinOrder {
    /** The most factors ordered exhaustively: 2^n subsets, each split in up to 2^|S| ways. */
    static final int DP_FACTORS = 10;

    private JoinOrder() {
    }

    /** Orders a MultiJoin by DP where it can, by LoptOptimizeJoinRule where it cannot. */
    @SuppressWarnings("deprecation")
    static final RelOptRule RULE = new RelOptRule(RelOptRule.operand(MultiJoin.class, RelOptRule.any()), "NumacolJoinOrderRule") {
        @Override
        public void onMatch(RelOptRuleCall call) {
            MultiJoin join = call.rel(0);
            RelNode ordered = order(join, call.getMetadataQuery());
            if (ordered != null) {
                call.transformTo(ordered);
            } else {
                CoreRules.MULTI_JOIN_OPTIMIZE.onMatch(call);
            }
        }
    };

    /** A conjunct of the block's condition: the factors it reads and, for an equality of two columns, those columns. */
    private record Conjunct(RexNode condition, long factors, int leftField, int rightField) {
        boolean equi() {
            return leftField >= 0;
        }

        /** Whether it filters its one factor's rows before any join (a volatile one is left where the joins meet its rows). */
        boolean below() {
            return Long.bitCount(factors) == 1 && RexUtil.isDeterministic(condition);
        }
    }

    /** The best plan found for a set of factors: its row estimate, its cost and how it splits. */
    private record Best(double rows, double cost, long left, long right) {
    }

    /** {@code join} as a tree of binary joins in the cheapest order, or null where this class does not order it. */
    static RelNode order(MultiJoin join, RelMetadataQuery mq) {
        int n = join.getInputs().size();
        if (n > DP_FACTORS || n < 2 || join.isFullOuterJoin()
                || join.getJoinTypes().stream().anyMatch(t -> t != JoinRelType.INNER)) {
            return null;
        }
        int[] offsets = new int[n + 1];
        for (int f = 0; f < n; f++) {
            offsets[f + 1] = offsets[f] + join.getInputs().get(f).getRowType().getFieldCount();
        }
        List<Conjunct> conjuncts = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(join.getJoinFilter())) {
            if (c.isAlwaysTrue()) {
                continue;
            }
            long factors = 0;
            for (int field : RelOptUtil.InputFinder.bits(c)) {
                factors |= 1L << factorOf(offsets, field);
            }
            int left = -1;
            int right = -1;
            if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall eq && Long.bitCount(factors) == 2
                    && eq.getOperands().get(0) instanceof RexInputRef a && eq.getOperands().get(1) instanceof RexInputRef b) {
                left = a.getIndex();
                right = b.getIndex();
            }
            conjuncts.add(new Conjunct(c, factors, left, right));
        }
        double[] rows = new double[n];
        double[] distinct = new double[offsets[n]]; // of each key column in its factor, 0 where not asked
        for (int f = 0; f < n; f++) {
            Double r = mq.getRowCount(join.getInputs().get(f));
            if (r == null || r.isNaN()) {
                return null;
            }
            rows[f] = Math.max(1, r);
        }
        for (Conjunct c : conjuncts) {
            if (c.equi()) {
                for (int field : new int[] {c.leftField(), c.rightField()}) {
                    int f = factorOf(offsets, field);
                    Double d = mq.getDistinctRowCount(join.getInputs().get(f), ImmutableBitSet.of(field - offsets[f]), null);
                    if (d == null || d.isNaN()) {
                        return null;
                    }
                    distinct[field] = Math.clamp(d, 1, rows[f]);
                }
            }
        }
        Best[] best = new Best[1 << n];
        for (int f = 0; f < n; f++) {
            double filtered = rows[f];
            for (Conjunct c : conjuncts) {
                if (c.factors() == 1L << f && c.below()) {
                    filtered *= RelMdUtil.guessSelectivity(c.condition());
                }
            }
            best[1 << f] = new Best(Math.max(1, filtered), 0, 0, 0);
        }
        long all = (1L << n) - 1;
        for (long set = 1; set <= all; set++) {
            if (Long.bitCount(set) < 2) {
                continue;
            }
            // every split into two non-empty halves, each once (the half with the lowest factor on the left)
            for (long left = (set - 1) & set; left > 0; left = (left - 1) & set) {
                long right = set & ~left;
                if (Long.lowestOneBit(set) != Long.lowestOneBit(left)) {
                    continue;
                }
                Best l = best[(int) left];
                Best r = best[(int) right];
                if (l == null || r == null) {
                    continue;
                }
                double joined = joinRows(l.rows(), r.rows(), left, right, conjuncts, distinct, offsets);
                if (joined < 0) {
                    continue; // no condition connects the halves: no cross products
                }
                double cost = l.cost() + r.cost() + joined;
                Best current = best[(int) set];
                if (current == null || cost < current.cost()) {
                    best[(int) set] = new Best(joined, cost, left, right);
                }
            }
        }
        if (best[(int) all] == null) {
            return null;
        }
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        List<Integer> order = new ArrayList<>();
        RelNode tree = build(join, all, all, best, conjuncts, offsets, order, rexBuilder);
        // the block's fields in their own order again, then the filter that applied after it
        int[] at = new int[offsets[n]];
        int position = 0;
        for (int f : order) {
            for (int field = offsets[f]; field < offsets[f + 1]; field++) {
                at[field] = position++;
            }
        }
        List<RexNode> projects = new ArrayList<>();
        for (int field = 0; field < offsets[n]; field++) {
            projects.add(rexBuilder.makeInputRef(tree, at[field]));
        }
        RelNode result = LogicalProject.create(tree, List.of(), projects, join.getRowType(), Set.of());
        return join.getPostJoinFilter() == null ? result : LogicalFilter.create(result, join.getPostJoinFilter());
    }

    private static int factorOf(int[] offsets, int field) {
        int f = 0;
        while (offsets[f + 1] <= field) {
            f++;
        }
        return f;
    }

    /**
     * The rows of joining halves of {@code leftRows} and {@code rightRows} rows, as {@link
     * JoinEstimates.JoinRowCounts} estimates a join: the product over the distinct values of the
     * most selective key, times Calcite's guess for the other conditions; -1 when nothing connects them.
     */
    private static double joinRows(double leftRows, double rightRows, long left, long right, List<Conjunct> conjuncts,
                                   double[] distinct, int[] offsets) {
        long set = left | right;
        boolean connected = false;
        double keyDistinct = 1;
        double rest = 1;
        for (Conjunct c : conjuncts) {
            if ((c.factors() & ~set) != 0 || (c.factors() & left) == 0 || (c.factors() & right) == 0) {
                continue; // not this join's
            }
            connected = true;
            if (c.equi()) {
                boolean leftFirst = (1L << factorOf(offsets, c.leftField()) & left) != 0;
                double a = Math.min(distinct[leftFirst ? c.leftField() : c.rightField()], leftRows);
                double b = Math.min(distinct[leftFirst ? c.rightField() : c.leftField()], rightRows);
                keyDistinct = Math.max(keyDistinct, Math.max(a, b));
            } else {
                rest *= RelMdUtil.guessSelectivity(c.condition());
            }
        }
        return connected ? Math.max(1, leftRows * rightRows / keyDistinct * rest) : -1;
    }

    /**
     * The join tree of {@code set}, its factors appended to {@code order} in the order of its
     * fields: each conjunct goes where its factors first meet, one of a single factor on that
     * factor (or, volatile, on the factor's join), one of none on the root ({@code all}).
     */
    private static RelNode build(MultiJoin join, long set, long all, Best[] best, List<Conjunct> conjuncts, int[] offsets,
                                 List<Integer> order, RexBuilder rexBuilder) {
        if (Long.bitCount(set) == 1) {
            int f = Long.numberOfTrailingZeros(set);
            order.add(f);
            RelNode input = join.getInputs().get(f);
            List<RexNode> own = new ArrayList<>();
            for (Conjunct c : conjuncts) {
                if (c.factors() == set && c.below()) {
                    own.add(RexUtil.shift(c.condition(), -offsets[f]));
                }
            }
            return own.isEmpty() ? input : LogicalFilter.create(input, RexUtil.composeConjunction(rexBuilder, own));
        }
        Best b = best[(int) set];
        // the larger half on the left: the probe side, as numacol's joins build the smaller one
        long first = best[(int) b.left()].rows() >= best[(int) b.right()].rows() ? b.left() : b.right();
        long second = set & ~first;
        int start = order.size();
        RelNode left = build(join, first, all, best, conjuncts, offsets, order, rexBuilder);
        RelNode right = build(join, second, all, best, conjuncts, offsets, order, rexBuilder);
        // this tree's position of each of the block's fields it holds
        int[] at = new int[offsets[offsets.length - 1]];
        int position = 0;
        for (int f : order.subList(start, order.size())) {
            for (int field = offsets[f]; field < offsets[f + 1]; field++) {
                at[field] = position++;
            }
        }
        List<RexNode> conditions = new ArrayList<>();
        for (Conjunct c : conjuncts) {
            boolean here = c.factors() == 0 ? set == all
                    : Long.bitCount(c.factors()) == 1 ? !c.below() && (c.factors() == first || c.factors() == second)
                    : (c.factors() & ~set) == 0 && (c.factors() & first) != 0 && (c.factors() & second) != 0;
            if (here) {
                conditions.add(c.condition().accept(new RexShuttle() {
                    @Override
                    public RexNode visitInputRef(RexInputRef ref) {
                        return new RexInputRef(at[ref.getIndex()], ref.getType());
                    }
                }));
            }
        }
        return LogicalJoin.create(left, right, List.of(), RexUtil.composeConjunction(rexBuilder, conditions), Set.of(),
                JoinRelType.INNER);
    }
}
