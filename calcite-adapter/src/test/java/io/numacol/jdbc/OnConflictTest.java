package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * INSERT ... ON CONFLICT, PostgreSQL's upsert: DO NOTHING and DO UPDATE (EXCLUDED, the table's
 * own row, WHERE), parameters, batches, RETURNING and generated keys, composite and second keys,
 * transactions, and the errors PostgreSQL gives.
 */
class OnConflictTest {

    private static void fails(Statement s, String sql, String state, String words) {
        assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
                .hasMessageContaining(words);
    }

    @Test
    void doNothingSkipsExistingAndRepeatedKeys() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, name varchar(10))");
            s.executeUpdate("insert into t values (1, 'a'), (2, 'b')");
            assertThat(s.executeUpdate("insert into t values (2, 'x'), (3, 'c'), (3, 'y'), (4, 'd') on conflict (id) do nothing"))
                    .isEqualTo(2);
            assertThat(s.executeUpdate("insert into t (id, name) values (1, 'z') on conflict do nothing")).isZero();
            assertThat(rows(s, "select id, name from t order by id"))
                    .containsExactly(List.of(1, "a"), List.of(2, "b"), List.of(3, "c"), List.of(4, "d"));
        }
    }

    @Test
    void doUpdateSetsExcludedAndOwnValues() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table counts (k varchar(10) primary key, n int not null, note varchar(10))");
            s.executeUpdate("insert into counts values ('a', 1, 'first')");
            assertThat(s.executeUpdate("insert into counts values ('a', 5, 'second'), ('b', 2, 'new') "
                    + "on conflict (k) do update set n = counts.n + excluded.n, note = excluded.note")).isEqualTo(2);
            assertThat(rows(s, "select k, n, note from counts order by k"))
                    .containsExactly(List.of("a", 6, "second"), List.of("b", 2, "new"));
            // an alias, a column named alone (the existing row's), a WHERE that keeps the row
            assertThat(s.executeUpdate("insert into counts as c values ('a', 1, 'x') "
                    + "on conflict (k) do update set n = n + 10 where c.n > 100")).isZero();
            assertThat(s.executeUpdate("insert into counts as c values ('a', 1, 'x') "
                    + "on conflict (k) do update set n = n + 10 where c.n < 100")).isEqualTo(1);
            assertThat(rows(s, "select n, note from counts where k = 'a'")).containsExactly(List.of(16, "second"));
        }
    }

    @Test
    void errorsAsPostgreSqlGivesThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, code varchar(5) unique, v int)");
            s.executeUpdate("insert into t values (1, 'a', 0)");
            fails(s, "insert into t values (1, 'b', 0) on conflict (v) do nothing", "42P10",
                    "there is no unique or exclusion constraint matching the ON CONFLICT specification");
            fails(s, "insert into t values (1, 'b', 0) on conflict do update set v = 1", "42601", "requires inference specification");
            fails(s, "insert into t values (1, 'b', 0) on conflict on constraint nope do nothing", "42704", "does not exist");
            fails(s, "insert into t values (1, 'b', 0) on conflict (id) do something", "42601", "expected UPDATE");
            fails(s, "insert into t values (2, 'b', 0), (2, 'c', 0) on conflict (id) do update set v = excluded.v", "21000",
                    "cannot affect row a second time");
            // another key still violated: nothing of the statement is kept
            fails(s, "insert into t values (3, 'z', 0), (4, 'a', 0) on conflict (id) do nothing", "23505", "t_code_key");
            fails(s, "insert into t values (1, 'q', 0) on conflict (id) do update set v = 'many'", "22P02", "many");
            assertThat(rows(s, "select id, code, v from t")).containsExactly(List.of(1, "a", 0));
            assertThat(s.executeUpdate("insert into t values (5, 'a', 0) on conflict on constraint t_code_key do nothing")).isZero();
            assertThat(s.executeUpdate("insert into t values (5, 'a', 0) on conflict do nothing")).isZero();
        }
    }
}
