package io.numacol.calcite.plan;

import io.numacol.calcite.plan.rewrite.Rewrites;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

import com.google.common.collect.ImmutableSet;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A correlated subquery whose correlation is only a condition on the outer row as a join on that
 * condition: in {@code 4 NOT IN (SELECT k FROM t WHERE outer.k = 5)} the subquery's rows do not
 * depend on the outer row, only whether there are any; the condition gates them. Calcite's
 * decorrelator leaves such a subquery correlated when a LIMIT or sort sits above its filter (as
 * NOT IN's rewrite puts one), and the plan then ran the subquery once per outer row: 600,000
 * times, over a minute, where DuckDB answers at once (found by the random differential tester).
 *
 * <p>A LEFT, INNER, SEMI or ANTI Correlate whose right side is filters, projections, sorts and
 * aggregates with group keys over a part that is not correlated, and reads its variable only in filter conjuncts that read
 * nothing of the subquery's own rows, becomes a join of the same kind on those conjuncts (over
 * the left side's columns), its right side without them. It is the same: the right side is the
 * rows of the uncorrelated part when the conjuncts hold for the outer row, none otherwise (a
 * LIMIT above them keeps the same rows either way, and so does an aggregate with group keys; a
 * grand total, which answers a row even over none, is not passed through).
 */
final class OuterOnlyConditions {
    private OuterOnlyConditions() {
    }

    private static final Set<JoinRelType> KINDS = EnumSet.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.SEMI, JoinRelType.ANTI);

    static RelNode rewrite(RelNode plan) {
        return Rewrites.bottomUp(plan, OuterOnlyConditions::lift);
    }

    private static RelNode lift(RelNode rel) {
        if (!(rel instanceof LogicalCorrelate c) || !KINDS.contains(c.getJoinType())) {
            return rel;
        }
        CorrelationId id = c.getCorrelationId();
        List<RexNode> lifted = new ArrayList<>();
        RelNode right = strip(c.getRight(), id, lifted);
        if (right == null || lifted.isEmpty() || RelOptUtil.getVariablesUsed(right).contains(id)) {
            return rel;
        }
        RexBuilder rexBuilder = c.getCluster().getRexBuilder();
        List<RelDataTypeField> leftFields = c.getLeft().getRowType().getFieldList();
        boolean[] whole = {false};
        RexShuttle overLeft = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(id)) {
                    int i = access.getField().getIndex();
                    return rexBuilder.makeInputRef(leftFields.get(i).getType(), i);
                }
                return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                whole[0] |= variable.id.equals(id);
                return variable;
            }
        };
        List<RexNode> condition = lifted.stream().map(e -> e.accept(overLeft)).toList();
        if (whole[0]) {
            return rel;
        }
        return LogicalJoin.create(c.getLeft(), right, c.getHints(), RexUtil.composeConjunction(rexBuilder, condition), Set.of(),
                c.getJoinType());
    }

    /**
     * {@code rel} with the conjuncts of its filters that read only variable {@code id} moved to
     * {@code lifted}, through filters, projections and sorts down to a part that reads no
     * variable; null where another node reads it.
     */
    private static RelNode strip(RelNode rel, CorrelationId id, List<RexNode> lifted) {
        if (!RelOptUtil.getVariablesUsed(rel).contains(id)) {
            return rel;
        }
        switch (rel) {
            case LogicalFilter f -> {
                RelNode input = strip(f.getInput(), id, lifted);
                if (input == null) {
                    return null;
                }
                List<RexNode> kept = new ArrayList<>();
                for (RexNode conjunct : RelOptUtil.conjunctions(f.getCondition())) {
                    if (outerOnly(conjunct, id)) {
                        lifted.add(conjunct);
                    } else {
                        kept.add(conjunct);
                    }
                }
                if (kept.isEmpty()) {
                    return input;
                }
                RexNode condition = RexUtil.composeConjunction(f.getCluster().getRexBuilder(), kept);
                return LogicalFilter.create(input, condition, RexUtil.containsCorrelation(condition)
                        ? ImmutableSet.copyOf(f.getVariablesSet()) : ImmutableSet.of());
            }
            case LogicalProject p when p.getProjects().stream().noneMatch(RexUtil::containsCorrelation) -> {
                RelNode input = strip(p.getInput(), id, lifted);
                return input == null ? null : p.copy(p.getTraitSet(), input, p.getProjects(), p.getRowType());
            }
            case LogicalAggregate a when !a.getGroupSet().isEmpty() && a.getGroupType() == Aggregate.Group.SIMPLE -> {
                // with group keys: no rows over none, as the gated rows are
                RelNode input = strip(a.getInput(), id, lifted);
                return input == null ? null : a.copy(a.getTraitSet(), List.of(input));
            }
            case LogicalSort s when (s.offset == null || !RexUtil.containsCorrelation(s.offset))
                    && (s.fetch == null || !RexUtil.containsCorrelation(s.fetch)) -> {
                RelNode input = strip(s.getInput(), id, lifted);
                return input == null ? null : s.copy(s.getTraitSet(), input, s.getCollation(), s.offset, s.fetch);
            }
            default -> {
                return null;
            }
        }
    }

    /** Whether {@code conjunct} reads variable {@code id} and nothing of its own input, no other variable and no subquery. */
    private static boolean outerOnly(RexNode conjunct, CorrelationId id) {
        if (RexUtil.containsInputRef(conjunct) || RexUtil.SubQueryFinder.find(List.of(conjunct)) != null
                || !RexUtil.isDeterministic(conjunct)) {
            return false;
        }
        Set<CorrelationId> read = new HashSet<>();
        conjunct.accept(new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                read.add(variable.id);
                return variable;
            }
        });
        return read.equals(Set.of(id));
    }
}
