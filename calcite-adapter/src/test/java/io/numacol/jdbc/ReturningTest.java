package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code INSERT}, {@code UPDATE} and {@code DELETE ... RETURNING} (PostgreSQL's syntax) through
 * executeQuery, execute with getResultSet, and prepared statements: the rows the statement
 * stored, generated identity numbers and DEFAULTs included (a DELETE: the rows it deleted, as
 * they were). Expressions in the list: {@link ReturningExpressionTest}.
 */
class ReturningTest {
    private static Connection open(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:numacol:mem:" + name);
    }

    private static void items(Statement s) throws SQLException {
        s.execute("create table items (id int generated always as identity, name varchar(20), qty int default 7)");
    }

    @Test
    void insertValuesReturningGivesTheStoredRowsWithIdentityAndDefaults() throws SQLException {
        try (Connection c = open("ret_values"); Statement s = c.createStatement()) {
            items(s);
            try (ResultSet rs = s.executeQuery("insert into items (name) values ('a'), ('b') returning id, name, qty")) {
                assertThat(rs.getMetaData().getColumnCount()).isEqualTo(3);
                assertThat(rs.getMetaData().getColumnLabel(1)).isEqualToIgnoringCase("id");
                assertThat(rs.getStatement()).isSameAs(s);
                assertThat(rows(rs)).containsExactly(List.of(1, "a", 7), List.of(2, "b", 7));
            }
            try (ResultSet rs = s.executeQuery("INSERT INTO items (name, qty) VALUES ('c', 3) RETURNING *;")) {
                assertThat(rows(rs)).containsExactly(List.of(3, "c", 3));
            }
            assertThat(rows(s, "select count(*) from items")).containsExactly(List.of(3L));
        }
    }

    @Test
    void executeAnswersTheRowsAsItsResultThenNoMore() throws SQLException {
        try (Connection c = open("ret_execute"); Statement s = c.createStatement()) {
            items(s);
            assertThat(s.execute("insert into items (name) select 'x' || name from (values ('1'), ('2')) as v(name) returning name, id"))
                    .isTrue();
            assertThat(s.getUpdateCount()).isEqualTo(-1);
            try (ResultSet rs = s.getResultSet()) {
                assertThat(rows(rs)).containsExactlyInAnyOrder(List.of("x1", 1), List.of("x2", 2));
            }
            assertThat(s.getMoreResults()).isFalse();
            assertThat(s.getUpdateCount()).isEqualTo(-1);
            assertThat(s.executeUpdate("insert into items (name) values ('u') returning id")).as("the count, the rows unread").isEqualTo(1);
            assertThat(s.getUpdateCount()).isEqualTo(1);
        }
    }

    @Test
    void preparedReturningRunsWithItsParametersEachTime() throws SQLException {
        try (Connection c = open("ret_prepared"); Statement s = c.createStatement()) {
            items(s);
            try (PreparedStatement p = c.prepareStatement("insert into items (name, qty) values (?, ?) returning id, qty")) {
                assertThat(p.getMetaData().getColumnCount()).as("described before it runs").isEqualTo(2);
                assertThat(p.getMetaData().getColumnLabel(2)).isEqualToIgnoringCase("qty");
                assertThat(p.getParameterMetaData().getParameterCount()).isEqualTo(2);
                for (int i = 1; i <= 3; i++) {
                    p.setString(1, "n" + i);
                    p.setInt(2, i * 10);
                    try (ResultSet rs = p.executeQuery()) {
                        assertThat(rows(rs)).containsExactly(List.of(i, i * 10));
                    }
                }
                p.setString(1, "e");
                p.setInt(2, 5);
                assertThat(p.execute()).isTrue();
                try (ResultSet rs = p.getResultSet()) {
                    assertThat(rows(rs)).containsExactly(List.of(4, 5));
                }
            }
            try (PreparedStatement p = c.prepareStatement("insert into items (name) select name from items where qty > ? returning name")) {
                p.setInt(1, 1000);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.getMetaData().getColumnCount()).as("no row stored: still its columns").isEqualTo(1);
                    assertThat(rs.next()).isFalse();
                }
            }
        }
    }

    @Test
    void updateReturningGivesTheNewValues() throws SQLException {
        try (Connection c = open("ret_update"); Statement s = c.createStatement()) {
            items(s);
            s.executeUpdate("insert into items (name, qty) values ('a', 1), ('b', 2), ('c', 3)");
            try (ResultSet rs = s.executeQuery("update items set qty = qty * 100 where qty >= 2 returning id, qty")) {
                assertThat(rows(rs)).containsExactlyInAnyOrder(List.of(2, 200), List.of(3, 300));
            }
            assertThat(rows(s, "select qty from items order by id")).containsExactly(List.of(1), List.of(200), List.of(300));
        }
    }

    @Test
    void typesReadAsAQueryReadsThem() throws SQLException {
        try (Connection c = open("ret_types"); Statement s = c.createStatement()) {
            s.execute("create table t (id bigserial, d date, ts timestamp, amount decimal(10,2), ok boolean, u uuid, "
                    + "b varbinary(4), r real, dbl double)");
            UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
            try (ResultSet rs = s.executeQuery("insert into t (d, ts, amount, ok, u, b, r, dbl) values (date '2024-02-29', "
                    + "timestamp '2024-07-01 12:34:56', 12.5, true, '" + u + "', x'0102', 1.5, 2.25) returning *")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong("id")).isEqualTo(1L);
                assertThat(rs.getDate("d")).isEqualTo(Date.valueOf("2024-02-29"));
                assertThat(rs.getTimestamp("ts")).isEqualTo(Timestamp.valueOf("2024-07-01 12:34:56"));
                assertThat(rs.getBigDecimal("amount")).isEqualByComparingTo(new BigDecimal("12.50"));
                assertThat(rs.getBoolean("ok")).isTrue();
                assertThat(rs.getObject("u", UUID.class)).isEqualTo(u);
                assertThat(rs.getBytes("b")).containsExactly(1, 2);
                assertThat(rs.getFloat("r")).isEqualTo(1.5f);
                assertThat(rs.getDouble("dbl")).isEqualTo(2.25);
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = s.executeQuery("select d, ts, amount, ok, u, b, r, dbl from t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getDate("d")).isEqualTo(Date.valueOf("2024-02-29"));
            }
        }
    }

    @Test
    void inATransactionTheReturnedRowsRollBackWithIt() throws SQLException {
        try (Connection c = open("ret_tx"); Statement s = c.createStatement()) {
            items(s);
            c.setAutoCommit(false);
            try (ResultSet rs = s.executeQuery("insert into items (name) values ('t') returning id")) {
                assertThat(rows(rs)).containsExactly(List.of(1));
            }
            c.rollback();
            assertThat(rows(s, "select count(*) from items")).containsExactly(List.of(0L));
        }
    }

    @Test
    void deleteReturningAnswersTheRowsItDeletedAsTheyWere() throws SQLException {
        try (Connection c = open("ret_delete"); Statement s = c.createStatement()) {
            s.execute("create table d (id int primary key, name varchar(9), at date)");
            s.executeUpdate("insert into d values (1, 'a', date '2024-01-02'), (2, 'b', null), (3, 'c', date '2025-03-04')");
            try (ResultSet rs = s.executeQuery("delete from d where id <> 2 returning name, id, at")) {
                assertThat(rows(rs)).containsExactlyInAnyOrder(List.of("a", 1, java.sql.Date.valueOf("2024-01-02")),
                        List.of("c", 3, java.sql.Date.valueOf("2025-03-04")));
            }
            try (PreparedStatement p = c.prepareStatement("delete from d where id = ? returning *")) {
                p.setInt(1, 2);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rows(rs)).containsExactly(java.util.Arrays.asList(2, "b", null));
                }
                p.setInt(1, 2);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rows(rs)).isEmpty(); // nothing left to delete
                }
            }
            c.setAutoCommit(false);
            s.executeUpdate("insert into d values (4, 'd', null)");
            try (ResultSet rs = s.executeQuery("delete from d returning id")) {
                assertThat(rows(rs)).containsExactly(List.of(4)); // the transaction's own row
            }
            c.rollback();
            assertThat(rows(s, "select count(*) from d")).containsExactly(List.of(0L));
        }
    }

    @Test
    void refusedReturningsSayWhyAndStoreNothing() throws SQLException {
        try (Connection c = open("ret_refused"); Statement s = c.createStatement()) {
            items(s);
            assertThatThrownBy(() -> s.executeQuery("insert into items (name) values ('a') returning id + (select 1)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("0A000");
                        assertThat(e.getMessage()).contains("no subquery");
                    });
            assertThatThrownBy(() -> s.executeQuery("insert into items (name) values ('a') returning nope"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("42703");
                        assertThat(e.getMessage()).contains("nope");
                    });
            assertThat(rows(s, "select count(*) from items")).containsExactly(List.of(0L));
            // a column named in quotes may be called returning; the clause is the last word outside them
            s.execute("create table odd (\"returning\" int, v varchar(9))");
            try (ResultSet rs = s.executeQuery("insert into odd values (1, 'returning') returning \"returning\", v")) {
                assertThat(rows(rs)).containsExactly(List.of(1, "returning"));
            }
        }
    }
}
