package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * getGeneratedKeys() in each of JDBC's ways of asking for keys (a flag, column positions, column
 * names; on Statement.execute/executeUpdate and on prepareStatement, batches included), what it
 * answers when none were asked for, and Spring's KeyHolder sequence of calls.
 */
class GeneratedKeysTest {
    private static Connection open(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:numacol:mem:" + name);
    }

    private static void items(Statement s) throws SQLException {
        s.execute("create table items (id bigint generated always as identity, name varchar(20), qty int default 7)");
    }

    @Test
    void statementWithReturnGeneratedKeysAnswersTheIdentityOfEachRow() throws SQLException {
        try (Connection c = open("keys_flag"); Statement s = c.createStatement()) {
            items(s);
            assertThat(s.executeUpdate("insert into items (name) values ('a')", Statement.RETURN_GENERATED_KEYS)).isEqualTo(1);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.getMetaData().getColumnCount()).isEqualTo(1);
                assertThat(keys.getMetaData().getColumnLabel(1)).isEqualToIgnoringCase("id");
                assertThat(keys.getStatement()).isSameAs(s);
                assertThat(rows(keys)).containsExactly(List.of(1L));
            }
            assertThat(s.execute("insert into items (name) values ('b'), ('c')", Statement.RETURN_GENERATED_KEYS)).isFalse();
            assertThat(s.getUpdateCount()).isEqualTo(2);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(rows(keys)).containsExactly(List.of(2L), List.of(3L));
            }
            assertThat(s.executeLargeUpdate("insert into items (name) select name from items where id < 3",
                    Statement.RETURN_GENERATED_KEYS)).isEqualTo(2);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(rows(keys)).containsExactlyInAnyOrder(List.of(4L), List.of(5L));
            }
        }
    }

    @Test
    void columnNamesAndPositionsPickTheColumnsIncludingDefaults() throws SQLException {
        try (Connection c = open("keys_columns"); Statement s = c.createStatement()) {
            items(s);
            s.executeUpdate("insert into items (name) values ('a')", new String[]{"ID", "qty"});
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(rows(keys)).containsExactly(List.of(1L, 7));
            }
            s.execute("insert into items (name, qty) values ('b', 2)", new int[]{3, 2, 1});
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.getMetaData().getColumnLabel(2)).isEqualToIgnoringCase("name");
                assertThat(rows(keys)).containsExactly(List.of(2, "b", 2L));
            }
            assertThatThrownBy(() -> s.executeUpdate("insert into items (name) values ('x')", new String[]{"nope"}))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("42703");
                        assertThat(e.getMessage()).contains("nope", "items");
                    });
            assertThat(rows(s, "select count(*) from items")).as("a refused request stores nothing").containsExactly(List.of(2L));
            assertThatThrownBy(() -> s.executeUpdate("insert into items (name) values ('x')", new int[]{4}))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42703"));
            assertThatThrownBy(() -> s.executeUpdate("insert into items (name) values ('x')", 99))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("HY092"));
        }
    }

    @Test
    void withoutAskingTheKeysAreAnEmptyResult() throws SQLException {
        try (Connection c = open("keys_none"); Statement s = c.createStatement()) {
            items(s);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.next()).isFalse();
            }
            s.executeUpdate("insert into items (name) values ('a')");
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys).isNotNull();
                assertThat(keys.next()).isFalse();
            }
            s.executeUpdate("insert into items (name) values ('a')", Statement.NO_GENERATED_KEYS);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.next()).isFalse();
            }
            try (PreparedStatement p = c.prepareStatement("insert into items (name) values (?)")) {
                p.setString(1, "p");
                assertThat(p.executeUpdate()).isEqualTo(1);
                try (ResultSet keys = p.getGeneratedKeys()) {
                    assertThat(keys.next()).isFalse();
                }
            }
        }
    }

    @Test
    void aTableWithoutIdentityAnswersItsPrimaryKeyElseEveryColumn() throws SQLException {
        try (Connection c = open("keys_pk"); Statement s = c.createStatement()) {
            s.execute("create table k (code varchar(5) primary key, n int)");
            s.execute("create table plain (a int, b varchar(3))");
            s.executeUpdate("insert into k values ('x', 1)", Statement.RETURN_GENERATED_KEYS);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(rows(keys)).containsExactly(List.of("x"));
            }
            s.executeUpdate("insert into plain values (1, 'p')", Statement.RETURN_GENERATED_KEYS);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.getMetaData().getColumnCount()).isEqualTo(2);
                assertThat(rows(keys)).containsExactly(List.of(1, "p"));
            }
        }
    }

    @Test
    void preparedStatementsAnswerTheKeysOfEachExecutionAndOfAWholeBatch() throws SQLException {
        try (Connection c = open("keys_prepared"); Statement s = c.createStatement()) {
            items(s);
            try (PreparedStatement p = c.prepareStatement("insert into items (name) values (?)", Statement.RETURN_GENERATED_KEYS)) {
                p.setString(1, "a");
                assertThat(p.executeUpdate()).isEqualTo(1);
                try (ResultSet keys = p.getGeneratedKeys()) {
                    assertThat(rows(keys)).containsExactly(List.of(1L));
                }
                p.setString(1, "b");
                assertThat(p.execute()).isFalse();
                try (ResultSet keys = p.getGeneratedKeys()) {
                    assertThat(rows(keys)).containsExactly(List.of(2L));
                }
                for (String name : List.of("c", "d", "e")) {
                    p.setString(1, name);
                    p.addBatch();
                }
                assertThat(p.executeBatch()).containsExactly(1, 1, 1);
                try (ResultSet keys = p.getGeneratedKeys()) {
                    assertThat(rows(keys)).containsExactly(List.of(3L), List.of(4L), List.of(5L));
                }
            }
            try (PreparedStatement p = c.prepareStatement("insert into items (name, qty) values (?, ? + 1)", new String[]{"id", "qty"})) {
                // not the bulk path (an expression): each entry is planned, the keys still in order
                for (int i = 0; i < 3; i++) {
                    p.setString(1, "x" + i);
                    p.setInt(2, i);
                    p.addBatch();
                }
                p.executeBatch();
                try (ResultSet keys = p.getGeneratedKeys()) {
                    assertThat(rows(keys)).containsExactly(List.of(6L, 1), List.of(7L, 2), List.of(8L, 3));
                }
            }
            try (PreparedStatement p = c.prepareStatement("insert into items (name) values ('lit'), ('lit')", new int[]{1})) {
                // literal rows, stored without planning: each execution numbers its rows anew
                p.executeUpdate();
                try (ResultSet keys = p.getGeneratedKeys()) {
                    assertThat(rows(keys)).containsExactly(List.of(9L), List.of(10L));
                }
                p.executeUpdate();
                try (ResultSet keys = p.getGeneratedKeys()) {
                    assertThat(rows(keys)).containsExactly(List.of(11L), List.of(12L));
                }
            }
            assertThat(rows(s, "select count(distinct id), count(*) from items")).containsExactly(List.of(12L, 12L));
        }
    }

    @Test
    void keysAreThoseOfThisStatementWhileOtherConnectionsInsert() throws Exception {
        Connection keepsDatabase = open("keys_concurrent"); // a memory database lives while a connection does
        try (Statement s = keepsDatabase.createStatement()) {
            items(s);
        }
        ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> failed = new ConcurrentLinkedQueue<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try (Connection c = open("keys_concurrent");
                     PreparedStatement p = c.prepareStatement("insert into items (name) values (?)", Statement.RETURN_GENERATED_KEYS)) {
                    for (int i = 0; i < 50; i++) {
                        p.setString(1, "t" + thread + "-" + i);
                        p.executeUpdate();
                        try (ResultSet keys = p.getGeneratedKeys()) {
                            assertThat(keys.next()).isTrue();
                            long id = keys.getLong(1);
                            try (Statement check = c.createStatement();
                                 ResultSet named = check.executeQuery("select name from items where id = " + id)) {
                                assertThat(named.next()).isTrue();
                                assertThat(named.getString(1)).isEqualTo("t" + thread + "-" + i);
                            }
                            seen.add(id);
                            assertThat(keys.next()).isFalse();
                        }
                    }
                } catch (Throwable e) {
                    failed.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failed).isEmpty();
        assertThat(seen).hasSize(200).doesNotHaveDuplicates();
        keepsDatabase.close();
    }

    /**
     * What Spring's {@code JdbcTemplate.update(PreparedStatementCreator, KeyHolder)} does (Spring
     * is not a dependency of this build): the creator prepares with keys asked for, executeUpdate,
     * then getGeneratedKeys read by column label into one map per row, whose single Number is
     * {@code KeyHolder.getKey()}.
     */
    @Test
    void springKeyHolderSequence() throws SQLException {
        try (Connection c = open("keys_spring"); Statement s = c.createStatement()) {
            items(s);
            for (PreparedStatementCreator creator : List.<PreparedStatementCreator>of(
                    con -> con.prepareStatement("insert into items (name) values (?)", Statement.RETURN_GENERATED_KEYS),
                    con -> con.prepareStatement("insert into items (name) values (?)", new String[]{"id"}))) {
                List<Map<String, Object>> keyList = new ArrayList<>();
                try (PreparedStatement ps = creator.create(c)) {
                    ps.setString(1, "spring");
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                    try (ResultSet keys = ps.getGeneratedKeys()) {
                        ResultSetMetaData md = keys.getMetaData();
                        while (keys.next()) {
                            Map<String, Object> row = new LinkedHashMap<>();
                            for (int i = 1; i <= md.getColumnCount(); i++) {
                                row.put(md.getColumnLabel(i), keys.getObject(i));
                            }
                            keyList.add(row);
                        }
                    }
                }
                assertThat(keyList).hasSize(1);
                assertThat(keyList.getFirst()).hasSize(1);
                assertThat(keyList.getFirst().values().iterator().next()).isInstanceOf(Number.class);
            }
            assertThat(rows(s, "select id from items order by id")).containsExactly(List.of(1L), List.of(2L));
        }
    }

    @FunctionalInterface
    private interface PreparedStatementCreator {
        PreparedStatement create(Connection c) throws SQLException;
    }
}
