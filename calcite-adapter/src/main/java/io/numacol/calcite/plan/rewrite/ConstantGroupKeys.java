package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * <b>Constant group keys under decorrelation.</b> When a query is correlated, Calcite's
 * {@code RelDecorrelator} drops the constant keys of every aggregate it rewrites, so the {@code
 * GROUP BY true} that an uncorrelated {@code EXISTS} becomes, one row if the subquery has rows and
 * none otherwise, turns into a grand total with one row always: {@code EXISTS (empty) OR x IN
 * (correlated subquery)} kept every row. Before decorrelation numacol makes such aggregates a grand
 * total with a COUNT that must be positive ({@link #protectConstantKeys}), also where a key's
 * literal is projected below a filter (found by the input's pulled-up predicates), where
 * correlation is only inside them ({@code EXISTS (SELECT .. WHERE k = (SELECT .. correlated))} was
 * always true), where a key is constant once the projections below are merged ({@code SELECT
 * DISTINCT ('b' LIKE '%x%' OR c)} over a c that is TRUE gave a row over no rows), and where the
 * key's literal is below a contradictory filter, which leaves Calcite's predicate inference without
 * constants ({@code WHERE c IS DISTINCT FROM c GROUP BY 3.375} gave a row). Aggregates that were
 * correlated only through a condition {@link VacuousCorrelates} removes are protected once it has
 * ({@code 6 NOT IN (SELECT k .. WHERE ia = outer.ia AND ia <> ia)} was FALSE for every row).
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (cases 3, 11, 30 and 30, 33 and 39: "an uncorrelated EXISTS beside a correlated
 * subquery", "an EXISTS over a subquery correlated only inside", the literal key below a filter, the
 * key constant once projections merge, the key below a contradictory filter, "a NOT IN whose
 * subquery is empty once simplified"). Upstream issue: not filed.
 */
public final class ConstantGroupKeys {
    private ConstantGroupKeys() {
    }

    /**
     * In a correlated query, each aggregate whose group keys are all constants (of an
     * uncorrelated input) as a grand total filtered to a positive row count, with the constants
     * projected back: the same rows, in a shape {@code RelDecorrelator} keeps.
     */
    public static RelNode protectConstantKeys(RelNode rel) {
        if (!Rewrites.correlated(rel)) {
            return rel;
        }
        return rel.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalAggregate aggregate) {
                RelNode visited = super.visit(aggregate);
                return visited instanceof Aggregate a ? grandTotal(a) : visited;
            }
        });
    }

    /**
     * The group keys of {@code aggregate} whose column holds one literal in every input row: a
     * literal of a projection, or a constant the input's predicates pull up (a literal projected
     * below a filter), of the column's type.
     */
    static Map<Integer, RexLiteral> literalKeys(Aggregate aggregate) {
        RelNode input = aggregate.getInput();
        Map<RexNode, RexNode> constants;
        try {
            constants = aggregate.getCluster().getMetadataQuery().getPulledUpPredicates(input).constantMap;
        } catch (AssertionError | RuntimeException e) {
            // Calcite's predicate inference checks its own results even without -ea ("Comparison
            // with NULL in pulledUpPredicates" for NULLIF(4.5, 4.5) < ..): no constants known then
            constants = Map.of();
        }
        Map<Integer, RexLiteral> literals = new HashMap<>();
        RexSimplify simplifier = new RexSimplify(aggregate.getCluster().getRexBuilder(), RelOptPredicateList.EMPTY, RexUtil.EXECUTOR);
        for (int key : aggregate.getGroupSet()) {
            RelDataType type = input.getRowType().getFieldList().get(key).getType();
            // simplified, as the decorrelator's builder will (k BETWEEN 5 AND 3 is FALSE), with the
            // constants of the projection's input in place: it merges the projections below, so
            // 'b' LIKE '%x%' OR c over a c that is TRUE is a constant key too
            // (traced first: the predicates are empty where a filter below is contradictory)
            RexNode value = tracedLiteral(input, key);
            if (value == null) {
                value = input instanceof Project project
                        && simplifier.simplifyPreservingType(withInputConstants(project, project.getProjects().get(key))) instanceof RexLiteral literal
                        ? literal : constants.get(RexInputRef.of(key, input.getRowType()));
            }
            if (value instanceof RexLiteral literal && literal.getType().equals(type)) {
                literals.put(key, literal);
            }
        }
        return literals;
    }

    /** The literal column {@code i} of {@code rel} holds, followed down through projections and filters; null if none. */
    private static RexLiteral tracedLiteral(RelNode rel, int i) {
        while (true) {
            if (rel instanceof Project project) {
                RexNode e = project.getProjects().get(i);
                if (e instanceof RexLiteral literal) {
                    return literal;
                }
                if (!(e instanceof RexInputRef ref)) {
                    return null;
                }
                i = ref.getIndex();
                rel = project.getInput();
            } else if (rel instanceof Filter || rel instanceof Sort) {
                rel = rel.getInput(0);
            } else {
                return null;
            }
        }
    }

    /** {@code e}, an expression of {@code project}, with the input's columns that are constant replaced by their values. */
    private static RexNode withInputConstants(Project project, RexNode e) {
        Map<RexNode, RexNode> inputConstants;
        try {
            inputConstants = project.getCluster().getMetadataQuery().getPulledUpPredicates(project.getInput()).constantMap;
        } catch (AssertionError | RuntimeException failed) {
            return e; // as in literalKeys: no constants known then
        }
        if (inputConstants.isEmpty()) {
            return e;
        }
        return e.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                RexNode constant = inputConstants.get(ref);
                return constant instanceof RexLiteral && constant.getType().equals(ref.getType()) ? constant : ref;
            }
        });
    }

    private static RelNode grandTotal(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getGroupCount() == 0
                || !Rewrites.freeVariables(aggregate.getInput()).isEmpty()) {
            return aggregate;
        }
        Map<Integer, RexLiteral> literals = literalKeys(aggregate);
        if (literals.size() != aggregate.getGroupCount()) {
            return aggregate;
        }
        List<RexNode> constants = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            constants.add(literals.get(key));
        }
        RelBuilder b = RelFactories.LOGICAL_BUILDER.create(aggregate.getCluster(), null);
        b.push(aggregate.getInput());
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            calls.add(b.aggregateCall(call));
        }
        calls.add(b.count().as("$rows"));
        int n = aggregate.getAggCallList().size();
        b.aggregate(b.groupKey(), calls);
        b.filter(b.greaterThan(b.field(n), b.literal(0)));
        List<RexNode> out = new ArrayList<>(constants);
        for (int i = 0; i < n; i++) {
            out.add(b.field(i));
        }
        b.project(out, aggregate.getRowType().getFieldNames(), true);
        // a grand total's SUM, MIN, MAX are nullable; over the rows kept they are what the aggregate typed them
        return b.convert(aggregate.getRowType(), false).build();
    }
}
