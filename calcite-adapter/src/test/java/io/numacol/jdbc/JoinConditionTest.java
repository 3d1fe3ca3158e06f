package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A join condition's computed operands are computed only where they cannot fail: a division by
 * zero or a narrowing CAST on a row that no pair reaches must not fail the statement, as it
 * does not in Calcite's own joins.
 */
class JoinConditionTest {
    @Test
    void operandsThatCanFailAreComputedOnlyForPairs() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table a (k bigint not null, x decimal(9, 2))");
            s.execute("create table b (k bigint not null, v decimal(9, 2), n decimal(9, 2))");
            s.executeUpdate("insert into a values (1, 1.00), (2, 5.00), (3, 0.50)");
            // b's row 9 matches no a row; its n is 0 and its v does not fit DECIMAL(3, 1)
            s.executeUpdate("insert into b values (1, 4.00, 2.00), (2, 4.00, 2.00), (3, 3.00, 4.00), (9, 9999.00, 0.00)");
            assertThat(rows(s, "select a.k from a join b on a.k = b.k and a.x < b.v / b.n order by a.k"))
                    .isEqualTo(List.of(List.of(1L), List.of(3L)));
            assertThat(rows(s, "select a.k from a join b on a.k = b.k and a.x < cast(b.v as decimal(3, 1)) order by a.k"))
                    .isEqualTo(List.of(List.of(1L), List.of(3L)));
        }
    }
}
