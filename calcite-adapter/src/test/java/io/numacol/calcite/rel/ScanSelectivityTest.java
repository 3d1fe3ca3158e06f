package io.numacol.calcite.rel;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Row estimates of filtered scans from the dictionaries: t holds 1,000 rows, a = 0 .. 999, b = a mod 10, s = 'v' || b, o = 1. */
class ScanSelectivityTest {
    private static Connection connection;

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:;planCache=false");
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE t (a INTEGER NOT NULL, b INTEGER, s VARCHAR(10), o INTEGER)");
            s.execute("INSERT INTO t SELECT x, MOD(x, 10), 'v' || CAST(MOD(x, 10) AS VARCHAR), 1 FROM (SELECT ROW_NUMBER() OVER () - 1 AS x "
                    + "FROM (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) a(i), (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) b(j), "
                    + "(VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) c(k)) n");
            s.execute("CREATE TABLE u (k INTEGER NOT NULL, c INTEGER)");
            s.execute("INSERT INTO u VALUES (1, 1), (2, 2), (3, NULL)");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    /** The row estimate of the filter over t's scan in {@code sql}'s plan. */
    private static double filteredRows(String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN PLAN INCLUDING ALL ATTRIBUTES FOR " + sql)) {
            while (rs.next()) {
                lines.addAll(List.of(rs.getString(1).split("\n")));
            }
        }
        Pattern rowcount = Pattern.compile("NumacolFilter\\(.*rowcount = ([0-9.E]+)");
        for (String line : lines) {
            Matcher m = rowcount.matcher(line);
            if (m.find()) {
                return Double.parseDouble(m.group(1));
            }
        }
        throw new AssertionError("no filter in " + lines);
    }

    @Test
    void rangesEqualitiesAndLikesAreTheirShareOfTheDictionary() throws SQLException {
        // Calcite guesses 0.25 of the rows for a range and 0.15 for an equality
        assertThat(filteredRows("SELECT a FROM t WHERE a >= 100 AND a < 150")).isCloseTo(50, within(1.0));
        assertThat(filteredRows("SELECT a FROM t WHERE b = 3")).isCloseTo(100, within(1.0));
        assertThat(filteredRows("SELECT a FROM t WHERE b IN (3, 4) AND a < 500")).isCloseTo(100, within(1.0));
        assertThat(filteredRows("SELECT a FROM t WHERE s LIKE '%7'")).isCloseTo(100, within(1.0));
    }

    /**
     * A value no row holds is estimated at one row, not none: Calcite's estimate of the distinct
     * values among no rows of a column with one value is NaN, and the join sizes above failed the
     * statement ("max is NaN").
     */
    @Test
    void aConditionNoRowPassesIsEstimatedAtOneRow() throws SQLException {
        assertThat(filteredRows("SELECT a FROM t WHERE b = 12")).isEqualTo(1);
        List<Long> counts = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT (SELECT COUNT(*) FROM t WHERE t.o = u.c AND t.a IS NOT DISTINCT FROM 4000) FROM u ORDER BY u.k")) {
            while (rs.next()) {
                counts.add(rs.getLong(1));
            }
        }
        assertThat(counts).containsExactly(0L, 0L, 0L);
    }
}
