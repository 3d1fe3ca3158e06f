package io.numacol.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectionProxyTest {

    @Test
    void statementsAndMetadataAnswerTheConnectionTheUserHolds() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement();
             PreparedStatement p = c.prepareStatement("select 1")) {
            assertThat(s.getConnection()).isSameAs(c);
            assertThat(p.getConnection()).isSameAs(c);
            assertThat(c.getMetaData().getConnection()).isSameAs(c);
            assertThat(c.unwrap(CalciteConnection.class)).isSameAs(c);
            assertThat(c.isWrapperFor(AvaticaConnection.class)).isTrue();
            assertThat(c.unwrap(AvaticaConnection.class)).isInstanceOf(AvaticaConnection.class);
            assertThat(c).isNotEqualTo(c.unwrap(AvaticaConnection.class));
            assertThat(s.getConnection().hashCode()).isEqualTo(c.hashCode());
            try (ResultSet r = p.executeQuery()) {
                assertThat(r.next()).isTrue();
                assertThat(r.getInt(1)).isEqualTo(1);
            }
            // Calcite's metadata schema, which needs Calcite's own Meta, is not there; information_schema is
            assertThatThrownBy(() -> s.executeQuery("select * from \"metadata\".TABLES")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Object 'metadata' not found");
            try (ResultSet schemas = c.getMetaData().getSchemas()) {
                List<String> names = new ArrayList<>();
                while (schemas.next()) {
                    names.add(schemas.getString("TABLE_SCHEM"));
                }
                assertThat(names).contains("main", "sys", "information_schema").doesNotContain("metadata");
            }
        }
    }

    /** A failure while rows are computed reaches next() (or executeQuery) as an SQLException, never a bare RuntimeException. */
    @Test
    void aFailureWhileRowsAreComputedIsAnSqlException() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int)");
            StringBuilder values = new StringBuilder("insert into t values (0)");
            for (int i = 1; i < 3000; i++) {
                values.append(", (").append(i).append(')');
            }
            s.executeUpdate(values.toString());
            for (String sql : List.of("select 10 / (id - 2500) from t", "select id, 10 / (id - 2500) from t order by id")) {
                assertThatThrownBy(() -> {
                    try (ResultSet r = s.executeQuery(sql)) {
                        while (r.next()) {
                            r.getObject(1);
                        }
                    }
                }).as(sql).isInstanceOf(SQLException.class).hasMessageContaining("by zero");
            }
        }
    }

    /** Nothing of numacol lives in another project's package (Calcite's package-private classes tempted). */
    @Test
    void everyClassOfTheAdapterIsInNumacolsPackages() throws URISyntaxException, IOException {
        Path classes = Path.of(NumacolDriver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (Stream<Path> files = Files.walk(classes)) {
            List<String> foreign = files.filter(f -> f.toString().endsWith(".class"))
                    .map(f -> classes.relativize(f).toString().replace('\\', '/'))
                    .filter(name -> !name.startsWith("io/numacol/")).toList();
            assertThat(foreign).isEmpty();
        }
    }
}
