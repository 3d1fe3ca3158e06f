package org.apache.calcite.sql2rel;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

import java.util.List;

/**
 * Calcite's decorrelator, except that the join a LEFT Correlate becomes matches its correlation
 * values with IS NOT DISTINCT FROM wherever they can be NULL. Calcite takes {@code =} where it
 * believes a value is never NULL, and believes so of a column of a LEFT JOIN's preserved side
 * when the join's condition rejects its NULLs: {@code a0 LEFT JOIN a1 ON a0.c = a1.c WHERE a1.k
 * NOT IN (SELECT .. WHERE s.c = a0.c)} lost the rows with a NULL {@code a0.c}, whose empty
 * subquery matched no generated value.
 *
 * <p>It also keeps a second value generator of a correlation variable consistent with the
 * first ({@link #register}). In Calcite's package only because the decorrelator's frames and
 * {@code register} are package-private.
 */
public final class NullSafeDecorrelator extends RelDecorrelator {

    private NullSafeDecorrelator(CorelMap map, RelNode root, RelBuilder relBuilder) {
        super(map, root.getCluster().getPlanner().getContext(), relBuilder);
    }

    /** {@code root} without correlation where the decorrelator can remove it, as {@link RelDecorrelator#decorrelateQuery}. */
    public static RelNode decorrelateQuery(RelNode root, RelBuilder relBuilder) {
        CorelMap map = new CorelMapBuilder().build(root);
        if (!map.hasCorrelation()) {
            return root;
        }
        NullSafeDecorrelator decorrelator = new NullSafeDecorrelator(map, root, relBuilder);
        RelNode rel = decorrelator.removeCorrelationViaRule(root);
        if (decorrelator.cm.hasCorrelation()) {
            rel = decorrelator.decorrelate(rel);
        }
        if (!root.getRowType().equalsSansFieldNames(rel.getRowType())) {
            throw new AssertionError("decorrelation changed the row type from " + root.getRowType() + " to " + rel.getRowType());
        }
        return RelOptUtil.propagateRelHints(rel, true);
    }

    @Override
    public Frame decorrelateRel(Correlate rel, boolean isCorVarDefined, boolean parentPropagatesNullValues) {
        Frame frame = super.decorrelateRel(rel, isCorVarDefined, parentPropagatesNullValues);
        // the join, or the join under the copies that give each variable a column ({@link #register})
        Join join = frame == null ? null : frame.r instanceof Join j ? j
                : frame.r instanceof org.apache.calcite.rel.core.Project p && p.getInput() instanceof Join j ? j : null;
        if (join == null) {
            return frame;
        }
        // the condition holds only the matches of correlation values, for which IS NOT DISTINCT FROM is always right
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        List<RexNode> conjuncts = RelOptUtil.conjunctions(join.getCondition()).stream().map(c ->
                c.getKind() == SqlKind.EQUALS && ((RexCall) c).getOperands().stream().anyMatch(o -> o.getType().isNullable())
                        ? rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, ((RexCall) c).getOperands()) : c).toList();
        RexNode condition = RexUtil.composeConjunction(rexBuilder, conjuncts);
        if (condition.equals(join.getCondition())) {
            return frame;
        }
        RelNode safe = join.copy(join.getTraitSet(), condition, join.getLeft(), join.getRight(), join.getJoinType(), join.isSemiJoinDone());
        if (frame.r != join) {
            safe = frame.r.copy(frame.r.getTraitSet(), List.of(safe));
        }
        return register(rel, safe, frame.oldToNewOutputs, frame.corDefOutputs);
    }

    /**
     * A second value generator consistent with the first (CalciteDefects 30). Where a filter or
     * projection reads correlation variables of which its decorrelated input provides only some,
     * Calcite joins the input with a value generator of all of them and reads the ones the input
     * had from the generator, unrelated to the input's own: {@code EXISTS (SELECT 1 FROM t0 s
     * WHERE s.k = a.c AND a.c NOT IN (SELECT k FROM t0))} tested the NOT IN of every value of
     * {@code a.c} against each row (the NOT IN's join provided {@code a.c}; {@code a.c IS NOT
     * NULL}, which the decorrelator had made a variable of its own, was missing), and rows no
     * EXISTS holds for were returned. That join here also matches the generator's values of the
     * variables the input had with the input's.
     */
    @Override
    Frame register(RelNode rel, RelNode newRel, java.util.Map<Integer, Integer> oldToNewOutputs,
                   java.util.NavigableMap<CorDef, Integer> corDefOutputs) {
        Frame before = map.get(rel);
        if (before != null && newRel instanceof Join join && join.getJoinType() == org.apache.calcite.rel.core.JoinRelType.INNER
                && join.getCondition().isAlwaysTrue() && join.getLeft() == before.r) {
            RexBuilder rexBuilder = join.getCluster().getRexBuilder();
            List<RexNode> same = new java.util.ArrayList<>();
            before.corDefOutputs.forEach((def, at) -> {
                Integer now = corDefOutputs.get(def);
                if (now != null && !now.equals(at)) {
                    same.add(rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM,
                            rexBuilder.makeInputRef(join, at), rexBuilder.makeInputRef(join, now)));
                }
            });
            if (!same.isEmpty()) {
                newRel = join.copy(join.getTraitSet(), RexUtil.composeConjunction(rexBuilder, same), join.getLeft(),
                        join.getRight(), join.getJoinType(), join.isSemiJoinDone());
            }
        }
        java.util.NavigableMap<CorDef, Integer> own = new java.util.TreeMap<>(corDefOutputs);
        return super.register(rel, columnPerVariable(newRel, own), oldToNewOutputs, own);
    }

    /**
     * {@code rel} with a column of its own for each correlation variable of {@code corDefOutputs}
     * (which is updated), copying a column that several share (CalciteDefects 31). Where a
     * subquery's condition equates one column with two variables ({@code s.c = a.c1 AND a.c4 =
     * s.c}), the decorrelator takes that column for both; the count of a scalar subquery above
     * then joined a generator of both variables' pairs and kept one column of it for both:
     * pairs (x, y) and (y, y) each gave a row for an outer row (y, y), which was answered twice.
     */
    private static RelNode columnPerVariable(RelNode rel, java.util.NavigableMap<CorDef, Integer> corDefOutputs) {
        java.util.Set<Integer> taken = new java.util.HashSet<>();
        List<RexNode> projects = new java.util.ArrayList<>();
        RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
        int width = rel.getRowType().getFieldCount();
        for (java.util.Map.Entry<CorDef, Integer> e : corDefOutputs.entrySet()) {
            if (!taken.add(e.getValue())) {
                projects.add(rexBuilder.makeInputRef(rel, e.getValue()));
                e.setValue(width + projects.size() - 1);
            }
        }
        if (projects.isEmpty()) {
            return rel;
        }
        List<RexNode> all = new java.util.ArrayList<>(rexBuilder.identityProjects(rel.getRowType()));
        all.addAll(projects);
        return org.apache.calcite.rel.logical.LogicalProject.create(rel, List.of(), all,
                RexUtil.createStructType(rel.getCluster().getTypeFactory(), all, null,
                        org.apache.calcite.sql.validate.SqlValidatorUtil.F_SUGGESTER), java.util.Set.of());
    }
}
