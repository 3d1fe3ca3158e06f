package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A parameter is typed from its context as PostgreSQL types it: beside a column or a value of a
 * type (CASE branches, COALESCE, a comparison), as that type; where nothing gives one (a select
 * list, upper(?), a CASE whose every branch is a parameter), as text; LIMIT and OFFSET as a
 * number that a Long fits. Calcite refused the untyped ones at prepare ("Illegal use of dynamic
 * parameter") and failed a LIMIT bound with setLong ("Long cannot be cast to Integer"), as jOOQ
 * binds every page. Bad datetime text is PostgreSQL's 22007.
 */
class UntypedParameterTest {

    private static Connection open() throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:numacol:");
        try (Statement s = c.createStatement()) {
            s.execute("create table item (id int not null, price decimal(8,2), name varchar(20), d date)");
            s.execute("insert into item values (1, 5.00, 'pen', date '2024-01-01'), (2, 15.00, 'book', null),"
                    + " (3, 25.00, 'lamp', date '2024-03-01'), (4, 35.00, 'desk', null)");
        }
        return c;
    }

    private static List<List<Object>> rows(PreparedStatement p) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (ResultSet r = p.executeQuery()) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(r.getObject(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    @ParameterizedTest(name = "bound as {0}")
    @ValueSource(strings = {"setLong", "setObject(Long)", "setInt", "setObject(Long, BIGINT)"})
    void limitAndOffsetTakeAnyWholeNumber(String how) throws SQLException {
        try (Connection c = open();
             PreparedStatement p = c.prepareStatement("select id from item order by id limit ? offset ?")) {
            for (int i = 1; i <= 2; i++) {
                long value = i == 1 ? 2 : 1;
                switch (how) {
                    case "setLong" -> p.setLong(i, value);
                    case "setObject(Long)" -> p.setObject(i, value);
                    case "setInt" -> p.setInt(i, (int) value);
                    default -> p.setObject(i, value, Types.BIGINT);
                }
            }
            assertThat(rows(p)).containsExactly(List.of(2), List.of(3));
            p.setLong(1, 10);
            p.setLong(2, 3);
            assertThat(rows(p)).containsExactly(List.of(4));
        }
    }

    @Test
    void caseBranchesTakeTheTypeOfTheirContext() throws SQLException {
        try (Connection c = open();
             PreparedStatement p = c.prepareStatement(
                     "select id, case when price > ? then ? else ? end from item order by id");
             PreparedStatement typed = c.prepareStatement(
                     "select id, case when price > ? then ? else price end from item order by id")) {
            p.setBigDecimal(1, new BigDecimal("20"));
            p.setString(2, "dear");
            p.setString(3, "cheap");
            assertThat(rows(p)).containsExactly(List.of(1, "cheap"), List.of(2, "cheap"), List.of(3, "dear"), List.of(4, "dear"));
            assertThat(p.getMetaData().getColumnType(2)).isEqualTo(Types.VARCHAR);
            typed.setInt(1, 20);
            typed.setInt(2, 0);
            assertThat(rows(typed)).extracting(r -> ((BigDecimal) r.get(1)).intValue()).containsExactly(5, 15, 0, 0);
        }
        try (Connection c = open();
             PreparedStatement p = c.prepareStatement(
                     "select id, case when price > ? then 'dear' else ? end from item order by id")) {
            p.setInt(1, 20);
            p.setString(2, "cheap"); // longer than 'dear': text, not the literal's CHAR(4)
            assertThat(rows(p)).containsExactly(List.of(1, "cheap"), List.of(2, "cheap"), List.of(3, "dear"), List.of(4, "dear"));
        }
    }

    @Test
    void aSelectListParameterIsText() throws SQLException {
        try (Connection c = open();
             PreparedStatement p = c.prepareStatement("select ?, id, upper(?) from item where id < ? order by id")) {
            p.setInt(1, 42);
            p.setString(2, "ab");
            p.setLong(3, 3);
            assertThat(rows(p)).containsExactly(List.of("42", 1, "AB"), List.of("42", 2, "AB"));
            ResultSetMetaData meta = p.getMetaData();
            assertThat(meta.getColumnType(1)).isEqualTo(Types.VARCHAR);
            assertThat(p.getParameterMetaData().getParameterType(3)).isIn(Types.INTEGER, Types.BIGINT);
        }
    }

    @Test
    void coalesceTakesTheColumnsType() throws SQLException {
        try (Connection c = open();
             PreparedStatement p = c.prepareStatement("select id, coalesce(d, ?) from item order by id")) {
            p.setObject(1, LocalDate.of(2000, 1, 1));
            List<List<Object>> rows = rows(p);
            assertThat(rows).extracting(r -> r.get(1).toString())
                    .containsExactly("2024-01-01", "2000-01-01", "2024-03-01", "2000-01-01");
        }
    }

    @Test
    void badDatetimeTextIsInvalidDatetimeFormat() throws SQLException {
        try (Connection c = open(); Statement s = c.createStatement()) {
            for (String sql : List.of("select date '2024-13-45'", "select cast('notadate' as date)",
                    "select timestamp '2024-02-30 25:00:00'", "select cast(name as date) from item")) {
                assertThatThrownBy(() -> {
                    try (ResultSet r = s.executeQuery(sql)) {
                        while (r.next()) {
                            r.getObject(1);
                        }
                    }
                }).as(sql).isInstanceOf(SQLDataException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22007"));
            }
            // the message says what is wrong, not only that the statement failed to prepare
            assertThatThrownBy(() -> s.executeQuery("select date '2024-13-45'"))
                    .hasMessageContaining("Illegal DATE literal '2024-13-45'");
        }
    }

    /**
     * A parameter that is a whole column of a set operation's branch is not made text, which would
     * turn the column to text and sort 1, 10, 5: it is refused at prepare unless cast, and cast it
     * takes the type it is given.
     */
    @Test
    void aParameterColumnOfAUnionBranchIsRefusedUnlessCast() throws SQLException {
        try (Connection c = open()) {
            for (String sql : List.of("select ? as x from item union all select id from item order by x",
                    "select id from item union select ? from item", "select ? from item except select id from item")) {
                assertThatThrownBy(() -> c.prepareStatement(sql).close()).as(sql).isInstanceOf(SQLException.class)
                        .hasMessageContaining("dynamic parameter");
            }
            try (PreparedStatement p = c.prepareStatement("select cast(? as int) as x from item where id = 1 union all select id from item order by x")) {
                p.setInt(1, 10);
                assertThat(rows(p)).extracting(r -> r.get(0)).containsExactly(1, 2, 3, 4, 10);
            }
        }
    }
}
