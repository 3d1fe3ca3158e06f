package io.numacol.differential;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ON DELETE and ON UPDATE actions on numacol and H2 (DuckDB has none): a parent, children with
 * each action, a grandchild, a NO ACTION child and a self-referencing table, then a seeded random
 * mix of deletes and key updates; after every statement both engines have kept or refused it
 * alike and hold the same rows in every table. A key is only ever changed to one no row holds, as
 * H2 checks uniqueness row by row where numacol and PostgreSQL check the statement; and parent 0,
 * the children's DEFAULT, stays: H2 keeps a row SET DEFAULT gives a key that was deleted with it,
 * where numacol refuses the statement as PostgreSQL does ({@code ForeignKeyActionTest}).
 */
class ForeignKeyActionDifferentialTest {
    private static final String[] SCHEMA = {
            "CREATE TABLE p (id INT PRIMARY KEY, v INT)",
            "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id) ON DELETE CASCADE ON UPDATE CASCADE, w INT)",
            "CREATE TABLE n (id INT PRIMARY KEY, pid INT REFERENCES p (id) ON DELETE SET NULL ON UPDATE SET NULL)",
            "CREATE TABLE d (id INT PRIMARY KEY, pid INT DEFAULT 0 REFERENCES p (id) ON DELETE SET DEFAULT ON UPDATE SET DEFAULT)",
            "CREATE TABLE g (id INT PRIMARY KEY, cid INT REFERENCES c (id) ON DELETE CASCADE ON UPDATE SET NULL)",
            "CREATE TABLE r (id INT PRIMARY KEY, pid INT REFERENCES p (id) ON DELETE RESTRICT)",
            "CREATE TABLE e (id INT PRIMARY KEY, boss INT REFERENCES e (id) ON DELETE CASCADE ON UPDATE CASCADE)"};
    private static final String[] TABLES = {"p", "c", "n", "d", "g", "r", "e"};

    @ParameterizedTest
    @ValueSource(longs = {11, 12})
    void numacolCascadesAsH2Does(long seed) throws SQLException {
        try (Connection numacol = DriverManager.getConnection("jdbc:numacol:");
             Connection h2 = DriverManager.getConnection("jdbc:h2:mem:")) {
            SplittableRandom random = new SplittableRandom(seed);
            List<String> setup = new ArrayList<>(List.of(SCHEMA));
            int parents = 40;
            for (int i = 0; i < parents; i++) {
                setup.add("INSERT INTO p VALUES (" + i + ", " + random.nextInt(100) + ")");
            }
            for (int i = 0; i < 80; i++) {
                setup.add("INSERT INTO c VALUES (" + i + ", " + parentOrNull(random, parents) + ", " + random.nextInt(10) + ")");
                setup.add("INSERT INTO n VALUES (" + i + ", " + parentOrNull(random, parents) + ")");
                setup.add("INSERT INTO d VALUES (" + i + ", " + parentOrNull(random, parents) + ")");
                setup.add("INSERT INTO g VALUES (" + i + ", " + (random.nextInt(5) == 0 ? "NULL" : random.nextInt(80)) + ")");
                // the bosses come first: a row's boss has a smaller id
                setup.add("INSERT INTO e VALUES (" + i + ", " + (i == 0 || random.nextInt(6) == 0 ? "NULL" : random.nextInt(i)) + ")");
            }
            for (int i = 0; i < 5; i++) {
                setup.add("INSERT INTO r VALUES (" + i + ", " + (1 + random.nextInt(parents - 1)) + ")");
            }
            for (String sql : setup) {
                assertThat(outcome(numacol, sql)).as(sql).isEqualTo(outcome(h2, sql));
            }
            int fresh = 1000;
            int refused = 0;
            for (int i = 0; i < 60; i++) {
                String sql = switch (random.nextInt(7)) {
                    case 0 -> "DELETE FROM p WHERE id = " + (1 + random.nextInt(parents - 1));
                    case 1 -> "DELETE FROM p WHERE MOD(id, 7) = " + random.nextInt(7) + " AND v < " + random.nextInt(100) + " AND id > 0";
                    case 2 -> "UPDATE p SET id = " + fresh++ + " WHERE id = " + (1 + random.nextInt(parents - 1));
                    case 3 -> "UPDATE c SET id = " + fresh++ + " WHERE id = " + random.nextInt(80);
                    case 4 -> "DELETE FROM c WHERE w = " + random.nextInt(10);
                    case 5 -> "UPDATE e SET id = " + fresh++ + " WHERE id = " + random.nextInt(80);
                    default -> "DELETE FROM e WHERE id = " + random.nextInt(80);
                };
                String outcome = outcome(numacol, sql);
                assertThat(outcome).as(sql).isEqualTo(outcome(h2, sql));
                refused += outcome.equals("failed") ? 1 : 0;
                for (String t : TABLES) {
                    assertThat(contents(numacol, t)).as("table %s after %s", t, sql).isEqualTo(contents(h2, t));
                }
            }
            // the mix did both: statements refused (RESTRICT, a cascade's key) and cascades that emptied children
            assertThat(refused).isPositive();
            assertThat(contents(numacol, "c").size() + contents(numacol, "g").size() + contents(numacol, "e").size()).isLessThan(200);
        }
    }

    private static String parentOrNull(SplittableRandom random, int parents) {
        return random.nextInt(8) == 0 ? "NULL" : Integer.toString(random.nextInt(parents));
    }

    /** The update count of {@code sql}, or "failed" (a foreign key, NOT NULL or key refused it; nothing of it is kept). */
    private static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            return Integer.toString(s.executeUpdate(sql));
        } catch (SQLException e) {
            return "failed";
        }
    }

    /** A table's rows, ordered, as text. */
    private static List<String> contents(Connection c, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(rs.getObject(i)).append(i < n ? "|" : "");
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}
