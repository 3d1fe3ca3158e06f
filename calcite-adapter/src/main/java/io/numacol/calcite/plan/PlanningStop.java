package io.numacol.calcite.plan;

import io.numacol.calcite.QueryCancel;
import org.apache.calcite.plan.RelOptListener;

/**
 * Stops the Volcano planner's search when its statement is canceled or times out, by throwing out
 * of the planner's events. Calcite's own way, a CancelFlag in the planner's context, ends the
 * search and then builds a plan from what it found, which fails for want of one and first dumps
 * the planner's whole graph into the exception's message: 150-500 ms past the deadline.
 */
final class PlanningStop implements RelOptListener {
    private final QueryCancel stop;

    PlanningStop(QueryCancel stop) {
        this.stop = stop;
    }

    @Override
    public void relEquivalenceFound(RelEquivalenceEvent event) {
        stop.check();
    }

    @Override
    public void ruleAttempted(RuleAttemptedEvent event) {
        stop.check();
    }

    @Override
    public void ruleProductionSucceeded(RuleProductionEvent event) {
        stop.check();
    }

    @Override
    public void relDiscarded(RelDiscardedEvent event) {
        // nothing searched
    }

    @Override
    public void relChosen(RelChosenEvent event) {
        // nothing searched
    }
}
