package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Mistakes a person makes at a SQL prompt, one after another on one connection: each says what is wrong and changes nothing. */
class BadSqlTest {

    @TempDir
    Path dir;

    @Test
    void errorsSayWhatIsWrongAndLeaveTheDataIntact() throws SQLException, IOException {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "4,40,d\n5,fifty,e\n");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int, name varchar(5))");
            s.executeUpdate("insert into t values (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')");
            List<List<Object>> before = rows(s, "select id, qty, name from t order by id");

            assertThatThrownBy(() -> s.executeQuery("select * from t where")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Encountered \"<EOF>\" at line 1, column 21");
            assertThatThrownBy(() -> s.executeQuery("select * from nope")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Object 'nope' not found");
            assertThatThrownBy(() -> s.executeQuery("select nope from t")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Column 'nope' not found");
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (4, 'forty', 'd')")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("'forty' is not a number");
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (4, 40, 'toolong')")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("'toolong' is longer than VARCHAR(5)");
            assertThatThrownBy(() -> s.executeUpdate("insert into t values (4, 3000000000, 'd')")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("3000000000");
            assertThatThrownBy(() -> s.executeUpdate("insert into t (qty) values (4)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("null value in column \"id\" of relation \"t\" violates not-null constraint");
            assertThatThrownBy(() -> rows(s, "select qty / (id - id) from t")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("division by zero");
            // a CAST to a DECIMAL too narrow for the value fails, as Calcite's own does, also where numacol computes it
            assertThatThrownBy(() -> rows(s, "select cast(t.qty * 100.5 as decimal(4, 1)) from t join t u on t.id = u.id"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("DECIMAL(4, 1)");
            assertThatThrownBy(() -> rows(s, "select cast(t.qty / 3.0 as decimal(3, 2)) from t join t u on t.id = u.id"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("DECIMAL(3, 2)");
            assertThatThrownBy(() -> rows(s, "select 1 / 0 from t")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("division by zero");
            // arithmetic past its type is an error, never a wrapped value: in numacol's vectorized aggregate and
            // in its row-at-a-time projection; a SUM of INTEGERs is a BIGINT, and holds what the INTEGERs add up to
            assertThatThrownBy(() -> rows(s, "select sum(id * 9000000000000000000) from t")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("BIGINT overflow");
            assertThatThrownBy(() -> rows(s, "select id, qty * 2000000000 from t")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("INTEGER overflow");
            List<Object> sums = rows(s, "select count(qty), sum(qty), sum(qty + 2147483600) from t").getFirst();
            assertThat((Long) sums.get(0)).isGreaterThan(1);
            assertThat(sums.get(2)).isEqualTo((Long) sums.get(1) + 2147483600L * (Long) sums.get(0));
            assertThatThrownBy(() -> s.execute("copy t from '" + csv + "'")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("line 2: column qty: value 'fifty'");
            assertThatThrownBy(() -> s.executeUpdate("update t set qty = 'fifty' where id = 2")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("value 'fifty' is not a number");
            assertThatThrownBy(() -> s.executeUpdate("delete from t where 1 / (id - 2) > 0")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("by zero");

            assertThat(rows(s, "select id, qty, name from t order by id")).isEqualTo(before);
            assertThat(rows(s, "select sum(qty) from t where id >= 2")).containsExactly(List.of(50L));
        }
    }
}
