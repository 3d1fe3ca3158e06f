package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lookups by key (SELECT, UPDATE and DELETE {@code WHERE key = ?}, IN lists, a composite key's
 * first column, other conditions beside) answer what a scan answers: every statement runs on a
 * keyed table, whose large parts carry an Index of their key columns, and on a copy without
 * keys, which is scanned, over seeded random rows in large and small parts, with deletions,
 * NULLs, strings and numbers, and a transaction's own uncommitted rows.
 */
class KeyLookupQueryTest {
    private static final String COLUMNS = "(id bigint %s, code varchar(12) %s, grp int not null, seq int not null, "
            + "amount decimal(10, 2)%s)";
    private static final String[] TABLES = {"keyed", "plain"};

    /** Queries with their parameters' kinds: i an id, c a code, g a grp, s a seq, a an amount. */
    private static final String[][] QUERIES = {
            {"select * from %s where id = ?", "i"},
            {"select id, amount from %s where id in (?, ?, ?)", "iii"},
            {"select * from %s where code = ?", "c"},
            {"select id from %s where code in (?, ?)", "cc"},
            {"select * from %s where grp = ?", "g"},
            {"select id, code from %s where grp = ? and seq = ?", "gs"},
            {"select id from %s where id = ? and amount > ?", "ia"},
            {"select id from %s where grp = ? and code is null", "g"},
            {"select id from %s where code = ? or id = ?", "ci"},
            {"select count(*), sum(amount), min(code) from %s where grp in (?, ?)", "gg"},
            {"select a.id, b.id from %s a join %s b on a.grp = b.grp where a.id = ?", "i"},
            {"select * from %s where id = 3", ""},
            {"select * from %s where code = 'absent'", ""},
    };

    private int rows;

    @Test
    void lookupsByKeyAnswerWhatScansAnswer() throws SQLException {
        SplittableRandom random = new SplittableRandom(2024);
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:keylookup"); Statement s = c.createStatement();
             Connection other = DriverManager.getConnection("jdbc:numacol:mem:keylookup")) {
            s.execute("create table keyed " + COLUMNS.formatted("primary key", "unique", ", unique (grp, seq)"));
            s.execute("create table plain " + COLUMNS.formatted("not null", "", ""));
            for (int batch = 0; batch < 3; batch++) {
                insert(c, 1500); // a part with an Index each
                for (int i = 0; i < 5; i++) {
                    insert(c, 1); // parts too small for one
                }
            }
            compareAll(c, random, 25);
            changeByKey(c, random, 200);
            compareAll(c, random, 25);

            c.setAutoCommit(false);
            insert(c, 1200); // the transaction's own part, with an Index
            changeByKey(c, random, 50);
            compareAll(c, random, 25);
            compareAll(other, random, 10); // the other connection sees none of it
            c.commit();
            compareAll(other, random, 10);
            c.setAutoCommit(true);
        }
    }

    @Test
    void aFileDatabaseReadsItsPartsIndexBackAndLooksUpByIt(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table keyed " + COLUMNS.formatted("primary key", "unique", ", unique (grp, seq)"));
            s.execute("create table plain " + COLUMNS.formatted("not null", "", ""));
            insert(c, 2000);
            s.executeUpdate("delete from keyed where id = " + id(5));
            s.executeUpdate("delete from plain where id = " + id(5));
            s.execute("checkpoint");
            insert(c, 1100); // in the log only: replayed into a part when the database opens
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            // the Index of id, code and grp in every part of the keyed table (all large), none elsewhere
            long parts = (long) JdbcTesting.rows(s, "select count(*) from sys.columns where table_name = 'keyed' "
                    + "and column_name = 'id' and row_count >= 1024").getFirst().getFirst();
            assertThat(parts).isPositive();
            assertThat(JdbcTesting.rows(s, "select table_name, column_name, count(*) from sys.columns "
                    + "where index_bytes > 0 group by table_name, column_name order by 2"))
                    .containsExactly(List.of("keyed", "code", parts), List.of("keyed", "grp", parts), List.of("keyed", "id", parts));
            assertThat(JdbcTesting.rows(s, "select code from keyed where id = " + id(5))).isEmpty();
            compareAll(c, new SplittableRandom(7), 25);
        }
    }

    /** Inserts rows {@code rows..rows+n} into both tables, one statement (so one part) each. */
    private void insert(Connection c, int n) throws SQLException {
        for (String table : TABLES) {
            try (PreparedStatement p = c.prepareStatement("insert into " + table + " values (?, ?, ?, ?, ?)")) {
                for (int k = rows; k < rows + n; k++) {
                    p.setLong(1, id(k));
                    p.setString(2, code(k));
                    p.setInt(3, k / 10);
                    p.setInt(4, k % 10);
                    p.setBigDecimal(5, k % 13 == 0 ? null : BigDecimal.valueOf(k % 1000, 2));
                    p.addBatch();
                }
                p.executeBatch();
            }
        }
        rows += n;
    }

    private static long id(int k) {
        return k * 7L + 2; // none is 3
    }

    private static String code(int k) {
        return k % 9 == 0 ? null : (k % 4 == 0 ? "ü-" : "k-") + k;
    }

    /** The same UPDATEs and DELETEs by key on both tables, each changing as many rows on both. */
    private void changeByKey(Connection c, SplittableRandom random, int n) throws SQLException {
        String[] sql = {"update %s set amount = amount + 1 where id = ?", "delete from %s where id = ?",
                "update %s set code = null where code = ?", "delete from %s where grp = ? and seq = ?"};
        for (int i = 0; i < n; i++) {
            int which = random.nextInt(sql.length);
            int k = random.nextInt(rows + 10);
            int[] counts = new int[TABLES.length];
            for (int t = 0; t < TABLES.length; t++) {
                try (PreparedStatement p = c.prepareStatement(sql[which].formatted(TABLES[t]))) {
                    switch (which) {
                        case 0, 1 -> p.setLong(1, id(k));
                        case 2 -> p.setString(1, code(k));
                        default -> {
                            p.setInt(1, k / 10);
                            p.setInt(2, k % 10);
                        }
                    }
                    counts[t] = p.executeUpdate();
                }
            }
            assertThat(counts[0]).as("%s of row %d", sql[which], k).isEqualTo(counts[1]);
        }
    }

    private void compareAll(Connection c, SplittableRandom random, int perQuery) throws SQLException {
        for (String[] q : QUERIES) {
            for (int i = 0; i < (q[1].isEmpty() ? 1 : perQuery); i++) {
                Object[] values = new Object[q[1].length()];
                for (int v = 0; v < values.length; v++) {
                    int k = random.nextInt(rows + rows / 10);
                    values[v] = switch (q[1].charAt(v)) {
                        case 'i' -> id(k);
                        case 'c' -> code(k);
                        case 'g' -> k / 10;
                        case 's' -> k % 10;
                        default -> BigDecimal.valueOf(k % 1000, 2);
                    };
                }
                List<List<Object>> keyed = query(c, q[0].replace("%s", "keyed"), values);
                List<List<Object>> plain = query(c, q[0].replace("%s", "plain"), values);
                assertThat(keyed).as("%s with %s", q[0], Arrays.toString(values)).isEqualTo(plain);
            }
        }
    }

    private static List<List<Object>> query(Connection c, String sql, Object[] values) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    p.setNull(i + 1, Types.VARCHAR); // a NULL code: equal to nothing
                } else {
                    p.setObject(i + 1, values[i]);
                }
            }
            List<List<Object>> out = new ArrayList<>(JdbcTesting.rows(p.executeQuery()));
            out.sort(Comparator.comparing(Object::toString));
            return out;
        }
    }
}
