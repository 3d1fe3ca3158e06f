package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.exec.NumericExpr.Arithmetic;
import io.numacol.exec.NumericExpr.Column;
import io.numacol.exec.NumericExpr.LongConstant;
import io.numacol.exec.NumericExpr.Op;
import io.numacol.scheduler.StatementFailedException;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The vectorized GROUP BY against the row-at-a-time path it replaces, which boxes every value
 * and so serves as the reference: parts of odd sizes on two fake nodes, NULLs, dense and sparse
 * selections, keys through the direct array and the hash table, sums that leave a long.
 */
class VectorAggregatorTest {
    private static final int ROWS = 23_456;
    private static final int K = 0, G = 1, AMOUNT = 2, S = 3, D = 4, PRICE = 5, DISC = 6, WIDE = 7;
    private static Database db;
    private static Table table;

    @BeforeAll
    static void load() {
        db = Database.open(DatabaseConfig.defaults().withTopology("fake:2").withRowsPerPart(7_001));
        table = db.catalog().create("v", TableSchema.of(
                new TableSchema.ColumnDef("k", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("g", ColumnType.integer(), true),
                new TableSchema.ColumnDef("amount", ColumnType.decimal(18, 2), false),
                new TableSchema.ColumnDef("s", ColumnType.varchar(8), true),
                new TableSchema.ColumnDef("d", ColumnType.doubleType(), true),
                new TableSchema.ColumnDef("price", ColumnType.decimal(12, 2), false),
                new TableSchema.ColumnDef("disc", ColumnType.decimal(4, 2), true),
                new TableSchema.ColumnDef("wide", ColumnType.bigint(), false)));
        Random r = new Random(23);
        try (Appender a = db.appender("v")) {
            for (int i = 0; i < ROWS; i++) {
                a.append((long) i,
                        r.nextInt(9) == 0 ? null : r.nextInt(7) - 3,
                        // near the largest DECIMAL(18,2): a sum of two leaves a long
                        new BigDecimal("9999999999999999.99").subtract(BigDecimal.valueOf(r.nextInt(1000), 2)),
                        r.nextInt(5) == 0 ? null : "s" + r.nextInt(30),
                        r.nextInt(6) == 0 ? null : r.nextGaussian() * 1e3,
                        BigDecimal.valueOf(r.nextInt(10_000_000), 2),
                        r.nextInt(10) == 0 ? null : BigDecimal.valueOf(r.nextInt(11), 2),
                        r.nextLong(1L << 40) * (r.nextBoolean() ? 1 : -1));
            }
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static final NumericExpr.Type PRICE_T = NumericExpr.Type.decimal(12, 2);
    private static final NumericExpr.Type DISC_T = NumericExpr.Type.decimal(4, 2);
    private static final NumericExpr.Type ONE_MINUS_T = NumericExpr.Type.decimal(5, 2);
    private static final NumericExpr.Type NET_T = NumericExpr.Type.decimal(17, 4);

    /** price * (1 - disc), Q1's shape: exact, NULL where disc is. */
    private static Projection net() {
        NumericExpr oneMinus = new Arithmetic(Op.SUBTRACT, new LongConstant(100, ONE_MINUS_T), new Column(DISC, DISC_T), ONE_MINUS_T);
        return new Projection.Computed(new int[]{PRICE, DISC}, row -> row[DISC] == null ? null
                : ((BigDecimal) row[PRICE]).multiply(BigDecimal.ONE.subtract((BigDecimal) row[DISC])).setScale(4),
                new Arithmetic(Op.MULTIPLY, new Column(PRICE, PRICE_T), oneMinus, NET_T), "price*(1-disc)");
    }

    /** d * 2.5 + g as doubles, NULL where either is. */
    private static Projection scaledDouble() {
        NumericExpr e = new Arithmetic(Op.ADD,
                new Arithmetic(Op.MULTIPLY, new Column(D, NumericExpr.Type.DOUBLE), new NumericExpr.DoubleConstant(2.5), NumericExpr.Type.DOUBLE),
                new NumericExpr.ToDouble(new Column(G, NumericExpr.Type.INTEGER)), NumericExpr.Type.DOUBLE);
        return new Projection.Computed(new int[]{D, G}, row -> row[D] == null || row[G] == null ? null
                : (Double) row[D] * 2.5 + (Integer) row[G], e, "d*2.5+g");
    }

    /** wide - k as BIGINT. */
    private static Projection difference() {
        NumericExpr e = new Arithmetic(Op.SUBTRACT, new Column(WIDE, NumericExpr.Type.BIGINT), new Column(K, NumericExpr.Type.BIGINT), NumericExpr.Type.BIGINT);
        return new Projection.Computed(new int[]{WIDE, K}, row -> (Long) row[WIDE] - (Long) row[K], e, "wide-k");
    }

    private static List<Projection> projections() {
        List<Projection> p = new ArrayList<>();
        for (int c = 0; c <= WIDE; c++) {
            p.add(new Projection.ColumnRef(c));
        }
        p.add(net());           // 8
        p.add(scaledDouble());  // 9
        p.add(difference());    // 10
        return p;
    }

    private static final List<AggregateCall> CALLS = List.of(
            new AggregateCall(AggregateKind.COUNT_STAR, -1, false),
            new AggregateCall(AggregateKind.COUNT, G, false),
            new AggregateCall(AggregateKind.SUM, AMOUNT, false),
            new AggregateCall(AggregateKind.SUM, PRICE, false),
            new AggregateCall(AggregateKind.SUM, G, false),
            new AggregateCall(AggregateKind.SUM, 8, false),
            new AggregateCall(AggregateKind.SUM, 10, false),
            new AggregateCall(AggregateKind.MIN, S, false),
            new AggregateCall(AggregateKind.MAX, S, false),
            new AggregateCall(AggregateKind.MIN, 8, false),
            new AggregateCall(AggregateKind.MAX, 10, false),
            new AggregateCall(AggregateKind.COUNT, 8, false),
            new AggregateCall(AggregateKind.MAX, D, false));

    static Stream<Arguments> cases() {
        ColumnFilter dense = new ColumnFilter.Range(K, 100L, true, 20_000L, false);
        ColumnFilter sparse = new ColumnFilter.In(K, List.of(3L, 700L, 7_000L, 7_001L, 14_002L, 23_455L));
        ColumnFilter nullsOnly = new ColumnFilter.IsNull(G, true);
        List<Arguments> out = new ArrayList<>();
        for (int[] keys : List.of(new int[]{}, new int[]{G}, new int[]{S, G}, new int[]{WIDE}, new int[]{K, S, G})) {
            for (ColumnFilter f : Arrays.asList(null, dense, sparse, nullsOnly)) {
                out.add(Arguments.of(keys, f));
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void vectorizedAgreesWithRowAtATime(int[] keys, ColumnFilter filter) {
        // SUM(amount) overflows a long in every group but the sparse ones: the spill to BigDecimal
        PlanNode.VidScan plan = new PlanNode.VidScan(table, filter, projections(), new Aggregation(keys, CALLS), null);
        assertThat(supported(plan)).isTrue();
        assertSameRows(new VidAggregate(db.scheduler(), true).rows(plan, () -> false),
                new VidAggregate(db.scheduler(), false).rows(plan, () -> false), keys.length);
    }

    static Stream<Arguments> onTheIndexVector() {
        AggregateCall star = new AggregateCall(AggregateKind.COUNT_STAR, -1, false);
        List<Arguments> out = new ArrayList<>();
        for (int column : new int[]{G, K, WIDE, PRICE}) {
            List<AggregateCall> calls = List.of(star, new AggregateCall(AggregateKind.COUNT, column, false), new AggregateCall(AggregateKind.SUM, column, false));
            out.add(Arguments.of(column, null, calls));
            out.add(Arguments.of(column, new ColumnFilter.Range(column, 0L, true, 2L, true), calls));
            out.add(Arguments.of(column, new ColumnFilter.Range(column, 100L, false, 5_000L, true), calls));
            out.add(Arguments.of(column, new ColumnFilter.Range(column, -100L, true, -50L, true), calls)); // no row
            out.add(Arguments.of(column, new ColumnFilter.IsNull(column, false), calls));
            out.add(Arguments.of(column, new ColumnFilter.IsNull(column, false), List.of(star)));
            out.add(Arguments.of(column, new ColumnFilter.Range(S, "s1", true, "s3", false), List.of(star)));
        }
        return out.stream();
    }

    /**
     * COUNT/SUM of one column filtered by a range of it (stored values: PRICE's are cents):
     * counted and summed by the scan kernel where the part's dictionary is dense, else in batches.
     */
    @ParameterizedTest
    @MethodSource("onTheIndexVector")
    void aggregatesOnTheIndexVectorAgreeWithRowAtATime(int column, ColumnFilter filter, List<AggregateCall> calls) {
        PlanNode.VidScan plan = new PlanNode.VidScan(table, filter, projections(), new Aggregation(new int[]{}, calls), null);
        assertSameRows(new VidAggregate(db.scheduler(), true).rows(plan, () -> false),
                new VidAggregate(db.scheduler(), false).rows(plan, () -> false), 0);
    }

    /** Which parts the IndexVector sum takes: what the differential tests above cannot tell apart. */
    @Test
    void theIndexVectorSumIsChosenForItsShapeOnly() {
        AggregateCall star = new AggregateCall(AggregateKind.COUNT_STAR, -1, false);
        AggregateCall sumK = new AggregateCall(AggregateKind.SUM, K, false);
        ColumnFilter rangeOfK = new ColumnFilter.Range(K, 100L, true, 5_000L, false);
        try (var snapshot = table.snapshot()) {
            TablePart part = snapshot.parts().getFirst();
            assertThat(shape(part, rangeOfK, new int[]{}, List.of(star, sumK))).isNotNull();
            assertThat(shape(part, null, new int[]{}, List.of(star))).isNotNull();
            assertThat(shape(part, rangeOfK, new int[]{G}, List.of(star, sumK))).as("GROUP BY").isNull();
            assertThat(shape(part, rangeOfK, new int[]{}, List.of(new AggregateCall(AggregateKind.MIN, K, false)))).as("MIN").isNull();
            assertThat(shape(part, new ColumnFilter.Range(G, 0L, true, 2L, true), new int[]{}, List.of(sumK)))
                    .as("a range of another column").isNull();
            assertThat(shape(part, null, new int[]{}, List.of(new AggregateCall(AggregateKind.SUM, AMOUNT, false))))
                    .as("a dictionary that is not dense").isNull();
        }
    }

    private static IndexVectorSumTask.Shape shape(TablePart part, ColumnFilter filter, int[] keys, List<AggregateCall> calls) {
        PlanNode.VidScan plan = new PlanNode.VidScan(table, filter, projections(), new Aggregation(keys, calls), null);
        return IndexVectorSumTask.shape(plan, part, filter == null ? null : filter.prepare(part));
    }

    @Test
    void twoRangesOfOneColumnAreOneScanOfTheirIntersection() {
        ColumnFilter between = new ColumnFilter.And(List.of(new ColumnFilter.Range(K, 1_000L, true, null, true),
                new ColumnFilter.Range(G, -1L, true, 1L, true), new ColumnFilter.Range(K, null, true, 15_000L, false)));
        try (var snapshot = table.snapshot()) {
            PartFilter prepared = between.prepare(snapshot.parts().getFirst());
            assertThat(prepared).isInstanceOf(PartFilter.And.class);
            assertThat(((PartFilter.And) prepared).filters()).hasSize(2);
        }
        PlanNode.VidScan plan = new PlanNode.VidScan(table, between, projections(),
                new Aggregation(new int[]{}, List.of(new AggregateCall(AggregateKind.COUNT_STAR, -1, false), new AggregateCall(AggregateKind.SUM, K, false))), null);
        List<Object[]> out = new VidAggregate(db.scheduler(), true).rows(plan, () -> false);
        assertSameRows(out, new VidAggregate(db.scheduler(), false).rows(plan, () -> false), 0);
        ColumnFilter onlyK = new ColumnFilter.And(List.of(new ColumnFilter.Range(K, 1_000L, true, null, true),
                new ColumnFilter.Range(K, null, true, 15_000L, false)));
        PlanNode.VidScan sum = new PlanNode.VidScan(table, onlyK, projections(),
                new Aggregation(new int[]{}, List.of(new AggregateCall(AggregateKind.COUNT_STAR, -1, false), new AggregateCall(AggregateKind.SUM, K, false))), null);
        assertThat(new VidAggregate(db.scheduler(), true).rows(sum, () -> false).getFirst())
                .containsExactly(14_000L, (1_000L + 14_999L) * 14_000L / 2);
    }

    @Test
    void aNullRowNeverOverflows() {
        // a - b for a NULL a is computed from 0: 0 - MIN_VALUE leaves INTEGER, but the row's value is NULL
        Table t = db.catalog().create("nulls", TableSchema.of(new TableSchema.ColumnDef("a", ColumnType.integer(), true),
                new TableSchema.ColumnDef("b", ColumnType.integer(), false)));
        try (Appender a = db.appender("nulls")) {
            for (int i = 0; i < 3_000; i++) {
                a.append(i % 3 == 0 ? null : -i, Integer.MIN_VALUE + (i % 3 == 0 ? 0 : i));
            }
        }
        Projection difference = new Projection.Computed(new int[]{0, 1},
                row -> row[0] == null ? null : (Integer) row[0] - (Integer) row[1],
                new Arithmetic(Op.SUBTRACT, new Column(0, NumericExpr.Type.INTEGER), new Column(1, NumericExpr.Type.INTEGER), NumericExpr.Type.INTEGER), "a-b");
        PlanNode.VidScan plan = new PlanNode.VidScan(t, null, List.of(difference),
                new Aggregation(new int[]{}, List.of(new AggregateCall(AggregateKind.SUM, 0, false), new AggregateCall(AggregateKind.COUNT, 0, false))), null);
        List<Object[]> out = new VidAggregate(db.scheduler(), true).rows(plan, () -> false);
        assertSameRows(out, new VidAggregate(db.scheduler(), false).rows(plan, () -> false), 0);
        assertThat(out.getFirst()[1]).isEqualTo(2_000L);
    }

    @Test
    void stringExtremesAgreeAcrossParts() {
        // U+1F600 is above U+FF5E in code points (and UTF-8), below it in UTF-16 units
        Table t = db.catalog().create("emoji", TableSchema.of(new TableSchema.ColumnDef("s", ColumnType.varchar(4), false)));
        try (Appender a = db.appender("emoji")) {
            for (int i = 0; i < 7_001; i++) {
                a.append("\uFF5E");
            }
            a.append("\uD83D\uDE00"); // alone in the second part
        }
        PlanNode.VidScan plan = new PlanNode.VidScan(t, null, List.of(new Projection.ColumnRef(0)),
                new Aggregation(new int[]{}, List.of(new AggregateCall(AggregateKind.MAX, 0, false), new AggregateCall(AggregateKind.MIN, 0, false))), null);
        for (boolean vectorized : new boolean[]{true, false}) {
            assertThat(new VidAggregate(db.scheduler(), vectorized).rows(plan, () -> false).getFirst())
                    .containsExactly("\uD83D\uDE00", "\uFF5E");
        }
    }

    @Test
    void aDenseSumPastALongStaysExact() {
        Table big = db.catalog().create("big", TableSchema.of(new TableSchema.ColumnDef("b", ColumnType.bigint(), false)));
        try (Appender a = db.appender("big")) {
            for (int i = 0; i < 3_000; i++) {
                a.append(Long.MAX_VALUE - i % 100);
            }
        }
        PlanNode.VidScan plan = new PlanNode.VidScan(big, new ColumnFilter.Range(0, Long.MAX_VALUE - 50, true, null, true),
                List.of(new Projection.ColumnRef(0)),
                new Aggregation(new int[]{}, List.of(new AggregateCall(AggregateKind.SUM, 0, false), new AggregateCall(AggregateKind.COUNT_STAR, -1, false))), null);
        List<Object[]> out = new VidAggregate(db.scheduler(), true).rows(plan, () -> false);
        assertSameRows(out, new VidAggregate(db.scheduler(), false).rows(plan, () -> false), 0);
        assertThat(out.getFirst()[0]).isInstanceOf(BigDecimal.class);
    }

    @Test
    void aDecimalThatLeavesALongIsComputedAgainExactly() {
        // amount * amount: each product is about 10^36, far past a long; DECIMAL(36, 4) in SQL
        NumericExpr.Type square = NumericExpr.Type.decimal(36, 4);
        NumericExpr.Type amount = NumericExpr.Type.decimal(18, 2);
        Projection p = new Projection.Computed(new int[]{AMOUNT},
                row -> ((BigDecimal) row[AMOUNT]).multiply((BigDecimal) row[AMOUNT]),
                new Arithmetic(Op.MULTIPLY, new Column(AMOUNT, amount), new Column(AMOUNT, amount), square), "amount^2");
        PlanNode.VidScan plan = new PlanNode.VidScan(table, new ColumnFilter.Range(K, 0L, true, 50L, false),
                List.of(new Projection.ColumnRef(G), p), new Aggregation(new int[]{0}, List.of(new AggregateCall(AggregateKind.SUM, 1, false))), null);
        assertSameRows(new VidAggregate(db.scheduler(), true).rows(plan, () -> false),
                new VidAggregate(db.scheduler(), false).rows(plan, () -> false), 1);
    }

    @Test
    void integerOverflowIsAnErrorNotAWrappedValue() {
        Projection p = new Projection.Computed(new int[]{WIDE}, row -> {
            throw new AssertionError("the vectorized path must not fall back");
        }, new Arithmetic(Op.MULTIPLY, new Column(WIDE, NumericExpr.Type.BIGINT), new LongConstant(1L << 40, NumericExpr.Type.BIGINT), NumericExpr.Type.BIGINT), "wide*2^40");
        PlanNode.VidScan plan = new PlanNode.VidScan(table, null, List.of(p), new Aggregation(new int[]{}, List.of(new AggregateCall(AggregateKind.SUM, 0, false))), null);
        assertThatThrownBy(() -> new PipelineExecutor(db.scheduler()).execute(plan, () -> false))
                .isInstanceOf(StatementFailedException.class)
                .cause().isInstanceOf(ArithmeticException.class).hasMessageContaining("BIGINT overflow");
    }

    @Test
    void distinctAggregatesStayOnTheRowPath() {
        PlanNode.VidScan plan = new PlanNode.VidScan(table, null, projections(),
                new Aggregation(new int[]{G}, List.of(new AggregateCall(AggregateKind.COUNT, S, true))), null);
        assertThat(supported(plan)).isFalse();
    }

    private static boolean supported(PlanNode.VidScan plan) {
        try (var snapshot = table.snapshot()) {
            return VectorAggregator.supports(plan, snapshot.parts());
        }
    }

    private static void assertSameRows(List<Object[]> actual, List<Object[]> expected, int keys) {
        assertThat(actual).hasSameSizeAs(expected);
        Map<List<Object>, Object[]> byKey = new HashMap<>();
        for (Object[] row : expected) {
            byKey.put(Arrays.asList(row).subList(0, keys), row);
        }
        for (Object[] row : actual) {
            Object[] want = byKey.get(Arrays.asList(row).subList(0, keys));
            assertThat(want).as("group %s", Arrays.asList(row).subList(0, keys)).isNotNull();
            for (int i = keys; i < row.length; i++) {
                assertSameValue(row[i], want[i], Arrays.asList(row).subList(0, keys) + " column " + i);
            }
        }
    }

    private static void assertSameValue(Object actual, Object expected, String where) {
        if (expected == null || actual == null) {
            assertThat(actual).as(where).isEqualTo(expected);
        } else if (expected instanceof Double e) {
            assertThat(((Number) actual).doubleValue()).as(where).isCloseTo(e, Offset.offset(Math.abs(e) * 1e-9 + 1e-9));
        } else if (expected instanceof BigDecimal e) {
            assertThat((BigDecimal) actual).as(where).isEqualByComparingTo(e);
        } else if (expected instanceof Number e && actual instanceof Number a) {
            assertThat(a.longValue()).as(where).isEqualTo(e.longValue());
        } else {
            assertThat(actual).as(where).isEqualTo(expected);
        }
    }
}
