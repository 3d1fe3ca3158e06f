package io.numacol.calcite.rel;

import io.numacol.database.Appender;
import io.numacol.jdbc.NumacolDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * numacol's convention end to end: plan shapes (TPC-H Q1 and Q6 run inside numacol rels) and
 * results of every pushed-down operator against plain Java over the same seeded rows, over
 * several parts (each with its own dictionaries) on a fake two-node machine.
 */
class NumacolConventionTest {
    private static final int LINEITEMS = 4_500;
    private static Connection connection;
    private static List<LineitemData.Row> lineitem;
    private static List<Object[]> nullable;

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=1000;topology=fake:2");
        lineitem = LineitemData.load(connection, LINEITEMS, 42).rows();
        connection.createStatement().execute(
                "CREATE TABLE t (id INTEGER NOT NULL, k VARCHAR(10), v INTEGER, price DECIMAL(10,2), d DOUBLE)");
        connection.createStatement().execute("CREATE TABLE nothing (a INTEGER, b VARCHAR(5))");
        Random r = new Random(7);
        nullable = new ArrayList<>();
        try (Appender a = NumacolDriver.database(connection).appender("t")) {
            for (int i = 0; i < 2_500; i++) {
                Object[] row = {i, r.nextInt(5) == 0 ? null : "key" + r.nextInt(12),
                        r.nextInt(4) == 0 ? null : r.nextInt(100) - 20,
                        r.nextInt(6) == 0 ? null : BigDecimal.valueOf(r.nextInt(100_000), 2),
                        r.nextInt(3) == 0 ? null : r.nextInt(1000) / 8.0};
                nullable.add(row);
                a.append(row);
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    private static List<List<Object>> query(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rows(rs);
        }
    }

    private static List<List<Object>> rows(ResultSet rs) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                Object v = rs.getObject(i);
                // JDBC pads CHAR(n) values to n; numacol stores them without trailing spaces
                row.add(v instanceof Date d ? d.toLocalDate() : v instanceof String str ? str.stripTrailing() : v);
            }
            out.add(row);
        }
        return out;
    }

    private static String explain(String sql) throws SQLException {
        List<List<Object>> plan = query("explain plan for " + sql);
        return (String) plan.getFirst().getFirst();
    }

    /** The plan part below the converter, asserting nothing of Calcite's runs there. */
    private static String numacolPart(String plan) {
        assertThat(plan).contains("NumacolToEnumerableConverter");
        String below = plan.substring(plan.indexOf("NumacolToEnumerableConverter") + "NumacolToEnumerableConverter".length());
        assertThat(below).doesNotContain("Enumerable");
        return below;
    }

    @Test
    void q1RunsScanFilterProjectAggregateAndSortInNumacol() throws SQLException {
        String below = numacolPart(explain(TpchQueries.Q1));
        assertThat(below.lines().map(String::strip).map(l -> l.replaceAll("\\(.*", "")).toList())
                .containsExactly("", "NumacolSort", "NumacolProject", "NumacolAggregate", "NumacolProject", "NumacolFilter",
                        "NumacolTableScan");
        assertThat(below).contains("NumacolFilter(condition=[<=($10, 1998-09-02)])");
    }

    @Test
    void q6RunsWhollyInNumacol() throws SQLException {
        String plan = explain(TpchQueries.Q6);
        assertThat(plan).startsWith("NumacolToEnumerableConverter");
        assertThat(numacolPart(plan).lines().map(String::strip).map(l -> l.replaceAll("\\(.*", "")).toList())
                .containsExactly("", "NumacolAggregate", "NumacolProject", "NumacolFilter", "NumacolTableScan");
    }

    @Test
    void q1Results() throws SQLException {
        LocalDate cutoff = LocalDate.of(1998, 9, 2);
        Map<List<String>, List<LineitemData.Row>> groups = lineitem.stream().filter(r -> !r.shipdate().isAfter(cutoff))
                .collect(Collectors.groupingBy(r -> List.of(r.returnflag(), r.linestatus()),
                        () -> new TreeMap<>(Comparator.comparing((List<String> k) -> k.get(0) + k.get(1))), Collectors.toList()));
        List<List<Object>> actual = query(TpchQueries.Q1);
        assertThat(actual).hasSize(groups.size());
        int i = 0;
        for (Map.Entry<List<String>, List<LineitemData.Row>> g : groups.entrySet()) {
            List<LineitemData.Row> rows = g.getValue();
            List<Object> row = actual.get(i++);
            BigDecimal qty = sum(rows, LineitemData.Row::quantity);
            BigDecimal price = sum(rows, LineitemData.Row::extendedprice);
            BigDecimal disc = sum(rows, r -> r.extendedprice().multiply(BigDecimal.ONE.subtract(r.discount())));
            BigDecimal charge = sum(rows, r -> r.extendedprice().multiply(BigDecimal.ONE.subtract(r.discount()))
                    .multiply(BigDecimal.ONE.add(r.tax())));
            BigDecimal n = BigDecimal.valueOf(rows.size());
            assertThat(row.subList(0, 6)).containsExactly(g.getKey().get(0), g.getKey().get(1), qty, price, disc, charge);
            assertThat((BigDecimal) row.get(6)).isCloseTo(qty.divide(n, 4, RoundingMode.HALF_UP), within(new BigDecimal("0.01")));
            assertThat((BigDecimal) row.get(7)).isCloseTo(price.divide(n, 4, RoundingMode.HALF_UP), within(new BigDecimal("0.01")));
            assertThat((BigDecimal) row.get(8)).isCloseTo(sum(rows, LineitemData.Row::discount).divide(n, 4, RoundingMode.HALF_UP),
                    within(new BigDecimal("0.01")));
            assertThat(row.get(9)).isEqualTo((long) rows.size());
        }
    }

    private static BigDecimal sum(List<LineitemData.Row> rows, Function<LineitemData.Row, BigDecimal> f) {
        return rows.stream().map(f).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    @Test
    void q6Results() throws SQLException {
        BigDecimal expected = sum(lineitem.stream().filter(r -> !r.shipdate().isBefore(LocalDate.of(1994, 1, 1))
                && r.shipdate().isBefore(LocalDate.of(1995, 1, 1))
                && r.discount().compareTo(new BigDecimal("0.05")) >= 0 && r.discount().compareTo(new BigDecimal("0.07")) <= 0
                && r.quantity().compareTo(BigDecimal.valueOf(24)) < 0).toList(), r -> r.extendedprice().multiply(r.discount()));
        assertThat(query(TpchQueries.Q6)).containsExactly(List.of(expected));
    }

    static Stream<Arguments> lineitemFilters() {
        BigDecimal d05 = new BigDecimal("0.05");
        return Stream.of(
                Arguments.of("l_quantity < 24", (Predicate<LineitemData.Row>) r -> r.quantity().intValue() < 24),
                Arguments.of("l_quantity >= 49", (Predicate<LineitemData.Row>) r -> r.quantity().intValue() >= 49),
                Arguments.of("l_discount < 0.055", (Predicate<LineitemData.Row>) r -> r.discount().compareTo(new BigDecimal("0.055")) < 0),
                Arguments.of("l_discount > 0.055", (Predicate<LineitemData.Row>) r -> r.discount().compareTo(new BigDecimal("0.055")) > 0),
                Arguments.of("l_discount = 0.055", (Predicate<LineitemData.Row>) r -> false),
                Arguments.of("l_discount <> 0.05", (Predicate<LineitemData.Row>) r -> r.discount().compareTo(d05) != 0),
                Arguments.of("l_discount between 0.02 and 0.04", (Predicate<LineitemData.Row>) r ->
                        r.discount().compareTo(new BigDecimal("0.02")) >= 0 && r.discount().compareTo(new BigDecimal("0.04")) <= 0),
                Arguments.of("l_linenumber in (1, 3)", (Predicate<LineitemData.Row>) r -> r.linenumber() == 1 || r.linenumber() == 3),
                Arguments.of("l_linenumber not in (1, 3)", (Predicate<LineitemData.Row>) r -> r.linenumber() != 1 && r.linenumber() != 3),
                Arguments.of("l_shipdate > date '1997-03-01'", (Predicate<LineitemData.Row>) r -> r.shipdate().isAfter(LocalDate.of(1997, 3, 1))),
                Arguments.of("l_returnflag = 'R' or l_linestatus = 'O'", (Predicate<LineitemData.Row>) r ->
                        r.returnflag().equals("R") || r.linestatus().equals("O")),
                Arguments.of("l_shipmode like '%AIR%'", (Predicate<LineitemData.Row>) r -> r.shipmode().contains("AIR")),
                Arguments.of("l_shipmode not like 'R_IL'", (Predicate<LineitemData.Row>) r -> !r.shipmode().equals("RAIL")),
                Arguments.of("l_comment like 'quick%' and l_partkey <= 1000", (Predicate<LineitemData.Row>) r ->
                        r.comment().startsWith("quick") && r.partkey() <= 1000),
                Arguments.of("l_shipinstruct in ('NONE', 'COLLECT COD') and not (l_suppkey > 50)", (Predicate<LineitemData.Row>) r ->
                        (r.shipinstruct().equals("NONE") || r.shipinstruct().equals("COLLECT COD")) && r.suppkey() <= 50),
                Arguments.of("l_orderkey > 100000", (Predicate<LineitemData.Row>) r -> false));
    }

    @ParameterizedTest
    @MethodSource("lineitemFilters")
    void filtersMatchJava(String where, Predicate<LineitemData.Row> expected) throws SQLException {
        String sql = "select l_orderkey, l_linenumber from lineitem where " + where;
        assertThat(numacolPart(explain(sql))).contains("NumacolFilter");
        assertThat(query(sql)).containsExactlyInAnyOrderElementsOf(
                lineitem.stream().filter(expected).map(r -> List.<Object>of(r.orderkey(), r.linenumber())).toList());
    }

    @Test
    void filterOnComputedOperandsComputesThemFirst() throws SQLException {
        String sql = "select l_orderkey, l_linenumber from lineitem where l_quantity < l_tax * 1000 and l_linenumber = 2";
        String plan = explain(sql);
        assertThat(plan).doesNotContain("EnumerableCalc").contains("$computed1=[*($7, 1000)]")
                .contains("NumacolFilter(condition=[=($3, 2)])");
        assertThat(query(sql)).containsExactlyInAnyOrderElementsOf(lineitem.stream()
                .filter(r -> r.quantity().compareTo(r.tax().multiply(BigDecimal.valueOf(1000))) < 0 && r.linenumber() == 2)
                .map(r -> List.<Object>of(r.orderkey(), r.linenumber())).toList());
    }

    /**
     * A division may fail (by zero), so it is computed only for the rows the conjuncts before it
     * let through: here after the scan's filter, as a filter of its own above it.
     */
    @Test
    void aDivisionIsComputedAfterTheScansFilter() throws SQLException {
        String sql = "select l_orderkey, l_linenumber from lineitem where l_quantity < l_tax / 0.001 and l_linenumber = 2";
        String plan = explain(sql);
        assertThat(plan).doesNotContain("EnumerableCalc").contains("NumacolFilter(condition=[=($3, 2)])");
        assertThat(query(sql)).containsExactlyInAnyOrderElementsOf(lineitem.stream()
                .filter(r -> r.quantity().compareTo(r.tax().multiply(BigDecimal.valueOf(1000))) < 0 && r.linenumber() == 2)
                .map(r -> List.<Object>of(r.orderkey(), r.linenumber())).toList());
    }

    @Test
    void groupByWithEveryAggregate() throws SQLException {
        String sql = "select l_shipmode, l_linestatus, count(*), count(distinct l_partkey), sum(l_quantity), min(l_shipdate), "
                + "max(l_comment), sum(l_linenumber), max(l_extendedprice * l_tax) from lineitem group by l_shipmode, l_linestatus";
        assertThat(numacolPart(explain(sql))).contains("NumacolAggregate");
        Map<List<String>, List<LineitemData.Row>> groups = lineitem.stream()
                .collect(Collectors.groupingBy(r -> List.of(r.shipmode(), r.linestatus())));
        List<List<Object>> expected = new ArrayList<>();
        groups.forEach((k, rows) -> expected.add(Arrays.asList(k.get(0), k.get(1), (long) rows.size(),
                rows.stream().map(LineitemData.Row::partkey).distinct().count(),
                sum(rows, LineitemData.Row::quantity),
                rows.stream().map(LineitemData.Row::shipdate).min(Comparator.naturalOrder()).orElseThrow(),
                rows.stream().map(LineitemData.Row::comment).max(Comparator.naturalOrder()).orElseThrow(),
                (long) rows.stream().mapToInt(LineitemData.Row::linenumber).sum(),
                rows.stream().map(r -> r.extendedprice().multiply(r.tax())).max(Comparator.naturalOrder()).orElseThrow())));
        assertThat(query(sql)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void havingAndDistinctOverNumacolAggregates() throws SQLException {
        String having = "select l_orderkey, sum(l_quantity) from lineitem where l_shipmode <> 'FOB' "
                + "group by l_orderkey having sum(l_quantity) > 120";
        assertThat(explain(having)).contains("NumacolAggregate").contains("NumacolFilter(condition=[>($1, 120.00)], on=[values])")
                .doesNotContain("EnumerableCalc"); // HAVING runs in the pipeline executor
        Map<Long, BigDecimal> sums = new TreeMap<>();
        lineitem.stream().filter(r -> !r.shipmode().equals("FOB"))
                .forEach(r -> sums.merge(r.orderkey(), r.quantity(), BigDecimal::add));
        assertThat(query(having)).containsExactlyInAnyOrderElementsOf(sums.entrySet().stream()
                .filter(e -> e.getValue().compareTo(BigDecimal.valueOf(120)) > 0)
                .map(e -> List.<Object>of(e.getKey(), e.getValue())).toList());

        String distinct = "select distinct l_shipmode, l_returnflag from lineitem where l_quantity between 10 and 12";
        assertThat(numacolPart(explain(distinct))).contains("NumacolAggregate");
        assertThat(query(distinct)).containsExactlyInAnyOrderElementsOf(lineitem.stream()
                .filter(r -> r.quantity().intValue() >= 10 && r.quantity().intValue() <= 12)
                .map(r -> List.<Object>of(r.shipmode(), r.returnflag())).distinct().toList());
    }

    @Test
    void projectionsOfLiteralsAndArithmetic() throws SQLException {
        String sql = "select 'x' as c, l_linenumber + 1, -l_quantity, l_tax * 2.5, date '2000-01-01', l_partkey - 1 "
                + "from lineitem where l_orderkey = 3";
        assertThat(numacolPart(explain(sql))).contains("NumacolProject");
        assertThat(query(sql)).containsExactlyInAnyOrderElementsOf(lineitem.stream().filter(r -> r.orderkey() == 3)
                .map(r -> List.<Object>of("x", r.linenumber() + 1, r.quantity().negate(),
                        r.tax().multiply(new BigDecimal("2.5")), LocalDate.of(2000, 1, 1), r.partkey() - 1)).toList());
    }

    @Test
    void topNWithOffset() throws SQLException {
        String sql = "select l_orderkey, l_linenumber, l_extendedprice from lineitem where l_returnflag <> 'N' "
                + "order by l_extendedprice desc, l_orderkey, l_linenumber limit 7 offset 3";
        assertThat(numacolPart(explain(sql))).contains("NumacolSort");
        assertThat(query(sql)).containsExactlyElementsOf(lineitem.stream().filter(r -> !r.returnflag().equals("N"))
                .sorted(Comparator.comparing(LineitemData.Row::extendedprice).reversed()
                        .thenComparing(LineitemData.Row::orderkey).thenComparing(LineitemData.Row::linenumber))
                .skip(3).limit(7).map(r -> List.<Object>of(r.orderkey(), r.linenumber(), r.extendedprice())).toList());
    }

    @Test
    void nullsNeverMatchValuePredicates() throws SQLException {
        assertThat(ids("v > 10")).containsExactlyInAnyOrderElementsOf(ids(r -> r[2] != null && (int) r[2] > 10));
        assertThat(ids("not (v > 10)")).isEqualTo(ids(r -> r[2] != null && (int) r[2] <= 10));
        assertThat(ids("v <> 10")).isEqualTo(ids(r -> r[2] != null && (int) r[2] != 10));
        assertThat(ids("k is null")).isEqualTo(ids(r -> r[1] == null));
        assertThat(ids("k is not null and price is null")).isEqualTo(ids(r -> r[1] != null && r[3] == null));
        assertThat(ids("k like 'key1%' or d >= 100.5")).isEqualTo(ids(r ->
                (r[1] != null && ((String) r[1]).startsWith("key1")) || (r[4] != null && (double) r[4] >= 100.5)));
        assertThat(ids("k not like 'key1%'")).isEqualTo(ids(r -> r[1] != null && !((String) r[1]).startsWith("key1")));
        assertThat(ids("v in (1, 2, 3) or v is null")).isEqualTo(ids(r -> r[2] == null || Set.of(1, 2, 3).contains(r[2])));
    }

    private static Set<Integer> ids(String where) throws SQLException {
        String sql = "select id from t where " + where;
        assertThat(numacolPart(explain(sql))).contains("NumacolFilter");
        return query(sql).stream().map(r -> (Integer) r.getFirst()).collect(Collectors.toSet());
    }

    private static Set<Integer> ids(Predicate<Object[]> p) {
        return nullable.stream().filter(p).map(r -> (Integer) r[0]).collect(Collectors.toSet());
    }

    @Test
    void aggregatesOverNulls() throws SQLException {
        String sql = "select k, count(*), count(v), count(distinct v), sum(v), min(price), max(d), sum(price) from t group by k";
        assertThat(numacolPart(explain(sql))).contains("NumacolAggregate");
        Map<Object, List<Object[]>> groups = new LinkedHashMap<>();
        nullable.forEach(r -> groups.computeIfAbsent(r[1] == null ? "<null>" : r[1], x -> new ArrayList<>()).add(r));
        List<List<Object>> expected = new ArrayList<>();
        groups.forEach((k, rows) -> {
            List<Integer> vs = rows.stream().map(r -> (Integer) r[2]).filter(Objects::nonNull).toList();
            List<BigDecimal> prices = rows.stream().map(r -> (BigDecimal) r[3]).filter(Objects::nonNull).toList();
            List<Double> ds = rows.stream().map(r -> (Double) r[4]).filter(Objects::nonNull).toList();
            expected.add(Arrays.asList(k.equals("<null>") ? null : k, (long) rows.size(), (long) vs.size(),
                    (long) new HashSet<>(vs).size(), vs.isEmpty() ? null : vs.stream().mapToLong(Integer::longValue).sum(),
                    prices.stream().min(Comparator.naturalOrder()).orElse(null), ds.stream().max(Comparator.naturalOrder()).orElse(null),
                    prices.isEmpty() ? null : prices.stream().reduce(BigDecimal.ZERO, BigDecimal::add)));
        });
        assertThat(query(sql)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void sortPutsNullsLastAscending() throws SQLException {
        List<List<Object>> rows = query("select v, id from t order by v, id limit 3000");
        List<Object[]> sorted = new ArrayList<>(nullable);
        sorted.sort(Comparator.comparing((Object[] r) -> (Integer) r[2], Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(r -> (Integer) r[0]));
        assertThat(rows).containsExactlyElementsOf(sorted.stream().map(r -> Arrays.asList(r[2], r[0])).toList());
    }

    @Test
    void emptyTableAndEmptyResults() throws SQLException {
        assertThat(query("select count(*), sum(a), max(b) from nothing")).containsExactly(Arrays.asList(0L, null, null));
        assertThat(query("select b, count(*) from nothing group by b")).isEmpty();
        assertThat(query("select * from nothing where a > 1 order by a limit 3")).isEmpty();
        assertThat(query("select count(*) from lineitem where l_discount between 0.04 and 0.02")).containsExactly(List.of(0L));
        assertThat(query("select count(*), sum(l_quantity), min(l_shipdate) from lineitem where l_quantity > 1000"))
                .containsExactly(Arrays.asList(0L, null, null));
        assertThat(query("select l_returnflag, count(*) from lineitem where l_shipmode = 'BOAT' group by l_returnflag")).isEmpty();
        assertThat(query("select l_orderkey from lineitem where l_shipdate < date '1900-01-01'")).isEmpty();
    }

    @Test
    void preparedStatementBindsParametersAtEachExecution() throws SQLException {
        String sql = "select count(*), sum(l_quantity) from lineitem "
                + "where l_shipdate >= ? and l_discount between ? and ? and l_returnflag = ?";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (Object[] p : new Object[][]{{LocalDate.of(1994, 1, 1), "0.03", "0.06", "R"},
                    {LocalDate.of(1992, 6, 1), "0.00", "0.10", "A"}, {LocalDate.of(1999, 1, 1), "0.00", "0.10", "N"}}) {
                ps.setDate(1, Date.valueOf((LocalDate) p[0]));
                ps.setBigDecimal(2, new BigDecimal((String) p[1]));
                ps.setBigDecimal(3, new BigDecimal((String) p[2]));
                ps.setString(4, (String) p[3]);
                List<LineitemData.Row> match = lineitem.stream().filter(r -> !r.shipdate().isBefore((LocalDate) p[0])
                        && r.discount().compareTo(new BigDecimal((String) p[1])) >= 0
                        && r.discount().compareTo(new BigDecimal((String) p[2])) <= 0 && r.returnflag().equals(p[3])).toList();
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rows(rs)).containsExactly(Arrays.asList((long) match.size(), match.isEmpty() ? null : sum(match, LineitemData.Row::quantity)));
                }
            }
        }
    }

    @Test
    void nullAndPatternParameters() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "select id from t where not (v > ?) or k like ?")) {
            ps.setNull(1, Types.INTEGER);
            ps.setString(2, "key1_");
            Set<Integer> expected = ids(r -> r[1] != null && ((String) r[1]).matches("key1."));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rows(rs).stream().map(r -> (Integer) r.getFirst()).toList()).containsExactlyInAnyOrderElementsOf(expected);
            }
            ps.setInt(1, 50);
            ps.setNull(2, Types.VARCHAR);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rows(rs).stream().map(r -> (Integer) r.getFirst()).toList())
                        .containsExactlyInAnyOrderElementsOf(ids(r -> r[2] != null && (int) r[2] <= 50));
            }
        }
    }

    /** JDBC's cancel() from another thread cancels the scheduler's statement of a running query; the statement runs again after. */
    @Test
    void jdbcCancelCancelsTheNumacolStatement() throws SQLException {
        try (Statement s = connection.createStatement()) {
            CompletableFuture<Void> query = new CompletableFuture<>();
            // a cancel() sent before the execution starts stops nothing: sent until the query has ended
            CompletableFuture<Void> cancel = CompletableFuture.runAsync(() -> {
                while (!query.isDone()) {
                    try {
                        s.cancel();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    LockSupport.parkNanos(1_000_000);
                }
            });
            // billions of rows: it never ends by itself
            try {
                assertThatThrownBy(() -> s.executeQuery("select count(*) from lineitem a join lineitem b on a.l_linenumber = b.l_linenumber "
                        + "join lineitem c on b.l_linenumber = c.l_linenumber"))
                        .isInstanceOf(SQLException.class).hasRootCauseInstanceOf(CancellationException.class);
            } finally {
                query.complete(null);
            }
            cancel.join();
            assertThat(rows(s.executeQuery("select count(*) from lineitem where l_quantity > 3"))).hasSize(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "select l_orderkey, row_number() over (order by l_orderkey, l_linenumber) from lineitem where l_orderkey < 3",
            "select id from t where v in (select v from t where id < 5)",
            "select count(*) from (select k from t union all select b from nothing)",
            "select k, avg(d) from t group by k having count(*) > 1 order by 1 nulls first",
            "select sum(case when v > 0 then 1 else 0 end), count(*) filter (where k is null) from t",
            "select extract(year from l_shipdate), count(*) from lineitem group by extract(year from l_shipdate)",
            "select upper(k), price / 3 from t where substring(k from 1 for 4) = 'key1' order by 2 desc nulls last limit 4",
            "select l_returnflag, max(l_quantity) from lineitem group by rollup(l_returnflag)"})
    void queriesNumacolCannotFullyRunStillRun(String sql) throws SQLException {
        assertThat(query(sql)).isNotEmpty();
    }

    @Test
    void plainScanRunsInNumacolToo() throws SQLException {
        assertThat(explain("select * from lineitem")).startsWith("NumacolToEnumerableConverter");
        assertThat(query("select l_orderkey, l_shipdate, l_comment from lineitem")).containsExactlyInAnyOrderElementsOf(
                lineitem.stream().map(r -> List.<Object>of(r.orderkey(), r.shipdate(), r.comment())).toList());
    }

    @Test
    void equiJoinsRunInNumacolOverNumacolScans() throws SQLException {
        String sql = "select count(*) from lineitem a join t on a.l_linenumber = t.id where t.v > 0";
        assertThat(explain(sql)).contains("NumacolJoin").contains("NumacolFilter").doesNotContainPattern("Enumerable[A-Za-z]*Join");
        long expected = lineitem.stream().filter(r -> nullable.stream().anyMatch(t -> (int) t[0] == r.linenumber()
                && t[2] != null && (int) t[2] > 0)).count();
        assertThat(query(sql)).containsExactly(List.of(expected));
    }

    @Test
    void joinsWithoutKeysRunInNumacolToo() throws SQLException {
        String sql = "select count(*) from lineitem a join t on a.l_linenumber < t.id";
        assertThat(explain(sql)).contains("NumacolJoin").doesNotContainPattern("Enumerable[A-Za-z]*Join");
        long expected = lineitem.stream().mapToLong(r -> nullable.stream().filter(t -> r.linenumber() < (int) t[0]).count()).sum();
        assertThat(query(sql)).containsExactly(List.of(expected));
    }
}
