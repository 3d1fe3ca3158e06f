package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelHintsPropagator;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.AggregateCaseToFilterRule;
import org.apache.calcite.rel.rules.CoreRules;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * <b>A rewrite into itself pruned.</b> Calcite's AggregateCaseToFilterRule registers its rewrite,
 * then prunes the aggregate it matched; where the rewrite is that aggregate again (its input's set
 * already held the rewritten projection: {@code MAX(NULLIF(c, ..)) FILTER (WHERE FALSE)} over a
 * column a join to no rows makes NULL), the set's one plan was pruned and the statement could not be
 * planned (CannotPlanException). In numacol's copy ({@link FixedRules}) a rewrite that gives the
 * matched aggregate prunes nothing. The rule also matched numacol's own aggregate, made a logical
 * one of it and pruned it, leaving no NUMACOL plan for its set; the copy takes logical aggregates
 * only.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 26 of the second group, "an aggregate rewritten into itself, then
 * pruned"). Upstream issue: not filed.
 */
public final class SelfKeepingAggregateCaseToFilterRule {
    private SelfKeepingAggregateCaseToFilterRule() {
    }

    /**
     * Calcite's AggregateCaseToFilterRule, but an aggregate it rewrites into itself is not pruned,
     * and it takes logical aggregates only: it matched numacol's aggregate too, made a
     * logical one of it and pruned it, and the set had no NUMACOL plan left.
     */
    static final RelOptRule AGGREGATE_CASE_TO_FILTER = new AggregateCaseToFilterRule(
            (AggregateCaseToFilterRule.Config) CoreRules.AGGREGATE_CASE_TO_FILTER.config
                    .withOperandSupplier(b0 -> b0.operand(LogicalAggregate.class).oneInput(b1 -> b1.operand(LogicalProject.class).anyInputs()))
                    .withDescription("AggregateCaseToFilterRule:keepSelf")) {
        @Override
        public void onMatch(RelOptRuleCall call) {
            super.onMatch(new NoSelfPruning(call));
        }
    };

    /**
     * A rule call that forwards to {@code call}, but once the rule's result is registered as the
     * matched relation itself, prunes nothing: a pruned relation that is its set's only plan
     * leaves the set without any.
     */
    private static final class NoSelfPruning extends RelOptRuleCall {
        private final RelOptRuleCall call;
        private boolean itself;

        NoSelfPruning(RelOptRuleCall call) {
            super(call.getPlanner(), call.getOperand0(), call.rels, Map.of(), call.getParents());
            this.call = call;
        }

        @Override
        public void transformTo(RelNode rel, Map<RelNode, RelNode> equiv, RelHintsPropagator handler) {
            call.transformTo(rel, equiv, handler);
            itself |= registeredAs(call.getPlanner(), rel, call.rel(0));
        }

        @Override
        public RelOptPlanner getPlanner() {
            RelOptPlanner planner = call.getPlanner();
            if (!itself) {
                return planner;
            }
            return (RelOptPlanner) Proxy.newProxyInstance(RelOptPlanner.class.getClassLoader(), new Class<?>[] {RelOptPlanner.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("prune")) {
                            return null;
                        }
                        try {
                            return method.invoke(planner, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        /** Whether {@code result}, with its inputs as the planner registered them, is {@code matched}. */
        private static boolean registeredAs(RelOptPlanner planner, RelNode result, RelNode matched) {
            if (result.getClass() != matched.getClass() || result.getInputs().size() != matched.getInputs().size()) {
                return false;
            }
            List<RelNode> inputs = new ArrayList<>();
            for (RelNode input : result.getInputs()) {
                inputs.add(planner.ensureRegistered(input, null));
            }
            return result.copy(matched.getTraitSet(), inputs).getDigest().equals(matched.getDigest());
        }
    }
}
