/**
 * numacol's workarounds for defects of Apache Calcite 1.42 that gave wrong answers or failed
 * statements, each found by the random differential tester against DuckDB and fixed for its class
 * of plans, not for one query. One class holds one workaround and says what Calcite does wrong,
 * what numacol does instead, the test that proves it and the upstream issue where one is known;
 * drop a class when Calcite fixes its defect (its test says whether the defect still bites).
 * Tests named without a module are in {@code tests/} ({@code io.numacol.differential}).
 *
 * <p>The workarounds, in the order {@code io.numacol.calcite.plan.JoinPlanning} and {@code
 * io.numacol.calcite.plan.NumacolPrepare} apply them:
 * <ul>
 *   <li>Rules replaced by copies without a defect: {@link io.numacol.calcite.plan.rewrite.FixedRules}
 *       (the table), {@link io.numacol.calcite.plan.rewrite.KeyedSemiJoinRules}, {@link
 *       io.numacol.calcite.plan.rewrite.ValidDateRangeRule}, {@link
 *       io.numacol.calcite.plan.rewrite.DistinctRowsJoinRule}, {@link
 *       io.numacol.calcite.plan.rewrite.InjectiveSortProjectTransposeRule}, {@link
 *       io.numacol.calcite.plan.rewrite.SameTypeProjectMergeRule}, {@link
 *       io.numacol.calcite.plan.rewrite.NumericCoalesceProjectAggregateMergeRule}, {@link
 *       io.numacol.calcite.plan.rewrite.SelfKeepingAggregateCaseToFilterRule}.</li>
 *   <li>Conversion from SQL: {@link io.numacol.calcite.plan.rewrite.NullComparisons} (also in the
 *       plan cache), {@link io.numacol.calcite.plan.rewrite.SingleRemapTrimmer}, {@link
 *       io.numacol.calcite.plan.rewrite.OptionalRewrites}.</li>
 *   <li>Before decorrelation: {@link io.numacol.calcite.plan.rewrite.NullInSubQueries}, {@link
 *       io.numacol.calcite.plan.rewrite.ConstantGroupKeys}, {@link
 *       io.numacol.calcite.plan.rewrite.LiteralKeyPullUp}, {@link
 *       io.numacol.calcite.plan.rewrite.OuterVariables}, {@link
 *       io.numacol.calcite.plan.rewrite.VacuousCorrelates}, {@link
 *       io.numacol.calcite.plan.rewrite.NullableCasts}.</li>
 *   <li>After planning, in the nodes Calcite runs: {@link
 *       io.numacol.calcite.plan.rewrite.UnusedVariables}, {@link
 *       io.numacol.calcite.plan.rewrite.NullableCasts}, {@link io.numacol.calcite.plan.rewrite.NullTests},
 *       {@link io.numacol.calcite.plan.rewrite.CanonicalValues} and the functions it calls, {@link
 *       io.numacol.calcite.plan.rewrite.PlanFunctions}, and {@link
 *       io.numacol.calcite.plan.rewrite.CheckedArithmetic} (Calcite's generated integer arithmetic
 *       wraps where numacol's fails).</li>
 * </ul>
 * {@link io.numacol.calcite.plan.rewrite.Rewrites} holds the walks over plans they share.
 *
 * <p>Defects worked around elsewhere, where the code they change lives:
 * <ul>
 *   <li>A correlated subquery in the select list over a join on expressions, rebuilt by Calcite's
 *       converter with merged field numbers: {@code NumacolPrepare}'s converter merges no
 *       projections ({@code WrongResultsTest#agreesWithDuckDb}, case 9).</li>
 *   <li>Merge joins that do not compile, merge unions that limit each branch before removing
 *       duplicates: {@code JoinPlanning} removes both rules ({@code WrongResultsTest#keepsTheOrder}).</li>
 *   <li>NULL correlation values matched with =, a second value generator unrelated to the first,
 *       two correlation variables in one column: {@code Decorrelator} replaces Calcite's
 *       decorrelator ({@code DecorrelationTest#agreesWithDuckDbWithoutACorrelate}; {@code
 *       WrongResultsTest#agreesWithDuckDb}, cases 23, 43 and 44).</li>
 *   <li>A join taken for a table in join ordering, a FULL join taken for one row, a self-join
 *       judged unique on a filtered factor, a MAX with a FILTER taken for its argument, metadata
 *       that comes back to its own planner set: {@code KeyMetadata} and {@code JoinEstimates}
 *       ({@code WrongResultsTest#agreesWithDuckDb}, cases 26, 29, 29, 45 and 22 of their groups).</li>
 * </ul>
 * No upstream issue is known for any of them but {@link
 * io.numacol.calcite.plan.rewrite.NullableCasts}'s, which is of the class of CALCITE-7619.
 */
package io.numacol.calcite.plan.rewrite;
