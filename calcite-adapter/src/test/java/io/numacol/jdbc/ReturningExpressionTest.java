package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code INSERT/UPDATE/DELETE ... RETURNING} with expressions (PostgreSQL's and DuckDB's): each
 * returned row computed from a row the statement stored, its columns typed as a query's and
 * labelled as PostgreSQL labels them (an alias, a column's name, a function's, {@code case}, a
 * cast's type, else {@code ?column?}); what a row alone cannot answer is refused before anything
 * is stored.
 */
class ReturningExpressionTest {
    private static Connection open(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:numacol:mem:" + name);
    }

    private static void items(Statement s) throws SQLException {
        s.execute("create table items (id int generated always as identity primary key, name varchar(20), "
                + "price decimal(10,2), qty int default 7)");
    }

    private static List<String> labels(ResultSetMetaData md) throws SQLException {
        List<String> labels = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            labels.add(md.getColumnLabel(i));
        }
        return labels;
    }

    @Test
    void insertValuesReturnsExpressionsStarsAndColumnsLabelledAsPostgresLabelsThem() throws SQLException {
        try (Connection c = open("retx_values"); Statement s = c.createStatement()) {
            items(s);
            try (ResultSet rs = s.executeQuery("insert into items (name, price) values ('a', 1.25), ('b', null) returning id, "
                    + "price * 2 as doubled, upper(name), id + 1, case when qty > 0 then 'y' end, *, items.*")) {
                ResultSetMetaData md = rs.getMetaData();
                assertThat(labels(md)).containsExactly("id", "doubled", "upper", "?column?", "case",
                        "id", "name", "price", "qty", "id", "name", "price", "qty");
                assertThat(md.getColumnType(2)).isEqualTo(Types.DECIMAL);
                assertThat(md.getColumnType(3)).isEqualTo(Types.VARCHAR);
                assertThat(md.getColumnType(4)).isEqualTo(Types.INTEGER);
                assertThat(rows(rs)).containsExactly(
                        List.of(1, new BigDecimal("2.50"), "A", 2, "y", 1, "a", new BigDecimal("1.25"), 7, 1, "a", new BigDecimal("1.25"), 7),
                        Arrays.asList(2, null, "B", 3, "y", 2, "b", null, 7, 2, "b", null, 7));
            }
            assertThat(rows(s, "select count(*) from items")).containsExactly(List.of(2L));
        }
    }

    @Test
    void labelsFollowPostgresForCastsLiteralsAndFunctions() throws SQLException {
        try (Connection c = open("retx_labels"); Statement s = c.createStatement()) {
            items(s);
            try (ResultSet rs = s.executeQuery("insert into items (name, qty) values ('  x ', null) returning cast(qty as bigint), "
                    + "cast(1 as integer), true, coalesce(qty, -1), trim(name), name || '!', -id, current_date is not null as today, "
                    + "\"ID\" * 10 AS \"Tenfold\"")) {
                assertThat(labels(rs.getMetaData())).containsExactly("qty", "int4", "bool", "coalesce", "btrim", "?column?",
                        "?column?", "today", "Tenfold");
                assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.BIGINT);
                assertThat(rows(rs)).containsExactly(Arrays.asList(null, 1, true, -1, "x", "  x !", -1, true, 10));
            }
        }
    }

    @Test
    void insertSelectUpdateAndDeleteReturnExpressionsOfTheirRows() throws SQLException {
        try (Connection c = open("retx_dml"); Statement s = c.createStatement()) {
            items(s);
            try (ResultSet rs = s.executeQuery("insert into items (name, price, qty) select 'n' || v, v * 1.5, v from "
                    + "(values (1), (2), (3)) as t(v) returning name, price + qty as total")) {
                assertThat(labels(rs.getMetaData())).containsExactly("name", "total");
                assertThat(rows(rs)).containsExactlyInAnyOrder(List.of("n1", new BigDecimal("2.50")),
                        List.of("n2", new BigDecimal("5.00")), List.of("n3", new BigDecimal("7.50")));
            }
            try (ResultSet rs = s.executeQuery("update items as i set qty = qty * 10 where id >= 2 returning i.id, i.qty / 10 as was, *")) {
                assertThat(labels(rs.getMetaData())).containsExactly("id", "was", "id", "name", "price", "qty");
                assertThat(rows(rs)).containsExactlyInAnyOrder(List.of(2, 2, 2, "n2", new BigDecimal("3.00"), 20),
                        List.of(3, 3, 3, "n3", new BigDecimal("4.50"), 30));
            }
            try (ResultSet rs = s.executeQuery("delete from items where qty < 20 returning lower(name) as gone, qty - 1")) {
                assertThat(rows(rs)).containsExactly(List.of("n1", 0));
            }
            assertThat(rows(s, "select id, qty from items order by id")).containsExactly(List.of(2, 20), List.of(3, 30));
        }
    }

    @Test
    void upsertsReturnTheInsertedAndUpdatedRows() throws SQLException {
        try (Connection c = open("retx_upsert"); Statement s = c.createStatement()) {
            s.execute("create table stock (sku varchar(9) primary key, qty int)");
            s.executeUpdate("insert into stock values ('a', 1)");
            try (ResultSet rs = s.executeQuery("insert into stock as st values ('a', 5), ('b', 2) on conflict (sku) "
                    + "do update set qty = st.qty + excluded.qty returning st.sku, qty * 100 as hundreds")) {
                assertThat(labels(rs.getMetaData())).containsExactly("sku", "hundreds");
                assertThat(rows(rs)).containsExactlyInAnyOrder(List.of("a", 600), List.of("b", 200));
            }
            try (ResultSet rs = s.executeQuery("insert into stock values ('b', 9), ('c', 3) on conflict do nothing "
                    + "returning upper(sku), qty")) {
                assertThat(rows(rs)).containsExactly(List.of("C", 3));
            }
        }
    }

    @Test
    void preparedReturningDescribesItsColumnsBeforeAndAfterItRuns() throws SQLException {
        try (Connection c = open("retx_prepared"); Statement s = c.createStatement()) {
            items(s);
            try (PreparedStatement p = c.prepareStatement("insert into items (name, price) values (?, ?) "
                    + "returning id * 100 as big, price / 2, name")) {
                ResultSetMetaData before = p.getMetaData();
                assertThat(labels(before)).containsExactly("big", "?column?", "name");
                assertThat(before.getColumnType(1)).isEqualTo(Types.INTEGER);
                assertThat(before.getColumnType(2)).isEqualTo(Types.DECIMAL);
                assertThat(p.getParameterMetaData().getParameterCount()).isEqualTo(2);
                for (int i = 1; i <= 3; i++) {
                    p.setString(1, "p" + i);
                    p.setBigDecimal(2, BigDecimal.valueOf(i));
                    try (ResultSet rs = p.executeQuery()) {
                        assertThat(labels(rs.getMetaData())).containsExactly("big", "?column?", "name");
                        assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(Types.DECIMAL);
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt("big")).isEqualTo(i * 100);
                        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo(BigDecimal.valueOf(i).divide(BigDecimal.valueOf(2)));
                        assertThat(rs.getString("name")).isEqualTo("p" + i);
                        assertThat(rs.next()).isFalse();
                    }
                }
                assertThat(labels(p.getMetaData())).containsExactly("big", "?column?", "name");
            }
            try (PreparedStatement p = c.prepareStatement("delete from items where id = ? returning id + 0.5")) {
                assertThat(labels(p.getMetaData())).containsExactly("?column?");
                p.setInt(1, 2);
                assertThat(p.execute()).isTrue();
                try (ResultSet rs = p.getResultSet()) {
                    assertThat(rows(rs)).containsExactly(List.of(new BigDecimal("2.5")));
                }
            }
        }
    }

    @Test
    void refusalsCarryPostgresStatesAndStoreNothing() throws SQLException {
        try (Connection c = open("retx_refused"); Statement s = c.createStatement()) {
            items(s);
            String insert = "insert into items (name) values ('a') returning ";
            assertRefused(s, insert + "id, nope * 2", "42703", "nope");
            assertRefused(s, insert + "count(*)", "42803", "aggregate functions are not allowed in RETURNING");
            assertRefused(s, insert + "id, (select max(id) from items)", "0A000", "subquery");
            assertRefused(s, insert + "row_number() over ()", "42P20", "window functions");
            assertRefused(s, insert + "id +", "42601", "syntax error in RETURNING");
            assertRefused(s, insert + "nosuchfn(id)", "42883", "nosuchfn");
            assertThat(rows(s, "select count(*) from items")).containsExactly(List.of(0L));
            assertThatThrownBy(() -> c.prepareStatement("insert into items (name) values (?) returning id + ?").executeQuery())
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("0A000");
                        assertThat(e.getMessage()).contains("no parameter (?) in RETURNING");
                    });
            s.executeUpdate("insert into items (name, price) values ('z', 0)");
            // computed as each row is stored: the failure is the statement's, which stores nothing
            assertRefused(s, "update items set qty = 1 returning 1 / price", "22012", "");
            assertThat(rows(s, "select qty from items")).containsExactly(List.of(7));
        }
    }

    private static void assertRefused(Statement s, String sql, String state, String says) {
        assertThatThrownBy(() -> s.executeQuery(sql)).as(sql).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo(state);
            assertThat(e.getMessage()).contains(says);
        });
    }
}
