package io.numacol.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * LIMIT and OFFSET take any count a BIGINT holds, as PostgreSQL's do: beyond 2<sup>31</sup>-1 a
 * LIMIT keeps every row and an OFFSET skips them all, whether written as a literal or bound to a
 * parameter, and whoever runs the rows (numacol's operators, or Calcite's over VALUES, a window,
 * a system table). A parameter is a BIGINT; NULL is no LIMIT or OFFSET 0, a negative one an error.
 */
class LimitOffsetTest {
    private static final long BEYOND_INT = 3_000_000_000L;

    private static Connection connection;

    @BeforeAll
    static void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:numacol:");
        try (Statement s = connection.createStatement()) {
            s.execute("create table t (a int)");
            s.executeUpdate("insert into t values (3), (1), (2)");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    /** Queries over t's three rows (1, 2, 3 when ordered), each run by another operator. */
    private static final String[] ORDERED = {
        "select a from t order by a", // numacol's sort
        "select x from (values (3), (1), (2)) v(x) order by x", // Calcite's, over VALUES
        "select a from (select a, row_number() over (order by a) as n from t) w order by a", // above Calcite's window
    };

    private static List<List<Object>> values(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            return rows(s, sql);
        }
    }

    private static List<List<Object>> values(String sql, Object... bound) throws SQLException {
        try (PreparedStatement p = connection.prepareStatement(sql)) {
            for (int i = 0; i < bound.length; i++) {
                p.setObject(i + 1, bound[i]);
            }
            try (ResultSet rs = p.executeQuery()) {
                return rows(rs);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void literalsBeyondAnIntKeepOrSkipEveryRow(int query) throws SQLException {
        String sql = ORDERED[query];
        List<List<Object>> all = List.of(List.of(1), List.of(2), List.of(3));
        assertThat(values(sql + " limit " + BEYOND_INT)).isEqualTo(all);
        assertThat(values(sql + " limit " + BEYOND_INT + " offset 1")).isEqualTo(all.subList(1, 3));
        assertThat(values(sql + " offset " + BEYOND_INT)).isEmpty();
        assertThat(values(sql + " limit 2 offset " + BEYOND_INT)).isEmpty();
        assertThat(values(sql + " offset 1 rows fetch next " + BEYOND_INT + " rows only")).isEqualTo(all.subList(1, 3));
        assertThat(values(sql + " limit 9223372036854775807")).isEqualTo(all);
        assertThat(values(sql + " limit 2")).as("within an int, as before").isEqualTo(all.subList(0, 2));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void parametersTakeALong(int query) throws SQLException {
        String sql = ORDERED[query];
        List<List<Object>> all = List.of(List.of(1), List.of(2), List.of(3));
        assertThat(values(sql + " limit ?", BEYOND_INT)).isEqualTo(all);
        assertThat(values(sql + " offset ?", BEYOND_INT)).isEmpty();
        assertThat(values(sql + " limit ? offset ?", BEYOND_INT, 1L)).isEqualTo(all.subList(1, 3));
        assertThat(values(sql + " limit ? offset ?", 1L, 1)).as("top-N, an int bound too").isEqualTo(List.of(List.of(2)));
        assertThat(values(sql + " limit ? offset ?", 1L, BEYOND_INT)).isEmpty();
        assertThat(values(sql + " limit ?", new BigDecimal("3000000000"))).isEqualTo(all);
        assertThat(values(sql + " limit ?", 0L)).isEmpty();
    }

    @Test
    void aLimitWithoutOrderAndOneInASubqueryCountInLongs() throws SQLException {
        assertThat(values("select count(*) from (select * from t limit ?) x", BEYOND_INT)).containsExactly(List.of(3L));
        assertThat(values("select count(*) from (select * from t offset ?) x", BEYOND_INT)).containsExactly(List.of(0L));
        assertThat(values("select * from (values (1), (2)) v(x) limit " + BEYOND_INT)).hasSize(2);
        assertThat(values("select count(*) from information_schema.tables limit " + BEYOND_INT)).hasSize(1);
        assertThat(values("select * from t limit ?", 2L)).hasSize(2);
        assertThat(values("select a from t where a in (select a from t order by a limit ?) order by a", 2L))
                .containsExactly(List.of(1), List.of(2));
    }

    @Test
    void aParameterIsABigintAndNullMeansNone() throws SQLException {
        try (PreparedStatement p = connection.prepareStatement("select a from t order by a limit ? offset ?")) {
            assertThat(p.getParameterMetaData().getParameterType(1)).isEqualTo(Types.BIGINT);
            assertThat(p.getParameterMetaData().getParameterType(2)).isEqualTo(Types.BIGINT);
            p.setNull(1, Types.BIGINT);
            p.setNull(2, Types.BIGINT);
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rows(rs)).as("LIMIT NULL OFFSET NULL, as PostgreSQL: all").hasSize(3);
            }
        }
    }

    @Test
    void aNegativeCountIsRefusedWithPostgresStates() {
        for (String query : ORDERED) {
            assertThatThrownBy(() -> values(query + " limit ?", -1L)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("LIMIT must not be negative")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("2201W"));
            assertThatThrownBy(() -> values(query + " offset ?", -5L)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("OFFSET must not be negative")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("2201X"));
        }
    }
}
