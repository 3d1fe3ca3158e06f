package io.numacol.calcite.dml;

import org.apache.calcite.DataContext;
import io.numacol.calcite.NumacolTable;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;

import java.lang.reflect.Method;
import java.util.List;

/**
 * INSERT, UPDATE or DELETE of a numacol table, in Calcite's enumerable convention: the generated
 * code hands the whole input to {@link ModifyTarget}, which stores the rows, each statement at
 * once, and yields the row count. An UPDATE's or DELETE's input is the rows it changes, each
 * with its row id ({@link ModifyValidator}).
 */
public final class NumacolTableModify extends TableModify implements EnumerableRel {
    private static final Method INSERT = Types.lookupMethod(ModifyTarget.class, "insert", Enumerable.class, DataContext.class);
    private static final Method DELETE = Types.lookupMethod(ModifyTarget.class, "delete", Enumerable.class, DataContext.class);
    private static final Method UPDATE = Types.lookupMethod(ModifyTarget.class, "update", Enumerable.class, String[].class, DataContext.class);

    NumacolTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, Prepare.CatalogReader catalogReader,
                       RelNode input, Operation operation, List<String> updateColumnList,
                       List<RexNode> sourceExpressionList, boolean flattened) {
        super(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList, flattened);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new NumacolTableModify(getCluster(), traitSet, getTable(), getCatalogReader(), sole(inputs),
                getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened());
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        NumacolTable target = getTable().unwrap(NumacolTable.class);
        if (target == null) {
            throw new IllegalStateException(getTable().getQualifiedName() + " is not a numacol table");
        }
        BlockBuilder builder = new BlockBuilder();
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
        Expression rows = builder.append("rows", input.block);
        Expression arrays = builder.append("arrays", input.physType.convertTo(rows, JavaRowFormat.ARRAY));
        Expression sink = implementor.stash(new ModifyTarget(target.database(), target.table()), ModifyTarget.class);
        Expression call = switch (getOperation()) {
            // each may wait for another change of the table: cancel and timeout stop the wait
            case INSERT -> Expressions.call(sink, INSERT, arrays, DataContext.ROOT);
            case DELETE -> Expressions.call(sink, DELETE, arrays, DataContext.ROOT);
            case UPDATE -> Expressions.call(sink, UPDATE, arrays, Expressions.constant(getUpdateColumnList().toArray(String[]::new)),
                    DataContext.ROOT);
            default -> throw new IllegalStateException("numacol does not run " + getOperation());
        };
        builder.add(Expressions.return_(null, call));
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), pref.prefer(JavaRowFormat.SCALAR));
        return implementor.result(physType, builder.toBlock());
    }
}
