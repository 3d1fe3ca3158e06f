package io.numacol.calcite.plan;

import com.google.common.collect.ImmutableSet;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Correlated {@code EXISTS} and {@code NOT EXISTS} conjuncts of a WHERE clause as SEMI and ANTI
 * joins whose condition is the subquery's correlated filter, as DuckDB and HyPer plan them
 * (TPC-H Q4, Q21, Q22). Calcite would remove the subquery as a Correlate and decorrelate that by
 * joining the subquery with the outer query's distinct correlation values: for Q21, whose
 * correlation is {@code l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey}, that
 * repeats the whole outer join inside each subquery and groups lineitem by both keys.
 *
 * <p>Taken are subqueries that are projections over one filter whose input reads no
 * correlation variable; the filter's condition, with the outer row's fields in place of the
 * variable, becomes the join condition. A NULL in it matches nothing, as in the subquery's WHERE.
 * The other conjuncts filter the input first; which of them run first does not change the rows.
 * A correlated condition that reads only the outer row joins nothing: it stays a condition of
 * the outer row beside an uncorrelated EXISTS ({@link #outerOnly}).
 */
final class ExistsJoins {
    private ExistsJoins() {
    }

    /** {@code plan} with the EXISTS and NOT EXISTS conjuncts of its filters as joins where they can be. */
    static RelNode rewrite(RelNode plan) {
        return plan.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalFilter filter) {
                RelNode visited = super.visit(filter);
                return visited instanceof LogicalFilter f ? asJoins(f) : visited;
            }
        });
    }

    private static RelNode asJoins(LogicalFilter filter) {
        if (filter.getVariablesSet().size() != 1) {
            return filter;
        }
        CorrelationId id = filter.getVariablesSet().iterator().next();
        RelNode input = filter.getInput();
        List<RexNode> rest = new ArrayList<>();
        List<RelNode> sides = new ArrayList<>();
        List<RexNode> conditions = new ArrayList<>();
        List<JoinRelType> types = new ArrayList<>();
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        boolean rewritten = false;
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            boolean negated = conjunct.getKind() == SqlKind.NOT;
            RexNode e = negated ? ((RexCall) conjunct).getOperands().getFirst() : conjunct;
            Filter inner = e instanceof RexSubQuery subQuery && subQuery.getKind() == SqlKind.EXISTS
                    ? correlatedFilter(subQuery.rel) : null;
            // the subquery's own conditions filter its side (Calcite's rules leave them in ANTI joins)
            List<RexNode> own = new ArrayList<>();
            List<RexNode> joining = new ArrayList<>();
            if (inner != null) {
                for (RexNode c : RelOptUtil.conjunctions(inner.getCondition())) {
                    (RexUtil.containsCorrelation(c) ? joining : own).add(c);
                }
            }
            RexNode condition = joining.isEmpty() ? null
                    : joinCondition(RexUtil.composeConjunction(rexBuilder, joining), id, input);
            if (condition == null) {
                rest.add(conjunct);
                continue;
            }
            RelNode side = own.isEmpty() ? inner.getInput()
                    : LogicalFilter.create(inner.getInput(), RexUtil.composeConjunction(rexBuilder, own));
            if (RelOptUtil.InputFinder.bits(condition).nextSetBit(input.getRowType().getFieldCount()) < 0) {
                rest.add(outerOnly(rexBuilder, condition, side, negated));
                rewritten = true;
                continue;
            }
            sides.add(side);
            conditions.add(condition);
            types.add(negated ? JoinRelType.ANTI : JoinRelType.SEMI);
        }
        if (sides.isEmpty() && !rewritten) {
            return filter;
        }
        RelNode result = input;
        if (!rest.isEmpty()) {
            RexNode condition = RexUtil.composeConjunction(rexBuilder, rest);
            boolean correlated = rest.stream().anyMatch(r -> RexUtil.SubQueryFinder.find(r) != null);
            result = LogicalFilter.create(input, condition, correlated ? ImmutableSet.copyOf(filter.getVariablesSet()) : ImmutableSet.of());
        }
        for (int i = 0; i < sides.size(); i++) {
            result = LogicalJoin.create(result, sides.get(i), List.of(), conditions.get(i), Set.of(), types.get(i));
        }
        return result;
    }

    /**
     * An EXISTS whose correlated condition reads only the outer row, as that condition and an
     * uncorrelated EXISTS of the subquery's rows: {@code c IS TRUE AND EXISTS (side)}, or for NOT
     * EXISTS {@code c IS NOT TRUE OR NOT EXISTS (side)}. As a join its condition would be a
     * nested loop over both sides that finds no key; a row whose c is not TRUE scanned the whole
     * side to keep or drop it (a random NOT EXISTS ran past its timeout).
     */
    private static RexNode outerOnly(RexBuilder rexBuilder, RexNode condition, RelNode side, boolean negated) {
        RexNode exists = RexSubQuery.exists(side);
        return negated
                ? rexBuilder.makeCall(SqlStdOperatorTable.OR, rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_TRUE, condition),
                        rexBuilder.makeCall(SqlStdOperatorTable.NOT, exists))
                : rexBuilder.makeCall(SqlStdOperatorTable.AND, rexBuilder.makeCall(SqlStdOperatorTable.IS_TRUE, condition), exists);
    }

    /** The one filter of a subquery's projections, if its input reads no correlation variable. */
    private static Filter correlatedFilter(RelNode rel) {
        while (rel instanceof Project project) {
            rel = project.getInput();
        }
        if (!(rel instanceof Filter filter) || RexUtil.SubQueryFinder.find(filter.getCondition()) != null
                || !RelOptUtil.getVariablesUsed(filter.getInput()).isEmpty()) {
            return null;
        }
        return filter;
    }

    /**
     * {@code innerCondition}, over the subquery's fields and the variable {@code id} of the outer
     * row, over {@code outer}'s fields and then the subquery's; null where it reads another
     * variable.
     */
    private static RexNode joinCondition(RexNode innerCondition, CorrelationId id, RelNode outer) {
        RexBuilder rexBuilder = outer.getCluster().getRexBuilder();
        int width = outer.getRowType().getFieldCount();
        boolean[] foreign = {false};
        RexNode condition = RexUtil.shift(innerCondition, width).accept(new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(id)) {
                    int field = access.getField().getIndex();
                    if (field < width && outer.getRowType().getFieldList().get(field).getType().equals(access.getType())) {
                        return rexBuilder.makeInputRef(access.getType(), field);
                    }
                    foreign[0] = true;
                }
                return super.visitFieldAccess(access);
            }
        });
        return foreign[0] || RexUtil.containsCorrelation(condition) ? null : condition;
    }
}
