package io.numacol.calcite.rel;

import io.numacol.exec.PlanNode;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;

/**
 * A relational operator numacol runs itself. Each translates itself for the engine, one of two
 * ways {@link NumacolQuery} picks for the tree: a one-table tree (Scan, Filter, Project,
 * Aggregate, Sort, bottom up: {@link NumacolQuery#oneTable}) adds itself to one pass over the
 * table on vids, anything else becomes the pipeline executor's plan node by node.
 */
public interface NumacolRel extends RelNode {
    Convention CONVENTION = new Convention.Impl("NUMACOL", NumacolRel.class);

    /** numacol's operators are cheaper than Calcite's: scans run on dictionary vids, in parallel. */
    double COST_FACTOR = 0.1;

    /** Adds this operator, its input first ({@link OneTableImplementor#visit}), to the one pass over its table. */
    void implement(OneTableImplementor implementor);

    /** This operator as the pipeline executor's plan node, its inputs' nodes from {@link PipelineImplementor#visit}. */
    PlanNode implement(PipelineImplementor implementor);
}
