package io.numacol.jdbc;

import io.numacol.storage.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code CALL dbgen(sf = n)}: the built-in TPC-H generator from SQL, spelled as DuckDB takes it. */
class DbgenTest {

    private static final String COUNTS = "select (select count(*) from region), (select count(*) from nation),"
            + " (select count(*) from supplier), (select count(*) from part), (select count(*) from partsupp),"
            + " (select count(*) from customer), (select count(*) from orders) from (values (0))";

    @ParameterizedTest
    @ValueSource(strings = {"CALL dbgen(sf = 0.001)", "call DBGEN(sf => 0.001);", "CALL dbgen(SF=1e-3) -- DuckDB's example, smaller",
            "call dbgen ( sf = .001 )"})
    void createsAndLoadsTheEightTables(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            assertThat(s.execute(sql)).isFalse();
            long loaded = s.getUpdateCount();
            // Clause 4.2.5's cardinalities, scaled to SF 0.001.
            assertThat(rows(s, COUNTS)).containsExactly(List.of(5L, 25L, 10L, 200L, 800L, 150L, 1_500L));
            long lineitems = (Long) rows(s, "select count(*) from lineitem").getFirst().getFirst();
            // every line item belongs to an order, and every order has one to seven lines
            assertThat(rows(s, "select count(*), count(distinct l_orderkey) from lineitem join orders on l_orderkey = o_orderkey"))
                    .containsExactly(List.of(lineitems, 1_500L));
            // the update count is every row loaded, as for COPY
            assertThat(loaded).isEqualTo(5 + 25 + 10 + 200 + 800 + 150 + 1_500 + lineitems);
        }
    }

    @Test
    void queriesRunOnTheGeneratedTables() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CALL dbgen(sf = 0.01)");
            assertThat(rows(s, "select count(*) from lineitem")).containsExactly(List.of(60_175L));
            assertThat(rows(s, "select n_name from nation join region on n_regionkey = r_regionkey"
                    + " where r_name = 'EUROPE' order by n_name fetch first 1 rows only")).containsExactly(List.of("FRANCE"));
        }
    }

    /**
     * The tables load on threads of their own (one per core), in the caller's view: CALL dbgen is
     * DDL, which commits the open transaction first (as the metadata says), and its tables and rows
     * are committed when it returns, seen by another connection and kept by a rollback.
     */
    @Test
    void inATransactionItLoadsAsDdlDoes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:dbgen_in_transaction");
             Connection other = DriverManager.getConnection("jdbc:numacol:mem:dbgen_in_transaction");
             Statement s = c.createStatement(); Statement o = other.createStatement()) {
            assertThat(c.getMetaData().dataDefinitionCausesTransactionCommit()).isTrue();
            s.execute("CREATE TABLE before_it (a INT)");
            c.setAutoCommit(false);
            s.execute("INSERT INTO before_it VALUES (1)");
            s.execute("CALL dbgen(sf = 0.01)");
            List<List<Object>> loaded = rows(s, "select count(*), sum(l_quantity) from lineitem");
            assertThat(loaded).singleElement().satisfies(r -> assertThat(r.getFirst()).isEqualTo(60_175L));
            assertThat(rows(o, "select count(*), sum(l_quantity) from lineitem")).isEqualTo(loaded);
            assertThat(rows(o, "select count(*) from before_it")).as("committed by the DDL").containsExactly(List.of(1L));
            c.rollback();
            assertThat(rows(o, "select count(*), sum(l_quantity) from lineitem")).as("kept by the rollback").isEqualTo(loaded);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "CALL dbgen(sf = 0)|the scale factor sf must be a positive number, not 0",
            "CALL dbgen(sf = -1)|the scale factor sf must be a positive number, not -1",
            "CALL dbgen(sf = 20000)|at most 10000",
            "CALL dbgen(sf = '0.1')|expected the scale factor (a positive number, e.g. sf = 0.1) but found the string '0.1' (write the number without quotes)",
            "CALL dbgen()|CALL dbgen needs a scale factor: write CALL dbgen(sf = 0.1)",
            "CALL dbgen|CALL dbgen needs a scale factor: write CALL dbgen(sf = 0.1)",
            "CALL dbgen(sf 0.1)|expected '=' but found '0.1'",
            "CALL dbgen(0.1)|expected a parameter name (write CALL dbgen(sf = 0.1)) but found '0.1'",
            "CALL dbgen(sf = 0.1, suffix = '_x')|CALL dbgen takes one parameter, sf (the TPC-H scale factor), not 'suffix'",
            "CALL dbgen(sf = 0.1, sf = 0.2)|sf is given twice",
            "CALL dbgen(sf = 0.1) now|unexpected 'now' after the statement"})
    void badArgumentsSayWhatIsWrongAndCreateNothing(String sql, String message) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SQLException.class).hasMessageContaining(message);
            assertThat(NumacolDriver.database(c).catalog().tables()).isEmpty();
        }
    }

    @Test
    void anExistingTableIsNamedAndNothingIsCreated() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table orders (o_orderkey bigint)");
            s.execute("create table NATION (n_nationkey int)");
            s.executeUpdate("insert into orders values (42)");
            assertThatThrownBy(() -> s.execute("CALL dbgen(sf = 0.001)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("cannot generate TPC-H: tables nation, orders already exist; drop them first");
            assertThat(NumacolDriver.database(c).catalog().tables()).extracting(Table::name)
                    .containsExactlyInAnyOrder("orders", "NATION");
            assertThat(rows(s, "select o_orderkey from orders")).containsExactly(List.of(42L));

            s.execute("drop table orders");
            s.execute("drop table nation");
            s.execute("CALL dbgen(sf = 0.001)");
            assertThat(rows(s, "select count(*) from orders")).containsExactly(List.of(1_500L));
        }
    }
}
