package io.numacol.calcite.rel;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterImpl;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.runtime.ArrayBindable;
import org.apache.calcite.runtime.Bindable;

import java.util.List;

/** Where numacol's operators end: the tree below becomes one {@link NumacolQuery} the engine runs. */
public final class NumacolToEnumerableConverter extends ConverterImpl implements EnumerableRel {

    public NumacolToEnumerableConverter(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
        super(cluster, ConventionTraitDef.INSTANCE, traits, input);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new NumacolToEnumerableConverter(getCluster(), traitSet, sole(inputs));
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(NumacolRel.COST_FACTOR);
    }

    /**
     * This converter's rows, bound at each execution, for a plan whose root it is: the query
     * itself, in the forms {@link #implement} generates code for (one column as plain values).
     */
    public Bindable<?> bindable() {
        NumacolQuery query = NumacolQuery.of(getInput());
        if (getRowType().getFieldCount() == 1) {
            return (Bindable<Object>) query::scalars;
        }
        return new ArrayBindable() {
            @Override
            public Class<Object[]> getElementType() {
                return Object[].class;
            }

            @Override
            public Enumerable<Object[]> bind(DataContext dataContext) {
                return query.enumerable(dataContext);
            }
        };
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        NumacolQuery query = NumacolQuery.of(getInput());
        // Calcite's operators take one column as plain values (SCALAR), more as Object[] (ARRAY).
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        String method = physType.getFormat() == JavaRowFormat.SCALAR ? "scalars" : "enumerable";
        BlockBuilder block = new BlockBuilder();
        block.add(Expressions.return_(null,
                Expressions.call(implementor.stash(query, NumacolQuery.class), method, DataContext.ROOT)));
        return implementor.result(physType, block.toBlock());
    }
}
