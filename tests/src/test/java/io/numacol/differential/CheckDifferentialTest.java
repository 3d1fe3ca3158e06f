package io.numacol.differential;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CHECK constraints on numacol, H2 and DuckDB: a table of each expression below, seeded random
 * rows inserted one at a time and then UPDATEs, and each engine's outcome per statement compared:
 * kept, refused by the check (numacol's 23514, H2's 23513, DuckDB's constraint error), or failed
 * otherwise (an overflow). Where the three engines compute alike, CHECK answers alike, NULL
 * passing included.
 */
class CheckDifferentialTest {
    private static final String[] CHECKS = {
            "a > 0", "a BETWEEN -5 AND 5 OR b IS NULL", "a + b < 10", "CASE WHEN a > 0 THEN b > a ELSE b < 0 END",
            "s LIKE 'a%' OR s IS NULL", "CHAR_LENGTH(s) <= 2", "UPPER(s) <> 'AB'", "s IN ('a', 'ab', 'b')", "COALESCE(a, b, 0) >= 0",
            "d >= DATE '2020-06-01'", "EXTRACT(YEAR FROM d) <> 2021", "m * 2 < 100", "ABS(a - b) < 20", "MOD(a, 3) <> 0",
            "NOT (a = b)", "a IS DISTINCT FROM b", "(a > 0) = (b > 0)", "s || 'x' <> 'abx'",
            "d + INTERVAL '30' DAY > DATE '2020-06-01'", "TRIM(s) = s", "POSITION('b' IN s) <> 1",
            "SUBSTRING(s FROM 1 FOR 1) <> 'c'", "m / 4 >= 0.5", "NULLIF(a, 3) IS NOT NULL",
            "m > a AND m < b + 40"};

    private static final String[] STRINGS = {"'a'", "'ab'", "'b'", "'abc'", "'c'", "'  a'", "'xyz'", "NULL"};

    private static String row(SplittableRandom random, int id) {
        return id + ", " + small(random) + ", " + small(random) + ", " + STRINGS[random.nextInt(STRINGS.length)] + ", "
                + (random.nextInt(10) == 0 ? "NULL" : "DATE '" + (2019 + random.nextInt(4)) + "-0" + (1 + random.nextInt(9)) + "-1"
                + random.nextInt(10) + "'")
                + ", " + (random.nextInt(10) == 0 ? "NULL" : random.nextInt(-1000, 6000) / 100 + "." + random.nextInt(10, 100));
    }

    private static String small(SplittableRandom random) {
        return random.nextInt(10) == 0 ? "NULL" : Integer.toString(random.nextInt(-20, 21));
    }

    @ParameterizedTest
    @ValueSource(longs = {5})
    void numacolKeepsAndRefusesTheRowsH2AndDuckDbKeepAndRefuse(long seed) throws SQLException {
        try (Connection numacol = DriverManager.getConnection("jdbc:numacol:");
             Connection h2 = DriverManager.getConnection("jdbc:h2:mem:");
             Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
            SplittableRandom random = new SplittableRandom(seed);
            List<String> statements = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                statements.add("INSERT INTO t VALUES (" + row(random, i) + ")");
            }
            for (int i = 0; i < 3; i++) {
                statements.add("UPDATE t SET a = a - " + random.nextInt(1, 8) + " WHERE id % 3 = " + random.nextInt(3));
                statements.add("UPDATE t SET s = " + STRINGS[random.nextInt(STRINGS.length)] + " WHERE id % 5 = " + random.nextInt(5));
            }
            for (int c = 0; c < CHECKS.length; c++) {
                String create = "CREATE TABLE t (id INT, a INT, b INT, s VARCHAR(10), d DATE, m DECIMAL(8,2), CHECK (" + CHECKS[c] + "))";
                Map<String, List<String>> outcomes = new TreeMap<>();
                for (Map.Entry<String, Connection> engine : Map.of("numacol", numacol, "h2", h2, "duckdb", duckdb).entrySet()) {
                    Connection connection = engine.getValue();
                    try (Statement s = connection.createStatement()) {
                        s.execute("DROP TABLE IF EXISTS t");
                        s.execute(create);
                    }
                    List<String> outcome = new ArrayList<>();
                    for (String sql : statements) {
                        outcome.add(outcome(connection, sql));
                    }
                    outcome.add(count(connection));
                    outcomes.put(engine.getKey(), outcome);
                }
                assertThat(outcomes.get("numacol")).as("numacol and H2 on CHECK (%s)", CHECKS[c]).isEqualTo(outcomes.get("h2"));
                assertThat(outcomes.get("numacol")).as("numacol and DuckDB on CHECK (%s)", CHECKS[c]).isEqualTo(outcomes.get("duckdb"));
            }
        }
    }

    /** What {@code sql} did: its update count, "check" when a CHECK refused it, "failed" otherwise. */
    private static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement()) { // one each: DuckDB closes a statement that failed
            return Integer.toString(s.executeUpdate(sql));
        } catch (SQLException e) {
            String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            boolean check = "23514".equals(e.getSQLState()) || "23513".equals(e.getSQLState()) || message.contains("check constraint");
            return check ? "check" : "failed";
        }
    }

    /** The rows kept and a digest of them. */
    private static String count(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT COUNT(*), SUM(id), SUM(a), COUNT(s) FROM t")) {
            rs.next();
            return rs.getLong(1) + "/" + rs.getLong(2) + "/" + rs.getLong(3) + "/" + rs.getLong(4);
        }
    }
}
