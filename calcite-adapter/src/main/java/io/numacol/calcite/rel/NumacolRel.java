package io.numacol.calcite.rel;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;

/** A relational operator numacol runs itself. Shapes are fixed by the rules: Scan, Filter, Project, Aggregate, Sort, bottom up. */
public interface NumacolRel extends RelNode {
    Convention CONVENTION = new Convention.Impl("NUMACOL", NumacolRel.class);

    /** Adds this operator to {@code query}, after its input did. */
    void implement(NumacolQuery query);

    /** numacol's operators are cheaper than Calcite's: scans run on dictionary vids, in parallel. */
    double COST_FACTOR = 0.1;
}
