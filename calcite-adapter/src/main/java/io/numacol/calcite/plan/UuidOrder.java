package io.numacol.calcite.plan;

import com.google.common.collect.ImmutableList;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableLimitSort;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;

/**
 * UUIDs ordered as unsigned 128-bit numbers wherever Calcite's own operators order them, as
 * numacol's operators, DuckDB and PostgreSQL do. Calcite computes with java.util.UUID, whose
 * compareTo is signed: {@code 80000000-...} sorted before {@code 00000000-...} in a sort above a
 * UNION, a window's ORDER BY and a comparison above a window. A UUID's lowercase text orders as
 * the unsigned number, so those keys and operands become {@code CAST(u AS VARCHAR)}, and MIN and
 * MAX that Calcite computes (over a UNION) take the extreme text, cast back.
 */
final class UuidOrder {
    private UuidOrder() {
    }

    /** {@code plan} with the sorts, MIN, MAX and range comparisons of its Enumerable nodes on UUIDs ordered unsigned; after planning. */
    static RelNode apply(RelNode plan) {
        RexBuilder builder = plan.getCluster().getRexBuilder();
        RexShuttle comparisons = new Comparisons(builder);
        return CalciteDefects.bottomUp(plan, node -> {
            if (!(node instanceof EnumerableRel)) {
                return node;
            }
            RelNode rel = switch (node) {
                case Sort sort when sort instanceof EnumerableSort || sort instanceof EnumerableLimitSort -> sortByText(sort, builder);
                case Aggregate aggregate -> extremesOfText(aggregate, builder);
                default -> node;
            };
            return rel.accept(comparisons);
        });
    }

    /** {@code plan} with the ORDER BY of its windows on UUIDs ordered unsigned; before planning (numacol has no window operator). */
    static RelNode windows(RelNode plan) {
        RexShuttle windows = new Windows(plan.getCluster().getRexBuilder());
        return CalciteDefects.bottomUp(plan, node -> node.accept(windows));
    }

    private static boolean uuid(RexNode e) {
        return e.getType().getSqlTypeName() == SqlTypeName.UUID;
    }

    /** {@code e} as its lowercase text, nullable where {@code e} is. */
    private static RexNode text(RexBuilder builder, RexNode e) {
        RelDataTypeFactory types = builder.getTypeFactory();
        RelDataType varchar = types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR, 36), e.getType().isNullable());
        return builder.makeCast(varchar, e);
    }

    /** A sort with UUID keys as a sort on their text, the text added as columns below and dropped above. */
    private static RelNode sortByText(Sort sort, RexBuilder builder) {
        RelNode input = sort.getInput();
        List<RelDataType> fields = input.getRowType().getFieldList().stream().map(f -> f.getType()).toList();
        if (sort.getCollation().getFieldCollations().stream().noneMatch(c -> fields.get(c.getFieldIndex()).getSqlTypeName() == SqlTypeName.UUID)) {
            return sort;
        }
        List<RexNode> below = new ArrayList<>();
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        for (int i = 0; i < fields.size(); i++) {
            below.add(RexInputRef.of(i, input.getRowType()));
        }
        List<RelFieldCollation> keys = new ArrayList<>();
        for (RelFieldCollation c : sort.getCollation().getFieldCollations()) {
            if (fields.get(c.getFieldIndex()).getSqlTypeName() == SqlTypeName.UUID) {
                below.add(text(builder, below.get(c.getFieldIndex())));
                names.add("$uuid_text" + below.size());
                keys.add(c.withFieldIndex(below.size() - 1));
            } else {
                keys.add(c);
            }
        }
        RelNode widened = calc(input, below, builder.getTypeFactory().createStructType(below.stream().map(RexNode::getType).toList(), names),
                builder);
        RelCollation collation = RelCollations.of(keys);
        RelNode sorted = sort instanceof EnumerableLimitSort
                ? EnumerableLimitSort.create(widened, collation, sort.offset, sort.fetch)
                : EnumerableSort.create(widened, collation, sort.offset, sort.fetch);
        List<RexNode> above = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            above.add(RexInputRef.of(i, sorted.getRowType()));
        }
        return calc(sorted, above, sort.getRowType(), builder);
    }

    /**
     * An aggregate's MIN and MAX of UUIDs as those of their text, cast back: the text is added as
     * columns below the aggregate (COUNT DISTINCT and the grouping compare UUIDs only for equality).
     */
    private static RelNode extremesOfText(Aggregate aggregate, RexBuilder builder) {
        RelNode input = aggregate.getInput();
        List<RelDataType> fields = input.getRowType().getFieldList().stream().map(f -> f.getType()).toList();
        List<AggregateCall> calls = aggregate.getAggCallList();
        if (calls.stream().noneMatch(c -> extreme(c) && fields.get(c.getArgList().getFirst()).getSqlTypeName() == SqlTypeName.UUID)) {
            return aggregate;
        }
        List<RexNode> below = new ArrayList<>();
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        for (int i = 0; i < fields.size(); i++) {
            below.add(RexInputRef.of(i, input.getRowType()));
        }
        List<Integer> textArgs = new ArrayList<>();
        for (AggregateCall c : calls) {
            if (extreme(c) && fields.get(c.getArgList().getFirst()).getSqlTypeName() == SqlTypeName.UUID) {
                below.add(text(builder, below.get(c.getArgList().getFirst())));
                names.add("$uuid_text" + below.size());
                textArgs.add(below.size() - 1);
            } else {
                textArgs.add(-1);
            }
        }
        RelDataType widenedType = builder.getTypeFactory().createStructType(below.stream().map(RexNode::getType).toList(), names);
        RelNode widened = calc(input, below, widenedType, builder);
        List<AggregateCall> textCalls = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall c = calls.get(i);
            textCalls.add(textArgs.get(i) < 0 ? c : AggregateCall.create(c.getParserPosition(), c.getAggregation(), c.isDistinct(),
                    c.isApproximate(), c.ignoreNulls(), c.rexList, List.of(textArgs.get(i)), c.filterArg, c.distinctKeys, c.collation,
                    aggregate.hasEmptyGroup(), widened, null, c.getName()));
        }
        Aggregate textual = aggregate.copy(aggregate.getTraitSet(), widened, aggregate.getGroupSet(), aggregate.getGroupSets(), textCalls);
        List<RexNode> above = new ArrayList<>();
        int groups = aggregate.getGroupCount();
        for (int i = 0; i < textual.getRowType().getFieldCount(); i++) {
            RexNode field = RexInputRef.of(i, textual.getRowType());
            above.add(i >= groups && textArgs.get(i - groups) >= 0
                    ? builder.makeCast(aggregate.getRowType().getFieldList().get(i).getType(), field) : field);
        }
        return calc(textual, above, aggregate.getRowType(), builder);
    }

    private static boolean extreme(AggregateCall call) {
        return (call.getAggregation().getKind() == SqlKind.MIN || call.getAggregation().getKind() == SqlKind.MAX)
                && call.getArgList().size() == 1;
    }

    /** A projection as Calcite implements one (an EnumerableProject has no code of its own). */
    private static RelNode calc(RelNode input, List<RexNode> projects, RelDataType rowType, RexBuilder builder) {
        return EnumerableCalc.create(input, RexProgram.create(input.getRowType(), projects, null, rowType, builder));
    }

    /** {@code a < b} and the other range comparisons of two UUIDs as comparisons of their text. */
    private static final class Comparisons extends RexShuttle {
        private final RexBuilder builder;

        Comparisons(RexBuilder builder) {
            this.builder = builder;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            boolean range = switch (visited.getKind()) {
                case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
                default -> false;
            };
            if (!range || !visited.getOperands().stream().allMatch(UuidOrder::uuid)) {
                return visited;
            }
            return builder.makeCall(visited.getOperator(), visited.getOperands().stream().map(o -> text(builder, o)).toList());
        }
    }

    private static final class Windows extends RexShuttle {
        private final RexBuilder builder;

        Windows(RexBuilder builder) {
            this.builder = builder;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            return visited.clone(windows(visited.rel));
        }

        @Override
        public RexNode visitOver(RexOver over) {
            RexOver visited = (RexOver) super.visitOver(over);
            RexWindow window = visited.getWindow();
            if (window.orderKeys.stream().noneMatch(k -> uuid(k.left))) {
                return visited;
            }
            List<RexFieldCollation> keys = window.orderKeys.stream()
                    .map(k -> uuid(k.left) ? new RexFieldCollation(text(builder, k.left), k.right) : k).toList();
            return builder.makeOver(visited.getType(), visited.getAggOperator(), visited.getOperands(), window.partitionKeys,
                    ImmutableList.copyOf(keys), window.getLowerBound(), window.getUpperBound(),
                    window.getExclude(), window.isRows(), true, false, visited.isDistinct(), visited.ignoreNulls());
        }
    }
}
