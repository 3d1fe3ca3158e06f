package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * <b>Simplification that trips its own check.</b> Calcite's RexSimplify makes a predicate list of an
 * AND's terms before it folds a term that compares with NULL, and the list's constructor rejects such
 * a term with an AssertionError, with or without -ea ({@link #isNullComparisonInPredicates}):
 * {@code CASE WHEN NULLIF('ab', 'ab') BETWEEN 'ab' AND '' THEN ..} could not be converted. {@code
 * NumacolPrepare} converts such a query again with a RelBuilder that does not simplify, and
 * comparisons with NULL are folded before the planner's rules simplify ({@link #nullComparisons}),
 * also in subqueries (an EXISTS's {@code 50.09 > CAST(NULL AS DECIMAL(12, 2))} met RexSimplify once
 * it was a join). Arithmetic with NULL is folded as projections are made ({@link #PROJECTS}):
 * Calcite took {@code 37 / CAST(NULL AS INTEGER)} for a literal when it derived a projection's
 * collation. The plan cache ({@code PlanCache}) plans the text as written where a template meets
 * the check.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 23 of the second group, "RexSimplify's own check of a comparison with what
 * folds to NULL"; case 32, Calcite's predicate inference failing on its own check; case 28 of the
 * third group, the second conversion of a query the validator rewrote) and by {@code
 * PlanCacheTest#aTemplateCalciteCannotPlanFallsBackToTheText} (calcite-adapter). Upstream
 * issue: not filed.
 */
public final class NullComparisons {
    private NullComparisons() {
    }

    /**
     * Every comparison or arithmetic with a NULL literal folded to NULL, as SQL defines
     * it, so that no later simplification makes a predicate list of it nor takes it for a literal.
     */
    public static RelNode nullComparisons(RelNode plan) {
        return Rewrites.rewriteExpressions(plan, strictNulls(plan.getCluster().getRexBuilder()));
    }

    /** Calls of the operators that are NULL when an operand is. */
    private static final Set<SqlKind> STRICT = EnumSet.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.PLUS, SqlKind.MINUS,
            SqlKind.TIMES, SqlKind.DIVIDE, SqlKind.MOD, SqlKind.MINUS_PREFIX, SqlKind.PLUS_PREFIX);

    /**
     * Folds what RexSimplify's check needs folded: a strict call with a NULL operand, and a constant value
     * that is NULL ({@code NULLIF('ab', 'ab')}), so that a call over it is seen to be over NULL.
     */
    static RexShuttle strictNulls(RexBuilder rexBuilder) {
        RexSimplify simplify = new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY, RexUtil.EXECUTOR);
        return new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                // a whole constant tree is simplified once, at its top: simplified at every level
                // as well, 1 + 1 + ... + 1 of 1,000 terms took 11 s (each simplification walks the
                // tree below it, more than once)
                boolean constant = RexUtil.isConstant(call) && RexUtil.isDeterministic(call);
                RexNode visited = constant ? call : super.visitCall(call);
                if (!(visited instanceof RexCall c)) {
                    return visited;
                }
                if (STRICT.contains(c.getKind()) && c.getOperands().stream().anyMatch(o -> RexUtil.isNullLiteral(o, true))) {
                    return rexBuilder.makeNullLiteral(c.getType());
                }
                if (constant) { // booleans too: 5 IN (NULL, 4) is NULL
                    try {
                        RexNode folded = simplify.simplifyPreservingType(c);
                        return RexUtil.isNullLiteral(folded, true) ? folded : c;
                    } catch (RuntimeException | AssertionError e) {
                        return c;
                    }
                }
                return c;
            }

            /* The subquery's plan too: its conditions meet RexSimplify once the subquery is a join. */
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                RelNode rel = Rewrites.rewriteExpressions(visited.rel, this);
                return rel == visited.rel ? visited : visited.clone(rel);
            }
        };
    }

    /**
     * Calcite's projection factory, with {@link #strictNulls}' folding first: a projection's collation is
     * derived as it is made, and Calcite took {@code 37 / CAST(NULL AS INTEGER)} for a literal
     * there ("not a literal" AssertionError from RexLiteral.findValue).
     */
    public static final RelFactories.ProjectFactory PROJECTS = (input, hints, childExprs, fieldNames, variablesSet) -> {
        RexShuttle fold = strictNulls(input.getCluster().getRexBuilder());
        List<RexNode> folded = childExprs.stream().map(e -> e.accept(fold)).toList();
        return RelFactories.DEFAULT_PROJECT_FACTORY.createProject(input, hints, folded, fieldNames, variablesSet);
    };

    /** Whether {@code e} is RexSimplify's check of a comparison with NULL in its predicate list. */
    public static boolean isNullComparisonInPredicates(AssertionError e) {
        return e.getMessage() != null && e.getMessage().contains("Comparison with NULL in pulledUpPredicates");
    }
}
