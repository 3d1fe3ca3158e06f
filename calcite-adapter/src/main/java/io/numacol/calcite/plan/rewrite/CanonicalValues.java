package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Values of Calcite's operators made canonical, for three defects of Calcite's hash operators and
 * code generation:
 * <ul>
 *   <li><b>-0.0 beside 0.0.</b> Calcite's DISTINCT, GROUP BY, hash joins and set operations compare
 *       boxed doubles with {@code equals}, which tells -0.0 from 0.0, and its arithmetic makes -0.0
 *       ({@code x * 0} of a negative x): a DISTINCT gave both. numacol's own operators hand their
 *       doubles over as 0.0; the doubles Calcite computes get {@code + 0.0}, which turns -0.0 into
 *       0.0 and keeps every other value. Tested by {@code WrongResultsTest#agreesWithDuckDb} (cases 18 and 40, "-0.0 beside 0.0 in
 *       Calcite's DISTINCT and GROUP BY", "-9.5E0 * 0 folded to the literal -0.0").</li>
 *   <li><b>DECIMALs of another scale.</b> Calcite's ROUND(d, 1) of a DECIMAL(p, 2) gives 39.0 where
 *       its type says 39.00, and its hash joins, DISTINCT and set operations compare BigDecimals by
 *       {@code equals}: a NOT IN over ROUND(..) kept rows whose value was in the subquery. The
 *       DECIMALs Calcite computes are set to their type's scale ({@link PlanFunctions}). Tested by
 *       {@code WrongResultsTest#agreesWithDuckDb} (case 25 of the first group, "ROUND's DECIMALs at another scale than their type's").</li>
 *   <li><b>EXTRACTs Calcite cannot compile.</b> Its code generation needs EXTRACT's unit as a
 *       constant, and in a Calc where EXTRACTs share the unit's literal, or the operand is a
 *       constant too, it found a variable and failed ("Unable to implement"): {@code
 *       COALESCE(EXTRACT(DAY FROM d), EXTRACT(DAY FROM DATE '2021-12-06'))}. EXTRACTs of YEAR, MONTH
 *       and DAY from DATEs in Calcite's Calcs call numacol's functions ({@link PlanFunctions})
 *       instead. Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 27 of the first group, "EXTRACTs Calcite's code generation
 *       could not compile").</li>
 * </ul>
 * Upstream issues: not filed.
 */
public final class CanonicalValues {
    private CanonicalValues() {
    }

    /**
     * Every double a Calcite Calc computes, plus 0.0; every DECIMAL, at its
     * type's scale; EXTRACTs from DATEs, by numacol's functions.
     */
    public static RelNode canonicalValues(RelNode plan) {
        return Rewrites.bottomUp(plan, CanonicalValues::canonicalValuesOf);
    }

    private static RelNode canonicalValuesOf(RelNode rel) {
        RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
        if (rel instanceof Join join && join.getConvention() == EnumerableConvention.INSTANCE) {
            RexNode condition = join.getCondition().accept(PlanFunctions.decimals(rexBuilder));
            return condition == join.getCondition() ? join
                    : join.copy(join.getTraitSet(), condition, join.getLeft(), join.getRight(), join.getJoinType(), join.isSemiJoinDone());
        }
        if (!(rel instanceof Calc calc)) {
            return rel;
        }
        RexProgram program = calc.getProgram();
        RexShuttle decimals = PlanFunctions.decimals(rexBuilder); // DECIMALs at their scale
        RexShuttle extracts = PlanFunctions.extracts(rexBuilder); // EXTRACTs that compile
        boolean changed = false;
        List<RexNode> projects = new ArrayList<>();
        for (RexNode ref : program.getProjectList()) {
            RexNode expanded = program.expandLocalRef((RexLocalRef) ref);
            RexNode e = expanded.accept(extracts).accept(decimals);
            // columns and literals pass values that are already canonical (numacol's, or a Calc's below), but for a literal -0.0
            if (e instanceof RexLiteral literal && negativeZero(literal)) {
                e = rexBuilder.makeLiteral(0.0, e.getType());
            } else if (e instanceof RexCall && SqlTypeUtil.isApproximateNumeric(e.getType())) {
                RexNode zero = rexBuilder.makeApproxLiteral(BigDecimal.ZERO,
                        rexBuilder.getTypeFactory().createTypeWithNullability(e.getType(), false));
                e = rexBuilder.makeCall(e.getType(), SqlStdOperatorTable.PLUS, List.of(e, zero));
            } else if (e instanceof RexCall && e.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
                e = PlanFunctions.scaled(rexBuilder, e); // at its type's scale
            }
            changed |= e != expanded;
            projects.add(e);
        }
        RexNode condition = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
        RexNode fixed = condition == null ? null : condition.accept(extracts).accept(decimals);
        if (!changed && fixed == condition) {
            return rel;
        }
        return calc.copy(calc.getTraitSet(), calc.getInput(),
                RexProgram.create(program.getInputRowType(), projects, fixed, program.getOutputRowType(), rexBuilder));
    }

    /**
     * Whether {@code literal} is the double -0.0, which SQL takes for 0.0 but Calcite's hash
     * operators (EXCEPT, a join's keys) do not: every double numacol stores or computes is 0.0 there.
     */
    public static boolean negativeZero(RexLiteral literal) {
        if (!SqlTypeUtil.isApproximateNumeric(literal.getType()) || literal.getValue() == null) {
            return false;
        }
        Double d = literal.getValueAs(Double.class);
        return d != null && Double.compare(d, -0.0) == 0;
    }
}
