package io.numacol.calcite.rel;

import io.numacol.calcite.NumacolTable;
import io.numacol.exec.PlanNode;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import java.util.List;
import java.util.stream.IntStream;

/** All rows of a numacol table, part by part. */
public final class NumacolTableScan extends TableScan implements NumacolRel {
    private final NumacolTable numacolTable;

    public NumacolTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, NumacolTable numacolTable) {
        super(cluster, traits, List.of(), table);
        this.numacolTable = numacolTable;
    }

    public NumacolTable numacolTable() {
        return numacolTable;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new NumacolTableScan(getCluster(), traitSet, table, numacolTable);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public void implement(OneTableImplementor implementor) {
        implementor.scan(numacolTable);
    }

    @Override
    public PlanNode implement(PipelineImplementor implementor) {
        return new PlanNode.Scan(numacolTable.table(), null, IntStream.range(0, getRowType().getFieldCount()).toArray());
    }
}
