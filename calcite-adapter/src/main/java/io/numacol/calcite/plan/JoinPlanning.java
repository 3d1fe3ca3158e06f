package io.numacol.calcite.plan;

import io.numacol.calcite.QueryCancel;
import io.numacol.calcite.plan.rewrite.CanonicalValues;
import io.numacol.calcite.plan.rewrite.ConstantGroupKeys;
import io.numacol.calcite.plan.rewrite.FixedRules;
import io.numacol.calcite.plan.rewrite.LiteralKeyPullUp;
import io.numacol.calcite.plan.rewrite.NullComparisons;
import io.numacol.calcite.plan.rewrite.NullInSubQueries;
import io.numacol.calcite.plan.rewrite.NullTests;
import io.numacol.calcite.plan.rewrite.NullableCasts;
import io.numacol.calcite.plan.rewrite.OptionalRewrites;
import io.numacol.calcite.plan.rewrite.OuterVariables;
import io.numacol.calcite.plan.rewrite.UnusedVariables;
import io.numacol.calcite.plan.rewrite.VacuousCorrelates;
import io.numacol.calcite.rel.EnumerableStopCheck;
import io.numacol.calcite.rel.NumacolRules;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinToMultiJoinRule;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.rules.JoinAssociateRule;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * How numacol orders joins: Calcite's standard program, with a heuristic join-ordering phase
 * before the cost-based one (as {@link Programs#heuristicJoinOrder} does, for every query).
 *
 * <ol>
 *   <li>Correlated EXISTS and NOT EXISTS conjuncts become SEMI and ANTI joins on the
 *       subquery's correlated conditions ({@link ExistsJoins}), before Calcite removes the other
 *       subqueries and numacol's {@link Decorrelator} removes their correlation.</li>
 *   <li>Filter conditions get the conjuncts shared by every branch of an OR pulled out in front
 *       ({@link RexUtil#pullFactors}): TPC-H Q19 repeats its only join condition inside each
 *       branch, which otherwise leaves a nested-loop join over the whole OR. The conditions an
 *       OR implies on single columns are added ({@link #columnDisjunctions}), so that they filter
 *       scans below the joins.</li>
 *   <li>Computed equi-join keys move into a projection of their side, so that they become
 *       hash-join keys. (Computed operands of the other comparisons, such as Q17's
 *       {@code l_quantity < 0.2 * avg}, NumacolRules moves when it takes the join.)</li>
 *   <li>Filters move into joins; inner joins collapse into MultiJoins; LoptOptimizeJoinRule
 *       orders each MultiJoin by estimated sizes, keeping equi-join conditions as join keys. The
 *       FROM list's order (Q7: supplier, lineitem, orders, customer, nation, nation) no longer
 *       decides, and no join goes without a condition where one exists. {@link KeyMetadata}
 *       tells it which columns are unique and {@link JoinEstimates} how large joins are, from
 *       the distinct counts of their keys, so key/foreign-key joins come before many-to-many
 *       ones (a join of two dimension tables on a shared low-cardinality column). (An
 *       exhaustive DP minimizing the intermediate rows over the same estimates was tried and
 *       is not used: counting rows prefers building the smallest filtered table first, so that
 *       the whole fact table probes it, where Lopt's build of a larger but key-filtered side
 *       also filters the fact table's scan by its keys (runtime key filters), which intermediate
 *       row counts do not see.)</li>
 *   <li>A plan that numacol's operators run whole after a few rewrites (filters moved down to
 *       the scans, AVG and the like reduced to sums and counts; for joins also semi-joins and
 *       projections merged into aggregates, {@link #joinRewrites}) is taken as it is: a
 *       cost-based search has nothing left to choose for it, and it was half of an uncached
 *       point query's planning time and a third of a five-table join's. (Without those rewrites
 *       a plan taken as it stood kept inner joins where a semi-join builds only distinct keys,
 *       and projections apart from the aggregates they feed; with them the plans taken are the
 *       search's but for a semi-join where it kept an inner join, SUM where it chose $SUM0, and
 *       the order of a sort and a projection.)</li>
 *   <li>Any other plan goes through the Volcano planner, without join commute/associate/
 *       push-through rules, which search every order exhaustively: their search space grows
 *       exponentially with the joins, and a six-way join took tens of seconds to plan.</li>
 * </ol>
 */
public final class JoinPlanning {
    private JoinPlanning() {
    }

    /**
     * Calcite's JoinToMultiJoinRule for inner joins only: with an outer join it merges a condition
     * of the null-generating side's inner joins into the MultiJoin's filter, and LoptOptimizeJoinRule
     * then applies it above the outer join, which drops the outer rows it should keep
     * ({@code a JOIN b ON .. RIGHT JOIN c ON b.x = c.y AND a.s LIKE 'b%'} lost c's unmatched rows).
     * The inner joins on either side of an outer join are still ordered, each as a MultiJoin.
     */
    private static final RelOptRule INNER_JOIN_TO_MULTI_JOIN = CoreRules.JOIN_TO_MULTI_JOIN.config
            .withDescription("JoinToMultiJoinRule:inner")
            .withOperandSupplier(b -> b.operand(LogicalJoin.class).predicate(j -> j.getJoinType() == JoinRelType.INNER)
                    .inputs(left -> left.operand(RelNode.class).anyInputs(), right -> right.operand(RelNode.class).anyInputs()))
            .as(JoinToMultiJoinRule.Config.class).toRule();

    /** Rules numacol adds to the Volcano planner for joins: none, LoptOptimizeJoinRule runs before it. */
    static List<RelOptRule> rules() {
        return List.of();
    }

    /** The program a numacol statement is optimized with: {@link Programs#standard()}'s steps plus the join phase. */
    static Program program() {
        return Programs.sequence(
                NullableCasts.reduceCastsOfNull(),
                step(NullComparisons::nullComparisons),
                step(NullInSubQueries::nullInSubQueries),
                step(ExistsJoins::rewrite),
                Programs.subQuery(KeyMetadata.PROVIDER),
                step(ConstantGroupKeys::protectConstantKeys),
                step(LiteralKeyPullUp::pullUpLiteralKeys),
                step(OuterVariables::hoistOuterVariables),
                step(NullableCasts::strongCasts), // before decorrelation too: its keys are typed by these casts
                step(VacuousCorrelates::vacuousCorrelates),
                step(OuterOnlyConditions::rewrite),
                step(ConstantGroupKeys::protectConstantKeys), // again: an aggregate correlated only through a vacuous variable no longer is
                optional(decorrelate()),
                Programs.measure(KeyMetadata.PROVIDER),
                ConstantCalls.program(),
                step(JoinPlanning::pullFactors),
                Programs.of(new HepProgramBuilder()
                        .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
                        .addRuleInstance(CoreRules.JOIN_CONDITION_PUSH)
                        .addRuleInstance(CoreRules.JOIN_PUSH_EXPRESSIONS)
                        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
                        .addRuleCollection(List.of(INNER_JOIN_TO_MULTI_JOIN, CoreRules.PROJECT_MULTI_JOIN_MERGE,
                                CoreRules.FILTER_MULTI_JOIN_MERGE))
                        .addMatchOrder(HepMatchOrder.ARBITRARY)
                        .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
                        .build(), false, KeyMetadata.PROVIDER),
                optional(Programs.trim()),
                step(UnusedVariables::unusedVariables),
                JoinPlanning::costBased,
                step(NumacolRules::chooseBuildSides),
                Programs.calc(KeyMetadata.PROVIDER),
                step(NullableCasts::strongCasts),
                step(NullTests::nullTests),
                step(CanonicalValues::canonicalValues),
                step(EnumerableStopCheck::atLeaves), // the leaves Calcite runs, as they will run
                step(JoinPlanning::checkStop));

    }

    /**
     * {@code program}, or its input unchanged where it fails: decorrelation and field trimming are
     * rewrites the answer does not need ({@link OptionalRewrites}).
     */
    private static Program optional(Program program) {
        return (planner, rel, traits, materializations, lattices) ->
                OptionalRewrites.unlessItFails(rel, () -> program.run(planner, rel, traits, materializations, lattices));
    }

    /**
     * numacol's decorrelation ({@link Decorrelator}), where the plan has no LEFT or ANTI Correlate
     * that reads another's variable ({@link OuterVariables#decorrelatable}).
     */
    private static Program decorrelate() {
        return (planner, rel, traits, materializations, lattices) -> OuterVariables.decorrelatable(rel)
                ? Decorrelator.decorrelate(rel, RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null)) : rel;
    }

    /**
     * The plan, unless its statement was canceled or timed out while it was planned: Calcite then
     * generates and compiles its code (100-500 ms the first time on a loaded machine), which
     * nothing stops.
     */
    private static RelNode checkStop(RelNode plan) {
        QueryCancel.current().check();
        return plan;
    }

    /** A step of the program that rewrites the plan by itself, without the planner. */
    private static Program step(UnaryOperator<RelNode> rewrite) {
        return (planner, rel, traits, materializations, lattices) -> rewrite.apply(rel);
    }

    private static RelNode pullFactors(RelNode rel) {
        return rel.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalFilter filter) {
                LogicalFilter visited = (LogicalFilter) super.visit(filter);
                RexNode condition = visited.getCondition();
                RexBuilder rexBuilder = visited.getCluster().getRexBuilder();
                RexNode factored = RexUtil.pullFactors(rexBuilder, condition);
                List<RexNode> derived = new ArrayList<>();
                for (RexNode conjunct : RelOptUtil.conjunctions(factored)) {
                    derived.addAll(columnDisjunctions(rexBuilder, conjunct));
                }
                if (!derived.isEmpty()) {
                    factored = RexUtil.composeConjunction(rexBuilder, List.of(factored, RexUtil.composeConjunction(rexBuilder, derived)));
                }
                return factored.equals(condition) ? visited : visited.copy(visited.getTraitSet(), visited.getInput(), factored);
            }
        });
    }

    /**
     * Conditions on one column that an OR implies: when every branch of {@code or} constrains
     * column {@code c}, the OR of those constraints holds too. Q7's {@code (n1 = 'FRANCE' AND n2 =
     * 'GERMANY') OR (n1 = 'GERMANY' AND n2 = 'FRANCE')} implies {@code n1 IN ('FRANCE',
     * 'GERMANY')}, which filters the nation scan instead of the joined rows; Q19's branches bound
     * the part's brand, container and size and the lineitem's quantity alike. The OR stays.
     */
    private static List<RexNode> columnDisjunctions(RexBuilder rexBuilder, RexNode or) {
        if (or.getKind() != SqlKind.OR) {
            return List.of();
        }
        List<RexNode> branches = RelOptUtil.disjunctions(or);
        // per branch, its conjuncts that read exactly one column, by column
        List<Map<Integer, List<RexNode>>> byColumn = new ArrayList<>();
        for (RexNode branch : branches) {
            Map<Integer, List<RexNode>> columns = new TreeMap<>();
            for (RexNode conjunct : RelOptUtil.conjunctions(branch)) {
                ImmutableBitSet refs = RelOptUtil.InputFinder.bits(conjunct);
                if (refs.cardinality() == 1 && RexUtil.isDeterministic(conjunct)) {
                    columns.computeIfAbsent(refs.nth(0), c -> new ArrayList<>()).add(conjunct);
                }
            }
            byColumn.add(columns);
        }
        List<RexNode> derived = new ArrayList<>();
        for (int column : byColumn.getFirst().keySet()) {
            if (byColumn.stream().allMatch(m -> m.containsKey(column))) {
                RexNode implied = RexUtil.composeDisjunction(rexBuilder,
                        byColumn.stream().map(m -> RexUtil.composeConjunction(rexBuilder, m.get(column))).toList());
                if (!implied.equals(or)) { // an OR on one column implies only itself
                    derived.add(implied);
                }
            }
        }
        return derived;
    }

    /** Whether {@code rel} joins anything (a join or a correlate anywhere in it). */
    private static boolean joins(RelNode rel) {
        return rel instanceof Join || rel instanceof Correlate
                || rel instanceof MultiJoin || rel.getInputs().stream().anyMatch(JoinPlanning::joins);
    }

    /**
     * {@code rel} with its filters moved below projections and merged, toward the scans whose
     * predicates numacol evaluates on dictionary codes, and aggregate functions numacol does not
     * compute (AVG, VAR_POP, ..) as the sums and counts it does; what the cost-based phase's rules
     * would do first, for a plan numacol takes without that phase.
     */
    private static RelNode heuristicRewrites(RelNode rel) {
        HepPlanner hep = new HepPlanner(new HepProgramBuilder().addMatchOrder(HepMatchOrder.TOP_DOWN)
                .addRuleCollection(fixed(CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_MERGE, CoreRules.PROJECT_REMOVE,
                        CoreRules.AGGREGATE_REDUCE_FUNCTIONS))
                .build());
        hep.setRoot(rel);
        return hep.findBestExp();
    }

    /** AVG and the variances as sums and counts; SUM stays, where Calcite would also make it a SUM0 under a CASE. */
    private static final RelOptRule REDUCE_AVERAGES = AggregateReduceFunctionsRule.Config.DEFAULT
            .withFunctionsToReduce(EnumSet.of(SqlKind.AVG, SqlKind.STDDEV_POP, SqlKind.STDDEV_SAMP, SqlKind.VAR_POP,
                    SqlKind.VAR_SAMP))
            .toRule();

    private static List<RelOptRule> fixed(RelOptRule... rules) {
        return Arrays.stream(rules).map(FixedRules::fixed).toList();
    }

    /**
     * What the cost-based phase's rules did to TPC-H's join plans, as two rewrite passes: filters
     * and join conditions pushed down, projections merged, and joins whose right side only
     * filters made semi-joins (Q2's subquery, Q11, Q17) while projections are still apart from the
     * aggregates above them; then projections merged into aggregates (Q13), sorts below
     * projections, and averages reduced. The joins' order is Lopt's already.
     */
    private static RelNode joinRewrites(RelNode rel) {
        // the rules as Volcano has them: Calcite's, or FixedRules' copies where Calcite's give wrong answers
        HepPlanner hep = new HepPlanner(new HepProgramBuilder().addMatchOrder(HepMatchOrder.TOP_DOWN)
                .addRuleCollection(fixed(CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_MERGE,
                        CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH, CoreRules.FILTER_AGGREGATE_TRANSPOSE,
                        CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE,
                        CoreRules.PROJECT_TO_SEMI_JOIN, CoreRules.JOIN_ON_UNIQUE_TO_SEMI_JOIN, CoreRules.JOIN_TO_SEMI_JOIN))
                .addRuleCollection(fixed(CoreRules.AGGREGATE_PROJECT_MERGE, CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE,
                        CoreRules.SORT_PROJECT_TRANSPOSE, REDUCE_AVERAGES))
                .build());
        hep.setRoot(rel);
        return hep.findBestExp();
    }

    /**
     * The plan numacol runs whole, or Calcite's Volcano phase (as in {@link Programs#standard()})
     * without the exhaustive join-order rules, and without Calcite's merge join and merge union
     * (Calcite defects, see the package {@code io.numacol.calcite.plan.rewrite}).
     */
    private static RelNode costBased(RelOptPlanner planner, RelNode rel, RelTraitSet traits,
                                     List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
        materializations.forEach(planner::addMaterialization);
        lattices.forEach(planner::addLattice);
        for (RelOptRule rule : List.copyOf(planner.getRules())) {
            if (rule instanceof JoinCommuteRule || rule instanceof JoinAssociateRule || rule instanceof JoinPushThroughJoinRule
                    || rule == EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE || rule == EnumerableRules.ENUMERABLE_MERGE_UNION_RULE) {
                planner.removeRule(rule);
            }
        }
        RelNode whole = NumacolRules.wholly(joins(rel) ? joinRewrites(rel) : heuristicRewrites(rel), traits);
        if (whole != null) {
            return whole;
        }
        planner.setRoot(rel);
        if (!rel.getTraitSet().equals(traits)) {
            planner.setRoot(planner.changeTraits(rel, traits));
        }
        return planner.chooseDelegate().findBestExp();
    }
}
