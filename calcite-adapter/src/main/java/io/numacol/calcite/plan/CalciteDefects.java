package io.numacol.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.rules.ProjectAggregateMergeRule;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.tools.Program;
import org.apache.calcite.rel.rules.AggregateCaseToFilterRule;
import org.apache.calcite.rel.rules.ProjectMergeRule;
import org.apache.calcite.rel.rules.SortProjectTransposeRule;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.plan.RelHintsPropagator;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.DateRangeRules;
import org.apache.calcite.rel.rules.SemiJoinRule;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.Sarg;
import org.apache.calcite.util.mapping.Mapping;
import org.apache.calcite.util.mapping.Mappings;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Range;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Work-arounds for Calcite 1.42 planner defects that give wrong answers, each found by the random
 * differential tester against DuckDB. Each is fixed for its class of plans, not for one query;
 * drop one when Calcite fixes the defect (the tests in {@code tests/} say whether it still bites).
 *
 * <ol>
 *   <li><b>Grand totals taken for keys</b> ({@link #replaceRules}): {@code SemiJoinRule} turns
 *       {@code R JOIN (SELECT COUNT(*) FROM S)} into {@code R SEMI JOIN S} when the aggregate has
 *       no group keys: its "join keys equal group keys" check holds for two empty sets. A grand
 *       total has one row even over an empty S, the semi-join none: {@code x > 5 OR y IN (empty
 *       subquery)} returned no rows. The rules are replaced by copies that leave such joins alone.</li>
 *   <li><b>Invalid EXTRACT values</b> ({@link #replaceRules}): {@code DateRangeRules} rewrites
 *       {@code EXTRACT(YEAR FROM d) > -1486} to FALSE because -1486 is no valid year; only
 *       {@code =} with an impossible value is false. The rule is kept for comparisons whose
 *       values are valid dates (where it turns EXTRACT into a date range numacol scans as vids).</li>
 *   <li><b>Constant group keys under decorrelation</b> ({@link #protectConstantKeys}): when a
 *       query is correlated, {@code RelDecorrelator} drops the constant keys of every aggregate
 *       it rewrites, so the {@code GROUP BY true} that an uncorrelated {@code EXISTS} becomes,
 *       one row if the subquery has rows and none otherwise, turns into a grand total with one
 *       row always: {@code EXISTS (empty) OR x IN (correlated subquery)} kept every row. Before
 *       decorrelation such aggregates become a grand total with a COUNT that must be positive,
 *       also where a key's literal is projected below a filter (found by the input's pulled-up
 *       predicates) and where correlation is only inside them ({@code EXISTS (SELECT .. WHERE k = (SELECT ..
 *       correlated))} was always true), and where a key is constant once the projections below
 *       are merged ({@code SELECT DISTINCT ('b' LIKE '%x%' OR c)} over a c that is TRUE gave a
 *       row over no rows), and where the key's literal is below a contradictory filter, which
 *       leaves Calcite's predicate inference without constants ({@code WHERE c IS DISTINCT FROM c
 *       GROUP BY 3.375} gave a row). Aggregates that were correlated only through a condition
 *       {@link #vacuousCorrelates} removes are protected once it has ({@code 6 NOT IN (SELECT k ..
 *       WHERE ia = outer.ia AND ia <> ia)} was FALSE for every row).</li>
 *   <li><b>Nullability-dropping casts</b> ({@link #strongCasts}): {@code RexSimplify} rewrites
 *       {@code COALESCE(x, 14009) <= 9999} to {@code CAST(x AS BIGINT NOT NULL) <= 9999}, which is
 *       right if the cast passes NULL through as its simplifications assume, but Calcite's
 *       generated code does not, so rows with a NULL x passed the filter. In the conditions of
 *       Calcite's operators such casts become nullable casts (numacol's own predicates already
 *       pass NULL through). Filters get them before decorrelation too: the decorrelator keys a
 *       correlated {@code COALESCE(outer.c, ..)} on such a cast, matches the keys with = as its
 *       type says they cannot be NULL, and lost the outer rows with a NULL c. Constant reduction
 *       evaluates such casts as NULL too ({@link #reduceCastsOfNull}): once a LEFT JOIN to no rows
 *       made its column a NULL literal, {@code CAST(NULL AS BIGINT NOT NULL) < 2} reduced to TRUE
 *       and a filter that keeps no row was dropped.</li>
 *   <li><b>Duplicate rows of RIGHT and FULL nested-loop joins</b>: Calcite's nested-loop join
 *       keeps the right rows nothing matched in an identity set, and a one-column row is a shared
 *       boxed value ({@code Boolean.TRUE}), so equal rows collapse into one: a FULL JOIN on a
 *       condition of one side lost rows. numacol runs joins without keys itself (every build row
 *       in one chain, each pair tested). For conditions numacol cannot evaluate,
 *       {@link #replaceRules} gives Calcite's nested-loop join a right side of two columns, the
 *       second a constant, whose rows are arrays of their own.</li>
 *   <li><b>Correlated subqueries in the select list over a join on expressions</b>
 *       ({@code NumacolPrepare}): when converting SQL, Calcite pushes a join condition's
 *       expressions below the join and puts a projection above it; the select list is then merged
 *       into that projection, but its correlated form is built on the projection again with the
 *       merged field numbers: an AssertionError ("type mismatch") or an index out of bounds. The
 *       converter's RelBuilder merges no projections (keeping join conditions whole instead
 *       breaks the field trimmer on correlated subqueries over outer joins).</li>
 *   <li><b>Merge joins that do not compile, merge unions that lose rows</b> ({@code
 *       JoinPlanning}): Calcite's merge join generates code with no matching method for a BOOLEAN
 *       key with a further condition; its merge union takes an ORDER BY's LIMIT into each branch
 *       of a UNION DISTINCT before duplicates are removed, so a branch with repeated values gave
 *       too few rows. Both rules are removed: hash joins, nested-loop joins and a sort above the
 *       union cover what numacol does not run.</li>
 *   <li><b>Decorrelation and field trimming that fail</b> ({@code NumacolPrepare}): both are
 *       rewrites the answer does not need. Calcite's field trimmer fails on some correlated
 *       subqueries over joins (a correlated field it maps to -1), and Calcite's decorrelator,
 *       which numacol's replaced, failed on others. Where either throws, the plan goes on
 *       without that rewrite: untrimmed, or correlated (run by Calcite's correlate operator).</li>
 *   <li><b>A grand total beside a DISTINCT aggregate over no rows</b> ({@link #replaceRules}):
 *       Calcite rewrites {@code SUM(DISTINCT x) ... HAVING COUNT(*) <= 2} with GROUPING SETS
 *       ((x), ()) and reads COUNT(*) from the () row, which its aggregate does not give over an
 *       empty input: the count was NULL, not 0, and the HAVING dropped the row. The rewrite
 *       without grouping sets (partial aggregates, then joins) is used instead.</li>
 *   <li><b>Constants pulled out of group keys</b> ({@link #pullUpLiteralKeys}, {@link
 *       #replaceRules}): in a correlated query, Calcite's decorrelator also rewrites the
 *       uncorrelated aggregates, and put a DISTINCT's literal columns back in another order
 *       beside a computed one (a UNION ALL beside a scalar subquery gave DATE '2022-02-09' where
 *       DATE '2022-02-11' was selected). Before decorrelation numacol pulls literal keys above
 *       such aggregates, each in its place (3 covers aggregates with only literal keys).
 *       Calcite's AggregateProjectPullUpConstantsRule failed on a join to a NULL constant
 *       (typing a nullable column NOT NULL); it is removed.</li>
 *   <li><b>-0.0 beside 0.0 in Calcite's hash operators</b> ({@link #canonicalValues}): Calcite's
 *       DISTINCT, GROUP BY, hash joins and set operations compare boxed doubles with {@code
 *       equals}, which tells -0.0 from 0.0, and its arithmetic makes -0.0 ({@code x * 0} of a
 *       negative x): a DISTINCT gave both. numacol's own operators hand their doubles over as
 *       0.0; the doubles Calcite computes get {@code + 0.0}, which turns -0.0 into 0.0 and keeps
 *       every other value.</li>
 *   <li><b>Outer correlation inside an outer correlate</b> ({@link #hoistOuterVariables}):
 *       where the right side of a LEFT or ANTI Correlate reads a variable of an enclosing one
 *       ({@code EXISTS (SELECT .. FROM s WHERE a.x NOT IN (SELECT .. WHERE s5.k = s.k))}),
 *       Calcite's decorrelator turns the comparison with the outer value into a join key below
 *       the outer join, so an outer value that matches nothing loses its rows instead of getting
 *       the NULLs of the unmatched side: the EXISTS was false for every row. Before decorrelation
 *       numacol moves such reads into the Correlate's left side (a projection that adds the outer
 *       values as columns, which the right side reads through the Correlate's own variable), where
 *       the decorrelator pairs every left row with every outer value. A plan where that is not
 *       possible is not decorrelated ({@link #decorrelatable}); Calcite's correlate operator runs
 *       it, row by row.</li>
 *   <li><b>A NULL IN a correlated subquery</b> ({@link #nullInSubQueries}): Calcite's
 *       SubQueryRemoveRule makes {@code NULL IN (correlated subquery)} UNKNOWN also where the
 *       subquery is empty, where it is FALSE (it checks for an empty subquery only when it is
 *       uncorrelated): {@code NOT (CAST(NULL AS BOOLEAN) IN (..))} dropped every row. Before
 *       subqueries are removed such an IN becomes {@code CASE WHEN EXISTS (..) THEN NULL ELSE
 *       FALSE END}.</li>
 *   <li><b>Correlation variables of a trimmed projection remapped twice</b> ({@link
 *       Trimmer}): Calcite's field trimmer remaps the correlation variable of a projection's
 *       subquery by the input's mapping, then again by the projection's output mapping wherever
 *       input and output have as many columns; the subquery then read another column ({@code
 *       (SELECT MAX(..) FROM s WHERE s.c2 = a2.c3)} compared with a1.c0). numacol's trimmer
 *       leaves a projection's variables as the first remapping left them.</li>
 *   <li><b>NULL correlation values matched with =</b> (numacol's {@link Decorrelator} replaces
 *       Calcite's): the decorrelator takes a column of a
 *       LEFT JOIN's preserved side for NOT NULL when the join's condition rejects NULLs, and then
 *       matches its generated correlation values with {@code =}: the rows with a NULL value, whose
 *       subquery is empty (NOT IN is TRUE), were lost. numacol's decorrelator matches nullable
 *       values with IS NOT DISTINCT FROM.</li>
 *   <li><b>DECIMALs of another scale in Calcite's hash operators</b> ({@link #canonicalValues},
 *       {@link PlanFunctions}): Calcite's ROUND(d, 1) of a DECIMAL(p, 2) gives 39.0 where its
 *       type says 39.00, and its hash joins, DISTINCT and set operations compare BigDecimals by
 *       {@code equals}: a NOT IN over ROUND(..) kept rows whose value was in the subquery. The
 *       DECIMALs Calcite computes are set to their type's scale.</li>
 *   <li><b>A join taken for a table in join ordering</b> ({@code KeyMetadata.JoinOrigins}):
 *       LoptOptimizeJoinRule finds "self-joins on a unique key" between factors that come from
 *       one table, judged by the first column's origin alone, and removes them: {@code t1 RIGHT
 *       JOIN t0 ON .. JOIN t1 AS a2 ON t0.k = a2.k} lost a2 and read t0's columns as t1's (an
 *       AssertionError with -ea, wrong columns without). Joins have no column origins for it.</li>
 *   <li><b>EXTRACTs Calcite cannot compile</b> ({@link #canonicalValues}, {@link PlanFunctions}):
 *       its code generation needs EXTRACT's unit as a constant, and in a Calc where EXTRACTs share
 *       the unit's literal, or the operand is a constant too, it found a variable and failed
 *       ("Unable to implement"): {@code COALESCE(EXTRACT(DAY FROM d), EXTRACT(DAY FROM DATE
 *       '2021-12-06'))}. EXTRACTs of YEAR, MONTH and DAY from DATEs in Calcite's Calcs call
 *       numacol's functions instead.</li>
 *   <li><b>A FULL join taken for one row</b> ({@code KeyMetadata.JoinMaxRows}): Calcite bounds a
 *       join's rows by the product of its sides', so a FULL join of two one-row aggregates "had at
 *       most one row", its columns passed for unique, and the DISTINCT of a decorrelated
 *       subquery's correlation values over it was removed: every row came twice.</li>
 *   <li><b>A sort moved below a CAST that merges values</b> ({@link #replaceRules}):
 *       SortProjectTransposeRule takes a CAST for its operand, so {@code ORDER BY CAST(x AS
 *       DECIMAL(16, 1)) DESC, x ASC LIMIT 6} became a sort on x DESC (the second key, on the same
 *       column, dropped): ties of the rounded value were broken the wrong way. Sorts move only below
 *       CASTs that keep distinct values distinct.</li>
 *   <li><b>Projections keeping variables nothing reads</b> ({@link #unusedVariables}): when
 *       field trimming drops a projection's correlated subquery (its column is not used) the
 *       projection keeps declaring the subquery's variable, and Calcite's Enumerable rules take no
 *       projection that declares one: {@code SELECT -4 FROM (SELECT (SELECT COUNT(*) .. WHERE
 *       s.c4 = a1.c2) AS c0, EXTRACT(MONTH FROM ..) AS c2 FROM t1 a1) a0 WHERE a0.c2 BETWEEN 1 AND
 *       5} could not be planned. A projection or filter whose variables nothing reads declares none.</li>
 *   <li><b>Metadata that comes back to its own planner set</b> ({@code KeyMetadata.AcyclicPredicates},
 *       {@code JoinEstimates.JoinRowCounts}): the predicates and row count of a set are its
 *       plan's, and where that plan reads the set again through others Calcite throws
 *       CyclicMetadataException out of the rule that asked ("Error while applying rule
 *       SortRemoveRule"). A set found again gives no predicates and Calcite's row count for an
 *       unknown set: both only shape estimates and simplifications.</li>
 *   <li><b>Simplification that trips its own check</b> ({@code NumacolPrepare}, {@link
 *       #isNullComparisonInPredicates}): RexSimplify makes a predicate list of an AND's terms
 *       before it folds a term that compares with NULL, and the list's constructor rejects such a
 *       term with an AssertionError, with or without -ea: {@code CASE WHEN NULLIF('ab', 'ab')
 *       BETWEEN 'ab' AND '' THEN ..} could not be converted. The query is converted again with a
 *       RelBuilder that does not simplify, and comparisons with NULL are folded before the
 *       planner's rules simplify ({@link #nullComparisons}), also in subqueries (an EXISTS's
 *       {@code 50.09 > CAST(NULL AS DECIMAL(12, 2))} met RexSimplify once it was a join). Arithmetic with NULL is folded as
 *       projections are made ({@link #PROJECTS}): Calcite took {@code 37 / CAST(NULL AS
 *       INTEGER)} for a literal when it derived a projection's collation.</li>
 *   <li><b>Merged projections of another type</b> ({@link #replaceRules}): ProjectMergeRule
 *       substitutes the lower projection's expressions into the upper one's and simplifies them,
 *       and {@code CAST($1 AS BIGINT NOT NULL)} (an aggregate's argument, read only where
 *       its filter {@code $1 IS NOT NULL} holds) over a constant NULL became a nullable NULL:
 *       the planner refused the merged projection as not equivalent and failed the statement
 *       ({@code MIN(COALESCE(a3.k, CAST(NULL AS INTEGER)))} over a LEFT JOIN on a false
 *       condition). Such merges are not made.</li>
 *   <li><b>A COALESCE over a SUM with a literal that is no number</b> ({@link #replaceRules}):
 *       ProjectAggregateMergeRule reads the literal as a number to match {@code COALESCE(SUM(x),
 *       0)}, and {@code COALESCE(CAST(SUM(DISTINCT -2) AS VARCHAR), 'zz')} failed with "cannot
 *       convert CHAR literal". Such projections are not merged.</li>
 *   <li><b>A rewrite into itself pruned</b> ({@link #replaceRules}): AggregateCaseToFilterRule
 *       registers its rewrite, then prunes the aggregate it matched; where the rewrite is that
 *       aggregate again (its input's set already held the rewritten projection: {@code
 *       MAX(NULLIF(c, ..)) FILTER (WHERE FALSE)} over a column a join to no rows makes NULL), the
 *       set's one plan was pruned and the statement could not be planned (CannotPlanException).
 *       A rewrite that gives the matched aggregate prunes nothing. The rule also matched numacol's
 *       own aggregate, made a logical one of it and pruned it, leaving no NUMACOL plan for its set;
 *       it takes logical aggregates only.</li>
 *   <li><b>Tests for NULL of a logic with NULL that do not compile</b> ({@link #nullTests}):
 *       Calcite's simplification leaves {@code (a + b NOT IN (1, NULL)) IS NOT NULL} as {@code
 *       (a + b = 1 OR NULL) IS NOT NULL}, and the Java it generates for such a condition returns
 *       a Boolean object where its join predicate or filter must return a boolean: the statement
 *       failed to compile. Such tests become IS TRUE / IS FALSE tests of the other operands.</li>
 *   <li><b>A self-join judged unique on a filtered factor</b> ({@code KeyMetadata}):
 *       LoptOptimizeJoinRule removes a self-join whose keys are unique, and asks on the factor
 *       as filtered, where Calcite counts the columns a predicate makes constant: in {@code t a0
 *       JOIN t a1 ON a0.vs = a1.vs WHERE a0.k = 2} (k a key) vs passed for unique, the join was
 *       removed and a1.k read as a0.k (every row answered 2). A filter's columns are unique where
 *       its input's are.</li>
 *   <li><b>A Correlate whose variable vanishes only inside the decorrelator</b> ({@link
 *       #vacuousCorrelates}): a correlated condition that is FALSE once simplified ({@code
 *       s.dm = a.fd AND DATE 'x' BETWEEN DATE 'y' AND DATE 'z'}, kept until then by the cast
 *       of the comparison) loses its variable while the decorrelator rewrites it; the
 *       decorrelator then gives up on that Correlate and every one above it, and the query ran
 *       row by row (a random query past its 60 s timeout). Conditions that lose their variables
 *       when simplified are simplified first, and a Correlate whose right side reads no variable
 *       of it is a join on TRUE before decorrelation.</li>
 *   <li><b>A second value generator unrelated to the first</b> (numacol's {@link
 *       Decorrelator} replaces Calcite's): where a filter reads
 *       correlation variables of which its decorrelated input provides only some (the input a
 *       NOT IN's join that generated {@code a.c}, the filter also reading {@code a.c IS NOT NULL},
 *       which the decorrelator's CorrelateProjectExtractor had made a variable of its own), the
 *       decorrelator joins the input with a generator of all of them and reads {@code a.c} from
 *       the new one: the NOT IN of every value was tested against each row, and an EXISTS held
 *       where its NOT IN was false (a random query, 366 rows instead of none). numacol's
 *       decorrelator gives each operator the values from D or from its own bindings.</li>
 *   <li><b>Two correlation variables in one column</b> (numacol's {@link Decorrelator}
 *       replaces Calcite's): where a subquery's condition
 *       equates one of its columns with two variables ({@code s.c = a.c1 AND a.c4 = s.c}), the
 *       decorrelator takes that column for both, and a scalar COUNT above joined a generator of
 *       both variables' pairs and kept one column of it for both: an outer row (y, y) matched the
 *       rows of pairs (x, y) and (y, y) and was answered twice (a random query, 453 rows instead
 *       of 400). numacol's decorrelator gives each variable a column of its own.</li>
 * </ol>
 * No upstream issue was found for 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 and 32; 4 is the class of CALCITE-7619 (a cast
 * that drops nullability does not preserve semantics).
 */
public final class CalciteDefects {
    private CalciteDefects() {
    }

    /**
     * Calcite's field trimmer without defect 14: a projection's correlation variables read its
     * input, which {@code RelFieldTrimmer.trimFields(Project, ..)} already
     * remapped; the output mapping applies to the variables of other relations only.
     */
    static final class Trimmer extends RelFieldTrimmer {
        Trimmer(SqlValidator validator, RelBuilder relBuilder) {
            super(validator, relBuilder);
        }

        @Override
        protected TrimResult result(RelNode rel, Mapping mapping) {
            return rel instanceof Project ? new TrimResult(rel, mapping) : super.result(rel, mapping);
        }
    }

    /**
     * {@code rewrite}'s plan, or {@code rel} where the rewrite throws or changes the types (and so
     * the order) of the columns (defect 8): decorrelation and field trimming are rewrites the
     * answer does not need, and without -ea Calcite does not check the types they leave.
     */
    static RelNode unlessItFails(RelNode rel, Supplier<RelNode> rewrite) {
        try {
            RelNode result = rewrite.get();
            return RelOptUtil.areRowTypesEqual(rel.getRowType(), result.getRowType(), false) ? result : rel;
        } catch (IndexOutOfBoundsException | IllegalArgumentException | NullPointerException | Mappings.NoElementException
                | AssertionError e) {
            return rel;
        }
    }

    /** Swaps the planner's SemiJoinRules and date-range rule for copies without the defects above. */
    static void replaceRules(RelOptPlanner planner) {
        for (RelOptRule rule : List.copyOf(planner.getRules())) {
            RelOptRule replacement = replacement(rule);
            if (replacement != null) {
                planner.removeRule(rule);
                planner.addRule(replacement);
            } else if (rule == CoreRules.AGGREGATE_PROJECT_PULL_UP_CONSTANTS || rule == CoreRules.AGGREGATE_ANY_PULL_UP_CONSTANTS) {
                planner.removeRule(rule); // defect 10
            }
        }
    }

    /** {@code rule}, or its copy without the defects above: for the rewrite programs outside Volcano. */
    static RelOptRule fixed(RelOptRule rule) {
        RelOptRule replacement = replacement(rule);
        return replacement != null ? replacement : rule;
    }

    private static RelOptRule replacement(RelOptRule rule) {
        if (rule == CoreRules.PROJECT_TO_SEMI_JOIN) {
            return PROJECT_TO_SEMI_JOIN;
        } else if (rule == CoreRules.JOIN_TO_SEMI_JOIN) {
            return JOIN_TO_SEMI_JOIN;
        } else if (rule == CoreRules.AGGREGATE_TO_SEMI_JOIN) {
            return AGGREGATE_TO_SEMI_JOIN;
        } else if (rule == DateRangeRules.FILTER_INSTANCE) {
            return FILTER_DATE_RANGE;
        } else if (rule == EnumerableRules.ENUMERABLE_JOIN_RULE) {
            return JOIN;
        } else if (rule == CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES) {
            return CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES_TO_JOIN;
        } else if (rule == CoreRules.SORT_PROJECT_TRANSPOSE) {
            return SORT_PROJECT_TRANSPOSE;
        } else if (rule == CoreRules.PROJECT_MERGE) {
            return PROJECT_MERGE;
        } else if (rule == CoreRules.AGGREGATE_CASE_TO_FILTER) {
            return AGGREGATE_CASE_TO_FILTER;
        } else if (rule == CoreRules.PROJECT_AGGREGATE_MERGE) {
            return PROJECT_AGGREGATE_MERGE;
        }
        return null;
    }

    /** Calcite's SortProjectTransposeRule, not over a CAST that maps two values to one (defect 20). */
    private static final RelOptRule SORT_PROJECT_TRANSPOSE = new SortProjectTransposeRule(
            (SortProjectTransposeRule.Config) CoreRules.SORT_PROJECT_TRANSPOSE.config.withDescription("SortProjectTransposeRule:injective")) {
        @Override
        public void onMatch(RelOptRuleCall call) {
            Sort sort = call.rel(0);
            Project project = call.rel(1);
            for (RelFieldCollation key : sort.getCollation().getFieldCollations()) {
                if (project.getProjects().get(key.getFieldIndex()) instanceof RexCall cast && cast.getKind() == SqlKind.CAST
                        && !injective(cast.getOperands().getFirst().getType(), cast.getType())) {
                    return;
                }
            }
            super.onMatch(call);
        }
    };

    /**
     * Calcite's ProjectMergeRule, but a merge that changes a column's type is no equivalent and is
     * not made (defect 24). The planner checks the type before it registers anything, so the
     * refused merge leaves the planner as it was.
     */
    private static final RelOptRule PROJECT_MERGE = new ProjectMergeRule(
            (ProjectMergeRule.Config) CoreRules.PROJECT_MERGE.config.withDescription("ProjectMergeRule:sameType")) {
        @Override
        public void onMatch(RelOptRuleCall call) {
            try {
                super.onMatch(call);
            } catch (RuntimeException e) {
                if (!(e.getCause() instanceof IllegalArgumentException mismatch && mismatch.getMessage() != null
                        && mismatch.getMessage().startsWith("Type mismatch"))) {
                    throw e;
                }
            }
        }
    };

    /**
     * Calcite's ProjectAggregateMergeRule, not where a COALESCE over a SUM has a literal that is
     * no number: the rule reads it as one to match {@code COALESCE(SUM(x), 0)} and failed with
     * "cannot convert CHAR literal" ({@code COALESCE(CAST(SUM(..) AS VARCHAR), 'zz')}). Such a
     * projection is not merged; the failure comes before the rule transforms anything.
     */
    private static final RelOptRule PROJECT_AGGREGATE_MERGE = new ProjectAggregateMergeRule(
            (ProjectAggregateMergeRule.Config) CoreRules.PROJECT_AGGREGATE_MERGE.config
                    .withDescription("ProjectAggregateMergeRule:numericCoalesce")) {
        @Override
        public void onMatch(RelOptRuleCall call) {
            try {
                super.onMatch(call);
            } catch (AssertionError e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("cannot convert")) {
                    throw e;
                }
            }
        }
    };

    /**
     * Calcite's AggregateCaseToFilterRule, but an aggregate it rewrites into itself is not pruned,
     * and it takes logical aggregates only (defect 25): it matched numacol's aggregate too, made a
     * logical one of it and pruned it, and the set had no NUMACOL plan left.
     */
    private static final RelOptRule AGGREGATE_CASE_TO_FILTER = new AggregateCaseToFilterRule(
            (AggregateCaseToFilterRule.Config) CoreRules.AGGREGATE_CASE_TO_FILTER.config
                    .withOperandSupplier(b0 -> b0.operand(LogicalAggregate.class).oneInput(b1 -> b1.operand(LogicalProject.class).anyInputs()))
                    .withDescription("AggregateCaseToFilterRule:keepSelf")) {
        @Override
        public void onMatch(RelOptRuleCall call) {
            super.onMatch(new NoSelfPruning(call));
        }
    };

    /**
     * A rule call that forwards to {@code call}, but once the rule's result is registered as the
     * matched relation itself, prunes nothing: a pruned relation that is its set's only plan
     * leaves the set without any.
     */
    private static final class NoSelfPruning extends RelOptRuleCall {
        private final RelOptRuleCall call;
        private boolean itself;

        NoSelfPruning(RelOptRuleCall call) {
            super(call.getPlanner(), call.getOperand0(), call.rels, Map.of(), call.getParents());
            this.call = call;
        }

        @Override
        public void transformTo(RelNode rel, Map<RelNode, RelNode> equiv, RelHintsPropagator handler) {
            call.transformTo(rel, equiv, handler);
            itself |= registeredAs(call.getPlanner(), rel, call.rel(0));
        }

        @Override
        public RelOptPlanner getPlanner() {
            RelOptPlanner planner = call.getPlanner();
            if (!itself) {
                return planner;
            }
            return (RelOptPlanner) Proxy.newProxyInstance(RelOptPlanner.class.getClassLoader(), new Class<?>[] {RelOptPlanner.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("prune")) {
                            return null;
                        }
                        try {
                            return method.invoke(planner, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        /** Whether {@code result}, with its inputs as the planner registered them, is {@code matched}. */
        private static boolean registeredAs(RelOptPlanner planner, RelNode result, RelNode matched) {
            if (result.getClass() != matched.getClass() || result.getInputs().size() != matched.getInputs().size()) {
                return false;
            }
            List<RelNode> inputs = new ArrayList<>();
            for (RelNode input : result.getInputs()) {
                inputs.add(planner.ensureRegistered(input, null));
            }
            return result.copy(matched.getTraitSet(), inputs).getDigest().equals(matched.getDigest());
        }
    }

    /** Whether a CAST from {@code from} to {@code to} keeps distinct values distinct. */
    private static boolean injective(RelDataType from, RelDataType to) {
        if (SqlTypeUtil.equalSansNullability(from, to)) {
            return true;
        }
        if (SqlTypeUtil.isExactNumeric(from) && SqlTypeUtil.isExactNumeric(to)) {
            return Math.max(0, to.getScale()) >= Math.max(0, from.getScale()); // more digits fail, they do not collide
        }
        return SqlTypeUtil.isApproximateNumeric(to) && (from.getSqlTypeName() == SqlTypeName.INTEGER
                || from.getSqlTypeName() == SqlTypeName.SMALLINT || from.getSqlTypeName() == SqlTypeName.TINYINT);
    }

    /** Calcite's join rule, but a RIGHT or FULL nested-loop join never has a right side of one column (defect 5). */
    private static final RelOptRule JOIN = new DistinctRowsJoinRule(ConverterRule.Config.INSTANCE
            .withConversion(LogicalJoin.class, Convention.NONE, EnumerableConvention.INSTANCE, "EnumerableJoinRule:distinctRows"));

    private static final class DistinctRowsJoinRule extends ConverterRule {
        DistinctRowsJoinRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            RelNode converted = ((ConverterRule) EnumerableRules.ENUMERABLE_JOIN_RULE).convert(rel);
            if (!(converted instanceof EnumerableNestedLoopJoin join) || !join.getJoinType().generatesNullsOnLeft()
                    || join.getRight().getRowType().getFieldCount() != 1) {
                return converted;
            }
            RexBuilder rexBuilder = join.getCluster().getRexBuilder();
            RelNode right = join.getRight();
            List<RexNode> columns = List.of(rexBuilder.makeInputRef(right, 0), rexBuilder.makeExactLiteral(BigDecimal.ZERO));
            RelNode wider = EnumerableProject.create(right, columns, RexUtil.createStructType(rexBuilder.getTypeFactory(), columns,
                    List.of(right.getRowType().getFieldNames().getFirst(), "$distinct"), null));
            // the condition reads the right side's first column, which keeps its number
            RelNode widened = EnumerableNestedLoopJoin.create(join.getLeft(), wider, join.getCondition(), join.getVariablesSet(),
                    join.getJoinType());
            int width = join.getRowType().getFieldCount();
            List<RexNode> kept = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                kept.add(rexBuilder.makeInputRef(widened, i));
            }
            return EnumerableProject.create(widened, kept, join.getRowType());
        }
    }

    private static final RelOptRule PROJECT_TO_SEMI_JOIN = new SemiJoinRule.ProjectToSemiJoinRule(
            SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.DEFAULT.withDescription("SemiJoinRule:project:keyed")
                    .as(SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            return hasKeys(call.rel(3));
        }
    };

    private static final RelOptRule JOIN_TO_SEMI_JOIN = new SemiJoinRule.JoinToSemiJoinRule(
            SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.DEFAULT.withDescription("SemiJoinRule:join:keyed")
                    .as(SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            return hasKeys(call.rel(2));
        }
    };

    private static final RelOptRule AGGREGATE_TO_SEMI_JOIN = new SemiJoinRule.AggregateToSemiJoinRule(
            SemiJoinRule.AggregateToSemiJoinRule.AggregateToSemiJoinRuleConfig.DEFAULT.withDescription("SemiJoinRule:aggregate:keyed")
                    .as(SemiJoinRule.AggregateToSemiJoinRule.AggregateToSemiJoinRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            return hasKeys(call.rel(3));
        }
    };

    private static final RelOptRule FILTER_DATE_RANGE = new DateRangeRules.FilterDateRangeRule(
            DateRangeRules.FilterDateRangeRule.FilterDateRangeRuleConfig.DEFAULT.withDescription("FilterDateRangeRule:valid")
                    .as(DateRangeRules.FilterDateRangeRule.FilterDateRangeRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            return validExtracts(call.<Filter>rel(0).getCondition());
        }
    };

    private static boolean hasKeys(RelNode aggregate) {
        return ((Aggregate) aggregate).getGroupCount() > 0;
    }

    /** Whether every EXTRACT the condition compares with a value is compared with a valid one for its unit. */
    static boolean validExtracts(RexNode condition) {
        Boolean valid = condition.accept(new RexVisitorImpl<Boolean>(true) {
            @Override
            public Boolean visitCall(RexCall call) {
                if (comparison(call.getKind()) && call.getOperands().size() == 2) {
                    for (int i = 0; i < 2; i++) {
                        TimeUnitRange unit = extractUnit(call.getOperands().get(i));
                        if (unit != null && !valid(unit, call.getOperands().get(1 - i))) {
                            return false;
                        }
                    }
                }
                for (RexNode operand : call.getOperands()) {
                    if (Boolean.FALSE.equals(operand.accept(this))) { // leaves answer null
                        return false;
                    }
                }
                return true;
            }
        });
        return valid == null || valid;
    }

    private static boolean comparison(SqlKind kind) {
        return SqlKind.COMPARISON.contains(kind) || kind == SqlKind.SEARCH;
    }

    private static TimeUnitRange extractUnit(RexNode node) {
        while (node.getKind() == SqlKind.CAST) {
            node = ((RexCall) node).getOperands().getFirst();
        }
        if (node.getKind() == SqlKind.EXTRACT && ((RexCall) node).getOperands().getFirst() instanceof RexLiteral flag
                && flag.getValue() instanceof TimeUnitRange unit) {
            return unit;
        }
        return null;
    }

    /** A literal (or SEARCH argument) whose values are all valid for {@code unit}; anything else is not judged here. */
    private static boolean valid(TimeUnitRange unit, RexNode value) {
        while (value.getKind() == SqlKind.CAST) {
            value = ((RexCall) value).getOperands().getFirst();
        }
        if (!(value instanceof RexLiteral literal) || literal.isNull()) {
            return true;
        }
        if (literal.getValue() instanceof Sarg<?> sarg) {
            for (Range<?> range : sarg.rangeSet.asRanges()) {
                if ((range.hasLowerBound() && !valid(unit, range.lowerEndpoint()))
                        || (range.hasUpperBound() && !valid(unit, range.upperEndpoint()))) {
                    return false;
                }
            }
            return true;
        }
        return valid(unit, literal.getValue());
    }

    private static boolean valid(TimeUnitRange unit, Object value) {
        if (!(value instanceof BigDecimal number)) {
            return false; // a value the rule would have to convert: leave the filter as it is
        }
        if (number.stripTrailingZeros().scale() > 0) {
            return false;
        }
        long v = number.longValue();
        return switch (unit) {
            case YEAR -> v >= 1 && v <= 9999;
            case MONTH -> v >= 1 && v <= 12;
            case DAY -> v >= 1 && v <= 31;
            case HOUR -> v >= 0 && v <= 23;
            case MINUTE, SECOND -> v >= 0 && v <= 59;
            default -> false;
        };
    }

    /**
     * In a correlated query, each aggregate whose group keys are all constants (of an
     * uncorrelated input) as a grand total filtered to a positive row count, with the constants
     * projected back: the same rows, in a shape {@code RelDecorrelator} keeps.
     */
    static RelNode protectConstantKeys(RelNode rel) {
        if (!correlated(rel)) {
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
     * The plan with the literal group keys of aggregates that also have other keys projected
     * above the aggregate, in their places (defect 10: Calcite's decorrelator put them back in
     * another order).
     */
    static RelNode pullUpLiteralKeys(RelNode rel) {
        return rel.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalAggregate aggregate) {
                RelNode visited = super.visit(aggregate);
                return visited instanceof Aggregate a ? withoutLiteralKeys(a) : visited;
            }
        });
    }

    private static RelNode withoutLiteralKeys(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getGroupCount() < 2) {
            // nothing to pull up (a literal key alone stays, see below): skip pulling up the input's predicates, which costs
            return aggregate;
        }
        Map<Integer, RexLiteral> literals = literalKeys(aggregate);
        List<Integer> keys = aggregate.getGroupSet().asList();
        List<Integer> kept = keys.stream().filter(k -> !literals.containsKey(k)).toList();
        if (kept.size() == keys.size() || kept.isEmpty()) {
            return aggregate; // only literal keys: a grand total's row over no rows differs (protectConstantKeys)
        }
        Aggregate inner = aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), ImmutableBitSet.of(kept), null,
                aggregate.getAggCallList());
        RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
        List<RexNode> out = new ArrayList<>();
        int next = 0;
        for (int key : keys) {
            out.add(literals.containsKey(key) ? literals.get(key) : rexBuilder.makeInputRef(inner, next++));
        }
        for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
            out.add(rexBuilder.makeInputRef(inner, kept.size() + i));
        }
        return LogicalProject.create(inner, List.of(), out, aggregate.getRowType().getFieldNames(), Set.of());
    }

    /**
     * The group keys of {@code aggregate} whose column holds one literal in every input row: a
     * literal of a projection, or a constant the input's predicates pull up (a literal projected
     * below a filter), of the column's type.
     */
    private static Map<Integer, RexLiteral> literalKeys(Aggregate aggregate) {
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
                || !freeVariables(aggregate.getInput()).isEmpty()) {
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

    /**
     * The correlation variables {@code rel} reads from outside itself: those no Correlate within
     * it defines. An aggregate over a subquery that is correlated only inside is not correlated.
     */
    private static Set<CorrelationId> freeVariables(RelNode rel) {
        Set<CorrelationId> used = new HashSet<>();
        Set<CorrelationId> defined = new HashSet<>();
        collectVariables(rel, used, defined);
        used.removeAll(defined);
        return used;
    }

    /** Defect 13: {@code NULL IN (subquery)} as {@code CASE WHEN EXISTS (subquery) THEN NULL ELSE FALSE END}. */
    static RelNode nullInSubQueries(RelNode plan) {
        return bottomUp(plan, rel -> rel.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RelNode inner = nullInSubQueries(subQuery.rel);
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(inner == subQuery.rel ? subQuery : subQuery.clone(inner));
                if (visited.getKind() != SqlKind.IN || visited.getOperands().size() != 1
                        || !RexUtil.isNullLiteral(visited.getOperands().getFirst(), true)) {
                    return visited;
                }
                RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
                return rexBuilder.makeCall(visited.getType(), SqlStdOperatorTable.CASE, List.of(RexSubQuery.exists(visited.rel),
                        rexBuilder.makeNullLiteral(visited.getType()), rexBuilder.makeLiteral(false)));
            }
        }));
    }

    /**
     * Defect 23: every comparison or arithmetic with a NULL literal folded to NULL, as SQL defines
     * it, so that no later simplification makes a predicate list of it nor takes it for a literal.
     */
    static RelNode nullComparisons(RelNode plan) {
        return rewriteExpressions(plan, strictNulls(plan.getCluster().getRexBuilder()));
    }

    /** Calls of the operators that are NULL when an operand is. */
    private static final Set<SqlKind> STRICT = EnumSet.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.PLUS, SqlKind.MINUS,
            SqlKind.TIMES, SqlKind.DIVIDE, SqlKind.MOD, SqlKind.MINUS_PREFIX, SqlKind.PLUS_PREFIX);

    /**
     * Folds what defect 23 needs folded: a strict call with a NULL operand, and a constant value
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
                RelNode rel = rewriteExpressions(visited.rel, this);
                return rel == visited.rel ? visited : visited.clone(rel);
            }
        };
    }

    /**
     * Calcite's projection factory, with defect 23's folding first: a projection's collation is
     * derived as it is made, and Calcite took {@code 37 / CAST(NULL AS INTEGER)} for a literal
     * there ("not a literal" AssertionError from RexLiteral.findValue).
     */
    static final RelFactories.ProjectFactory PROJECTS = (input, hints, childExprs, fieldNames, variablesSet) -> {
        RexShuttle fold = strictNulls(input.getCluster().getRexBuilder());
        List<RexNode> folded = childExprs.stream().map(e -> e.accept(fold)).toList();
        return RelFactories.DEFAULT_PROJECT_FACTORY.createProject(input, hints, folded, fieldNames, variablesSet);
    };

    /** Whether {@code e} is RexSimplify's check of defect 23. */
    public static boolean isNullComparisonInPredicates(AssertionError e) {
        return e.getMessage() != null && e.getMessage().contains("Comparison with NULL in pulledUpPredicates");
    }

    /**
     * Defect 28: the plan with each filter condition that reads a correlation variable simplified
     * where simplifying removes every variable it reads ({@code s.dm = a.fd AND 1 = 2} is FALSE),
     * and then each Correlate whose right side reads no variable of it a join on TRUE of the same
     * type: the right side is the same for every left row, which is what the join pairs.
     */
    static RelNode vacuousCorrelates(RelNode plan) {
        return bottomUp(plan, rel -> {
            if (rel instanceof LogicalFilter f && RexUtil.containsCorrelation(f.getCondition())
                    && RexUtil.SubQueryFinder.find(List.of(f.getCondition())) == null) {
                RexNode simplified = simplifiedFilterCondition(f);
                if (simplified != null && !RexUtil.containsCorrelation(simplified)) {
                    return LogicalFilter.create(f.getInput(), simplified, ImmutableSet.copyOf(f.getVariablesSet()));
                }
            }
            if (rel instanceof Correlate c && !RelOptUtil.getVariablesUsed(c.getRight()).contains(c.getCorrelationId())) {
                return LogicalJoin.create(c.getLeft(), c.getRight(), c.getHints(), c.getCluster().getRexBuilder().makeLiteral(true),
                        Set.of(), c.getJoinType());
            }
            return rel;
        });
    }

    /** The filter's condition as RexSimplify makes it (unknown as false), or null where RexSimplify fails (defect 23). */
    private static RexNode simplifiedFilterCondition(LogicalFilter filter) {
        RexSimplify simplify = new RexSimplify(filter.getCluster().getRexBuilder(), RelOptPredicateList.EMPTY, RexUtil.EXECUTOR);
        try {
            return simplify.simplifyUnknownAsFalse(filter.getCondition());
        } catch (RuntimeException | AssertionError e) {
            return null;
        }
    }

    /** Defect 21: the plan without projections and filters declaring correlation variables that nothing reads. */
    static RelNode unusedVariables(RelNode plan) {
        return bottomUp(plan, rel -> {
            if (rel instanceof LogicalProject p && !p.getVariablesSet().isEmpty() && unread(p.getVariablesSet(), p.getProjects(), p)) {
                return LogicalProject.create(p.getInput(), p.getHints(), p.getProjects(), p.getRowType(), ImmutableSet.of());
            }
            if (rel instanceof LogicalFilter f && !f.getVariablesSet().isEmpty() && unread(f.getVariablesSet(), List.of(f.getCondition()), f)) {
                return LogicalFilter.create(f.getInput(), f.getCondition(), ImmutableSet.of());
            }
            return rel;
        });
    }

    private static boolean unread(Set<CorrelationId> variables, List<RexNode> expressions, RelNode rel) {
        if (RexUtil.SubQueryFinder.find(expressions) != null || expressions.stream().anyMatch(RexUtil::containsCorrelation)) {
            return false;
        }
        Set<CorrelationId> below = RelOptUtil.getVariablesUsed(rel.getInput(0));
        return variables.stream().noneMatch(below::contains);
    }

    /** {@code plan} with its inputs rewritten first, each node then by {@code node}; a node whose inputs did not change stays itself. */
    static RelNode bottomUp(RelNode plan, UnaryOperator<RelNode> node) {
        List<RelNode> inputs = plan.getInputs().stream().map(i -> bottomUp(i, node)).toList();
        return node.apply(inputs.equals(plan.getInputs()) ? plan : plan.copy(plan.getTraitSet(), inputs));
    }

    /**
     * Defect 12: the plan with every LEFT or ANTI Correlate's right side reading only the
     * Correlate's own variable; the enclosing Correlates' fields it read become columns added to
     * its left side. Where a variable is read whole (not a field of it) the Correlate stays as it is.
     */
    static RelNode hoistOuterVariables(RelNode plan) {
        return bottomUp(plan, CalciteDefects::hoistOuterVariablesOf);
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
        RelNode newRight = rewriteExpressions(c.getRight(), rewrite);
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

    /** {@code rel} with {@code shuttle} applied to the expressions of every node in it. */
    private static RelNode rewriteExpressions(RelNode rel, RexShuttle shuttle) {
        return bottomUp(rel, node -> node.accept(shuttle));
    }

    /** The variables of enclosing Correlates that a LEFT or ANTI Correlate's right side reads (none for other joins). */
    private static Set<CorrelationId> outerVariables(Correlate c) {
        if (c.getJoinType() != JoinRelType.LEFT && c.getJoinType() != JoinRelType.ANTI) {
            return Set.of();
        }
        Set<CorrelationId> outer = freeVariables(c.getRight());
        outer.remove(c.getCorrelationId());
        return outer;
    }

    /**
     * Whether Calcite's decorrelator rewrites {@code rel} right (defect 12): no LEFT or ANTI
     * Correlate has a right side that reads a variable of another Correlate.
     */
    static boolean decorrelatable(RelNode rel) {
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

    /** Whether {@code rel} reads any correlation variable. */
    private static boolean correlated(RelNode rel) {
        Set<CorrelationId> used = new HashSet<>();
        collectVariables(rel, used, new HashSet<>());
        return !used.isEmpty();
    }

    /** Adds the correlation variables {@code rel}'s expressions read to {@code used}, those its nodes define to {@code defined}. */
    private static void collectVariables(RelNode rel, Set<CorrelationId> used, Set<CorrelationId> defined) {
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                used.add(variable.id);
                return variable;
            }
        };
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                node.accept(finder);
                if (node instanceof Correlate correlate) {
                    defined.add(correlate.getCorrelationId());
                }
                defined.addAll(node.getVariablesSet());
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
    }

    /**
     * The plan with the conditions of Calcite's operators (Calc, Filter, nested-loop Join) free
     * of casts that drop nullability: such a cast of a nullable value becomes a nullable cast, so
     * a NULL makes the comparison unknown, as the simplifications that made the cast assumed.
     */
    static RelNode strongCasts(RelNode plan) {
        return bottomUp(plan, CalciteDefects::strongCastsOf);
    }

    private static RelNode strongCastsOf(RelNode rel) {
        // only joins without equi-keys: re-typing a key would change how a hash join reads it
        return rewriteCondition(rel, new StrongCasts(rel.getCluster().getTypeFactory()), false);
    }

    /** {@code rel} with {@code shuttle} applied to its condition: a Calc's, a Filter's, or a join's (with equi-keys if {@code keyedJoins}). */
    private static RelNode rewriteCondition(RelNode rel, RexShuttle shuttle, boolean keyedJoins) {
        RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
        switch (rel) {
            case Calc calc when calc.getProgram().getCondition() != null -> {
                RexProgram program = calc.getProgram();
                RexNode condition = program.expandLocalRef(program.getCondition());
                RexNode fixed = condition.accept(shuttle);
                if (fixed == condition) {
                    return calc;
                }
                List<RexNode> projects = program.getProjectList().stream().map(program::expandLocalRef).toList();
                return calc.copy(calc.getTraitSet(), calc.getInput(),
                        RexProgram.create(program.getInputRowType(), projects, fixed, program.getOutputRowType(), rexBuilder));
            }
            case Filter filter -> {
                RexNode fixed = filter.getCondition().accept(shuttle);
                return fixed == filter.getCondition() ? filter : filter.copy(filter.getTraitSet(), filter.getInput(), fixed);
            }
            case Join join when keyedJoins || join.analyzeCondition().leftKeys.isEmpty() -> {
                RexNode fixed = join.getCondition().accept(shuttle);
                return fixed == join.getCondition() ? join : join.copy(join.getTraitSet(), fixed, join.getLeft(),
                        join.getRight(), join.getJoinType(), join.isSemiJoinDone());
            }
            default -> {
                return rel;
            }
        }
    }

    /**
     * Defect 4 in constant reduction: the planner's executor evaluating casts to NOT NULL types
     * as {@link StrongCasts} types them, passing NULL through, as the simplifications that made
     * them assume. Calcite's generated code read a NULL as a primitive default value there.
     */
    static Program reduceCastsOfNull() {
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

    /**
     * Defect 26: in the conditions of Calcite's operators, {@code (a OR NULL) IS NOT NULL} as
     * {@code a IS TRUE}, {@code (a OR NULL) IS NULL} as {@code a IS NOT TRUE}, and the same of AND
     * with IS FALSE and IS NOT FALSE: what Calcite generates for the first forms does not compile.
     */
    static RelNode nullTests(RelNode plan) {
        return bottomUp(plan, rel -> rewriteCondition(rel, new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexNode visited = super.visitCall(call);
                if (!(visited instanceof RexCall test) || !(test.isA(SqlKind.IS_NULL) || test.isA(SqlKind.IS_NOT_NULL))
                        || !(test.getOperands().getFirst() instanceof RexCall logic) || !(logic.isA(SqlKind.OR) || logic.isA(SqlKind.AND))
                        || logic.getOperands().stream().noneMatch(o -> RexUtil.isNullLiteral(o, true))) {
                    return visited;
                }
                RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
                List<RexNode> known = logic.getOperands().stream().filter(o -> !RexUtil.isNullLiteral(o, true)).toList();
                boolean or = logic.isA(SqlKind.OR);
                if (known.isEmpty()) { // NULL OR NULL is NULL
                    return rexBuilder.makeLiteral(test.isA(SqlKind.IS_NULL));
                }
                // a OR NULL is TRUE where a is, NULL elsewhere; a AND NULL is FALSE where a is, NULL elsewhere
                RexNode rest = or ? RexUtil.composeDisjunction(rexBuilder, known) : RexUtil.composeConjunction(rexBuilder, known);
                SqlOperator is = test.isA(SqlKind.IS_NOT_NULL)
                        ? (or ? SqlStdOperatorTable.IS_TRUE : SqlStdOperatorTable.IS_FALSE)
                        : (or ? SqlStdOperatorTable.IS_NOT_TRUE : SqlStdOperatorTable.IS_NOT_FALSE);
                return rexBuilder.makeCall(is, rest);
            }
        }, true)); // keys are = calls, which this leaves as they are
    }

    /**
     * Defects 11, 16 and 18: every double a Calcite Calc computes, plus 0.0; every DECIMAL, at its
     * type's scale; EXTRACTs from DATEs, by numacol's functions.
     */
    static RelNode canonicalValues(RelNode plan) {
        return bottomUp(plan, CalciteDefects::canonicalValuesOf);
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
        RexShuttle decimals = PlanFunctions.decimals(rexBuilder); // defect 16
        RexShuttle extracts = PlanFunctions.extracts(rexBuilder); // defect 18
        boolean changed = false;
        List<RexNode> projects = new ArrayList<>();
        for (RexNode ref : program.getProjectList()) {
            RexNode expanded = program.expandLocalRef((RexLocalRef) ref);
            RexNode e = expanded.accept(extracts).accept(decimals);
            // columns and literals pass values that are already canonical (numacol's, or a Calc's below), but for a literal -0.0
            if (e instanceof RexLiteral literal && ConstantCalls.negativeZero(literal)) {
                e = rexBuilder.makeLiteral(0.0, e.getType());
            } else if (e instanceof RexCall && SqlTypeUtil.isApproximateNumeric(e.getType())) {
                RexNode zero = rexBuilder.makeApproxLiteral(BigDecimal.ZERO,
                        rexBuilder.getTypeFactory().createTypeWithNullability(e.getType(), false));
                e = rexBuilder.makeCall(e.getType(), SqlStdOperatorTable.PLUS, List.of(e, zero));
            } else if (e instanceof RexCall && e.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
                e = PlanFunctions.scaled(rexBuilder, e); // defect 16
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
