package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.placement.Placement;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pipeline executor's operators against plain Java over the same rows. Hash joins against a
 * nested loop: every join kind, keys of each storage kind with NULLs and duplicates, IS NOT
 * DISTINCT FROM keys, either build side, residual conditions. Hash aggregates, sorts and computed
 * projections over scans, joins and each other. Parts of odd sizes (so each string column has
 * several dictionaries) over four fake nodes.
 */
class PipelineExecutorTest {
    private static Database db;
    private static Table left;
    private static Table right;
    private static final List<Object[]> leftRows = new ArrayList<>();
    private static final List<Object[]> rightRows = new ArrayList<>();

    @BeforeAll
    static void load() {
        db = Database.open(DatabaseConfig.defaults().withTopology("fake:4").withRowsPerPart(1_333));
        left = create("l", 4_000, 3, leftRows);
        right = create("r", 1_500, 5, rightRows);
    }

    /** Columns: k BIGINT, x INTEGER, s VARCHAR, d DOUBLE, m DECIMAL(9,2), all but k with NULLs. */
    private static Table create(String name, int rows, long seed, List<Object[]> into) {
        Table t = db.catalog().create(name, TableSchema.of(
                new TableSchema.ColumnDef("k", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("x", ColumnType.integer(), true),
                new TableSchema.ColumnDef("s", ColumnType.varchar(6), true),
                new TableSchema.ColumnDef("d", ColumnType.doubleType(), true),
                new TableSchema.ColumnDef("m", ColumnType.decimal(9, 2), true)));
        Random r = new Random(seed);
        try (Appender a = db.appender(name)) {
            for (int i = 0; i < rows; i++) {
                Object[] row = {(long) r.nextInt(rows / 2), r.nextInt(8) == 0 ? null : r.nextInt(300),
                        r.nextInt(6) == 0 ? null : "s" + r.nextInt(40),
                        r.nextInt(7) == 0 ? null : (r.nextInt(10) == 0 ? -0.0 : r.nextInt(50) / 4.0),
                        r.nextInt(9) == 0 ? null : BigDecimal.valueOf(r.nextInt(500), 2)};
                into.add(row);
                a.append(row);
            }
        }
        return t;
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static PlanNode.Scan scan(Table t) {
        return new PlanNode.Scan(t, null, new int[]{0, 1, 2, 3, 4});
    }

    static Stream<Arguments> joins() {
        List<Arguments> out = new ArrayList<>();
        int[][][] keys = {{{0}, {0}}, {{1}, {1}}, {{2}, {2}}, {{3}, {3}}, {{4}, {4}}, {{1, 2}, {1, 2}}};
        for (PlanNode.JoinKind kind : PlanNode.JoinKind.values()) {
            for (int[][] k : keys) {
                for (boolean nullsEqual : new boolean[]{false, true}) {
                    out.add(Arguments.of(kind, k[0], k[1], nullsEqual, false));
                    out.add(Arguments.of(kind, k[0], k[1], nullsEqual, true));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1}={2} nullsEqual={3} buildLeft={4}")
    @MethodSource("joins")
    void hashJoinAgreesWithANestedLoop(PlanNode.JoinKind kind, int[] leftKeys, int[] rightKeys, boolean nullsEqual,
                                       boolean buildLeft) {
        boolean[] equalNulls = new boolean[leftKeys.length];
        Arrays.fill(equalNulls, nullsEqual);
        PlanNode plan = new PlanNode.HashJoin(scan(left), scan(right), leftKeys, rightKeys, equalNulls, kind, buildLeft);
        List<Object[]> actual = new PipelineExecutor(db.scheduler()).execute(plan, () -> false);
        assertThat(sorted(actual)).isEqualTo(sorted(nestedLoop(kind, leftKeys, rightKeys, nullsEqual)));
    }

    /**
     * The same joins over copies of both tables placed PP(4) BY HASH on the join's keys (a table
     * group): joins whose build rows need not wait for the probe run partition by partition,
     * and every join gives the nested loop's rows.
     */
    @ParameterizedTest(name = "{0} on {1}={2} nullsEqual={3} buildLeft={4}")
    @MethodSource("joins")
    void joinsOfATableGroupRunByPartition(PlanNode.JoinKind kind, int[] leftKeys, int[] rightKeys, boolean nullsEqual,
                                          boolean buildLeft) {
        Table lp = copy(left, "lp", leftRows);
        Table rp = copy(right, "rp", rightRows);
        try {
            String keys = String.join(", ", Arrays.stream(leftKeys).mapToObj(c -> left.schema().column(c).name()).toList());
            db.setPlacement(lp, Placement.parse("PP(4) BY HASH (" + keys + ")"));
            db.setPlacement(rp, Placement.parse("PP(4) BY HASH (" + keys + ")"));
            boolean[] equalNulls = new boolean[leftKeys.length];
            Arrays.fill(equalNulls, nullsEqual);
            PlanNode plan = new PlanNode.HashJoin(scan(lp), scan(rp), leftKeys, rightKeys, equalNulls, kind, buildLeft);
            long before = PipelineExecutor.coPartitionedJoins();
            List<Object[]> actual = new PipelineExecutor(db.scheduler()).execute(plan, () -> false);
            assertThat(sorted(actual)).isEqualTo(sorted(nestedLoop(kind, leftKeys, rightKeys, nullsEqual)));
            assertThat(PipelineExecutor.coPartitionedJoins() - before).as("run by partition")
                    .isEqualTo(((PlanNode.HashJoin) plan).buildDecides() ? 0 : 1);
        } finally {
            db.dropTable("lp");
            db.dropTable("rp");
        }
    }

    private static Table copy(Table t, String name, List<Object[]> rows) {
        Table c = db.catalog().create(name, t.schema());
        try (Appender a = db.appender(name)) {
            rows.forEach(a::append);
        }
        return c;
    }

    /** The residual l.x < r.x (NULL: unknown, so no match), on the pair's columns. */
    private static final RowPredicate X_BELOW = new RowPredicate.Compare(RowPredicate.Op.LT,
            new RowPredicate.ColumnOperand(1), new RowPredicate.ColumnOperand(6));

    @ParameterizedTest(name = "{0} buildLeft={1}")
    @MethodSource("residualJoins")
    void residualConditionsDecideWhichPairsMatch(PlanNode.JoinKind kind, boolean buildLeft) {
        PlanNode plan = new PlanNode.HashJoin(scan(left), scan(right), new int[]{0}, new int[]{0}, new boolean[]{false},
                kind, buildLeft, X_BELOW);
        List<Object[]> actual = new PipelineExecutor(db.scheduler()).execute(plan, () -> false);
        assertThat(sorted(actual)).isEqualTo(sorted(nestedLoop(kind, new int[]{0}, new int[]{0}, false, true)));
    }

    static Stream<Arguments> residualJoins() {
        return Arrays.stream(PlanNode.JoinKind.values())
                .flatMap(kind -> Stream.of(Arguments.of(kind, false), Arguments.of(kind, true)));
    }

    private static List<Object[]> nestedLoop(PlanNode.JoinKind kind, int[] leftKeys, int[] rightKeys, boolean nullsEqual) {
        return nestedLoop(kind, leftKeys, rightKeys, nullsEqual, false);
    }

    private static List<Object[]> nestedLoop(PlanNode.JoinKind kind, int[] leftKeys, int[] rightKeys, boolean nullsEqual,
                                             boolean xBelow) {
        List<Object[]> out = new ArrayList<>();
        boolean[] rightMatched = new boolean[rightRows.size()];
        for (Object[] l : leftRows) {
            boolean matched = false;
            for (int ri = 0; ri < rightRows.size(); ri++) {
                Object[] r = rightRows.get(ri);
                if (!keysMatch(l, r, leftKeys, rightKeys, nullsEqual)
                        || (xBelow && (l[1] == null || r[1] == null || (Integer) l[1] >= (Integer) r[1]))) {
                    continue;
                }
                matched = true;
                rightMatched[ri] = true;
                if (kind != PlanNode.JoinKind.SEMI && kind != PlanNode.JoinKind.ANTI) {
                    out.add(concat(l, r));
                }
            }
            switch (kind) {
                case LEFT, FULL -> {
                    if (!matched) {
                        out.add(concat(l, new Object[r0().length]));
                    }
                }
                case SEMI -> {
                    if (matched) {
                        out.add(l);
                    }
                }
                case ANTI -> {
                    if (!matched) {
                        out.add(l);
                    }
                }
                default -> {
                }
            }
        }
        if (kind == PlanNode.JoinKind.RIGHT || kind == PlanNode.JoinKind.FULL) {
            for (int ri = 0; ri < rightRows.size(); ri++) {
                if (!rightMatched[ri]) {
                    out.add(concat(new Object[leftRows.getFirst().length], rightRows.get(ri)));
                }
            }
        }
        return out;
    }

    private static Object[] r0() {
        return rightRows.getFirst();
    }

    private static boolean keysMatch(Object[] l, Object[] r, int[] lk, int[] rk, boolean nullsEqual) {
        for (int i = 0; i < lk.length; i++) {
            Object a = l[lk[i]];
            Object b = r[rk[i]];
            if (a == null || b == null) {
                if (!(nullsEqual && a == null && b == null)) {
                    return false;
                }
            } else if (a instanceof Double x ? x.doubleValue() != ((Double) b).doubleValue() : !a.equals(b)) {
                return false; // 0.0 = -0.0, as in SQL
            }
        }
        return true;
    }

    private static Object[] concat(Object[] a, Object[] b) {
        Object[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Rows as strings, sorted: -0.0 prints as 0.0, which the engine may return for either. */
    private static List<String> sorted(List<Object[]> rows) {
        return rows.stream().map(r -> Arrays.stream(r).map(v -> v instanceof Double d && d == 0 ? "0.0" : Objects.toString(v))
                .toList().toString()).sorted().toList();
    }

    @Test
    void joinsOfJoinsAndColumnPicksCompose() {
        // (l JOIN r ON k) JOIN r ON l.s = r.s, then the columns l.k, r2.m
        PlanNode first = new PlanNode.HashJoin(scan(left), scan(right), new int[]{0}, new int[]{0},
                new boolean[]{false}, PlanNode.JoinKind.INNER, false);
        PlanNode second = new PlanNode.HashJoin(new PlanNode.Project(first, new int[]{0, 2}),
                new PlanNode.Scan(right, null, new int[]{2, 4}), new int[]{1}, new int[]{0}, new boolean[]{false},
                PlanNode.JoinKind.INNER, true);
        List<Object[]> actual = new PipelineExecutor(db.scheduler()).execute(new PlanNode.Project(second, new int[]{0, 3}),
                () -> false);
        List<Object[]> expected = new ArrayList<>();
        for (Object[] l : leftRows) {
            for (Object[] r : rightRows) {
                if (!l[0].equals(r[0]) || l[2] == null) {
                    continue;
                }
                for (Object[] r2 : rightRows) {
                    if (l[2].equals(r2[2])) {
                        expected.add(new Object[]{l[0], r2[4]});
                    }
                }
            }
        }
        assertThat(sorted(actual)).isEqualTo(sorted(expected));
    }

    /**
     * A value filter and a residual read columns nobody above reads: pruning keeps them where
     * they are read, drops them from the scans otherwise, and leaves the result alone.
     */
    @Test
    void prunedColumnsAreReadOnlyWhereNeeded() {
        // SELECT r.m, l.s FROM l JOIN r ON l.k = r.k AND l.x < r.x WHERE l.d IS NOT NULL
        PlanNode filtered = new PlanNode.Filter(scan(left), new RowPredicate.IsNull(3, true));
        PlanNode join = new PlanNode.HashJoin(filtered, scan(right), new int[]{0}, new int[]{0}, new boolean[]{false},
                PlanNode.JoinKind.INNER, true, X_BELOW);
        PlanNode plan = new PlanNode.Project(join, new int[]{9, 2});
        PlanNode pruned = ColumnPruning.prune(plan);
        assertThat(pruned.toString()).contains("Scan[l [0, 1, 2, 3]]").contains("Scan[r [0, 1, 4]]");
        // the join's pairs fill in only what is read above (l.s, r.m) and what the residual reads
        PlanNode narrowed = ((PlanNode.Project) pruned).input();
        assertThat(narrowed).isInstanceOfSatisfying(PlanNode.Project.class, p -> {
            assertThat(p.input()).isInstanceOf(PlanNode.HashJoin.class);
            assertThat(p.columns()).containsExactly(2, 6);
        });
        List<Object[]> expected = new ArrayList<>();
        for (Object[] l : leftRows) {
            for (Object[] r : rightRows) {
                if (l[3] != null && l[0].equals(r[0]) && l[1] != null && r[1] != null && (Integer) l[1] < (Integer) r[1]) {
                    expected.add(new Object[]{r[4], l[2]});
                }
            }
        }
        assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(plan, () -> false))).isEqualTo(sorted(expected));
        // a COUNT(*) over a semi-join reads no column but the keys
        PlanNode count = new PlanNode.Aggregate(new PlanNode.HashJoin(scan(left), scan(right), new int[]{2}, new int[]{2},
                new boolean[]{false}, PlanNode.JoinKind.SEMI, true), new int[0],
                List.of(new AggregateCall(AggregateKind.COUNT_STAR, -1)), List.of(ColumnType.bigint()));
        assertThat(ColumnPruning.prune(count).toString()).contains("Scan[l [2]]").contains("Scan[r [2]]");
        long semi = leftRows.stream().filter(l -> l[2] != null && rightRows.stream().anyMatch(r -> l[2].equals(r[2]))).count();
        assertThat(new PipelineExecutor(db.scheduler()).execute(count, () -> false).getFirst()[0]).isEqualTo(semi);
    }

    @Test
    void aFilteredScanJoinsOnlyItsRows() {
        PlanNode.Scan filtered = new PlanNode.Scan(right, new ColumnFilter.Range(1, 100L, true, 120L, false), new int[]{0, 1});
        PlanNode plan = new PlanNode.HashJoin(new PlanNode.Scan(left, null, new int[]{0}), filtered, new int[]{0},
                new int[]{0}, new boolean[]{false}, PlanNode.JoinKind.SEMI, false);
        long expected = leftRows.stream().filter(l -> rightRows.stream().anyMatch(r -> r[0].equals(l[0]) && r[1] != null
                && (Integer) r[1] >= 100 && (Integer) r[1] < 120)).count();
        assertThat(new PipelineExecutor(db.scheduler()).execute(plan, () -> false)).hasSize((int) expected);
    }

    /** Every kind, either side built, with the left or the right side empty. */
    @ParameterizedTest(name = "{0} buildLeft={1}")
    @MethodSource("residualJoins")
    void joinsWithAnEmptySide(PlanNode.JoinKind kind, boolean buildLeft) {
        PlanNode none = new PlanNode.Scan(right, new ColumnFilter.Range(1, 1_000L, true, 2_000L, false), new int[]{0, 1, 2, 3, 4});
        PipelineExecutor executor = new PipelineExecutor(db.scheduler());
        List<Object[]> emptyRight = executor.execute(new PlanNode.HashJoin(scan(left), none, new int[]{0}, new int[]{0},
                new boolean[]{false}, kind, buildLeft), () -> false);
        int leftAlone = switch (kind) {
            case LEFT, FULL, ANTI -> leftRows.size();
            default -> 0;
        };
        assertThat(emptyRight).hasSize(leftAlone);
        List<Object[]> emptyLeft = executor.execute(new PlanNode.HashJoin(none, scan(right), new int[]{0}, new int[]{0},
                new boolean[]{false}, kind, buildLeft), () -> false);
        int rightAlone = kind == PlanNode.JoinKind.RIGHT || kind == PlanNode.JoinKind.FULL ? rightRows.size() : 0;
        assertThat(emptyLeft).hasSize(rightAlone);
        if (rightAlone > 0) {
            assertThat(emptyLeft).allSatisfy(row -> assertThat(Arrays.copyOf(row, 5)).containsOnlyNulls());
        }
    }

    /** A one-table scan on vids (internal values: DECIMAL as BigDecimal, INTEGER as Integer, NULLs) joins like a scan. */
    @Test
    void aScanOnVidsJoinsLikeAScan() {
        List<ColumnType> types = scan(left).types();
        List<Object[]> given = leftRows;
        PlanNode rows = new PlanNode.VidScan(left, null, IntStream.range(0, 5).<Projection>mapToObj(Projection.ColumnRef::new).toList(),
                null, null, types, null);
        PlanNode plan = new PlanNode.HashJoin(rows, scan(right), new int[]{0}, new int[]{0}, new boolean[]{false},
                PlanNode.JoinKind.INNER, true);
        List<Object[]> expected = new ArrayList<>();
        for (Object[] g : given) {
            for (Object[] r : rightRows) {
                if (g[0].equals(r[0])) {
                    expected.add(concat(g, r));
                }
            }
        }
        assertThat(expected).isNotEmpty();
        assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(plan, () -> false))).isEqualTo(sorted(expected));
    }

    /**
     * A join whose probe side groups by the join key: the build side's keys filter the rows
     * below the aggregate (see RuntimeFilters), which changes no result, for each join kind and
     * build side that drops unmatched probe rows, nor for those that keep them.
     */
    @ParameterizedTest(name = "{0} buildLeft={1}")
    @MethodSource("residualJoins")
    void probeRowsThatCannotMatchAreDroppedBelowAnAggregate(PlanNode.JoinKind kind, boolean buildLeft) {
        // (SELECT k, COUNT(*), MIN(x) FROM l GROUP BY k) JOIN (SELECT k, x FROM r WHERE x in [100, 110)) ON k
        PlanNode groups = new PlanNode.Aggregate(new PlanNode.Scan(left, null, new int[]{0, 1}), new int[]{0},
                List.of(new AggregateCall(AggregateKind.COUNT_STAR, -1),
                        new AggregateCall(AggregateKind.MIN, 1)),
                List.of(ColumnType.bigint(), ColumnType.bigint(), ColumnType.integer()));
        PlanNode few = new PlanNode.Scan(right, new ColumnFilter.Range(1, 100L, true, 110L, false), new int[]{0, 1});
        PlanNode plan = new PlanNode.HashJoin(groups, few, new int[]{0}, new int[]{0}, new boolean[]{false}, kind, buildLeft);
        Map<Long, long[]> byKey = new TreeMap<>();
        for (Object[] l : leftRows) {
            long[] g = byKey.computeIfAbsent((Long) l[0], k -> new long[]{0, Long.MAX_VALUE});
            g[0]++;
            if (l[1] != null) {
                g[1] = Math.min(g[1], (Integer) l[1]);
            }
        }
        List<Object[]> fewRows = rightRows.stream().filter(r -> r[1] != null && (Integer) r[1] >= 100 && (Integer) r[1] < 110)
                .map(r -> new Object[]{r[0], r[1]}).toList();
        List<Object[]> expected = new ArrayList<>();
        Set<Object> matchedFew = new HashSet<>();
        for (Map.Entry<Long, long[]> g : byKey.entrySet()) {
            Object[] row = {g.getKey(), g.getValue()[0], g.getValue()[1] == Long.MAX_VALUE ? null : (int) g.getValue()[1]};
            List<Object[]> matches = fewRows.stream().filter(r -> r[0].equals(g.getKey())).toList();
            matches.forEach(m -> matchedFew.add(Arrays.asList(m)));
            switch (kind) {
                case INNER, LEFT, RIGHT, FULL -> matches.forEach(m -> expected.add(concat(row, m)));
                case SEMI -> {
                    if (!matches.isEmpty()) {
                        expected.add(row);
                    }
                }
                case ANTI -> {
                    if (matches.isEmpty()) {
                        expected.add(row);
                    }
                }
            }
            if ((kind == PlanNode.JoinKind.LEFT || kind == PlanNode.JoinKind.FULL) && matches.isEmpty()) {
                expected.add(concat(row, new Object[2]));
            }
        }
        if (kind == PlanNode.JoinKind.RIGHT || kind == PlanNode.JoinKind.FULL) {
            fewRows.stream().filter(m -> !matchedFew.contains(Arrays.asList(m))).forEach(m -> expected.add(concat(new Object[3], m)));
        }
        assertThat(fewRows).isNotEmpty();
        assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(plan, () -> false))).isEqualTo(sorted(expected));
        // the keys reach below the aggregate; over a plain scan there is no breaker to pass
        KeyFilter none = KeyFilter.of(List.of(), 0, ColumnType.bigint(), 0);
        assertThat(RuntimeFilters.push(groups, 0, () -> none, node -> false, 100_000)).asString().startsWith("Aggregate[")
                .contains(" of Filter[InKeys[column=0, keys=0 keys] of Scan[l [0, 1]]]");
        assertThat(RuntimeFilters.push(few, 0, () -> none, node -> false, 100_000)).isNull();
        // unless the keys are few beside the scanned column's values, which repeat: then the scan tests them on vids
        assertThat(RuntimeFilters.push(few, 0, () -> none, node -> false, 3)).as("unique values").isNull();
        PlanNode repeating = new PlanNode.Scan(left, null, new int[]{0, 1});
        assertThat(RuntimeFilters.push(repeating, 1, () -> none, node -> false, 3)).asString().startsWith("Filter[InKeys[column=1");
        // a scan the plan holds twice (Q2's of partsupp) is still filtered: each parent runs its own
        assertThat(RuntimeFilters.push(repeating, 1, () -> none, node -> true, 3)).asString().startsWith("Filter[InKeys[column=1");
        // a breaker it holds twice runs once, for all parents: filtered above, not rebuilt
        assertThat(RuntimeFilters.push(groups, 0, () -> none, node -> node instanceof PlanNode.Aggregate, 100_000)).isNull();
    }

    /**
     * The dictionaries a pushed key filter is judged by are read under a snapshot: a placement
     * that rebuilds the table's parts between the plan's look at them and the judgement (here, in
     * the supplier of the keys) frees the parts it replaced, which a reader without a reference
     * found closed ("Already closed", seen when joins ran while PP placements changed).
     */
    @Test
    void keysAreJudgedOnPartsHeldWhileTheTableIsPlacedAnew() {
        Table t = db.catalog().create("replaced", TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.bigint(), false)));
        try (Appender a = db.appender("replaced")) {
            for (int i = 0; i < 4_000; i++) {
                a.append((long) (i % 30));
            }
        }
        try {
            KeyFilter none = KeyFilter.of(List.of(), 0, ColumnType.bigint(), 0);
            PlanNode scan = new PlanNode.Scan(t, null, new int[]{0});
            AtomicInteger placed = new AtomicInteger();
            PlanNode pushed = RuntimeFilters.push(scan, 0, () -> {
                db.setPlacement(t, Placement.parse(placed.incrementAndGet() % 2 == 1 ? "PP(2) BY HASH (k)" : "RR"));
                return none;
            }, node -> false, 3);
            assertThat(placed).hasValue(1);
            assertThat(pushed).asString().startsWith("Filter[InKeys[column=0");
            assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(pushed, () -> false))).as("no key, no row").isEmpty();
        } finally {
            db.catalog().drop("replaced");
        }
    }

    /**
     * A semi or anti join's rows are its left side's: a key filter from a join above goes through
     * to its left side (to below the aggregate there), and the answers stay those of the plan.
     */
    @ParameterizedTest
    @EnumSource(value = PlanNode.JoinKind.class, names = {"SEMI", "ANTI"})
    void keysGoThroughTheLeftSideOfSemiAndAntiJoins(PlanNode.JoinKind kind) {
        // (SELECT k, COUNT(*) FROM l GROUP BY k) [ANTI|SEMI] JOIN (SELECT k FROM r WHERE x < 50) ON k,
        // then JOIN (SELECT k, x FROM r WHERE x in [100, 110)) ON k
        PlanNode groups = new PlanNode.Aggregate(new PlanNode.Scan(left, null, new int[]{0}), new int[]{0},
                List.of(new AggregateCall(AggregateKind.COUNT_STAR, -1)),
                List.of(ColumnType.bigint(), ColumnType.bigint()));
        PlanNode low = new PlanNode.Scan(right, new ColumnFilter.Range(1, 0L, true, 50L, false), new int[]{0});
        PlanNode filtered = new PlanNode.HashJoin(groups, low, new int[]{0}, new int[]{0}, new boolean[]{false}, kind, false);
        KeyFilter none = KeyFilter.of(List.of(), 0, ColumnType.bigint(), 0);
        assertThat(RuntimeFilters.push(filtered, 0, () -> none, node -> false, 100_000)).asString()
                .startsWith("HashJoin[").contains("Aggregate[").contains(" of Filter[InKeys[column=0, keys=0 keys] of Scan[l [0]]]");
        PlanNode few = new PlanNode.Scan(right, new ColumnFilter.Range(1, 100L, true, 110L, false), new int[]{0, 1});
        PlanNode plan = new PlanNode.HashJoin(filtered, few, new int[]{0}, new int[]{0}, new boolean[]{false},
                PlanNode.JoinKind.INNER, false);
        Map<Object, Long> counts = new HashMap<>();
        leftRows.forEach(l -> counts.merge(Arrays.asList(l[0]), 1L, Long::sum));
        Set<Object> lowKeys = new HashSet<>();
        rightRows.stream().filter(r -> r[0] != null && r[1] != null && (Integer) r[1] < 50).forEach(r -> lowKeys.add(r[0]));
        List<Object[]> expected = new ArrayList<>();
        counts.forEach((key, n) -> {
            Object k = ((List<?>) key).getFirst();
            if (k == null || lowKeys.contains(k) != (kind == PlanNode.JoinKind.SEMI)) {
                return; // a NULL key joins no row of few
            }
            rightRows.stream().filter(r -> k.equals(r[0]) && r[1] != null && (Integer) r[1] >= 100 && (Integer) r[1] < 110)
                    .forEach(r -> expected.add(new Object[]{k, n, r[0], r[1]}));
        });
        assertThat(expected).as("the data has such rows").isNotEmpty();
        assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(plan, () -> false))).isEqualTo(sorted(expected));
    }

    /**
     * Build keys right above a scan filter its rows on vids (KeyFilter.vidTest), each distinct
     * value tested once, whether the keys are few or many; NULL never matches.
     */
    @ParameterizedTest
    @CsvSource({"0, 3", "0, 1000", "2, 2", "2, 40"})
    void buildKeysFilterAScanOnVids(int column, int keyCount) {
        ColumnType type = column == 0 ? ColumnType.bigint() : ColumnType.varchar(6);
        Chunk keys = new Chunk(List.of(type)).allocate();
        Set<Object> wanted = new HashSet<>();
        Random random = new Random(keyCount);
        for (int i = 0; i < keyCount; i++) {
            if (column == 0) {
                long k = random.nextInt(2_500);
                keys.longs[0][i] = k;
                wanted.add(k);
            } else {
                String k = "s" + random.nextInt(45);
                keys.strings[0][i] = k;
                wanted.add(k);
            }
        }
        keys.nulls[0][keyCount - 1] = true; // a NULL key matches nothing
        wanted.clear();
        for (int i = 0; i < keyCount - 1; i++) {
            wanted.add(column == 0 ? keys.longs[0][i] : keys.strings[0][i]);
        }
        keys.size = keyCount;
        KeyFilter filter = KeyFilter.of(List.of(keys), 0, type, keyCount);
        PlanNode plan = new PlanNode.Filter(scan(left), new RowPredicate.InKeys(column, filter));
        List<Object[]> expected = leftRows.stream().filter(r -> r[column] != null && wanted.contains(r[column])).toList();
        assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(plan, () -> false))).isEqualTo(sorted(expected));
        assertThat(filter.dictionariesTested()).as("tested on vids").isEqualTo(left.parts().size());
    }

    /** A join without keys to a one-row side (a scalar subquery): the residual alone decides. */
    @Test
    void aJoinWithoutKeysTestsEveryPair() {
        // SELECT l.k, l.x FROM l WHERE l.x < (SELECT MIN(r.x) FROM r)
        PlanNode max = new PlanNode.Aggregate(new PlanNode.Scan(right, null, new int[]{1}), new int[0],
                List.of(new AggregateCall(AggregateKind.MIN, 0)), List.of(ColumnType.integer()));
        PlanNode plan = new PlanNode.HashJoin(new PlanNode.Scan(left, null, new int[]{0, 1}), max, new int[0], new int[0],
                new boolean[0], PlanNode.JoinKind.SEMI, false, new RowPredicate.Compare(RowPredicate.Op.LT,
                new RowPredicate.ColumnOperand(1), new RowPredicate.ColumnOperand(2)));
        int min = rightRows.stream().filter(r -> r[1] != null).mapToInt(r -> (Integer) r[1]).min().orElseThrow();
        List<Object[]> expected = leftRows.stream().filter(l -> l[1] != null && (Integer) l[1] < min)
                .map(l -> new Object[]{l[0], l[1]}).toList();
        assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(plan, () -> false))).isEqualTo(sorted(expected));
    }

    /** A breaker the plan holds twice (a view used twice, as Q15's) runs once, and both uses read all its rows. */
    @Test
    void aBreakerUsedTwiceRunsOnce() {
        AtomicInteger converted = new AtomicInteger();
        // k and x of l, each row counted as the scan hands it on
        PlanNode rows = new PlanNode.VidScan(left, null, List.of(new Projection.ColumnRef(0), new Projection.ColumnRef(1)), null, null,
                List.of(ColumnType.bigint(), ColumnType.integer()), row -> {
                    converted.incrementAndGet();
                    return row;
                });
        PlanNode groups = new PlanNode.Aggregate(rows, new int[]{0}, List.of(new AggregateCall(AggregateKind.MAX, 1)),
                List.of(ColumnType.bigint(), ColumnType.integer()));
        PlanNode top = new PlanNode.Aggregate(groups, new int[0], List.of(new AggregateCall(AggregateKind.MAX, 1)),
                List.of(ColumnType.integer()));
        // the groups whose maximum is the largest: groups JOIN (SELECT MAX(max) FROM groups) ON max = top
        PlanNode plan = new PlanNode.HashJoin(groups, top, new int[]{1}, new int[]{0}, new boolean[]{false},
                PlanNode.JoinKind.SEMI, false);
        int largest = leftRows.stream().filter(r -> r[1] != null).mapToInt(r -> (Integer) r[1]).max().orElseThrow();
        List<Object[]> expected = leftRows.stream().filter(r -> r[1] != null && (Integer) r[1] == largest)
                .map(r -> r[0]).distinct().map(k -> new Object[]{k, largest}).toList();
        assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(plan, () -> false))).isEqualTo(sorted(expected));
        assertThat(converted).hasValue(leftRows.size());
    }

    /**
     * DISTINCT aggregates over many groups, where the hash aggregation runs them, after column
     * pruning has renumbered their inputs: pruning once rebuilt each call without its DISTINCT,
     * and COUNT(DISTINCT x) answered COUNT(x). -0.0 and 0.0 are one value, as SQL compares them.
     */
    @Test
    void distinctAggregatesCountEachValueOnceAfterPruning() {
        // SELECT k, COUNT(DISTINCT s), COUNT(DISTINCT d), SUM(DISTINCT m), MIN(DISTINCT s), COUNT(s) FROM l GROUP BY k
        PlanNode plan = new PlanNode.Aggregate(scan(left), new int[]{0}, List.of(
                new AggregateCall(AggregateKind.COUNT, 2, -1, true),
                new AggregateCall(AggregateKind.COUNT, 3, -1, true),
                new AggregateCall(AggregateKind.SUM, 4, -1, true),
                new AggregateCall(AggregateKind.MIN, 2, -1, true),
                new AggregateCall(AggregateKind.COUNT, 2, -1, false)),
                List.of(ColumnType.bigint(), ColumnType.bigint(), ColumnType.bigint(), ColumnType.decimal(18, 2),
                        ColumnType.varchar(6), ColumnType.bigint()));
        assertThat(ColumnPruning.prune(plan).toString()).as("x is read by nobody").contains("Scan[l [0, 2, 3, 4]]");
        Map<Object, List<Object[]>> byKey = new HashMap<>();
        leftRows.forEach(r -> byKey.computeIfAbsent(r[0], k -> new ArrayList<>()).add(r));
        List<Object[]> expected = byKey.entrySet().stream().map(e -> {
            List<Object[]> group = e.getValue();
            Set<Object> strings = group.stream().map(r -> r[2]).filter(Objects::nonNull).collect(Collectors.toSet());
            Set<Object> doubles = group.stream().map(r -> r[3]).filter(Objects::nonNull)
                    .map(d -> (Double) d == 0 ? 0.0 : d).collect(Collectors.toSet());
            Set<BigDecimal> decimals = group.stream().map(r -> (BigDecimal) r[4]).filter(Objects::nonNull).collect(Collectors.toSet());
            return new Object[]{e.getKey(), (long) strings.size(), (long) doubles.size(),
                    decimals.isEmpty() ? null : decimals.stream().reduce(BigDecimal.ZERO, BigDecimal::add),
                    strings.stream().map(String.class::cast).min(Comparator.naturalOrder()).orElse(null),
                    group.stream().filter(r -> r[2] != null).count()};
        }).toList();
        assertThat(expected).as("some group holds a value twice").anySatisfy(row -> assertThat((Long) row[1]).isLessThan((Long) row[5]));
        assertThat(sorted(new PipelineExecutor(db.scheduler()).execute(plan, () -> false))).isEqualTo(sorted(expected));
    }

    @Test
    void aCancelledJoinThrows() {
        PlanNode plan = new PlanNode.HashJoin(scan(left), scan(right), new int[]{0}, new int[]{0}, new boolean[]{false},
                PlanNode.JoinKind.INNER, false);
        assertThatThrownBy(() -> new PipelineExecutor(db.scheduler()).execute(plan, () -> true))
                .isInstanceOf(CancellationException.class);
    }

    @Test
    void keysThatDoNotCompareByStoredValueAreRefused() {
        assertThatThrownBy(() -> new PlanNode.HashJoin(scan(left), scan(right), new int[]{1}, new int[]{4},
                new boolean[]{false}, PlanNode.JoinKind.INNER, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("INTEGER");
    }

    private static AggregateCall call(AggregateKind kind, int input) {
        return new AggregateCall(kind, input);
    }

    /** Every aggregate kind, over the scan's columns k, x, s, d, m. */
    private static final List<AggregateCall> CALLS = List.of(call(AggregateKind.COUNT_STAR, -1),
            call(AggregateKind.COUNT, 2), call(AggregateKind.SUM, 4), call(AggregateKind.SUM0, 1),
            call(AggregateKind.SUM, 3), call(AggregateKind.MIN, 2), call(AggregateKind.MAX, 4),
            call(AggregateKind.MIN, 3), call(AggregateKind.MAX, 1));
    private static final List<ColumnType> CALL_TYPES = List.of(ColumnType.bigint(), ColumnType.bigint(),
            ColumnType.decimal(18, 2), ColumnType.bigint(), ColumnType.doubleType(), ColumnType.varchar(6),
            ColumnType.decimal(9, 2), ColumnType.doubleType(), ColumnType.integer());

    private static PlanNode.Aggregate aggregate(PlanNode input, int[] keys) {
        List<ColumnType> types = new ArrayList<>();
        Arrays.stream(keys).forEach(k -> types.add(input.types().get(k)));
        types.addAll(CALL_TYPES);
        return new PlanNode.Aggregate(input, keys, CALLS, types);
    }

    /** What {@link #CALLS} give over {@code rows}, grouped by {@code keys} (one row over none when there are no keys). */
    private static List<Object[]> javaAggregate(List<Object[]> rows, int[] keys) {
        Map<List<Object>, List<Object[]>> groups = new LinkedHashMap<>();
        if (keys.length == 0) {
            groups.put(List.of(), new ArrayList<>());
        }
        for (Object[] row : rows) {
            List<Object> key = Arrays.stream(keys).mapToObj(k -> row[k] instanceof Double d && d == 0 ? (Object) 0.0 : row[k]).toList();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
        List<Object[]> out = new ArrayList<>();
        groups.forEach((key, members) -> {
            List<Object> row = new ArrayList<>(key);
            row.add((long) members.size());
            row.add(members.stream().filter(m -> m[2] != null).count());
            row.add(members.stream().map(m -> (BigDecimal) m[4]).filter(Objects::nonNull)
                    .reduce(BigDecimal::add).orElse(null));
            row.add(members.stream().map(m -> (Integer) m[1]).filter(Objects::nonNull).mapToLong(Integer::longValue).sum());
            row.add(members.stream().map(m -> (Double) m[3]).filter(Objects::nonNull).reduce(Double::sum).orElse(null));
            row.add(members.stream().map(m -> (String) m[2]).filter(Objects::nonNull).min(String::compareTo).orElse(null));
            row.add(members.stream().map(m -> (BigDecimal) m[4]).filter(Objects::nonNull).max(BigDecimal::compareTo).orElse(null));
            row.add(members.stream().map(m -> (Double) m[3]).filter(Objects::nonNull).min(Double::compare).orElse(null));
            row.add(members.stream().map(m -> (Integer) m[1]).filter(Objects::nonNull).max(Integer::compare).orElse(null));
            out.add(row.toArray());
        });
        return out;
    }

    static Stream<int[]> groupKeys() {
        return Stream.of(new int[]{}, new int[]{0}, new int[]{1}, new int[]{2}, new int[]{3}, new int[]{4}, new int[]{1, 2});
    }

    @ParameterizedTest
    @MethodSource("groupKeys")
    void hashAggregatesAgreeWithJava(int[] keys) {
        List<Object[]> actual = new PipelineExecutor(db.scheduler()).execute(aggregate(scan(left), keys), () -> false);
        assertThat(sorted(actual)).isEqualTo(sorted(javaAggregate(leftRows, keys)));
    }

    @ParameterizedTest
    @MethodSource("groupKeys")
    void aggregatesOverNoRows(int[] keys) {
        PlanNode none = new PlanNode.Filter(scan(left), new RowPredicate.IsNull(0, false));
        List<Object[]> actual = new PipelineExecutor(db.scheduler()).execute(aggregate(none, keys), () -> false);
        assertThat(sorted(actual)).isEqualTo(sorted(javaAggregate(List.of(), keys)));
    }

    /**
     * SUM(m * 3) per s of l JOIN r ON k, computed a chunk at a time; then the groups by sum
     * descending NULLs first, then s, the first two skipped and five kept; then only s.
     */
    @Test
    void computeAggregateAndSortCompose() {
        PlanNode join = new PlanNode.HashJoin(scan(left), scan(right), new int[]{0}, new int[]{0}, new boolean[]{false},
                PlanNode.JoinKind.INNER, false);
        NumericExpr.Type decimal = NumericExpr.Type.decimal(18, 2);
        NumericExpr times3 = new NumericExpr.Arithmetic(NumericExpr.Op.MULTIPLY,
                new NumericExpr.Column(9, NumericExpr.Type.decimal(9, 2)), new NumericExpr.LongConstant(3, NumericExpr.Type.BIGINT), decimal);
        PlanNode computed = new PlanNode.Project(join, List.of(new ChunkExpr.Column(2, ColumnType.varchar(6)),
                new ChunkExpr.Numeric(times3, ColumnType.decimal(18, 2))));
        PlanNode grouped = new PlanNode.Aggregate(computed, new int[]{0}, List.of(call(AggregateKind.SUM, 1)),
                List.of(ColumnType.varchar(6), ColumnType.decimal(18, 2)));
        PlanNode sorted = new PlanNode.Sort(grouped, new Ordering(List.of(new Ordering.Key(1, true, true),
                new Ordering.Key(0, false, false)), 2, 5));
        List<Object[]> actual = new PipelineExecutor(db.scheduler()).execute(new PlanNode.Project(sorted, new int[]{0}), () -> false);

        Map<String, BigDecimal> sums = new HashMap<>();
        Set<String> groups = new HashSet<>();
        for (Object[] l : leftRows) {
            for (Object[] r : rightRows) {
                if (l[0].equals(r[0])) {
                    groups.add((String) l[2]);
                    if (r[4] != null) {
                        sums.merge((String) l[2], ((BigDecimal) r[4]).multiply(BigDecimal.valueOf(3)),
                                BigDecimal::add);
                    }
                }
            }
        }
        Comparator<String> byKey = Comparator.nullsLast(String::compareTo);
        List<String> expected = groups.stream().sorted(Comparator.<String, BigDecimal>comparing(sums::get,
                Comparator.nullsFirst(Comparator.<BigDecimal>reverseOrder())).thenComparing(byKey))
                .skip(2).limit(5).map(g -> "[" + g + "]").toList();
        assertThat(actual.stream().map(Arrays::toString).toList()).isEqualTo(expected);
    }

    @Test
    void sortsKeepTheirOrderThroughAProjection() {
        Ordering ordering = new Ordering(List.of(new Ordering.Key(2, false, false), new Ordering.Key(3, true, true),
                new Ordering.Key(0, false, false)), 10, 100);
        List<Object[]> actual = new PipelineExecutor(db.scheduler()).execute(
                new PlanNode.Project(new PlanNode.Sort(scan(left), ordering), new int[]{2, 3, 0}), () -> false);
        List<Object[]> expected = new ArrayList<>(leftRows.stream() // 0.0 = -0.0 in SQL, not in Double.compareTo
                .map(r -> Arrays.stream(r).map(v -> v instanceof Double d && d == 0 ? (Object) 0.0 : v).toArray()).toList());
        expected.sort(ordering.comparator());
        assertThat(actual.stream().map(r -> sorted(List.<Object[]>of(r)).getFirst()).toList()).isEqualTo(
                expected.stream().skip(10).limit(100).map(r -> sorted(List.<Object[]>of(new Object[]{r[2], r[3], r[0]})).getFirst()).toList());
    }

    @Test
    void decimalArithmeticThatOverflowsFailsTheStatement() {
        NumericExpr.Type decimal = NumericExpr.Type.decimal(18, 2);
        NumericExpr huge = new NumericExpr.Arithmetic(NumericExpr.Op.MULTIPLY, new NumericExpr.Column(4, NumericExpr.Type.decimal(9, 2)),
                new NumericExpr.LongConstant(Long.MAX_VALUE / 2, NumericExpr.Type.BIGINT), decimal);
        PlanNode plan = new PlanNode.Project(scan(left), List.of(new ChunkExpr.Numeric(huge, ColumnType.decimal(18, 2))));
        assertThatThrownBy(() -> new PipelineExecutor(db.scheduler()).execute(plan, () -> false))
                .hasRootCauseInstanceOf(NumericExpr.BeyondLong.class);
    }
}
