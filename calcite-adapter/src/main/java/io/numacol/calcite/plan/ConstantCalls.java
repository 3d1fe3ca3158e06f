package io.numacol.calcite.plan;

import io.numacol.calcite.plan.rewrite.CanonicalValues;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;

import java.util.ArrayList;
import java.util.List;

/**
 * Calls of literals in projections and join conditions replaced by their values: Calcite
 * registers constant reduction for filters only, and {@code LOWER('a')} in a join's condition or
 * {@code EXTRACT(MONTH FROM DATE '2022-02-10')} in a projection stayed calls that numacol's
 * operators do not evaluate, so that Calcite's row operators ran everything above them (a random
 * query's aggregate over a join's product, whose rows numacol held whole on the heap).
 *
 * <p>Calcite's ReduceExpressionsRule does more, and breaks here: it also puts the constants that
 * its pulled-up predicates imply in place of columns, a NULL for a NOT NULL column under a join
 * on {@code c = NULL}, and the plan's row type changes. Here only a call whose operands are all
 * literals is evaluated, and only a value of the call's own type replaces it.
 */
final class ConstantCalls {
    private ConstantCalls() {
    }

    static Program program() {
        return (planner, rel, traits, materializations, lattices) -> {
            RexExecutor executor = planner.getExecutor();
            return executor == null ? rel : fold(rel, executor);
        };
    }

    static RelNode fold(RelNode plan, RexExecutor executor) {
        return plan.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(TableScan scan) {
                return scan;
            }

            @Override
            public RelNode visit(LogicalProject project) {
                LogicalProject visited = (LogicalProject) super.visit(project);
                Folder folder = new Folder(visited.getCluster().getRexBuilder(), executor);
                List<RexNode> exprs = folder.apply(visited.getProjects());
                return folder.changed ? visited.copy(visited.getTraitSet(), visited.getInput(), exprs, visited.getRowType()) : visited;
            }

            @Override
            public RelNode visit(LogicalJoin join) {
                LogicalJoin visited = (LogicalJoin) super.visit(join);
                Folder folder = new Folder(visited.getCluster().getRexBuilder(), executor);
                RexNode condition = visited.getCondition().accept(folder);
                return folder.changed ? visited.copy(visited.getTraitSet(), condition, visited.getLeft(), visited.getRight(),
                        visited.getJoinType(), visited.isSemiJoinDone()) : visited;
            }
        });
    }

    private static final class Folder extends RexShuttle {
        private final RexBuilder rexBuilder;
        private final RexExecutor executor;
        boolean changed;

        Folder(RexBuilder rexBuilder, RexExecutor executor) {
            this.rexBuilder = rexBuilder;
            this.executor = executor;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            // a tree of constant calls is reduced whole, in one compilation of the executor's code:
            // call by call, 1 + 1 + ... + 1 of 1,000 terms compiled 1,000 times and took seconds
            if (foldable(call)) {
                RexNode value = reduce(call);
                if (value != null) {
                    return value;
                }
            }
            RexNode visited = super.visitCall(call);
            if (!(visited instanceof RexCall c) || !foldable(c)) {
                return visited;
            }
            RexNode value = reduce(c);
            return value != null ? value : visited;
        }

        /** Whether {@code e} is a literal, or a deterministic call other than a CAST of such ones. */
        private static boolean foldable(RexNode e) {
            return e instanceof RexLiteral || (e instanceof RexCall c && c.getKind() != SqlKind.CAST && c.getOperator().isDeterministic()
                    && !c.getOperator().isDynamicFunction() && c.getOperands().stream().allMatch(Folder::foldable));
        }

        /** {@code c}'s value as a literal of its type, or null where the executor gives none. */
        private RexNode reduce(RexCall c) {
            List<RexNode> reduced = new ArrayList<>(1);
            executor.reduce(rexBuilder, List.of(c), reduced);
            RexNode value = reduced.size() == 1 ? reduced.getFirst() : null;
            if (value instanceof RexLiteral literal && value.getType().equals(c.getType())) {
                changed = true;
                return CanonicalValues.negativeZero(literal) ? rexBuilder.makeLiteral(0.0, c.getType()) : value;
            }
            return null;
        }
    }
}
