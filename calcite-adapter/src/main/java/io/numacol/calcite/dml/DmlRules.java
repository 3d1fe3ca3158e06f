package io.numacol.calcite.dml;

import org.apache.calcite.plan.RelOptRule;

import java.util.List;

/** The planner rules numacol's DML adds (registered by {@code NumacolPrepare.rules()}). */
public final class DmlRules {
    private DmlRules() {
    }

    public static final List<RelOptRule> RULES = List.of(NumacolTableModifyRule.INSTANCE);
}
