package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CreateTableAsTest {

    @Test
    void aTableOfTheQuerysColumnsAndRows() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=3");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int not null, grp varchar(3), price decimal(8,2), d date)");
            s.executeUpdate("insert into t values (1, 'a', 1.5, date '2024-01-01'), (2, 'a', 2, null), (3, 'b', null, date '2024-03-01'), "
                    + "(4, null, 4.25, null), (5, 'b', 5, date '2024-05-01')");
            assertThat(s.executeUpdate("create table g as select grp, count(*) as n, sum(price) * 2 as total, max(d) as last, "
                    + "count(*) > 1 as many from t group by grp")).isEqualTo(3);
            assertThat(rows(s, "select grp, n, total, last, many from g order by grp nulls first")).containsExactly(
                    Arrays.asList(null, 1L, new BigDecimal("8.50"), null, false),
                    Arrays.asList("a", 2L, new BigDecimal("7.00"), Date.valueOf("2024-01-01"), true),
                    Arrays.asList("b", 2L, new BigDecimal("10.00"), Date.valueOf("2024-05-01"), true));
            // a table like any other: it takes rows, and its columns keep the query's types
            s.executeUpdate("insert into g values ('c', 7, 1.25, date '2025-01-01', false)");
            assertThat(rows(s, "select count(*), sum(n) from g")).containsExactly(List.of(4L, new BigDecimal("12"))); // SUM of BIGINT is DECIMAL(38, 0), as in PostgreSQL
            assertThat(s.executeUpdate("create table if not exists g as select 1 as x")).isZero();
            assertThat(s.executeUpdate("create table e as select * from t where id < 0")).isZero();
            assertThat(rows(s, "select count(*) from e")).containsExactly(List.of(0L));
            try (PreparedStatement p = c.prepareStatement("create table j as select a.id, b.grp from t a join t b on a.id = b.id + 1")) {
                assertThat(p.executeUpdate()).isEqualTo(4);
            }
            assertThat(rows(s, "select sum(id) from j")).containsExactly(List.of(14L)); // SUM of INTEGER is BIGINT, as in PostgreSQL
        }
    }

    @Test
    void aFailedFillLeavesNoTable() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int)");
            s.executeUpdate("insert into t values (1), (5)");
            assertThatThrownBy(() -> s.executeUpdate("create table bad as select 1 / (id - 5) as x from t"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("division by zero");
            assertThatThrownBy(() -> s.executeUpdate("create table two as select id, id from t"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column id is defined twice");
            assertThatThrownBy(() -> s.executeUpdate("create table tm as select interval '1' day as gap from t"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column gap is of type INTERVAL")
                    .hasMessageContaining("which numacol tables do not store");
            assertThatThrownBy(() -> s.executeUpdate("create table t as select 1 as x"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("table t already exists");
            assertThatThrownBy(() -> s.executeUpdate("create table n as select nosuch from t"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("table n:").hasMessageContaining("nosuch");
            assertThat(rows(s, "select count(*) from sys.tables")).containsExactly(List.of(1L));
            assertThat(rows(s, "select id from t order by id")).containsExactly(List.of(1), List.of(5));
        }
    }
}
