package io.numacol.calcite.rel;

import io.numacol.calcite.SqlTypes;
import io.numacol.exec.PlanNode;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.metadata.RelMdCollation;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilderFactory;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The rules that move Scan, Filter, Project, Aggregate, Sort and Join over numacol tables into
 * {@link NumacolRel#CONVENTION}, bottom up (a node is absorbed once its inputs are numacol's),
 * plus the converter back to Enumerable. What they do not take (window functions, expressions
 * numacol cannot evaluate, joins without equality keys) stays in Calcite's operators above the
 * converter.
 */
public final class NumacolRules {
    private NumacolRules() {
    }

    public static final List<RelOptRule> RULES = List.of(
            AbsorbRule.AbsorbConfig.of(LogicalFilter.class).toRule(), AbsorbRule.AbsorbConfig.of(LogicalProject.class).toRule(),
            AbsorbRule.AbsorbConfig.of(LogicalAggregate.class).toRule(), AbsorbRule.AbsorbConfig.of(LogicalSort.class).toRule(),
            AbsorbRule.AbsorbConfig.of(LogicalJoin.class).toRule(),
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
    static final class AbsorbRule extends RelRule<AbsorbRule.AbsorbConfig> {
        AbsorbRule(AbsorbConfig config) {
            super(config);
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

        /**
         * The rule's configuration: the logical operator it matches, whatever its inputs (the
         * rule searches them itself), as Calcite's own rules are configured; a record, where
         * Calcite generates its configs with Immutables.
         */
        record AbsorbConfig(String description, RelRule.OperandTransform operandSupplier, RelBuilderFactory relBuilderFactory)
                implements RelRule.Config {
            static AbsorbConfig of(Class<? extends RelNode> logical) {
                return new AbsorbConfig("Numacol" + logical.getSimpleName().replace("Logical", "") + "Rule",
                        b -> b.operand(logical).anyInputs(), RelFactories.LOGICAL_BUILDER);
            }

            @Override
            public AbsorbRule toRule() {
                return new AbsorbRule(this);
            }

            @Override
            public AbsorbConfig withDescription(String description) {
                return new AbsorbConfig(description, operandSupplier, relBuilderFactory);
            }

            @Override
            public AbsorbConfig withOperandSupplier(RelRule.OperandTransform transform) {
                return new AbsorbConfig(description, transform, relBuilderFactory);
            }

            @Override
            public AbsorbConfig withRelBuilderFactory(RelBuilderFactory factory) {
                return new AbsorbConfig(description, operandSupplier, factory);
            }
        }
    }

    /**
     * {@code rel} as numacol rels, converted to Enumerable with {@code traits}, where numacol runs
     * all of it as it stands; null otherwise.
     */
    public static RelNode wholly(RelNode rel, RelTraitSet traits) {
        RelNode numacol = absorb(rel, new IdentityHashMap<>());
        if (numacol == null || !allNumacol(numacol)) {
            return null;
        }
        RelNode converted = new NumacolToEnumerableConverter(rel.getCluster(),
                numacol.getTraitSet().replace(EnumerableConvention.INSTANCE), numacol);
        return converted.getTraitSet().satisfies(traits) ? converted : null;
    }

    private static boolean allNumacol(RelNode rel) {
        return rel instanceof NumacolRel && rel.getInputs().stream().allMatch(NumacolRules::allNumacol);
    }

    /**
     * The traits of a numacol rel other than a sort: numacol's convention and no collation. Its
     * tasks run morsels in parallel, so no order of its input survives it; and a logical rel's
     * collation need not hold for what it becomes here (a projection claimed its input's order
     * with the sort below it gone, and ORDER BY went unsorted).
     */
    private static RelTraitSet unordered(RelNode rel) {
        return rel.getCluster().traitSetOf(NumacolRel.CONVENTION);
    }

    /** The traits of {@code project} over {@code sort}: the rows leave the sort in order and a projection keeps it. */
    private static RelTraitSet sorted(LogicalProject project, NumacolSort sort) {
        List<RelCollation> collations = RelMdCollation.project(project.getCluster().getMetadataQuery(), sort, project.getProjects());
        RelTraitSet traits = unordered(project);
        return collations.isEmpty() ? traits : traits.replace(collations.getFirst());
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
                return input != null && pipelined(input) ? residual(filter, input) : null;
            }
            case LogicalProject project -> {
                RelNode input = absorb(project.getInput(), seen);
                if (input == null) {
                    return null;
                }
                RelTraitSet traits = input instanceof NumacolSort sort ? sorted(project, sort) : unordered(project);
                if (rowSource(input) && project.getProjects().stream().allMatch(RowExpressions::supports)) {
                    List<RexNode> exprs = project.getProjects();
                    RelNode source = input;
                    if (input instanceof NumacolProject below) { // one projection over the scan's columns
                        exprs = RelOptUtil.pushPastProject(exprs, below);
                        source = below.getInput();
                    }
                    // merged with the projection below, an expression may be one a row source cannot compute (a
                    // CAST of a CASE); a projection over a projection over a scan is no shape numacol runs, so
                    // Calcite computes this one
                    return exprs.stream().allMatch(RowExpressions::supports)
                            ? new NumacolProject(project.getCluster(), traits, source, exprs, project.getRowType()) : null;
                }
                NumacolProject p = new NumacolProject(project.getCluster(), traits, input, project.getProjects(), project.getRowType());
                return pipelined(p) ? p : null;
            }
            case LogicalAggregate agg -> {
                RelNode input = absorb(agg.getInput(), seen);
                if (input == null || agg.getGroupType() != Aggregate.Group.SIMPLE) {
                    return null;
                }
                NumacolAggregate a = new NumacolAggregate(agg.getCluster(), unordered(agg),
                        input, agg.getGroupSet(), agg.getAggCallList());
                return NumacolQuery.oneTable(a) || pipelined(a) ? a : null;
            }
            case LogicalJoin join -> {
                return join(join, absorb(join.getLeft(), seen), absorb(join.getRight(), seen));
            }
            case LogicalSort sort -> {
                RelNode input = absorb(sort.getInput(), seen);
                if (input == null || !literalOrAbsent(sort.offset) || !literalOrAbsent(sort.fetch)) {
                    return null;
                }
                NumacolSort s = new NumacolSort(sort.getCluster(), sort.getTraitSet().replace(NumacolRel.CONVENTION),
                        input, sort.getCollation(), sort.offset, sort.fetch);
                return NumacolQuery.oneTable(s) || pipelined(s) ? s : null;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * Whether the pipeline executor runs {@code rel}: scans with their vid filters, conditions on
     * values, projections of columns, literals and arithmetic, equi-joins (checked when made),
     * aggregates without DISTINCT, and sorts, of intermediate types it can hold.
     */
    static boolean pipelined(RelNode rel) {
        return switch (rel) {
            case NumacolTableScan scan -> true;
            case NumacolFilter filter -> pipelined(filter.getInput());
            case NumacolJoin join -> true;
            case NumacolSort sort -> pipelined(sort.getInput());
            case NumacolProject project -> {
                List<ColumnType> types = RowExpressions.chunkTypes(project.getInput());
                yield pipelined(project.getInput())
                        && project.getProjects().stream().allMatch(e -> RowExpressions.chunkExpr(e, types) != null);
            }
            case NumacolAggregate agg -> pipelined(agg.getInput()) && agg.getGroupType() == Aggregate.Group.SIMPLE
                    && RowExpressions.chunkTypes(agg).stream().allMatch(Objects::nonNull)
                    && agg.getAggCallList().stream().allMatch(c -> !c.isDistinct() && supported(c.filterArg < 0 ? c
                    : c.withFilter(-1)));
            default -> false;
        };
    }

    /**
     * {@code join} as a NumacolJoin of its absorbed inputs, or null: both inputs must be what the
     * pipeline executor runs (scans, filtered, columns picked, or joins of those), the condition
     * equalities of columns whose stored values compare alike, INNER, LEFT, RIGHT, FULL, SEMI or ANTI.
     */
    private static RelNode join(LogicalJoin join, RelNode left, RelNode right) {
        if (left == null || right == null || !pipelined(left) || !pipelined(right)) {
            return null;
        }
        RelTraitSet traits = unordered(join);
        if (!runs(join)) {
            RelNode computed = computedOperands(join, left, right, traits);
            return computed != null || join.getJoinType() != JoinRelType.INNER ? computed : filteredAbove(join, left, right, traits);
        }
        return new NumacolJoin(join.getCluster(), traits, left, right, join.getCondition(), join.getJoinType(),
                buildsLeft(join, left, right));
    }

    /**
     * {@code root} with each hash join building the side estimated smaller in the final plan. A
     * join's side is chosen when it is made, from the estimates of the inputs it had then; the
     * planner later swaps inputs for others it finds cheaper, and the choice went stale: Q2's
     * join of 80 filtered parts built the 11,000 rows of the other side, and no filter of part
     * keys reached partsupp's two scans.
     */
    public static RelNode chooseBuildSides(RelNode root) {
        return root.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (visited instanceof NumacolJoin join) {
                    boolean left = buildsLeft(join, join.getLeft(), join.getRight());
                    return left == join.buildsLeft() ? join : join.withBuildLeft(left);
                }
                return visited;
            }
        });
    }

    /** The side a hash join builds: a join without keys builds its one-row side if it has one, others the side estimated smaller. */
    private static boolean buildsLeft(Join join, RelNode left, RelNode right) {
        if (join.analyzeCondition().leftKeys.isEmpty() && (oneRow(left) || oneRow(right))) {
            return oneRow(left);
        }
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        return mq.getRowCount(left) < mq.getRowCount(right);
    }

    /** Whether {@code rel} gives at most one row, as an aggregate without keys does. */
    private static boolean oneRow(RelNode rel) {
        Double max = rel.getCluster().getMetadataQuery().getMaxRowCount(rel);
        return max != null && max <= 1;
    }

    /**
     * A join whose condition compares values computed from one side ({@code l_quantity <
     * 0.2 * avg_quantity} in Q17's decorrelated subquery), as a join over projections that
     * compute them as columns, with a projection above that drops them again; null when even
     * that does not run. Calcite's JoinPushExpressionsRule does this for equi-join keys only.
     */
    private static RelNode computedOperands(LogicalJoin join, RelNode left, RelNode right, RelTraitSet traits) {
        int leftWidth = left.getRowType().getFieldCount();
        int rightWidth = right.getRowType().getFieldCount();
        List<RexNode> leftExprs = new ArrayList<>();
        List<RexNode> rightExprs = new ArrayList<>();
        List<ColumnType> leftTypes = RowExpressions.chunkTypes(left);
        List<ColumnType> rightTypes = RowExpressions.chunkTypes(right);
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        // the operands to compute, each side's in order of appearance
        join.getCondition().accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (comparison(call)) {
                    for (RexNode operand : call.getOperands()) {
                        ImmutableBitSet refs = RelOptUtil.InputFinder.bits(operand);
                        if (!(operand instanceof RexCall) || refs.isEmpty() || !cannotFail(operand)) {
                            continue;
                        }
                        if (refs.nth(refs.cardinality() - 1) < leftWidth) {
                            if (!leftExprs.contains(operand) && RowExpressions.chunkExpr(operand, leftTypes) != null) {
                                leftExprs.add(operand);
                            }
                        } else if (refs.nextSetBit(0) >= leftWidth) {
                            RexNode shifted = RexUtil.shift(operand, -leftWidth);
                            if (!rightExprs.contains(shifted) && RowExpressions.chunkExpr(shifted, rightTypes) != null) {
                                rightExprs.add(shifted);
                            }
                        }
                    }
                }
                return super.visitCall(call);
            }
        });
        if (leftExprs.isEmpty() && rightExprs.isEmpty()) {
            return null;
        }
        int newLeftWidth = leftWidth + leftExprs.size();
        RexNode condition = join.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                int l = leftExprs.indexOf(call);
                if (l >= 0) {
                    return new RexInputRef(leftWidth + l, call.getType());
                }
                ImmutableBitSet refs = RelOptUtil.InputFinder.bits(call);
                if (!refs.isEmpty() && refs.nextSetBit(0) >= leftWidth) {
                    int r = rightExprs.indexOf(RexUtil.shift(call, -leftWidth));
                    if (r >= 0) {
                        return new RexInputRef(newLeftWidth + rightWidth + r, call.getType());
                    }
                }
                return super.visitCall(call);
            }

            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return ref.getIndex() < leftWidth ? ref : new RexInputRef(ref.getIndex() + leftExprs.size(), ref.getType());
            }
        });
        RelNode newLeft = withColumns(left, leftExprs);
        RelNode newRight = withColumns(right, rightExprs);
        if (newLeft == null || newRight == null) {
            return null;
        }
        Join computed = join.copy(join.getTraitSet(), condition, newLeft, newRight,
                join.getJoinType(), join.isSemiJoinDone());
        if (!runs(computed)) {
            return null;
        }
        NumacolJoin numacol = new NumacolJoin(join.getCluster(), traits, newLeft, newRight, condition, join.getJoinType(),
                buildsLeft(computed, newLeft, newRight));
        List<RexNode> kept = new ArrayList<>();
        for (int c = 0; c < join.getRowType().getFieldCount(); c++) {
            int at = c < leftWidth ? c : c + leftExprs.size();
            kept.add(rexBuilder.makeInputRef(numacol, at));
        }
        return new NumacolProject(join.getCluster(), traits, numacol, kept, join.getRowType());
    }

    /**
     * An inner join whose condition compares what neither side computes alone ({@code CASE WHEN
     * a.b THEN a.d ELSE b.d END <> ..}) as the join on its keys (none: a product) with the rest
     * of its condition a filter above ({@link #computedFilter}); null when that does not run.
     * Calcite's nested-loop join, the alternative, holds its output on the heap.
     */
    private static RelNode filteredAbove(LogicalJoin join, RelNode left, RelNode right, RelTraitSet traits) {
        JoinInfo info = join.analyzeCondition();
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        Join keyed = join.copy(join.getTraitSet(), info.getEquiCondition(left, right, rexBuilder), left, right,
                JoinRelType.INNER, join.isSemiJoinDone());
        if (info.isEqui() || !runs(keyed)) {
            return null;
        }
        NumacolJoin numacol = new NumacolJoin(join.getCluster(), traits, left, right, keyed.getCondition(), JoinRelType.INNER,
                buildsLeft(keyed, left, right));
        return computedFilter(residual(join, info), numacol, traits);
    }

    /** Whether {@code call} compares two values: its operands may be computed as columns first. */
    private static boolean comparison(RexCall call) {
        return call.getKind().belongsTo(SqlKind.COMPARISON) || call.getKind() == SqlKind.IS_DISTINCT_FROM
                || call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM;
    }

    /**
     * Whether computing {@code e} can never fail: below a join it is computed for every row,
     * also for rows no pair would have reached, so a division (by zero), a CAST that checks its
     * range or integer arithmetic (overflow) must stay in the condition.
     */
    private static boolean cannotFail(RexNode e) {
        if (!(e instanceof RexCall c)) {
            return true;
        }
        boolean unchecked = switch (c.getKind()) {
            case DIVIDE -> false;
            case CAST, PLUS, MINUS, TIMES, MINUS_PREFIX -> SqlTypeUtil.isApproximateNumeric(c.getType())
                    || (c.getType().getSqlTypeName() == SqlTypeName.DECIMAL && c.getType().getPrecision() > ColumnType.MAX_DECIMAL_PRECISION)
                    || (c.getKind() != SqlKind.CAST && c.getType().getSqlTypeName() == SqlTypeName.DECIMAL)
                    || (c.getKind() != SqlKind.CAST && c.getType().getSqlTypeName() == SqlTypeName.DATE); // days or months added: cannot fail
            default -> true;
        };
        return unchecked && c.getOperands().stream().allMatch(NumacolRules::cannotFail);
    }

    /** {@code input}'s columns followed by {@code exprs} computed from them, or null when the pipeline executor cannot. */
    private static RelNode withColumns(RelNode input, List<RexNode> exprs) {
        if (exprs.isEmpty()) {
            return input;
        }
        RexBuilder rexBuilder = input.getCluster().getRexBuilder();
        List<RexNode> projects = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (RelDataTypeField f : input.getRowType().getFieldList()) {
            projects.add(rexBuilder.makeInputRef(input, f.getIndex()));
            names.add(f.getName());
        }
        for (int i = 0; i < exprs.size(); i++) {
            projects.add(exprs.get(i));
            names.add("$computed" + i);
        }
        RelDataType rowType = RexUtil.createStructType(input.getCluster().getTypeFactory(), projects, names, null);
        NumacolProject p = new NumacolProject(input.getCluster(), unordered(input), input,
                projects, rowType);
        return pipelined(p) ? p : null;
    }

    /**
     * Whether the pipeline executor runs a join of this type and condition over its inputs' row
     * types: INNER, LEFT, RIGHT, FULL, SEMI or ANTI; keys that compare by stored value; the rest of
     * the condition on values. A join without keys (a cross product, a condition of inequalities)
     * puts every build row in one chain and tests each pair: Calcite's nested-loop join, the
     * alternative, loses duplicate rows of a one-column side in RIGHT and FULL joins (it marks
     * matched rows in an identity set, and such rows are shared boxed values).
     */
    static boolean runs(Join join) {
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        JoinRelType type = join.getJoinType();
        if (type != JoinRelType.INNER && type != JoinRelType.LEFT && type != JoinRelType.RIGHT && type != JoinRelType.FULL
                && type != JoinRelType.SEMI && type != JoinRelType.ANTI) {
            return false;
        }
        JoinInfo info = join.analyzeCondition();
        RexNode rest = residual(join, info);
        if (rest != null) {
            List<ColumnType> pair = new ArrayList<>(RowExpressions.chunkTypes(left));
            pair.addAll(RowExpressions.chunkTypes(right));
            if (!RowConditions.supports(rest, pair)) {
                return false;
            }
        }
        List<RelDataTypeField> l = left.getRowType().getFieldList();
        List<RelDataTypeField> r = right.getRowType().getFieldList();
        for (int i = 0; i < info.leftKeys.size(); i++) {
            ColumnType a = RowExpressions.chunkType(l.get(info.leftKeys.get(i)).getType());
            ColumnType b = RowExpressions.chunkType(r.get(info.rightKeys.get(i)).getType());
            if (a == null || b == null || !PlanNode.comparableKeys(a, b)) {
                return false;
            }
        }
        return true;
    }

    /** What of a join's condition is not key equalities, SEARCH expanded, or null when nothing is. */
    static RexNode residual(Join join, JoinInfo info) {
        if (info.isEqui()) {
            return null;
        }
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        return flat(rexBuilder, RexUtil.expandSearch(rexBuilder, null, RexUtil.composeConjunction(rexBuilder, info.nonEquiConditions)));
    }

    /** {@code e} with no AND directly in an AND, nor OR in an OR, at any depth. */
    private static RexNode flat(RexBuilder rexBuilder, RexNode e) {
        return e.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexNode visited = super.visitCall(call);
                return visited.isA(SqlKind.AND) || visited.isA(SqlKind.OR) ? RexUtil.flatten(rexBuilder, visited) : visited;
            }
        });
    }

    /** Whether {@code rel} holds what only the pipeline executor runs: a join, a condition on values, an aggregate or sort below. */
    private static boolean joined(RelNode rel) {
        return rel instanceof NumacolJoin || rel instanceof NumacolAggregate || rel instanceof NumacolSort
                || (rel instanceof NumacolFilter f && f.isResidual()) || rel.getInputs().stream().anyMatch(NumacolRules::joined);
    }

    /** {@code filter}'s condition on values over {@code input}, which the pipeline executor runs; null if it cannot. */
    private static RelNode residual(LogicalFilter filter, RelNode input) {
        if (!pipelined(input)) {
            return null;
        }
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        // flat, as a Filter's condition must be: expanding SEARCH nests ANDs in ORs; a long IN list
        // stays one SEARCH, which RowConditions looks up
        RexNode condition = flat(rexBuilder, expandFewPoints(rexBuilder, filter.getCondition()));
        if (!RowConditions.supports(condition, RowConditions.types(input))) {
            return computedFilter(condition, input, unordered(filter));
        }
        return new NumacolFilter(filter.getCluster(), unordered(filter), input, condition, true);
    }

    /** {@code e} with its SEARCHes expanded into comparisons, but for long IN lists ({@link RowConditions#manyPoints}). */
    private static RexNode expandFewPoints(RexBuilder rexBuilder, RexNode e) {
        return e.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                if (call.getKind() == SqlKind.SEARCH) {
                    return RowConditions.manyPoints(call) ? call : RexUtil.expandSearch(rexBuilder, null, call);
                }
                return super.visitCall(call);
            }
        });
    }

    /**
     * {@code condition} over {@code input} with the operands of its comparisons that are
     * expressions ({@code CASE WHEN b THEN d1 ELSE d2 END <> DATE '..'}, {@code v + 1 IN (...)})
     * computed as columns by a projection below the filter, and a projection above that drops
     * them again; null when even that does not run. A projection computes its expressions for
     * every row it gets, so an operand that can fail (an overflow, a division by zero) is computed
     * only as an operand of a whole conjunct, and only for the rows that passed the conjuncts
     * before it: each such conjunct starts a filter of its own over the filters of those before,
     * which tests conjuncts left to right as PostgreSQL's evaluation does, so that a guard such as
     * {@code k <> 0 AND 10 / k > 1} keeps its meaning (Calcite's generated code computed the
     * division for every row, and failed). A conjunct numacol's scan can test was pushed into the
     * scan, before all of these.
     */
    private static RelNode computedFilter(RexNode condition, RelNode input, RelTraitSet traits) {
        RexBuilder rexBuilder = input.getCluster().getRexBuilder();
        List<List<RexNode>> segments = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (segments.isEmpty() || mayFail(conjunct)) {
                segments.add(new ArrayList<>());
            }
            segments.getLast().add(conjunct);
        }
        RelNode rel = input;
        for (List<RexNode> segment : segments) {
            RexNode part = RexUtil.composeConjunction(rexBuilder, segment);
            rel = segments.size() > 1 && RowConditions.supports(part, RowConditions.types(rel))
                    ? new NumacolFilter(input.getCluster(), traits, rel, part, true)
                    : computedSegment(part, segment.getFirst(), rel, traits);
            if (rel == null) {
                return null;
            }
        }
        return rel;
    }

    /** Whether an operand of {@code conjunct}'s comparison (or SEARCH) is an expression whose computing can fail. */
    private static boolean mayFail(RexNode conjunct) {
        return conjunct instanceof RexCall call && (comparison(call) || call.getKind() == SqlKind.SEARCH)
                && compared(call).stream().anyMatch(o -> o instanceof RexCall && !cannotFail(o));
    }

    /** The operands of a comparison, or the searched one of a SEARCH (its other is the Sarg). */
    private static List<RexNode> compared(RexCall call) {
        return call.getKind() == SqlKind.SEARCH ? call.getOperands().subList(0, 1) : call.getOperands();
    }

    /** One filter of {@link #computedFilter}: {@code first}, its first conjunct, may compute operands that can fail. */
    private static RelNode computedSegment(RexNode condition, RexNode first, RelNode input, RelTraitSet traits) {
        int width = input.getRowType().getFieldCount();
        List<ColumnType> types = RowExpressions.chunkTypes(input);
        List<RexNode> exprs = new ArrayList<>();
        condition.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (comparison(call) || call.getKind() == SqlKind.SEARCH) {
                    boolean whole = call.equals(first);
                    for (RexNode operand : compared(call)) {
                        if (operand instanceof RexCall && !RelOptUtil.InputFinder.bits(operand).isEmpty()
                                && (whole || cannotFail(operand))
                                && !exprs.contains(operand) && RowExpressions.chunkExpr(operand, types) != null) {
                            exprs.add(operand);
                        }
                    }
                }
                return super.visitCall(call);
            }
        });
        if (exprs.isEmpty()) {
            return null;
        }
        RexNode computed = condition.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                int at = exprs.indexOf(call);
                return at >= 0 ? new RexInputRef(width + at, call.getType()) : super.visitCall(call);
            }
        });
        RelNode columns = withColumns(input, exprs);
        if (columns == null || !RowConditions.supports(computed, RowConditions.types(columns))) {
            return null;
        }
        NumacolFilter filter = new NumacolFilter(input.getCluster(), traits, columns, computed, true);
        RexBuilder rexBuilder = input.getCluster().getRexBuilder();
        List<RexNode> kept = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            kept.add(rexBuilder.makeInputRef(filter, c));
        }
        return new NumacolProject(input.getCluster(), traits, filter, kept, input.getRowType());
    }

    /** Rows a filter, projection or aggregate can take: a scan, filtered or projected. */
    private static boolean rowSource(RelNode input) {
        return (input instanceof NumacolTableScan || input instanceof NumacolFilter || input instanceof NumacolProject)
                && !joined(input);
    }

    private static boolean literalOrAbsent(RexNode n) {
        return n == null || n instanceof RexLiteral;
    }

    static boolean supported(AggregateCall c) {
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
            if (types.stream().allMatch(Objects::nonNull) && Predicates.supports(expanded, types)) {
                pushed.addAll(RelOptUtil.conjunctions(expanded));
            } else {
                rest.add(conjunct);
            }
        }
        if (pushed.isEmpty()) {
            return filter;
        }
        RelNode result = new NumacolFilter(filter.getCluster(), unordered(filter), below,
                RexUtil.composeConjunction(rexBuilder, pushed));
        if (columns != null) {
            result = columns.copy(columns.getTraitSet(), List.of(result));
        }
        return rest.isEmpty() ? result : LogicalFilter.create(result, RexUtil.composeConjunction(rexBuilder, rest));
    }

    static final class ToEnumerable extends ConverterRule {
        ToEnumerable(ConverterRule.Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            return new NumacolToEnumerableConverter(rel.getCluster(),
                    rel.getTraitSet().replace(EnumerableConvention.INSTANCE), rel);
        }
    }
}
