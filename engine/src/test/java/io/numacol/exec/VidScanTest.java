package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The engine's pipeline without SQL: parts of odd sizes, many 1024-row ranges per part, two fake nodes. */
class VidScanTest {
    private static final int ROWS = 12_345;
    private static Database db;
    private static Table table;
    private static final List<Object[]> rows = new ArrayList<>();

    @BeforeAll
    static void load() {
        db = Database.open(DatabaseConfig.defaults().withTopology("fake:2").withRowsPerPart(5_000));
        table = db.catalog().create("m", TableSchema.of(
                new TableSchema.ColumnDef("k", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("g", ColumnType.integer(), true),
                new TableSchema.ColumnDef("amount", ColumnType.decimal(18, 2), false),
                new TableSchema.ColumnDef("s", ColumnType.varchar(8), true)));
        Random r = new Random(11);
        try (Appender a = db.appender("m")) {
            for (int i = 0; i < ROWS; i++) {
                // amounts near the largest DECIMAL(18,2): their sum overflows a long of unscaled cents
                Object[] row = {(long) i, r.nextInt(9) == 0 ? null : r.nextInt(7),
                        new BigDecimal("9999999999999999.99").subtract(BigDecimal.valueOf(r.nextInt(1000), 2)),
                        r.nextInt(5) == 0 ? null : "s" + r.nextInt(30)};
                rows.add(row);
                a.append(row);
            }
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<Object[]> run(PlanNode.VidScan plan) {
        return new PipelineExecutor(db.scheduler()).execute(plan, () -> false);
    }

    private static List<Projection> columns(int... columns) {
        return Arrays.stream(columns).<Projection>mapToObj(Projection.ColumnRef::new).toList();
    }

    /** SUM0 over no values is 0, of its other values' class, on both aggregate paths, and sorts among them. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sum0OfNoValuesIsZeroAndSorts(boolean vectorized) {
        // one group per k: SUM0(g) is g, or 0 where g is NULL; SUM(g) stays NULL there
        Aggregation agg = new Aggregation(new int[]{0}, List.of(new AggregateCall(AggregateKind.SUM0, 1, false),
                new AggregateCall(AggregateKind.SUM, 1, false)));
        List<Object[]> out = new VidAggregate(db.scheduler(), vectorized).rows(new PlanNode.VidScan(table, null, columns(0, 1), agg,
                new Ordering(List.of(new Ordering.Key(1, false, false), new Ordering.Key(0, false, false)), 0, -1)), () -> false);
        List<List<Object>> expected = rows.stream()
                .map(r -> Arrays.<Object>asList(r[0], r[1] == null ? 0L : (long) (Integer) r[1], r[1] == null ? null : (long) (Integer) r[1]))
                .sorted(Comparator.comparing((List<Object> r) -> (Long) r.get(1)).thenComparing(r -> (Long) r.get(0)))
                .toList();
        assertThat(out.stream().map(Arrays::asList).toList()).isEqualTo(expected);
    }

    @Test
    void decimalSumsPastALongStayExact() {
        Aggregation agg = new Aggregation(new int[]{1}, List.of(new AggregateCall(AggregateKind.SUM, 2, false),
                new AggregateCall(AggregateKind.COUNT_STAR, -1, false), new AggregateCall(AggregateKind.COUNT, 3, true)));
        Map<Object, BigDecimal> sums = new HashMap<>();
        Map<Object, Long> counts = new HashMap<>();
        Map<Object, Set<Object>> distinct = new HashMap<>();
        for (Object[] r : rows) {
            sums.merge(Arrays.asList(r[1]), (BigDecimal) r[2], BigDecimal::add);
            counts.merge(Arrays.asList(r[1]), 1L, Long::sum);
            Set<Object> d = distinct.computeIfAbsent(Arrays.asList(r[1]), x -> new HashSet<>());
            if (r[3] != null) {
                d.add(r[3]);
            }
        }
        List<Object[]> out = run(new PlanNode.VidScan(table, null, columns(0, 1, 2, 3), agg, null));
        assertThat(out).hasSize(sums.size());
        for (Object[] row : out) {
            Object key = Arrays.asList(row[0]);
            assertThat(row[1]).isEqualTo(sums.get(key));
            assertThat(row[2]).isEqualTo(counts.get(key));
            assertThat(row[3]).isEqualTo((long) distinct.get(key).size());
        }
        assertThat(sums.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add))
                .isGreaterThan(BigDecimal.valueOf(Long.MAX_VALUE, 2));
    }

    @Test
    void manyGroupsMergeInParallelPartitions() {
        int distinct = VidAggregate.PARALLEL_MERGE_GROUPS + 5_000;
        Table many = db.catalog().create("many", TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("v", ColumnType.integer(), false)));
        try (Appender a = db.appender("many")) {
            for (int i = 0; i < distinct + 7_000; i++) {
                a.append((long) (i % distinct), i);
            }
        }
        Aggregation agg = new Aggregation(new int[]{0}, List.of(new AggregateCall(AggregateKind.SUM, 1, false),
                new AggregateCall(AggregateKind.COUNT_STAR, -1, false)));
        List<Object[]> out = run(new PlanNode.VidScan(many, null, columns(0, 1), agg, null));
        assertThat(out).hasSize(distinct);
        for (Object[] row : out) {
            long k = (long) row[0];
            boolean twice = k < 7_000;
            assertThat(row[1]).isEqualTo(twice ? 2 * k + distinct : k);
            assertThat(row[2]).isEqualTo(twice ? 2L : 1L);
        }
    }

    @Test
    void combinedFiltersOverRangesAndOddPartEnds() {
        ColumnFilter filter = new ColumnFilter.Or(List.of(
                new ColumnFilter.And(List.of(new ColumnFilter.Range(0, 1000L, true, 9000L, false),
                        new ColumnFilter.Not(new ColumnFilter.In(1, List.of(2L, 3L))))),
                new ColumnFilter.IsNull(3, false),
                new ColumnFilter.Matching(3, v -> ((String) v).endsWith("7"), "ends with 7")));
        List<Object> expected = rows.stream().filter(r -> {
            long k = (long) r[0];
            boolean first = k >= 1000 && k < 9000 && r[1] != null && (int) r[1] != 2 && (int) r[1] != 3;
            return first || r[3] == null || ((String) r[3]).endsWith("7");
        }).map(r -> r[0]).toList();
        assertThat(run(new PlanNode.VidScan(table, filter, columns(0), null, null)).stream().map(r -> r[0]).toList())
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Blocks with a few selected rows read them one by one, denser blocks decode whole: same rows. */
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 40, 333, 1023, 4999})
    void sparseAndDenseBlocksReadTheSameRows(int every) {
        ColumnFilter filter = new ColumnFilter.Matching(0, v -> (Long) v % every == every - 1, "every " + every + "th");
        List<List<Object>> expected = rows.stream().filter(r -> (Long) r[0] % every == every - 1)
                .map(r -> Arrays.asList(r[0], r[1], r[3])).toList();
        List<List<Object>> actual = run(new PlanNode.VidScan(table, filter, columns(0, 1, 3), null, null)).stream()
                .map(Arrays::asList).toList();
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void topNKeepsABoundedHeapPerTask() {
        Ordering ordering = new Ordering(List.of(new Ordering.Key(1, true, false), new Ordering.Key(0, false, false)), 5, 20);
        List<Object> expected = rows.stream()
                .sorted(Comparator.comparing((Object[] r) -> (Integer) r[1], Comparator.nullsLast(Comparator.reverseOrder()))
                        .thenComparing(r -> (Long) r[0]))
                .skip(5).limit(20).map(r -> r[0]).toList();
        assertThat(run(new PlanNode.VidScan(table, null, columns(0, 1), null, ordering)).stream().map(r -> r[0]).toList())
                .containsExactlyElementsOf(expected);
    }

    @Test
    void anUnorderedLimitTakesAsManyRowsAsAsked() {
        ColumnFilter odd = new ColumnFilter.Matching(3, v -> ((String) v).length() == 3, "three characters");
        List<Object[]> out = run(new PlanNode.VidScan(table, odd, columns(0, 3), null, new Ordering(List.of(), 2, 10)));
        assertThat(out).hasSize(10).allSatisfy(r -> assertThat((String) r[1]).hasSize(3));
        assertThat(run(new PlanNode.VidScan(table, null, columns(0), null, new Ordering(List.of(), 0, 0)))).isEmpty();
    }

    @Test
    void computedProjectionsSeeTheirColumns() {
        Projection twice = new Projection.Computed(new int[]{0}, row -> (Long) row[0] * 2, "k*2");
        List<Object[]> out = run(new PlanNode.VidScan(table, new ColumnFilter.Range(0, null, true, 3L, false),
                List.of(twice, new Projection.ColumnRef(3)), null, null));
        assertThat(out.stream().map(r -> r[0]).collect(Collectors.toList())).containsExactlyInAnyOrder(0L, 2L, 4L);
    }

    @Test
    void rowsStreamInWavesFromOneSnapshot() {
        PlanNode.VidScan plan = new PlanNode.VidScan(table, new ColumnFilter.Range(0, 10L, true, null, true), columns(0), null, null);
        List<Long> seen = new ArrayList<>();
        int batches = 0;
        try (ResultStream stream = new PipelineExecutor(db.scheduler()).open(plan, () -> false)) {
            for (List<Object[]> batch = stream.next(); batch != null; batch = stream.next()) {
                batches++;
                batch.forEach(r -> seen.add((Long) r[0]));
            }
            assertThat(stream.next()).isNull();
        }
        assertThat(seen).hasSize(ROWS - 10).doesNotHaveDuplicates();
        assertThat(batches).as("parts of 5000 rows, a wave of at most hint tasks").isGreaterThan(1);
    }

    @Test
    void anOffsetAndFetchSpanWaves() {
        Ordering window = new Ordering(List.of(), 6_000, 4_000);
        List<Object[]> out = run(new PlanNode.VidScan(table, null, columns(0), null, window));
        assertThat(out).hasSize(4_000);
        assertThat(out.stream().map(r -> (Long) r[0]).distinct().count()).isEqualTo(4_000);
    }

    @Test
    void aCancelledQueryStopsAndSaysSo() {
        assertThatThrownBy(() -> new PipelineExecutor(db.scheduler())
                .execute(new PlanNode.VidScan(table, null, columns(0), null, null), () -> true))
                .isInstanceOf(CancellationException.class);
    }
}
