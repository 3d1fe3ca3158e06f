package io.numacol.calcite.ddl;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A SELECT without FROM may have a WHERE, as in PostgreSQL; FROM and WHERE inside calls, quotes and comments change nothing. */
class FromlessSelectTest {
    @Test
    void aSelectWithoutFromGetsOneRowBeforeItsWhere() {
        assertThat(FromlessSelect.rewrite("select 1 where false"))
                .isEqualTo("select 1 " + FromlessSelect.ONE_ROW + "where false");
        assertThat(FromlessSelect.rewrite("select a from t union all select '', '' where false"))
                .isEqualTo("select a from t union all select '', '' " + FromlessSelect.ONE_ROW + "where false");
        assertThat(FromlessSelect.rewrite("select * from (select 1 as x where 1 = 1) q where q.x = 1"))
                .isEqualTo("select * from (select 1 as x " + FromlessSelect.ONE_ROW + "where 1 = 1) q where q.x = 1");
    }

    @Test
    void whatHasAFromOrIsNoSelectIsLeftAsItIs() {
        for (String sql : List.of(
                "select extract(year from d) from t where d > date '2020-01-01'",
                "select count(*) filter (where a > 1) from t",
                "delete from t where a = 1",
                "update t set a = 2 where a = 1",
                "select 'where' from t where a = 'select 1 where'",
                "select \"where\" from t -- select 1 where\n where 1 = 1",
                "select /* select 1 where */ a from t where a = 1",
                "select substring(s from 2) from t where s <> ''",
                "select 1")) {
            assertThat(FromlessSelect.rewrite(sql)).as(sql).isSameAs(sql);
        }
    }

    @Test
    void runsAsPostgresRunsIt() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (a int, b varchar(5))");
            s.execute("insert into t values (1, 'x'), (2, 'y')");
            assertThat(rows(s, "select 7 where 1 = 1")).containsExactly("7");
            assertThat(rows(s, "select 7 where 1 = 0")).isEmpty();
            assertThat(rows(s, "select b from t union all select 'z' where false order by 1")).containsExactly("x", "y");
            assertThat(rows(s, "select b from t where exists (select 1 where t.a = 2)")).containsExactly("y");
        }
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
