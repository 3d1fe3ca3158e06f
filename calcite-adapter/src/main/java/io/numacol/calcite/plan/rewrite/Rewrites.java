package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The walks over plans that the workarounds of this package share: a plan rewritten bottom-up, the
 * expressions or the condition of each node rewritten, and the correlation variables a plan reads
 * and defines. No Calcite defect of its own.
 */
public final class Rewrites {
    private Rewrites() {
    }

    /** {@code plan} with its inputs rewritten first, each node then by {@code node}; a node whose inputs did not change stays itself. */
    public static RelNode bottomUp(RelNode plan, UnaryOperator<RelNode> node) {
        List<RelNode> inputs = plan.getInputs().stream().map(i -> bottomUp(i, node)).toList();
        return node.apply(inputs.equals(plan.getInputs()) ? plan : plan.copy(plan.getTraitSet(), inputs));
    }

    /** {@code rel} with {@code shuttle} applied to the expressions of every node in it. */
    static RelNode rewriteExpressions(RelNode rel, RexShuttle shuttle) {
        return bottomUp(rel, node -> node.accept(shuttle));
    }

    /** {@code rel} with {@code shuttle} applied to its condition: a Calc's, a Filter's, or a join's (with equi-keys if {@code keyedJoins}). */
    static RelNode rewriteCondition(RelNode rel, RexShuttle shuttle, boolean keyedJoins) {
        RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
        switch (rel) {
            case Calc calc when calc.getProgram().getCondition() != null -> {
                RexProgram program = calc.getProgram();
                RexNode condition = program.expandLocalRef(program.getCondition());
                RexNode fixed = condition.accept(shuttle);
                if (fixed == condition) {
                    return calc;
                }
                List<RexNode> projects = program.getProjectList().stream().map(program::expandLocalRef).toList();
                return calc.copy(calc.getTraitSet(), calc.getInput(),
                        RexProgram.create(program.getInputRowType(), projects, fixed, program.getOutputRowType(), rexBuilder));
            }
            case Filter filter -> {
                RexNode fixed = filter.getCondition().accept(shuttle);
                return fixed == filter.getCondition() ? filter : filter.copy(filter.getTraitSet(), filter.getInput(), fixed);
            }
            case Join join when keyedJoins || join.analyzeCondition().leftKeys.isEmpty() -> {
                RexNode fixed = join.getCondition().accept(shuttle);
                return fixed == join.getCondition() ? join : join.copy(join.getTraitSet(), fixed, join.getLeft(),
                        join.getRight(), join.getJoinType(), join.isSemiJoinDone());
            }
            default -> {
                return rel;
            }
        }
    }

    /**
     * The correlation variables {@code rel} reads from outside itself: those no Correlate within
     * it defines. An aggregate over a subquery that is correlated only inside is not correlated.
     */
    static Set<CorrelationId> freeVariables(RelNode rel) {
        Set<CorrelationId> used = new HashSet<>();
        Set<CorrelationId> defined = new HashSet<>();
        collectVariables(rel, used, defined);
        used.removeAll(defined);
        return used;
    }

    /** Whether {@code rel} reads any correlation variable. */
    static boolean correlated(RelNode rel) {
        Set<CorrelationId> used = new HashSet<>();
        collectVariables(rel, used, new HashSet<>());
        return !used.isEmpty();
    }

    /** Adds the correlation variables {@code rel}'s expressions read to {@code used}, those its nodes define to {@code defined}. */
    private static void collectVariables(RelNode rel, Set<CorrelationId> used, Set<CorrelationId> defined) {
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                used.add(variable.id);
                return variable;
            }
        };
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                node.accept(finder);
                if (node instanceof Correlate correlate) {
                    defined.add(correlate.getCorrelationId());
                }
                defined.addAll(node.getVariablesSet());
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
    }
}
