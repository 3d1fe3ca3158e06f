package io.numacol.calcite.dml;

import io.numacol.calcite.NumacolTable;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a modify of a numacol table into {@link NumacolTableModify}. numacol tables are not
 * {@code ModifiableTable}s, so Calcite's own modify rule never takes them and this is the only way
 * such a plan can run; MERGE fails here, while planning, with a clear message.
 */
final class NumacolTableModifyRule extends ConverterRule {
    static final NumacolTableModifyRule INSTANCE = Config.INSTANCE
            .withConversion(LogicalTableModify.class, (LogicalTableModify m) -> m.getTable().unwrap(NumacolTable.class) != null,
                    Convention.NONE, EnumerableConvention.INSTANCE, "NumacolTableModifyRule")
            .withRuleFactory(NumacolTableModifyRule::new)
            .toRule(NumacolTableModifyRule.class);

    private NumacolTableModifyRule(Config config) {
        super(config);
    }

    /**
     * The input with the casts Calcite adds to fit a source value to its column removed where
     * numacol checks the value itself: a CAST to VARCHAR(3) would silently cut 'toolong', one from
     * 1.7 to INTEGER would round, one from '2020-13-01' to DATE fails inside generated code. The
     * raw value goes to the appender instead, which refuses it naming the column and the value.
     */
    private static RelNode withoutCoercions(RelNode input) {
        RelNode original = input instanceof RelSubset subset ? subset.getOriginal() : input;
        if (!(original instanceof LogicalProject project)) {
            return input;
        }
        List<RexNode> exprs = new ArrayList<>();
        boolean changed = false;
        for (RexNode e : project.getProjects()) {
            if (e.getKind() == SqlKind.CAST && checkedByNumacol(((RexCall) e).getOperands().get(0).getType(), e.getType())) {
                exprs.add(((RexCall) e).getOperands().get(0));
                changed = true;
            } else {
                exprs.add(e);
            }
        }
        return changed ? LogicalProject.create(project.getInput(), project.getHints(), exprs,
                project.getRowType().getFieldNames(), project.getVariablesSet()) : input;
    }

    /** Whether numacol's column types take values of type {@code from} as they are, checking them, for a column of type {@code to}. */
    static boolean checkedByNumacol(RelDataType from, RelDataType to) {
        SqlTypeFamily target = to.getSqlTypeName().getFamily();
        SqlTypeName source = from.getSqlTypeName();
        if (to.getSqlTypeName() == SqlTypeName.TIMESTAMP || to.getSqlTypeName() == SqlTypeName.TIME) {
            // numacol rounds to the column's precision, where Calcite's cast to fewer digits cuts them off
            return SqlTypeName.CHAR_TYPES.contains(source) || source == to.getSqlTypeName();
        }
        if (to.getSqlTypeName() == SqlTypeName.VARBINARY) {
            return SqlTypeName.BINARY_TYPES.contains(source); // a cast would cut bytes beyond the length
        }
        if (target == SqlTypeFamily.CHARACTER || to.getSqlTypeName() == SqlTypeName.DATE || to.getSqlTypeName() == SqlTypeName.UUID) {
            return SqlTypeName.CHAR_TYPES.contains(source);
        }
        if (target == SqlTypeFamily.NUMERIC) {
            return SqlTypeName.EXACT_TYPES.contains(source)
                    || ((to.getSqlTypeName() == SqlTypeName.DOUBLE || to.getSqlTypeName() == SqlTypeName.REAL)
                    && SqlTypeName.APPROX_TYPES.contains(source)); // a DOUBLE beyond a REAL's range is an error, not infinity
        }
        return false;
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalTableModify modify = (LogicalTableModify) rel;
        if (modify.getOperation() == TableModify.Operation.MERGE) {
            throw new UnsupportedOperationException("numacol does not support MERGE yet: tables take INSERT, UPDATE, DELETE and COPY");
        }
        // an UPDATE's new values are coerced as an INSERT's (the table's own values and the row id are no casts)
        RelNode input = modify.getOperation() == TableModify.Operation.DELETE ? modify.getInput() : withoutCoercions(modify.getInput());
        return new NumacolTableModify(modify.getCluster(), modify.getTraitSet().replace(EnumerableConvention.INSTANCE),
                modify.getTable(), modify.getCatalogReader(),
                // any order of the input: a row source of constants (a DEFAULT expression's VALUES) may
                // be sorted on several columns at once, a trait set convert() cannot take
                convert(input, input.getCluster().traitSetOf(EnumerableConvention.INSTANCE)),
                modify.getOperation(), modify.getUpdateColumnList(), modify.getSourceExpressionList(), modify.isFlattened());
    }
}
