package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;

import java.util.List;
import java.util.Set;

/**
 * <b>Nullability-dropping casts.</b> Calcite's {@code RexSimplify} rewrites {@code COALESCE(x,
 * 14009) <= 9999} to {@code CAST(x AS BIGINT NOT NULL) <= 9999}, which is right if the cast passes
 * NULL through as its simplifications assume, but Calcite's generated code does not, so rows with a
 * NULL x passed the filter. In the conditions of Calcite's operators numacol makes such casts
 * nullable casts ({@link #strongCasts}; numacol's own predicates already pass NULL through).
 * Filters get them before decorrelation too: the decorrelator keys a correlated {@code
 * COALESCE(outer.c, ..)} on such a cast, matches the keys with = as its type says they cannot be
 * NULL, and lost the outer rows with a NULL c. Constant reduction evaluates such casts as NULL too
 * ({@link #reduceCastsOfNull}): once a LEFT JOIN to no rows made its column a NULL literal, {@code
 * CAST(NULL AS BIGINT NOT NULL) < 2} reduced to TRUE and a filter that keeps no row was dropped.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (cases 1, 24 and 38: "a NULL group that the filter above the aggregate removes",
 * "a correlated COALESCE of an outer column", "a LEFT JOIN to no rows makes a3.ia a NULL literal").
 * Upstream issue: of the class of CALCITE-7619 (a cast that drops nullability does not preserve
 * semantics), which changes RexSimplify after 1.42.
 */
public final class NullableCasts {
    private NullableCasts() {
    }

    /**
     * The plan with the conditions of Calcite's operators (Calc, Filter, nested-loop Join) free
     * of casts that drop nullability: such a cast of a nullable value becomes a nullable cast, so
     * a NULL makes the comparison unknown, as the simplifications that made the cast assumed.
     */
    public static RelNode strongCasts(RelNode plan) {
        return Rewrites.bottomUp(plan, NullableCasts::strongCastsOf);
    }

    private static RelNode strongCastsOf(RelNode rel) {
        // only joins without equi-keys: re-typing a key would change how a hash join reads it
        return Rewrites.rewriteCondition(rel, new StrongCasts(rel.getCluster().getTypeFactory()), false);
    }

    /**
     * The same in constant reduction: the planner's executor evaluating casts to NOT NULL types
     * as {@link StrongCasts} types them, passing NULL through, as the simplifications that made
     * them assume. Calcite's generated code read a NULL as a primitive default value there.
     */
    public static Program reduceCastsOfNull() {
        return (planner, rel, traits, materializations, lattices) -> {
            RexExecutor executor = planner.getExecutor();
            if (executor != null && !(executor instanceof NullPassingExecutor)) {
                planner.setExecutor(new NullPassingExecutor(executor));
            }
            return rel;
        };
    }

    private record NullPassingExecutor(RexExecutor delegate) implements RexExecutor {
        @Override
        public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
            StrongCasts nullPassing = new StrongCasts(rexBuilder.getTypeFactory());
            // checked too: Calcite's generated code folded -CAST(-2147483648 AS INTEGER) to itself
            RexShuttle checked = CheckedArithmetic.checked(rexBuilder);
            RexShuttle characters = PlanFunctions.characters(rexBuilder); // counted in code points
            List<RexNode> passing = constExps.stream().map(e -> e.accept(nullPassing).accept(checked).accept(characters)).toList();
            delegate.reduce(rexBuilder, passing, reducedValues);
            for (int i = 0; i < constExps.size(); i++) {
                if (reducedValues.get(i) == passing.get(i)) { // not reduced
                    reducedValues.set(i, constExps.get(i));
                }
            }
        }
    }

    /** Nullability-dropping casts of nullable values made nullable; calls above them re-typed to match. */
    private static final class StrongCasts extends RexShuttle {
        /** Calls that answer TRUE or FALSE whatever their operands. */
        private static final Set<SqlKind> NEVER_NULL = Set.of(SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE,
                SqlKind.IS_NOT_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_FALSE, SqlKind.IS_DISTINCT_FROM,
                SqlKind.IS_NOT_DISTINCT_FROM);
        private final RelDataTypeFactory types;

        StrongCasts(RelDataTypeFactory types) {
            this.types = types;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            boolean[] changed = {false};
            List<RexNode> operands = visitList(call.getOperands(), changed);
            if (call.getKind() == SqlKind.CAST && !call.getType().isNullable() && operands.getFirst().getType().isNullable()) {
                RelDataType nullable = types.createTypeWithNullability(call.getType(), true);
                RexNode operand = operands.getFirst();
                return operand.getType().equals(nullable) ? operand : call.clone(nullable, List.of(operand));
            }
            if (!changed[0]) {
                return call;
            }
            RelDataType type = call.getType();
            if (!type.isNullable() && !NEVER_NULL.contains(call.getKind())
                    && operands.stream().anyMatch(o -> o.getType().isNullable())) {
                type = types.createTypeWithNullability(type, true);
            }
            return call.clone(type, operands);
        }
    }
}
