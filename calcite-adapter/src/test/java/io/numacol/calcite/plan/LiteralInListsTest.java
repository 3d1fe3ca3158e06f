package io.numacol.calcite.plan;

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

/**
 * Long IN lists of literals, which {@link LiteralInLists} converts into one SEARCH, answer as SQL
 * says: counts against sets computed here, for IN and NOT IN, values out of the column's range
 * or length, duplicates, NULL rows, and lists it leaves to Calcite (a NULL in the list, a CHAR
 * column) beside the same lists it takes.
 */
class LiteralInListsTest {
    private static final int ROWS = 3000;
    private static Connection connection;
    /** Row r holds i = r - 500, s = r, v = "x" + r, c = r % 100 as text; every 7th row's i and v are NULL. */
    private static boolean nullRow(int r) {
        return r % 7 == 0;
    }

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:");
        try (Statement s = connection.createStatement()) {
            s.execute("create table t (i integer, s smallint, v varchar(6), c char(3))");
        }
        try (PreparedStatement p = connection.prepareStatement("insert into t values (?, ?, ?, ?)")) {
            for (int r = 0; r < ROWS; r++) {
                p.setObject(1, nullRow(r) ? null : r - 500);
                p.setInt(2, r);
                p.setString(3, nullRow(r) ? null : "x" + r);
                p.setString(4, Integer.toString(r % 100));
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

    private static long expected(IntPredicate row) {
        return IntStream.range(0, ROWS).filter(row).count();
    }

    private static String list(List<String> values) {
        return "(" + String.join(", ", values) + ")";
    }

    @Test
    void integerListsMatchTheirValuesOnly() throws SQLException {
        Random random = new Random(4242);
        Set<Integer> in = new HashSet<>();
        List<String> values = new ArrayList<>();
        for (int k = 0; k < 2000; k++) {
            int value = random.nextInt(4000) - 700;
            in.add(value);
            values.add(Integer.toString(value));
            if (k % 10 == 0) {
                values.add(Integer.toString(value)); // duplicates
            }
        }
        // beyond INTEGER's range, and a fraction: they equal no row
        values.addAll(List.of("5000000000", "-5000000000", "1.5", "2.0"));
        in.add(2);
        IntPredicate matches = r -> !nullRow(r) && in.contains(r - 500);
        assertThat(count("i in " + list(values))).isEqualTo(expected(matches));
        assertThat(count("i not in " + list(values))).as("NULL rows are in neither").isEqualTo(expected(r -> !nullRow(r) && !matches.test(r)));
        assertThat(count("not (i in " + list(values) + ") or i is null")).isEqualTo(expected(r -> !matches.test(r)));
        assertThat(count("(i in " + list(values) + " and s > 1000) or s < 3"))
                .isEqualTo(expected(r -> (matches.test(r) && r > 1000) || r < 3));
        assertThat(count("s in " + list(values))).as("SMALLINT, 5000000000 out of range")
                .isEqualTo(expected(r -> in.contains(r)));
        // the same list with a NULL keeps Calcite's conversion: NOT IN is never true
        List<String> withNull = new ArrayList<>(values);
        withNull.add("null");
        assertThat(count("i in " + list(withNull))).isEqualTo(expected(matches));
        assertThat(count("i not in " + list(withNull))).isZero();
        List<String> outOfRange = IntStream.range(0, 200).mapToObj(k -> Long.toString(3_000_000_000L + k)).toList();
        assertThat(count("i in " + list(outOfRange))).isZero();
        assertThat(count("i not in " + list(outOfRange))).isEqualTo(expected(r -> !nullRow(r)));
        assertThat(count("i in (select i from t where i in " + list(values) + ")")).isEqualTo(expected(matches));
    }

    @Test
    void stringListsMatchTheirValuesOnly() throws SQLException {
        Set<String> in = IntStream.range(0, 1500).map(k -> k * 2).mapToObj(k -> "x" + k).collect(Collectors.toSet());
        List<String> values = new ArrayList<>(in.stream().map(v -> "'" + v + "'").toList());
        // longer than VARCHAR(6) (the validator's cast would cut 'x10000000' to 'x10000'), other scripts, an empty string
        values.addAll(List.of("'x10000000'", "'Москва'", "'東京'", "''", "'x1''1'"));
        IntPredicate matches = r -> !nullRow(r) && in.contains("x" + r);
        assertThat(count("v in " + list(values))).isEqualTo(expected(matches));
        assertThat(count("v not in " + list(values))).isEqualTo(expected(r -> !nullRow(r) && !matches.test(r)));
        // a trailing space: VARCHARs compare exactly, so 'x3 ' is not 'x3'
        List<String> spaced = new ArrayList<>(values);
        spaced.add("'x3 '");
        assertThat(count("v in " + list(spaced))).isEqualTo(expected(matches));
        // a CHAR column compares padded: Calcite's conversion
        List<String> chars = IntStream.range(0, 600).mapToObj(k -> "'" + k + "'").toList();
        assertThat(count("c in " + list(chars))).isEqualTo(ROWS);
    }
}
