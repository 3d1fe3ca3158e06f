package io.numacol.calcite.plan.rewrite;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * <b>Outer correlation inside an outer correlate.</b> Where the right side of a LEFT or ANTI
 * Correlate reads a variable of an enclosing one ({@code EXISTS (SELECT .. FROM s WHERE a.x NOT IN
 * (SELECT .. WHERE s5.k = s.k))}), Calcite's decorrelator turns the comparison with the outer value
 * into a join key below the outer join, so an outer value that matches nothing loses its rows instead
 * of getting the NULLs of the unmatched side: the EXISTS was false for every row. Before
 * decorrelation numacol moves such reads into the Correlate's left side ({@link
 * #hoistOuterVariables}: a projection that adds the outer values as columns, which the right side
 * reads through the Correlate's own variable), where the decorrelator pairs every left row with every
 * outer value. A plan where that is not possible is not decorrelated ({@link #decorrelatable});
 * Calcite's correlate operator runs it, row by row.
 *
 * <p>Tested by {@code WrongResultsTest#agreesWithDuckDb} (case 19, "an outer query's column compared inside a subquery nested in an outer
 * join's side"). Upstream issue: not filed.
 */
public final class OuterVariables {
    private OuterVariables() {
    }

    /**
     * The plan with every LEFT or ANTI Correlate's right side reading only the
     * Correlate's own variable; the enclosing Correlates' fields it read become columns added to
     * its left side. Where a variable is read whole (not a field of it) the Correlate stays as it is.
     */
    public static RelNode hoistOuterVariables(RelNode plan) {
        return Rewrites.bottomUp(plan, OuterVariables::hoistOuterVariablesOf);
    }

    private static RelNode hoistOuterVariablesOf(RelNode rel) {
        if (!(rel instanceof Correlate c)) {
            return rel;
        }
        Set<CorrelationId> outer = outerVariables(c);
        if (outer.isEmpty()) {
            return rel;
        }
        // the fields of outer variables the right side reads, each once, in the order first read
        Map<List<Object>, RexFieldAccess> reads = new LinkedHashMap<>();
        boolean[] whole = {false};
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && outer.contains(v.id)) {
                    reads.putIfAbsent(List.of(v.id, access.getField().getIndex()), access);
                    return access;
                }
                return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                whole[0] |= outer.contains(variable.id);
                return variable;
            }
        };
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                node.accept(finder);
                super.visit(node, ordinal, parent);
            }
        }.go(c.getRight());
        if (whole[0]) {
            return rel;
        }
        RelNode left = c.getLeft();
        int leftCount = left.getRowType().getFieldCount();
        RexBuilder rexBuilder = c.getCluster().getRexBuilder();
        List<RexNode> projects = new ArrayList<>(rexBuilder.identityProjects(left.getRowType()));
        List<String> names = new ArrayList<>(left.getRowType().getFieldNames());
        projects.addAll(reads.values());
        for (int i = 0; i < reads.size(); i++) {
            names.add("$outer" + i);
        }
        RelNode newLeft = LogicalProject.create(left, List.of(), projects, names, Set.of());
        RexNode own = rexBuilder.makeCorrel(newLeft.getRowType(), c.getCorrelationId());
        List<List<Object>> keys = List.copyOf(reads.keySet());
        RexShuttle rewrite = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v) {
                    if (v.id.equals(c.getCorrelationId())) {
                        return rexBuilder.makeFieldAccess(own, access.getField().getIndex());
                    }
                    int read = keys.indexOf(List.of(v.id, access.getField().getIndex()));
                    if (read >= 0) {
                        return rexBuilder.makeFieldAccess(own, leftCount + read);
                    }
                }
                return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                return variable.id.equals(c.getCorrelationId()) ? own : variable;
            }
        };
        RelNode newRight = Rewrites.rewriteExpressions(c.getRight(), rewrite);
        ImmutableBitSet required = c.getRequiredColumns().union(ImmutableBitSet.range(leftCount, leftCount + reads.size()));
        Correlate hoisted = c.copy(c.getTraitSet(), newLeft, newRight, c.getCorrelationId(), required, c.getJoinType());
        // the Correlate's columns as before: the added ones dropped
        List<Integer> columns = new ArrayList<>();
        for (int i = 0; i < hoisted.getRowType().getFieldCount(); i++) {
            if (i < leftCount || i >= leftCount + reads.size()) {
                columns.add(i);
            }
        }
        return RelOptUtil.createProject(hoisted, columns);
    }

    /** The variables of enclosing Correlates that a LEFT or ANTI Correlate's right side reads (none for other joins). */
    private static Set<CorrelationId> outerVariables(Correlate c) {
        if (c.getJoinType() != JoinRelType.LEFT && c.getJoinType() != JoinRelType.ANTI) {
            return Set.of();
        }
        Set<CorrelationId> outer = Rewrites.freeVariables(c.getRight());
        outer.remove(c.getCorrelationId());
        return outer;
    }

    /**
     * Whether Calcite's decorrelator rewrites {@code rel} right: no LEFT or ANTI
     * Correlate has a right side that reads a variable of another Correlate.
     */
    public static boolean decorrelatable(RelNode rel) {
        boolean[] ok = {true};
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (node instanceof Correlate c) {
                    ok[0] &= outerVariables(c).isEmpty();
                }
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
        return ok[0];
    }
}
