package io.numacol.calcite.rel;

import io.numacol.calcite.SqlTypes;
import io.numacol.storage.ColumnType;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataTypeField;
import io.numacol.exec.PlanNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rules that move Scan, Filter, Project, Aggregate and Sort over numacol tables into
 * {@link NumacolRel#CONVENTION}, bottom up in that order (a Filter only right on a scan, an
 * Aggregate only on scan/filter/project, a Sort on any of them), plus the converter back to
 * Enumerable. What they do not take (joins, HAVING, window functions, expressions numacol cannot
 * evaluate) stays in Calcite's operators above the converter.
 */
public final class NumacolRules {
    private NumacolRules() {
    }

    public static final List<RelOptRule> RULES = List.of(
            new AbsorbRule(LogicalFilter.class), new AbsorbRule(LogicalProject.class),
            new AbsorbRule(LogicalAggregate.class), new AbsorbRule(LogicalSort.class), new AbsorbRule(LogicalJoin.class),
            ConverterRule.Config.INSTANCE
                    .withConversion(RelNode.class, NumacolRel.CONVENTION, EnumerableConvention.INSTANCE,
                            "NumacolToEnumerableConverterRule")
                    .withRuleFactory(ToEnumerable::new)
                    .toRule(ToEnumerable.class));

    /**
     * Turns a logical operator whose whole subtree numacol can run into numacol rels, at once:
     * Volcano only matches a parent with children of its input's convention, so numacol rels
     * registered below a logical parent are never seen by a rule on the parent. A filter that
     * numacol can run only in part becomes a numacol filter with a Calcite filter above.
     */
    @SuppressWarnings("deprecation")
    static final class AbsorbRule extends RelOptRule {
        AbsorbRule(Class<? extends RelNode> logical) {
            super(operand(logical, any()), "Numacol" + logical.getSimpleName().replace("Logical", "") + "Rule");
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            RelNode rel = call.rel(0);
            RelNode numacol = absorb(rel, new IdentityHashMap<>());
            if (numacol != null) {
                call.transformTo(numacol);
            } else if (rel instanceof LogicalFilter filter) {
                RelNode partial = partialFilter(filter);
                if (partial != null) {
                    call.transformTo(partial);
                }
            }
        }
    }

    /**
     * {@code rel} as numacol rels, or null; {@code seen} keeps each subset's answer, so alternatives
     * are tried once and a set that contains itself (Volcano allows that) ends the search.
     */
    private static RelNode absorb(RelNode rel, Map<RelNode, Optional<RelNode>> seen) {
        if (rel instanceof RelSubset) {
            Optional<RelNode> known = seen.get(rel);
            if (known != null) {
                return known.orElse(null);
            }
            seen.put(rel, Optional.empty()); // a cycle through this subset finds nothing
            RelNode r = absorbNode(rel, seen);
            seen.put(rel, Optional.ofNullable(r));
            return r;
        }
        return absorbNode(rel, seen);
    }

    private static RelNode absorbNode(RelNode rel, Map<RelNode, Optional<RelNode>> seen) {
        switch (rel) {
            case RelSubset subset -> {
                for (RelNode alternative : subset.getRelList()) {
                    RelNode r = absorb(alternative, seen);
                    if (r != null) {
                        return r;
                    }
                }
                return null;
            }
            case NumacolTableScan scan -> {
                return scan;
            }
            case LogicalFilter filter -> {
                RelNode input = absorb(filter.getInput(), seen);
                if (rowSource(input)) {
                    RelNode r = pushFilter(filter, input);
                    if (!(r instanceof LogicalFilter rest)) {
                        return r;
                    }
                    // what vid predicates cannot say (two columns compared) the pipeline executor evaluates on values
                    return residual(rest, rest == filter ? input : rest.getInput());
                }
                return joinInput(input) ? residual(filter, input) : null;
            }
            case LogicalProject project -> {
                RelNode input = absorb(project.getInput(), seen);
                boolean refs = project.getProjects().stream().allMatch(e -> e instanceof RexInputRef);
                if (joined(input) && refs) { // a join's columns, picked: the pipeline executor takes nothing else above a join
                    return new NumacolProject(project.getCluster(), project.getTraitSet().replace(NumacolRel.CONVENTION),
                            input, project.getProjects(), project.getRowType());
                }
                if (!rowSource(input) || !project.getProjects().stream().allMatch(RowExpressions::supports)) {
                    return null;
                }
                List<RexNode> exprs = project.getProjects();
                if (input instanceof NumacolProject below) { // one projection over the scan's columns
                    exprs = RelOptUtil.pushPastProject(exprs, below);
                    input = below.getInput();
                }
                return new NumacolProject(project.getCluster(), project.getTraitSet().replace(NumacolRel.CONVENTION),
                        input, exprs, project.getRowType());
            }
            case LogicalAggregate agg -> {
                RelNode input = absorb(agg.getInput(), seen);
                if (!rowSource(input) || agg.getGroupType() != Aggregate.Group.SIMPLE
                        || !agg.getAggCallList().stream().allMatch(NumacolRules::supported)) {
                    return null;
                }
                // group keys must be columns: tasks group by their vids
                if (input instanceof NumacolProject p
                        && !agg.getGroupSet().asList().stream().allMatch(k -> p.getProjects().get(k) instanceof RexInputRef)) {
                    return null;
                }
                return new NumacolAggregate(agg.getCluster(), agg.getTraitSet().replace(NumacolRel.CONVENTION),
                        input, agg.getGroupSet(), agg.getAggCallList());
            }
            case LogicalJoin join -> {
                return join(join, absorb(join.getLeft(), seen), absorb(join.getRight(), seen));
            }
            case LogicalSort sort -> {
                RelNode input = absorb(sort.getInput(), seen);
                if (input == null || input instanceof NumacolSort || joined(input) || !literalOrAbsent(sort.offset)
                        || !literalOrAbsent(sort.fetch)) {
                    return null;
                }
                return new NumacolSort(sort.getCluster(), sort.getTraitSet().replace(NumacolRel.CONVENTION),
                        input, sort.getCollation(), sort.offset, sort.fetch);
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * {@code join} as a NumacolJoin of its absorbed inputs, or null: both inputs must be what the
     * pipeline executor runs (scans, filtered, columns picked, or joins of those), the condition
     * equalities of columns whose stored values compare alike, the join INNER, LEFT, SEMI or ANTI.
     */
    private static RelNode join(LogicalJoin join, RelNode left, RelNode right) {
        if (!joinInput(left) || !joinInput(right)) {
            return null;
        }
        JoinRelType type = join.getJoinType();
        if (type != JoinRelType.INNER && type != JoinRelType.LEFT && type != JoinRelType.SEMI && type != JoinRelType.ANTI) {
            return null;
        }
        JoinInfo info = join.analyzeCondition();
        if (!info.isEqui() || info.leftKeys.isEmpty()) {
            return null;
        }
        List<RelDataTypeField> l = left.getRowType().getFieldList();
        List<RelDataTypeField> r = right.getRowType().getFieldList();
        for (int i = 0; i < info.leftKeys.size(); i++) {
            ColumnType a = SqlTypes.toColumnType(l.get(info.leftKeys.get(i)).getType());
            ColumnType b = SqlTypes.toColumnType(r.get(info.rightKeys.get(i)).getType());
            if (a == null || b == null || !PlanNode.comparableKeys(a, b)) {
                return null;
            }
        }
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        boolean buildLeft = type == JoinRelType.INNER && mq.getRowCount(left) < mq.getRowCount(right);
        return new NumacolJoin(join.getCluster(), join.getTraitSet().replace(NumacolRel.CONVENTION), left, right,
                join.getCondition(), type, buildLeft);
    }

    /** What a join can take: a scan, filtered or with columns picked, or a join, with columns picked. */
    private static boolean joinInput(RelNode input) {
        return input instanceof NumacolTableScan || input instanceof NumacolFilter || input instanceof NumacolJoin
                || (input instanceof NumacolProject p && refsOnly(p) && joinInput(p.getInput()));
    }

    /** Whether {@code rel} holds a join: then only the pipeline executor runs it, which takes no aggregate or sort yet. */
    private static boolean joined(RelNode rel) {
        return rel instanceof NumacolJoin || (rel instanceof NumacolFilter f && (f.isResidual() || joined(f.getInput())))
                || (rel instanceof NumacolProject p && joined(p.getInput()));
    }

    /** {@code filter}'s condition on values over {@code input}, which the pipeline executor runs; null if it cannot. */
    private static RelNode residual(LogicalFilter filter, RelNode input) {
        if (!joinInput(input)) {
            return null;
        }
        RexNode condition = RexUtil.expandSearch(filter.getCluster().getRexBuilder(), null, filter.getCondition());
        if (!RowConditions.supports(condition, RowConditions.types(input))) {
            return null;
        }
        return new NumacolFilter(filter.getCluster(), input.getTraitSet().replace(NumacolRel.CONVENTION), input, condition, true);
    }

    /** Rows a filter, projection or aggregate can take: a scan, filtered or projected. */
    private static boolean rowSource(RelNode input) {
        return (input instanceof NumacolTableScan || input instanceof NumacolFilter || input instanceof NumacolProject)
                && !joined(input);
    }

    private static boolean literalOrAbsent(RexNode n) {
        return n == null || n instanceof RexLiteral;
    }

    private static boolean supported(AggregateCall c) {
        if (c.filterArg >= 0 || c.isApproximate() || !c.getCollation().getFieldCollations().isEmpty()
                || c.getArgList().size() > 1) {
            return false;
        }
        return switch (c.getAggregation().getKind()) {
            case COUNT -> true;
            case SUM, SUM0, MIN, MAX -> c.getArgList().size() == 1;
            default -> false;
        };
    }

    /** A filter whose input numacol runs, in part: numacol takes the conjuncts it can. */
    private static RelNode partialFilter(LogicalFilter filter) {
        RelNode input = absorb(filter.getInput(), new IdentityHashMap<>());
        return rowSource(input) && !(input instanceof NumacolProject p && !refsOnly(p)) ? pushFilter(filter, input) : null;
    }

    private static boolean refsOnly(NumacolProject p) {
        return p.getProjects().stream().allMatch(e -> e instanceof RexInputRef);
    }

    /**
     * The translatable conjuncts as a NumacolFilter on {@code input} (below its projection when
     * that only picks columns), the rest as a LogicalFilter above; {@code filter} itself if none.
     */
    private static RelNode pushFilter(LogicalFilter filter, RelNode input) {
        NumacolProject columns = input instanceof NumacolProject p ? p : null;
        if (columns != null && !refsOnly(columns)) {
            return filter;
        }
        RelNode below = columns == null ? input : columns.getInput();
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        List<ColumnType> types = RowConditions.types(below);
        List<RexNode> pushed = new ArrayList<>();
        List<RexNode> rest = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            // SEARCH (ranges, IN lists, BETWEEN) as comparisons, which map to dictionary bounds
            RexNode expanded = RexUtil.expandSearch(rexBuilder, null, conjunct);
            if (columns != null) {
                expanded = RelOptUtil.pushPastProject(expanded, columns);
            }
            if (types.stream().allMatch(java.util.Objects::nonNull) && Predicates.supports(expanded, types)) {
                pushed.addAll(RelOptUtil.conjunctions(expanded));
            } else {
                rest.add(conjunct);
            }
        }
        if (pushed.isEmpty()) {
            return filter;
        }
        RelNode result = new NumacolFilter(filter.getCluster(), below.getTraitSet().replace(NumacolRel.CONVENTION), below,
                RexUtil.composeConjunction(rexBuilder, pushed));
        if (columns != null) {
            result = columns.copy(columns.getTraitSet(), List.of(result));
        }
        return rest.isEmpty() ? result : LogicalFilter.create(result, RexUtil.composeConjunction(rexBuilder, rest));
    }

    static final class ToEnumerable extends ConverterRule {
        ToEnumerable(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            return new NumacolToEnumerableConverter(rel.getCluster(),
                    rel.getTraitSet().replace(EnumerableConvention.INSTANCE), rel);
        }
    }
}
