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
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Join orders chosen from estimated sizes: a fact table of 20,000 rows ({@code big}), a
 * dimension of 200 ({@code mid}) and one of 20 ({@code small}), each key a dimension's primary
 * key; and blocks with a cross product or of many tables, which must answer alike.
 */
class JoinOrderingTest {
    private static Connection connection;

    @BeforeAll
    static void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:;planCache=false");
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE big (id INTEGER NOT NULL, m INTEGER NOT NULL, v INTEGER NOT NULL)");
            s.execute("CREATE TABLE mid (id INTEGER NOT NULL, s INTEGER NOT NULL)");
            s.execute("CREATE TABLE small (id INTEGER NOT NULL, flag INTEGER NOT NULL)");
        }
        fill("big", 20_000, i -> new int[] {i, i % 200, i % 7});
        fill("mid", 200, i -> new int[] {i, i % 20});
        fill("small", 20, i -> new int[] {i, i % 10});
    }

    private static void fill(String table, int rows, IntFunction<int[]> row) throws SQLException {
        int width = row.apply(0).length;
        String marks = String.join(", ", Collections.nCopies(width, "?"));
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
            for (int i = 0; i < rows; i++) {
                int[] values = row.apply(i);
                for (int c = 0; c < width; c++) {
                    insert.setInt(c + 1, values[c]);
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    private static List<String> lines(String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                lines.addAll(List.of(rs.getString(1).split("\n")));
            }
        }
        return lines;
    }

    /** Whether some join of {@code plan} reads {@code tables} and only those. */
    private static boolean joinOf(List<String> plan, String... tables) {
        for (int i = 0; i < plan.size(); i++) {
            String line = plan.get(i);
            if (!line.strip().startsWith("NumacolJoin")) {
                continue;
            }
            int depth = line.indexOf(line.strip());
            List<String> read = new ArrayList<>();
            for (int j = i + 1; j < plan.size() && plan.get(j).indexOf(plan.get(j).strip()) > depth; j++) {
                Matcher m = Pattern.compile("table=\\[\\[main, (\\w+)]]").matcher(plan.get(j));
                if (m.find()) {
                    read.add(m.group(1));
                }
            }
            if (read.stream().sorted().toList().equals(Arrays.stream(tables).sorted().toList())) {
                return true;
            }
        }
        return false;
    }

    private static long count(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /**
     * The two dimensions are joined first, whichever order the FROM list names: the 20,000 fact
     * rows then probe the 20 the dimensions leave instead of first joining all of them to mid.
     */
    @Test
    void theSelectiveHalfIsJoinedFirst() throws SQLException {
        String sql = "SELECT COUNT(*) FROM big JOIN mid ON big.m = mid.id JOIN small ON mid.s = small.id WHERE small.flag = 3";
        List<String> plan = lines("EXPLAIN PLAN FOR " + sql);
        assertThat(joinOf(plan, "mid", "small")).as("%s", String.join("\n", plan)).isTrue();
        // small ids 3 and 13 have flag 3; mid rows whose s is one of them: 20; big rows whose m is one of those: 2,000
        assertThat(count(sql)).isEqualTo(2_000);
    }

    /** A condition on no table and one on a single table go where they apply, and the answer stays. */
    @Test
    void conditionsOfNoneAndOneFactorKeepTheirPlace() throws SQLException {
        assertThat(count("SELECT COUNT(*) FROM big, mid, small WHERE big.m = mid.id AND mid.s = small.id AND 1 = 1 "
                + "AND big.v = 2 AND small.flag + mid.s > 5")).isEqualTo(count(
                "SELECT COUNT(*) FROM big WHERE v = 2 AND m IN (SELECT mid.id FROM mid JOIN small ON mid.s = small.id "
                        + "WHERE small.flag + mid.s > 5)"));
    }

    /** A block with a cross product and one of eleven tables. */
    @Test
    void crossProductsAndLongChainsAnswerAlike() throws SQLException {
        assertThat(count("SELECT COUNT(*) FROM mid, small WHERE mid.s < 2 AND small.flag = 1")).isEqualTo(20 * 2);
        StringBuilder from = new StringBuilder("SELECT COUNT(*) FROM small s0");
        for (int t = 1; t <= 10; t++) {
            from.append(" JOIN small s").append(t).append(" ON s").append(t - 1).append(".id = s").append(t).append(".id");
        }
        assertThat(count(from.toString())).isEqualTo(20);
    }
}
