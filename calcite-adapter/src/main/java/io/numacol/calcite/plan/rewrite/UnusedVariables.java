package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

import com.google.common.collect.ImmutableSet;

import java.util.List;
import java.util.Set;

/**
 * <b>Projections keeping variables nothing reads.</b> When Calcite's field trimming drops a
 * projection's correlated subquery (its column is not used) the projection keeps declaring the
 * subquery's variable, and Calcite's Enumerable rules take no projection that declares one: {@code
 * SELECT -4 FROM (SELECT (SELECT COUNT(*) .. WHERE s.c4 = a1.c2) AS c0, EXTRACT(MONTH FROM ..) AS c2
 * FROM t1 a1) a0 WHERE a0.c2 BETWEEN 1 AND 5} could not be planned. In numacol's plans a projection
 * or filter whose variables nothing reads declares none.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 21 of the second group, "a projection kept declaring the variable of a
 * subquery trimming had dropped: no plan"). Upstream issue: not filed.
 */
public final class UnusedVariables {
    private UnusedVariables() {
    }

    /** The plan without projections and filters declaring correlation variables that nothing reads. */
    public static RelNode unusedVariables(RelNode plan) {
        return Rewrites.bottomUp(plan, rel -> {
            if (rel instanceof LogicalProject p && !p.getVariablesSet().isEmpty() && unread(p.getVariablesSet(), p.getProjects(), p)) {
                return LogicalProject.create(p.getInput(), p.getHints(), p.getProjects(), p.getRowType(), ImmutableSet.of());
            }
            if (rel instanceof LogicalFilter f && !f.getVariablesSet().isEmpty() && unread(f.getVariablesSet(), List.of(f.getCondition()), f)) {
                return LogicalFilter.create(f.getInput(), f.getCondition(), ImmutableSet.of());
            }
            return rel;
        });
    }

    private static boolean unread(Set<CorrelationId> variables, List<RexNode> expressions, RelNode rel) {
        if (RexUtil.SubQueryFinder.find(expressions) != null || expressions.stream().anyMatch(RexUtil::containsCorrelation)) {
            return false;
        }
        Set<CorrelationId> below = RelOptUtil.getVariablesUsed(rel.getInput(0));
        return variables.stream().noneMatch(below::contains);
    }
}
