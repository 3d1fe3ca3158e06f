package io.numacol.tpch;

import io.numacol.jdbc.NumacolDriver;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

class TpchLoaderTest {

    @Test
    void loadsTheSpecificationsRowCountsAndValueRanges() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            TpchLoader.LoadResult result = TpchLoader.load(NumacolDriver.database(c), 0.01);
            // Clause 4.2.5: cardinalities at SF 0.01 (lineitem varies with the orders' line counts).
            assertThat(result.rows()).containsEntry("region", 5L).containsEntry("nation", 25L)
                    .containsEntry("supplier", 100L).containsEntry("part", 2_000L).containsEntry("partsupp", 8_000L)
                    .containsEntry("customer", 1_500L).containsEntry("orders", 15_000L).containsEntry("lineitem", 60_175L);
            try (ResultSet rs = s.executeQuery("select (select min(o_orderdate) from orders), (select max(o_orderdate) from orders), min(l_discount), max(l_discount),"
                    + " max(l_quantity), count(distinct l_returnflag) from lineitem")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getDate(1)).hasToString("1992-01-01");
                assertThat(rs.getDate(2)).hasToString("1998-08-02");
                assertThat(rs.getBigDecimal(3)).isEqualByComparingTo(BigDecimal.ZERO);
                assertThat(rs.getBigDecimal(4)).isEqualByComparingTo("0.10");
                assertThat(rs.getBigDecimal(5)).isEqualByComparingTo("50");
                assertThat(rs.getLong(6)).isEqualTo(3);
            }
            try (ResultSet rs = s.executeQuery("select r_name from region where r_regionkey = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1).trim()).isEqualTo("AMERICA");
            }
        }
    }

    @Test
    void createTableSqlSpellsTheSpecificationsTypes() {
        assertThat(TpchLoader.tables()).hasSize(8);
        assertThat(TpchLoader.tables().getFirst().createTableSql()).isEqualTo(
                "CREATE TABLE region (r_regionkey INTEGER NOT NULL, r_name CHAR(25) NOT NULL, r_comment VARCHAR(152) NOT NULL)");
    }
}
