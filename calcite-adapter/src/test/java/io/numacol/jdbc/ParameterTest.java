package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Prepared statement parameters that do not fit the type Calcite inferred are refused, naming
 * them, instead of being wrapped, cut or failing with a ClassCastException; those JDBC lets a
 * driver convert are converted. Single executes (planned by Calcite) and batches (the Appender)
 * agree.
 */
class ParameterTest {

    private static final String CREATE = "create table t (id bigint not null, qty int, price decimal(8,2), x double,"
            + " shipped date, name varchar(5))";

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void valuesThatDoNotFitAreRefusedAndNothingIsStored(boolean batch) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute(CREATE);
            PreparedStatement p = c.prepareStatement("insert into t (id, qty, name) values (?, ?, ?)");
            record Bad(Object qty, String name, String message) {
            }
            List<Bad> bad = List.of(
                    new Bad(3_000_000_000L, "a", "value 3000000000 is out of range [-2147483648, 2147483647]"),
                    new Bad(13.7, "a", "value 13.7 is not a whole number"),
                    new Bad("twelve", "a", "value 'twelve' is not a number"),
                    new Bad(1, "toolong", "'toolong' is longer than VARCHAR(5)"));
            for (Bad b : bad) {
                p.setLong(1, 1);
                p.setObject(2, b.qty());
                p.setString(3, b.name());
                if (batch) {
                    p.addBatch();
                    assertThatThrownBy(p::executeBatch).hasMessageContaining(b.message());
                } else {
                    assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLException.class).hasMessageContaining(b.message());
                }
            }
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(0L));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void valuesJdbcConvertsAreConverted(boolean batch) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute(CREATE);
            PreparedStatement p = c.prepareStatement("insert into t values (?, ?, ?, ?, ?, ?)");
            p.setString(1, " 12 ");
            p.setDouble(2, 13.0);
            p.setString(3, "1.25");
            p.setString(4, "2.5");
            p.setString(5, "2024-02-29");
            p.setInt(6, 42);
            if (batch) {
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1);
            } else {
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            assertThat(rows(s, "select id, qty, price, x, shipped, name from t")).containsExactly(
                    List.of(12L, 13, new BigDecimal("1.25"), 2.5, Date.valueOf("2024-02-29"), "42"));
        }
    }

    @Test
    void queriesTakeLongerStringsAndRefuseNumbersOutOfRange() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute(CREATE);
            s.executeUpdate("insert into t (id, qty, name) values (1, 10, 'abcde')");
            PreparedStatement byName = c.prepareStatement("select count(*) from t where name = ?");
            byName.setString(1, "abcdef");
            assertThat(rows(byName.executeQuery())).containsExactly(List.of(0L));
            byName.setString(1, "abcde");
            assertThat(rows(byName.executeQuery())).containsExactly(List.of(1L));

            PreparedStatement byQty = c.prepareStatement("select count(*) from t where qty = ?");
            // wrapped to INTEGER, 4294967306 would be 10
            byQty.setLong(1, 4_294_967_306L);
            assertThatThrownBy(byQty::executeQuery).isInstanceOf(SQLException.class)
                    .hasMessageContaining("parameter 1 (INTEGER): value 4294967306 is out of range");
            byQty.setString(1, "10");
            assertThat(rows(byQty.executeQuery())).containsExactly(List.of(1L));
        }
    }
}
