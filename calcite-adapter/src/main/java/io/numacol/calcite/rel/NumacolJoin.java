package io.numacol.calcite.rel;

import io.numacol.exec.PlanNode;
import io.numacol.exec.RowPredicate;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An equi-join (INNER, LEFT, RIGHT, FULL, SEMI, ANTI; keys by {@code =} or IS NOT DISTINCT FROM)
 * that numacol runs as a hash join: the side estimated smaller is built into a hash table
 * ({@link #buildsLeft}), the other probes it.
 */
public final class NumacolJoin extends Join implements NumacolRel {
    private final boolean buildLeft;

    public NumacolJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                       JoinRelType joinType, boolean buildLeft) {
        super(cluster, traits, List.of(), left, right, condition, Set.of(), joinType);
        this.buildLeft = buildLeft;
    }

    public boolean buildsLeft() {
        return buildLeft;
    }

    /** This join building the other side if {@code left} differs. */
    NumacolJoin withBuildLeft(boolean left) {
        return new NumacolJoin(getCluster(), getTraitSet(), getLeft(), getRight(), getCondition(), getJoinType(), left);
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode conditionExpr, RelNode left, RelNode right, JoinRelType joinType,
                     boolean semiJoinDone) {
        NumacolJoin copy = new NumacolJoin(getCluster(), traitSet, left, right, conditionExpr, joinType,
                buildLeft);
        if ((!conditionExpr.equals(getCondition()) || joinType != getJoinType()) && !NumacolRules.runs(copy)) {
            // Calcite's rules rewrite joins: what the pipeline executor cannot run becomes a logical join
            return LogicalJoin.create(left, right, List.of(), conditionExpr, Set.of(), joinType);
        }
        return copy;
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("build", buildLeft ? "left" : "right");
    }

    /** A join is never one table's pass ({@link NumacolQuery#oneTable}). */
    @Override
    public void implement(OneTableImplementor implementor) {
        implementor.check(false, "a join");
    }

    /** A hash join of its inputs' rows on the condition's keys, the rest of the condition a residual. */
    @Override
    public PlanNode implement(PipelineImplementor implementor) {
        JoinInfo info = analyzeCondition();
        boolean[] nullsEqual = new boolean[info.leftKeys.size()];
        for (int i = 0; i < nullsEqual.length; i++) {
            nullsEqual[i] = !info.nullExclusionFlags.get(i);
        }
        PlanNode.JoinKind kind = switch (getJoinType()) {
            case INNER -> PlanNode.JoinKind.INNER;
            case LEFT -> PlanNode.JoinKind.LEFT;
            case RIGHT -> PlanNode.JoinKind.RIGHT;
            case FULL -> PlanNode.JoinKind.FULL;
            case SEMI -> PlanNode.JoinKind.SEMI;
            case ANTI -> PlanNode.JoinKind.ANTI;
            default -> throw new IllegalStateException("not a numacol join: " + this);
        };
        PlanNode left = implementor.visit(getLeft());
        PlanNode right = implementor.visit(getRight());
        RowPredicate residual = null;
        RexNode rest = NumacolRules.residual(this, info);
        if (rest != null) {
            List<ColumnType> pair = new ArrayList<>(left.types());
            pair.addAll(right.types());
            residual = RowConditions.bind(rest, pair, implementor.root());
        }
        return new PlanNode.HashJoin(left, right, info.leftKeys.toIntArray(), info.rightKeys.toIntArray(), nullsEqual,
                kind, buildLeft, residual);
    }
}
