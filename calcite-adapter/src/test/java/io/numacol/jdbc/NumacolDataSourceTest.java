package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link NumacolDataSource}: connections to its URL with its properties, the usual bean setters,
 * and a clear refusal of what is not numacol's. The driver is found by {@link ServiceLoader}, as
 * DriverManager and Spring Boot find it from a URL alone.
 */
class NumacolDataSourceTest {
    @Test
    void connectsToItsUrlWithItsProperties() throws SQLException {
        NumacolDataSource ds = new NumacolDataSource();
        ds.setUrl("jdbc:numacol:mem:dstest");
        ds.setUser("sa");
        ds.setPassword("");
        ds.setTimeZone("+03:00");
        ds.setLoginTimeout(7);
        StringWriter log = new StringWriter();
        ds.setLogWriter(new PrintWriter(log));
        assertThat(ds.getLoginTimeout()).isEqualTo(7);
        assertThat(ds.getLogWriter()).isNotNull();
        assertThat(ds.getURL()).isEqualTo("jdbc:numacol:mem:dstest");
        assertThat(ds.isWrapperFor(DataSource.class)).isTrue();
        assertThat(ds.unwrap(NumacolDataSource.class)).isSameAs(ds);
        try (Connection a = ds.getConnection(); Connection b = ds.getConnection("sa", "");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("CREATE TABLE t (x INT)");
            sa.execute("INSERT INTO t VALUES (42)");
            assertThat(JdbcTesting.rows(sb, "SELECT x FROM t")).as("one named database").containsExactly(List.of(42));
            assertThat(JdbcTesting.rows(sb, "SELECT CAST(TIMESTAMP WITH TIME ZONE '2024-01-01 00:00:00+00:00' AS VARCHAR)"))
                    .as("the session zone set on the data source").containsExactly(List.of("2024-01-01 03:00:00+03"));
        }
    }

    @Test
    void refusesWhatIsNotNumacols() throws SQLException {
        assertThatThrownBy(() -> new NumacolDataSource().setUrl("jdbc:h2:mem:x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbc:numacol:mem:NAME");
        NumacolDataSource ds = new NumacolDataSource("jdbc:numacol:");
        ds.setProperty("memorylimit", "1g");
        assertThatThrownBy(ds::getConnection).isInstanceOf(SQLException.class).hasMessageContaining("did you mean memoryLimit")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY024"));
        assertThatThrownBy(() -> ds.unwrap(Driver.class)).isInstanceOf(SQLException.class);
        Properties p = new Properties();
        p.setProperty("close_delay", "0");
        NumacolDataSource fine = new NumacolDataSource();
        fine.setProperties(p);
        try (Connection c = fine.getConnection()) {
            assertThat(c.isValid(1)).isTrue();
        }
    }

    @Test
    void theDriverIsAServiceDriverManagerFinds() {
        assertThat(ServiceLoader.load(Driver.class).stream().map(ServiceLoader.Provider::type))
                .as("META-INF/services/java.sql.Driver").contains(NumacolDriver.class);
    }
}
