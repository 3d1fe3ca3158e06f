package io.numacol.calcite.plan;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.prepare.CalcitePrepareImpl;

import java.util.ArrayList;
import java.util.List;

/** Calcite's statement preparation with numacol's planner rules added to every planner. */
public final class NumacolPrepare extends CalcitePrepareImpl {

    /** Every rule numacol adds; each feature contributes its list here. */
    static List<RelOptRule> rules() {
        List<RelOptRule> rules = new ArrayList<>();
        rules.addAll(io.numacol.calcite.rel.NumacolRules.RULES);
        return rules;
    }

    @Override
    protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext,
                                          org.apache.calcite.plan.Context externalContext,
                                          RelOptCostFactory costFactory) {
        RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
        rules().forEach(planner::addRule);
        return planner;
    }
}
