package io.numacol.calcite.plan;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * numacol's decorrelation of the Correlates that Calcite's subquery removal leaves, after
 * Neumann and Kemper's "Unnesting Arbitrary Queries" (BTW 2015): the distinct correlation values
 * of a Correlate's left side, D, are pushed down its right side, every operator on the way
 * carrying D's columns after its own, until the correlation variable's uses can read them; the
 * Correlate becomes a join of its left side with that right side on the correlation values.
 *
 * <p>The values are matched with IS NOT DISTINCT FROM wherever they can be NULL: a left row whose
 * value is NULL gets the right side that the NULL binding gives (an empty NOT IN is TRUE for it),
 * where Calcite's decorrelator matched with {@code =} values it wrongly believed never NULL
 * (a Calcite defect, listed in the package {@code io.numacol.calcite.plan.rewrite}). A filter
 * {@code expr = $cor.f} over an uncorrelated input joins that input with D on the equality instead
 * of pairing it with every value; when such equalities bind every correlation value, D is not needed there at all and the value is {@code expr} (TPC-H Q2,
 * Q17, Q20). A scalar aggregate answers one row for every value of D, COUNT 0 over no rows
 * (the "count bug"): D left-joined with the grouped aggregate, unless the Correlate's LEFT join
 * gives the NULLs an empty aggregate would. Each operator gets its own D columns, so no operator
 * reads a value generated for another (two Calcite defects the rewrite package lists were of
 * Calcite's sharing).
 *
 * <p>A Correlate whose right side has an operator this does not know with a correlated input (a
 * window, a sort with a limit, a FULL join) stays as it is, and Calcite's correlate operator runs
 * it row by row.
 */
final class Decorrelator {
    private final LogicalCorrelate correlate;
    private final CorrelationId id;
    private final RelBuilder builder;
    private final RexBuilder rex;
    /** The left side's columns the right side reads, in order: D's columns. */
    private final int[] fields;
    /** The distinct correlation values, made when first needed. */
    private RelNode values;
    /** The scalar aggregate grouped by D's columns alone, not left-joined with D (see {@link #scalarWithNulls}). */
    private Aggregate leftOpen;

    private Decorrelator(LogicalCorrelate correlate, RelBuilder builder) {
        this.correlate = correlate;
        this.id = correlate.getCorrelationId();
        this.builder = builder;
        this.rex = correlate.getCluster().getRexBuilder();
        this.fields = correlate.getRequiredColumns().toArray();
    }

    /**
     * {@code root} with every Correlate this can rewrite rewritten, innermost first. A filter
     * above a rewritten Correlate (a WHERE subquery's) goes below the projection that drops D's
     * columns, onto the join, where the join rules find its conditions.
     */
    static RelNode decorrelate(RelNode root, RelBuilder builder) {
        Set<RelNode> trims = Collections.newSetFromMap(new IdentityHashMap<>());
        return root.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalCorrelate correlate) {
                RelNode visited = super.visit(correlate);
                if (!(visited instanceof LogicalCorrelate c)) {
                    return visited;
                }
                RelNode rewritten = new Decorrelator(c, builder).rewrite();
                if (rewritten == null) {
                    return c;
                }
                if (rewritten instanceof Project) {
                    trims.add(rewritten);
                }
                return rewritten;
            }

            @Override
            public RelNode visit(LogicalFilter filter) {
                RelNode visited = super.visit(filter);
                if (visited instanceof LogicalFilter f && f.getInput() instanceof Project trim && trims.contains(trim)) {
                    // the trim keeps a prefix of the join's columns: the condition reads the join's own
                    RelNode below = f.copy(f.getTraitSet(), trim.getInput(), f.getCondition());
                    RelNode moved = trim.copy(trim.getTraitSet(), List.of(below));
                    trims.add(moved);
                    return moved;
                }
                return visited;
            }
        });
    }

    /** The right side with D's columns after its own: {@code rel}'s rows for each value of D, paired with it. */
    private record Pushed(RelNode rel, int width) {
        /** The column of D's {@code i}-th value. */
        int value(int i) {
            return width + i;
        }
    }

    /** Thrown where the right side has an operator this cannot push D through: the Correlate stays. */
    private static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false);
        }
    }

    private RelNode rewrite() {
        JoinRelType type = correlate.getJoinType();
        RelNode left = correlate.getLeft();
        RelNode right = correlate.getRight();
        int leftWidth = left.getRowType().getFieldCount();
        Pushed pushed;
        JoinRelType joinType = type;
        try {
            leftOpen = type == JoinRelType.LEFT || type == JoinRelType.INNER ? scalarWithNulls(right) : null;
            if (leftOpen != null) {
                // a row for every value, NULLs where it has none: LEFT's NULLs are the ones it would answer
                joinType = JoinRelType.LEFT;
            }
            pushed = push(right);
        } catch (Unsupported e) {
            builder.clear(); // what the push had stacked
            return null;
        }
        List<RexNode> matches = new ArrayList<>();
        for (int i = 0; i < fields.length; i++) {
            RexNode l = RexInputRef.of(fields[i], left.getRowType());
            RexNode r = new RexInputRef(leftWidth + pushed.value(i),
                    pushed.rel().getRowType().getFieldList().get(pushed.value(i)).getType());
            matches.add(rex.makeCall(l.getType().isNullable() ? SqlStdOperatorTable.IS_NOT_DISTINCT_FROM
                    : SqlStdOperatorTable.EQUALS, l, r));
        }
        builder.push(left).push(pushed.rel()).join(joinType, RexUtil.composeConjunction(rex, matches));
        if (type == JoinRelType.SEMI || type == JoinRelType.ANTI) {
            return builder.build();
        }
        List<RexNode> columns = new ArrayList<>();
        for (int c = 0; c < leftWidth + pushed.width(); c++) {
            columns.add(builder.field(c));
        }
        RelNode joined = builder.project(columns, correlate.getRowType().getFieldNames(), true).build();
        if (!RelOptUtil.areRowTypesEqual(joined.getRowType(), correlate.getRowType(), false)) {
            return null; // a nullability the join cannot promise: leave it to Calcite's operator
        }
        return joined;
    }

    /**
     * The scalar aggregate under {@code right}'s projections if its calls, and so every column,
     * are NULL over no rows, else null: its Correlate's join may then leave out the values it has
     * no rows for, and go LEFT.
     */
    private static Aggregate scalarWithNulls(RelNode right) {
        RelNode rel = right;
        while (rel instanceof Project p) {
            ImmutableBitSet nulls = ImmutableBitSet.range(p.getInput().getRowType().getFieldCount());
            for (RexNode e : p.getProjects()) {
                if (!Strong.isNull(e, nulls)) {
                    return null;
                }
            }
            rel = p.getInput();
        }
        return rel instanceof Aggregate a && a.getGroupSet().isEmpty() && a.getGroupSets().size() == 1
                && a.getAggCallList().stream().allMatch(Decorrelator::nullOverNoRows) ? a : null;
    }

    private static boolean nullOverNoRows(AggregateCall call) {
        SqlKind kind = call.getAggregation().getKind();
        return kind != SqlKind.COUNT && kind != SqlKind.SUM0 && kind != SqlKind.REGR_COUNT;
    }

    private Pushed push(RelNode rel) {
        if (!correlated(rel)) {
            return cross(rel);
        }
        if (rel instanceof Filter f) {
            return filter(f);
        }
        if (rel instanceof Project p) {
            Pushed input = push(p.getInput());
            List<RexNode> exprs = new ArrayList<>(replace(p.getProjects(), input));
            List<String> names = new ArrayList<>(p.getRowType().getFieldNames());
            appendValues(exprs, names, input);
            return new Pushed(builder.push(input.rel()).project(exprs, names, true).build(), p.getProjects().size());
        }
        if (rel instanceof Aggregate a) {
            return aggregate(a);
        }
        if (rel instanceof Join j) {
            return join(j);
        }
        if (rel instanceof Sort s && s.fetch == null && s.offset == null) {
            return push(s.getInput()); // the order of a subquery's rows is no one's
        }
        if (rel instanceof LogicalUnion || rel instanceof LogicalIntersect || rel instanceof LogicalMinus) {
            SetOp op = (SetOp) rel;
            for (RelNode input : op.getInputs()) {
                builder.push(push(input).rel());
            }
            int width = op.getRowType().getFieldCount();
            switch (op.kind) {
                case UNION -> builder.union(op.all, op.getInputs().size());
                case INTERSECT -> builder.intersect(op.all, op.getInputs().size());
                default -> builder.minus(op.all, op.getInputs().size());
            }
            return new Pushed(builder.build(), width);
        }
        throw new Unsupported();
    }

    /** An uncorrelated {@code rel} paired with every value of D. */
    private Pushed cross(RelNode rel) {
        return new Pushed(builder.push(rel).push(values()).join(JoinRelType.INNER, rex.makeLiteral(true)).build(),
                rel.getRowType().getFieldCount());
    }

    /**
     * A filter: where its input is uncorrelated, the conjuncts {@code expr = $cor.f} join the
     * input with D (or, binding every value, make D's columns of their expressions); the rest is
     * a filter that reads D's columns.
     */
    private Pushed filter(Filter f) {
        RelNode input = f.getInput();
        int width = input.getRowType().getFieldCount();
        if (correlated(input)) {
            Pushed pushed = push(input);
            RexNode condition = replace(List.of(f.getCondition()), pushed).getFirst();
            return new Pushed(builder.push(pushed.rel()).filter(condition).build(), width);
        }
        RexNode[] bound = new RexNode[fields.length];
        List<RexNode> rest = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(f.getCondition())) {
            int i = binding(conjunct);
            if (i >= 0 && bound[i] == null) {
                RexCall call = (RexCall) conjunct;
                bound[i] = correlated(call.getOperands().get(0)) ? call.getOperands().get(1) : call.getOperands().get(0);
            } else {
                rest.add(conjunct);
            }
        }
        boolean all = true;
        for (RexNode b : bound) {
            all &= b != null;
        }
        if (all) {
            // D is not needed: each value is its expression's, which = kept from NULL
            builder.push(input);
            List<RexNode> conditions = new ArrayList<>();
            for (RexNode b : bound) {
                conditions.add(builder.isNotNull(b));
            }
            List<RexNode> exprs = new ArrayList<>(builder.fields());
            List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
            for (int i = 0; i < fields.length; i++) {
                exprs.add(bound[i]);
                names.add("$cor" + i);
            }
            Pushed pushed = new Pushed(builder.filter(conditions).project(exprs, names, true).build(), width);
            return new Pushed(builder.push(pushed.rel()).filter(replace(rest, pushed)).build(), width);
        }
        // join with D on the bound values (a product with it where none is)
        RelNode d = values();
        List<RexNode> keys = new ArrayList<>();
        for (int i = 0; i < fields.length; i++) {
            if (bound[i] != null) {
                RexNode value = new RexInputRef(width + i, d.getRowType().getFieldList().get(i).getType());
                keys.add(rex.makeCall(SqlStdOperatorTable.EQUALS, bound[i], value));
            }
        }
        RelNode joined = builder.push(input).push(d).join(JoinRelType.INNER, RexUtil.composeConjunction(rex, keys)).build();
        Pushed pushed = new Pushed(joined, width);
        return new Pushed(builder.push(joined).filter(replace(rest, pushed)).build(), width);
    }

    /**
     * The value a conjunct {@code expr = $cor.f} binds (its index in D), or -1: {@code expr} must
     * be uncorrelated and of the variable's type, and not a floating type, whose = holds between
     * values that a join's key does not match (-0.0 and 0.0).
     */
    private int binding(RexNode conjunct) {
        if (conjunct.getKind() != SqlKind.EQUALS) {
            return -1;
        }
        List<RexNode> operands = ((RexCall) conjunct).getOperands();
        for (int side = 0; side < 2; side++) {
            RexNode variable = operands.get(side);
            RexNode expr = operands.get(1 - side);
            if (variable instanceof RexFieldAccess access && access.getReferenceExpr() instanceof RexCorrelVariable v
                    && v.id.equals(id) && !correlated(expr)
                    && SqlTypeUtil.equalSansNullability(correlate.getCluster().getTypeFactory(), expr.getType(), access.getType())
                    && expr.getType().getSqlTypeName().getFamily() != SqlTypeFamily.APPROXIMATE_NUMERIC) {
                int field = access.getField().getIndex();
                for (int i = 0; i < fields.length; i++) {
                    if (fields[i] == field) {
                        return i;
                    }
                }
            }
        }
        return -1;
    }

    /**
     * An aggregate grouped by D's columns as well. A scalar aggregate answers a row for every
     * value of D: D left-joined with the grouped one, whose COUNTs are 0 where it has no rows.
     */
    private Pushed aggregate(Aggregate a) {
        if (a.getGroupSets().size() != 1) {
            throw new Unsupported();
        }
        Pushed input = push(a.getInput());
        ImmutableBitSet group = a.getGroupSet();
        int groups = group.cardinality();
        ImmutableBitSet.Builder keys = group.rebuild();
        for (int i = 0; i < fields.length; i++) {
            keys.set(input.value(i));
        }
        builder.push(input.rel()).aggregate(builder.groupKey(keys.build()), a.getAggCallList().stream()
                .map(call -> builder.aggregateCall(call)).toList());
        // group keys, D's columns, calls -> group keys, calls, D's columns
        List<RexNode> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>(a.getRowType().getFieldNames());
        for (int i = 0; i < groups; i++) {
            exprs.add(builder.field(i));
        }
        for (int i = 0; i < a.getAggCallList().size(); i++) {
            exprs.add(builder.field(groups + fields.length + i));
        }
        for (int i = 0; i < fields.length; i++) {
            exprs.add(builder.field(groups + i));
            names.add("$cor" + i);
        }
        RelNode grouped = builder.project(exprs, names, true).build();
        int width = a.getRowType().getFieldCount();
        if (groups > 0 || a == leftOpen) {
            return new Pushed(grouped, width);
        }
        // D LEFT JOIN the grouped aggregate on the values; D's columns last
        RelNode d = values();
        List<RexNode> matches = new ArrayList<>();
        for (int i = 0; i < fields.length; i++) {
            RelDataType t = d.getRowType().getFieldList().get(i).getType();
            matches.add(rex.makeCall(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, new RexInputRef(i, t),
                    new RexInputRef(fields.length + width + i, grouped.getRowType().getFieldList().get(width + i).getType())));
        }
        builder.push(d).push(grouped).join(JoinRelType.LEFT, RexUtil.composeConjunction(rex, matches));
        List<RexNode> out = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            RexNode column = builder.field(fields.length + i);
            AggregateCall call = a.getAggCallList().get(i);
            out.add(nullOverNoRows(call) ? column
                    : rex.makeCast(call.getType(), builder.call(SqlStdOperatorTable.COALESCE, column,
                    rex.makeZeroLiteral(call.getType())), true, false));
        }
        for (int i = 0; i < fields.length; i++) {
            out.add(builder.field(i));
        }
        return new Pushed(builder.project(out, names, true).build(), width);
    }

    /**
     * A join: D goes into each correlated side and into the side whose rows the join keeps
     * (outer, semi and anti joins' left, a RIGHT join's right), whose D columns the join
     * answers; where both sides have them, the join also matches them.
     */
    private Pushed join(Join j) {
        JoinRelType type = j.getJoinType();
        if (type == JoinRelType.FULL) {
            throw new Unsupported();
        }
        if (type == JoinRelType.INNER && correlated(j.getCondition()) && !correlated(j.getLeft()) && !correlated(j.getRight())) {
            // its correlated conjuncts as a filter above: the filter's bindings apply
            List<RexNode> plain = new ArrayList<>();
            List<RexNode> bound = new ArrayList<>();
            for (RexNode c : RelOptUtil.conjunctions(j.getCondition())) {
                (correlated(c) ? bound : plain).add(c);
            }
            RelNode inner = builder.push(j.getLeft()).push(j.getRight()).join(JoinRelType.INNER, plain).build();
            return push(builder.push(inner).filter(bound).build());
        }
        // D's columns the join answers: those of the side it keeps, or of a correlated side of an inner join
        boolean fromLeft = type == JoinRelType.INNER ? correlated(j.getLeft()) || !correlated(j.getRight()) : type != JoinRelType.RIGHT;
        boolean leftNeeds = fromLeft || correlated(j.getLeft());
        boolean rightNeeds = !fromLeft || correlated(j.getRight());
        int leftWidth = j.getLeft().getRowType().getFieldCount();
        int rightWidth = type.projectsRight() ? j.getRight().getRowType().getFieldCount() : 0;
        Pushed left = leftNeeds ? push(j.getLeft()) : new Pushed(j.getLeft(), leftWidth);
        Pushed right = rightNeeds ? push(j.getRight()) : new Pushed(j.getRight(), j.getRight().getRowType().getFieldCount());
        int leftOut = left.rel().getRowType().getFieldCount();
        // the condition over the new sides: the right's columns move past the left's D columns
        RexNode condition = j.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return ref.getIndex() < leftWidth ? ref : new RexInputRef(ref.getIndex() - leftWidth + leftOut, ref.getType());
            }
        });
        Pushed r = right;
        condition = replace(List.of(condition), fromLeft ? i -> RexInputRef.of(left.value(i), left.rel().getRowType())
                : i -> new RexInputRef(leftOut + r.value(i), r.rel().getRowType().getFieldList().get(r.value(i)).getType())).getFirst();
        List<RexNode> conditions = new ArrayList<>(List.of(condition));
        if (leftNeeds && rightNeeds) {
            for (int i = 0; i < fields.length; i++) {
                conditions.add(rex.makeCall(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM,
                        RexInputRef.of(left.value(i), left.rel().getRowType()),
                        new RexInputRef(leftOut + right.value(i), right.rel().getRowType().getFieldList().get(right.value(i)).getType())));
            }
        }
        builder.push(left.rel()).push(right.rel()).join(type, RexUtil.composeConjunction(rex, conditions));
        List<RexNode> exprs = new ArrayList<>();
        for (int i = 0; i < leftWidth; i++) {
            exprs.add(builder.field(i));
        }
        for (int i = 0; i < rightWidth; i++) {
            exprs.add(builder.field(leftOut + i));
        }
        for (int i = 0; i < fields.length; i++) {
            exprs.add(builder.field(fromLeft ? left.value(i) : leftOut + right.value(i)));
        }
        return new Pushed(builder.project(exprs).build(), leftWidth + rightWidth);
    }

    /** D: the distinct values of the left side's columns the right side reads. */
    private RelNode values() {
        if (values == null) {
            builder.push(correlate.getLeft());
            values = builder.aggregate(builder.groupKey(ImmutableBitSet.of(fields))).build();
        }
        return values;
    }

    private void appendValues(List<RexNode> exprs, List<String> names, Pushed input) {
        for (int i = 0; i < fields.length; i++) {
            exprs.add(RexInputRef.of(input.value(i), input.rel().getRowType()));
            names.add("$cor" + i);
        }
    }

    /** {@code exprs} reading D's columns of {@code input} where they read the variable. */
    private List<RexNode> replace(List<RexNode> exprs, Pushed input) {
        return replace(exprs, i -> RexInputRef.of(input.value(i), input.rel().getRowType()));
    }

    /** {@code exprs} reading {@code value.apply(i)} where they read the variable's {@code i}-th value. */
    private List<RexNode> replace(List<RexNode> exprs, IntFunction<RexInputRef> value) {
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(id)) {
                    int field = access.getField().getIndex();
                    for (int i = 0; i < fields.length; i++) {
                        if (fields[i] == field) {
                            RexNode column = value.apply(i);
                            return column.getType().equals(access.getType()) ? column
                                    : rex.makeCast(access.getType(), column, true, false);
                        }
                    }
                    throw new Unsupported();
                }
                return super.visitFieldAccess(access);
            }
        };
        return exprs.stream().map(e -> e.accept(shuttle)).toList();
    }

    /** Whether {@code rel} or an input of it reads the variable. */
    private boolean correlated(RelNode rel) {
        boolean[] found = {false};
        rel.accept(finder(found));
        if (found[0]) {
            return true;
        }
        for (RelNode input : rel.getInputs()) {
            if (correlated(input)) {
                return true;
            }
        }
        return false;
    }

    private boolean correlated(RexNode expr) {
        boolean[] found = {false};
        expr.accept(finder(found));
        return found[0];
    }

    private RexShuttle finder(boolean[] found) {
        return new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                found[0] |= variable.id.equals(id);
                return variable;
            }
        };
    }
}
