package io.numacol.calcite.rel;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;

/**
 * A relational operator numacol runs itself. Shapes are fixed by the rules: Scan, Filter, Project,
 * Aggregate, Sort, bottom up; {@link NumacolQuery#add} turns a tree of them into the engine's plan.
 */
public interface NumacolRel extends RelNode {
    Convention CONVENTION = new Convention.Impl("NUMACOL", NumacolRel.class);

    /** numacol's operators are cheaper than Calcite's: scans run on dictionary vids, in parallel. */
    double COST_FACTOR = 0.1;
}
