package io.numacol.calcite.plan;

import io.numacol.calcite.dml.CheckedCastRexBuilder;
import io.numacol.calcite.dml.DmlRules;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rex.RexBuilder;

import java.util.ArrayList;
import java.util.List;

/** Calcite's statement preparation with numacol's planner rules added to every planner. */
public final class NumacolPrepare extends CalcitePrepareImpl {

    /** Every rule numacol adds; each feature contributes its list here. */
    static List<RelOptRule> rules() {
        List<RelOptRule> rules = new ArrayList<>();
        rules.addAll(io.numacol.calcite.rel.NumacolRules.RULES);
        rules.addAll(DmlRules.RULES);
        return rules;
    }

    /** Clusters whose casts of literals fail with the value named instead of cutting or failing late. */
    @Override
    protected RelOptCluster createCluster(RelOptPlanner planner, RexBuilder rexBuilder) {
        return super.createCluster(planner, new CheckedCastRexBuilder(rexBuilder.getTypeFactory()));
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
