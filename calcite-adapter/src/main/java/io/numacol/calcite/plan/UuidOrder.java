package io.numacol.calcite.plan;

import io.numacol.calcite.plan.rewrite.Rewrites;
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
        return Rewrites.bottomUp(plan, node -> {
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
        return Rewrites.bottomUp(plan, node -> node.accept(windows));
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
        List<RelFieldCollation> keys = sort.getCollation().getFieldCollations();
        Widened widened = withText(sort.getInput(), keys.stream().mapToInt(RelFieldCollation::getFieldIndex).toArray(), builder);
        if (widened == null) {
            return sort;
        }
        List<RelFieldCollation> textKeys = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            textKeys.add(widened.text()[k] < 0 ? keys.get(k) : keys.get(k).withFieldIndex(widened.text()[k]));
        }
        RelCollation collation = RelCollations.of(textKeys);
        RelNode sorted = sort instanceof EnumerableLimitSort
                ? EnumerableLimitSort.create(widened.rel(), collation, sort.offset, sort.fetch)
                : EnumerableSort.create(widened.rel(), collation, sort.offset, sort.fetch);
        return calc(sorted, List.copyOf(builder.identityProjects(sort.getRowType())), sort.getRowType(), builder);
    }

    /**
     * An aggregate's MIN and MAX of UUIDs as those of their text, cast back: the text is added as
     * columns below the aggregate (COUNT DISTINCT and the grouping compare UUIDs only for equality).
     */
    private static RelNode extremesOfText(Aggregate aggregate, RexBuilder builder) {
        List<AggregateCall> calls = aggregate.getAggCallList();
        Widened widened = withText(aggregate.getInput(), calls.stream().mapToInt(c -> extreme(c) ? c.getArgList().getFirst() : -1).toArray(),
                builder);
        if (widened == null) {
            return aggregate;
        }
        List<AggregateCall> textCalls = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall c = calls.get(i);
            textCalls.add(widened.text()[i] < 0 ? c : AggregateCall.create(c.getParserPosition(), c.getAggregation(), c.isDistinct(),
                    c.isApproximate(), c.ignoreNulls(), c.rexList, List.of(widened.text()[i]), c.filterArg, c.distinctKeys, c.collation,
                    aggregate.hasEmptyGroup(), widened.rel(), null, c.getName()));
        }
        Aggregate textual = aggregate.copy(aggregate.getTraitSet(), widened.rel(), aggregate.getGroupSet(), aggregate.getGroupSets(),
                textCalls);
        List<RexNode> above = new ArrayList<>();
        int groups = aggregate.getGroupCount();
        for (int i = 0; i < textual.getRowType().getFieldCount(); i++) {
            RexNode field = RexInputRef.of(i, textual.getRowType());
            above.add(i >= groups && widened.text()[i - groups] >= 0
                    ? builder.makeCast(aggregate.getRowType().getFieldList().get(i).getType(), field) : field);
        }
        return calc(textual, above, aggregate.getRowType(), builder);
    }

    /** An input with the text of some of its UUID columns added after its own: {@code text[i]} is that of the i-th column asked for, or -1. */
    private record Widened(RelNode rel, int[] text) {
    }

    /** {@code input} with the text of each UUID among {@code columns} (-1: none) added; null when none is a UUID. */
    private static Widened withText(RelNode input, int[] columns, RexBuilder builder) {
        RelDataType row = input.getRowType();
        List<RexNode> below = new ArrayList<>(builder.identityProjects(row));
        List<String> names = new ArrayList<>(row.getFieldNames());
        int[] text = new int[columns.length];
        for (int k = 0; k < columns.length; k++) {
            text[k] = -1;
            if (columns[k] >= 0 && uuid(below.get(columns[k]))) {
                below.add(text(builder, below.get(columns[k])));
                names.add("$uuid_text" + below.size());
                text[k] = below.size() - 1;
            }
        }
        if (below.size() == row.getFieldCount()) {
            return null;
        }
        RelDataType widened = builder.getTypeFactory().createStructType(below.stream().map(RexNode::getType).toList(), names);
        return new Widened(calc(input, below, widened, builder), text);
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
