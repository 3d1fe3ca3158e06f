package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * <b>Duplicate rows of RIGHT and FULL nested-loop joins.</b> Calcite's nested-loop join keeps the
 * right rows nothing matched in an identity set, and a one-column row is a shared boxed value
 * ({@code Boolean.TRUE}), so equal rows collapse into one: a FULL JOIN on a condition of one side
 * lost rows. numacol runs joins without keys itself (every build row in one chain, each pair
 * tested); for conditions numacol cannot evaluate, this copy of Calcite's join rule ({@link
 * FixedRules}) gives Calcite's nested-loop join a right side of two columns, the second a constant,
 * whose rows are arrays of their own.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 5, "FULL and RIGHT joins without keys lost duplicate rows"). Upstream
 * issue: not filed.
 */
final class DistinctRowsJoinRule extends ConverterRule {
    /** Calcite's join rule, but a RIGHT or FULL nested-loop join never has a right side of one column. */
    static final RelOptRule JOIN = new DistinctRowsJoinRule(ConverterRule.Config.INSTANCE
            .withConversion(LogicalJoin.class, Convention.NONE, EnumerableConvention.INSTANCE, "EnumerableJoinRule:distinctRows"));

    private DistinctRowsJoinRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        RelNode converted = ((ConverterRule) EnumerableRules.ENUMERABLE_JOIN_RULE).convert(rel);
        if (!(converted instanceof EnumerableNestedLoopJoin join) || !join.getJoinType().generatesNullsOnLeft()
                || join.getRight().getRowType().getFieldCount() != 1) {
            return converted;
        }
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        RelNode right = join.getRight();
        List<RexNode> columns = List.of(rexBuilder.makeInputRef(right, 0), rexBuilder.makeExactLiteral(BigDecimal.ZERO));
        RelNode wider = EnumerableProject.create(right, columns, RexUtil.createStructType(rexBuilder.getTypeFactory(), columns,
                List.of(right.getRowType().getFieldNames().getFirst(), "$distinct"), null));
        // the condition reads the right side's first column, which keeps its number
        RelNode widened = EnumerableNestedLoopJoin.create(join.getLeft(), wider, join.getCondition(), join.getVariablesSet(),
                join.getJoinType());
        int width = join.getRowType().getFieldCount();
        List<RexNode> kept = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            kept.add(rexBuilder.makeInputRef(widened, i));
        }
        return EnumerableProject.create(widened, kept, join.getRowType());
    }
}
