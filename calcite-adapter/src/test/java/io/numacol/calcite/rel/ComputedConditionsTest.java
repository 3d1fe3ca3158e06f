package io.numacol.calcite.rel;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Conditions on computed values ({@code v + 1 > 5}, {@code v * 2 IN (...)}) that numacol's
 * pipeline evaluates (a projection computes the operand, a filter tests it; long IN lists as one
 * lookup, {@code RowPredicate.InValues}), with SQL's answers: counts against sets computed here,
 * for IN and NOT IN, NULL rows, doubles' -0.0, an IN list of 100,000 values (which Calcite's
 * generated code could not finish), and an overflow raised only for rows the conjuncts before it
 * let through, as PostgreSQL evaluates them, and a guard before a division that keeps its meaning.
 */
class ComputedConditionsTest {
    private static final int ROWS = 5000;
    private static Connection connection;

    /** Row r: k = r, v = r * 3 (NULL every 11th row), d = r / 4.0 (-0.0 at row 0), g = r % 17. */
    private static boolean nullRow(int r) {
        return r % 11 == 5;
    }

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:");
        try (Statement s = connection.createStatement()) {
            s.execute("create table t (k integer, v bigint, d double, g integer, s varchar(8))");
        }
        try (PreparedStatement p = connection.prepareStatement("insert into t values (?, ?, ?, ?, ?)")) {
            for (int r = 0; r < ROWS; r++) {
                p.setInt(1, r);
                p.setObject(2, nullRow(r) ? null : r * 3L);
                p.setDouble(3, r == 0 ? -0.0 : r / 4.0);
                p.setInt(4, r % 17);
                p.setString(5, "s" + (r % 50));
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    private static long count(String where) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("select count(*) from t where " + where)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static String plan(String where) throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("explain plan for select count(*) from t where " + where)) {
            r.next();
            return r.getString(1);
        }
    }

    private static long expected(IntPredicate row) {
        return IntStream.range(0, ROWS).filter(row).count();
    }

    @Test
    void aComputedInListIsLookedUpInNumacolsPipeline() throws SQLException {
        Random random = new Random(20261129);
        Set<Long> in = new HashSet<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            long x = random.nextInt(ROWS * 3 + 100) - 50L;
            in.add(x);
            values.add(Long.toString(x));
        }
        String list = "(" + String.join(", ", values) + ")";
        assertThat(plan("v + 1 in " + list)).startsWith("NumacolToEnumerableConverter").doesNotContain("Enumerable" + "Calc");
        assertThat(count("v + 1 in " + list)).isEqualTo(expected(r -> !nullRow(r) && in.contains(r * 3L + 1)));
        // NOT IN: a NULL operand is unknown, so its row is not counted either
        assertThat(count("v + 1 not in " + list)).isEqualTo(expected(r -> !nullRow(r) && !in.contains(r * 3L + 1)));
        assertThat(count("v + 1 in " + list + " or v is null")).isEqualTo(expected(r -> nullRow(r) || in.contains(r * 3L + 1)));
        assertThat(count("k + g in " + list)).isEqualTo(expected(r -> in.contains((long) r + r % 17)));
    }

    @Test
    void aComputedDoubleInListTreatsMinusZeroAsZero() throws SQLException {
        String list = IntStream.range(0, 40).mapToObj(i -> Double.toString(i * 0.5)).collect(Collectors.joining(", ", "(", ")"));
        // d * 2 = r / 2.0: 0.0 (and -0.0 at row 0), 0.5, 1.0, ... up to 19.5, rows 0 to 39
        assertThat(count("d * 2 in " + list)).isEqualTo(40);
        assertThat(count("d * 2 not in " + list)).isEqualTo(ROWS - 40);
    }

    @Test
    void aHundredThousandValueInListOverAComputedValueAnswers() throws SQLException {
        String list = IntStream.range(0, 100_000).mapToObj(Integer::toString).collect(Collectors.joining(", ", "(", ")"));
        assertThat(count("v + 1 in " + list)).isEqualTo(expected(r -> !nullRow(r) && r * 3L + 1 < 100_000));
        assertThat(count("k * 2 in " + list)).isEqualTo(expected(r -> r * 2 < 100_000));
    }

    @Test
    void anOverflowIsRaisedOnlyForRowsTheConjunctsBeforeItLetThrough() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("create table big (k integer, g integer, v bigint)");
            s.execute("insert into big values (1, 1, 9223372036854775807), (2, 2, 2), (3, 5, 3)");
            try (ResultSet r = s.executeQuery("explain plan for select count(*) from big where v + 1 > 2")) {
                r.next();
                assertThat(r.getString(1)).startsWith("NumacolToEnumerableConverter");
            }
            assertThatThrownBy(() -> s.executeQuery("select count(*) from big where v + 1 > 2"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22003"));
            // k + g > 3 is tested first, and the row whose v + 1 overflows fails it
            try (ResultSet r = s.executeQuery("select count(*) from big where k + g > 3 and v + 1 > 2")) {
                r.next();
                assertThat(r.getLong(1)).isEqualTo(2);
            }
            // a condition the scan tests comes first however it is written
            try (ResultSet r = s.executeQuery("select count(*) from big where v + 1 > 2 and v < 100")) {
                r.next();
                assertThat(r.getLong(1)).isEqualTo(2);
            }
            // a guard before a division keeps its meaning, whether the scan tests it or not
            s.execute("insert into big values (0, 0, 0)");
            try (ResultSet r = s.executeQuery("select count(*) from big where k <> 0 and 10 / k >= 1")) {
                r.next();
                assertThat(r.getLong(1)).isEqualTo(3);
            }
            try (ResultSet r = s.executeQuery("select count(*) from big where k + g <> 0 and 10 / (k + g) >= 1")) {
                r.next();
                assertThat(r.getLong(1)).isEqualTo(3);
            }
            s.execute("drop table big");
        }
    }
}
