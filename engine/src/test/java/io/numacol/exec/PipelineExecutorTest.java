package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.storage.ColumnType;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hash joins of the pipeline executor against a nested loop over the same rows: every join kind,
 * keys of each storage kind with NULLs and duplicates, IS NOT DISTINCT FROM keys, either build
 * side, parts of odd sizes (so each string column has several dictionaries) over four fake nodes.
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
                        r.nextInt(9) == 0 ? null : java.math.BigDecimal.valueOf(r.nextInt(500), 2)};
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
                    if (kind == PlanNode.JoinKind.INNER) {
                        out.add(Arguments.of(kind, k[0], k[1], nullsEqual, true));
                    }
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

    private static List<Object[]> nestedLoop(PlanNode.JoinKind kind, int[] leftKeys, int[] rightKeys, boolean nullsEqual) {
        List<Object[]> out = new ArrayList<>();
        for (Object[] l : leftRows) {
            boolean matched = false;
            for (Object[] r : rightRows) {
                if (!keysMatch(l, r, leftKeys, rightKeys, nullsEqual)) {
                    continue;
                }
                matched = true;
                if (kind == PlanNode.JoinKind.INNER || kind == PlanNode.JoinKind.LEFT) {
                    out.add(concat(l, r));
                }
            }
            switch (kind) {
                case LEFT -> {
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

    @Test
    void aFilteredScanJoinsOnlyItsRows() {
        PlanNode.Scan filtered = new PlanNode.Scan(right, new ColumnFilter.Range(1, 100L, true, 120L, false), new int[]{0, 1});
        PlanNode plan = new PlanNode.HashJoin(new PlanNode.Scan(left, null, new int[]{0}), filtered, new int[]{0},
                new int[]{0}, new boolean[]{false}, PlanNode.JoinKind.SEMI, false);
        long expected = leftRows.stream().filter(l -> rightRows.stream().anyMatch(r -> r[0].equals(l[0]) && r[1] != null
                && (Integer) r[1] >= 100 && (Integer) r[1] < 120)).count();
        assertThat(new PipelineExecutor(db.scheduler()).execute(plan, () -> false)).hasSize((int) expected);
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
}
