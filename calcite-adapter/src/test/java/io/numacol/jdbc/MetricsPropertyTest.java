package io.numacol.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code metrics} connection property binds a database's meters to a registry (Micrometer's
 * global one, or one registered by name): per node memory by component, scan bytes, busy cores,
 * tasks stolen, placer actions, and the statement timer with its percentiles, all tagged with the
 * database, and gone from the registry once the database closes.
 */
class MetricsPropertyTest {

    /** Loads 20,000 rows and reads them back. */
    private static void work(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("create table t (k integer, v bigint)");
            s.execute("insert into t select x % 50, x from (select row_number() over () as x from "
                    + "(values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) a, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) b, "
                    + "(values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) c, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) d, "
                    + "(values (1),(2)) e) q");
            assertThat(rows(s, "select count(*), max(v) from t where k < 25")).containsExactly(List.of(10_000L, 20_000L));
            assertThat(rows(s, "select k, count(*) from t group by k order by k limit 1")).containsExactly(List.of(0, 400L));
        }
    }

    private static double sum(SimpleMeterRegistry registry, String name, String... tags) {
        double total = 0;
        for (Meter m : registry.find(name).tags(tags).meters()) {
            for (var measurement : m.measure()) {
                total += measurement.getValue();
            }
        }
        return total;
    }

    @Test
    void aNamedRegistryHoldsTheDatabasesMetersUntilItCloses() throws SQLException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        NumacolMetrics.register("metrics-test", registry);
        String db = "mem:metered";
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:metered;topology=fake:2;metrics=metrics-test")) {
            work(c);
            for (String node : new String[] {"0", "1"}) {
                for (String component : new String[] {"dictionary", "index_vector", "index", "hash_table", "other"}) {
                    Gauge g = registry.find("numacol.node.memory").tags("database", db, "node", node, "component", component).gauge();
                    assertThat(g).as("memory of node %s, %s", node, component).isNotNull();
                    assertThat(g.value()).isGreaterThanOrEqualTo(0);
                }
                assertThat(registry.find("numacol.node.busy.cores").tags("database", db, "node", node).gauge().value())
                        .isBetween(0.0, 64.0);
                assertThat(registry.find("numacol.node.read.bytes.per.second").tags("database", db, "node", node).gauge().value())
                        .isGreaterThanOrEqualTo(0);
                assertThat(registry.find("numacol.scheduler.tasks.stolen").tags("database", db, "node", node).functionCounters())
                        .hasSize(2); // local-node and remote-node
            }
            assertThat(sum(registry, "numacol.node.memory", "database", db, "component", "index_vector"))
                    .as("the table's IndexVectors").isPositive();
            FunctionCounter scanned = registry.find("numacol.node.scan.bytes").tags("database", db, "node", "0").functionCounter();
            assertThat(scanned).isNotNull();
            assertThat(sum(registry, "numacol.node.scan.bytes", "database", db)).as("the scans' bytes").isPositive();
            for (String action : new String[] {"move", "partition", "merge"}) {
                assertThat(registry.find("numacol.placer.actions").tags("database", db, "action", action).functionCounter().count())
                        .as("the placer does not run on a fake topology unless asked").isZero();
            }
            assertThat(sum(registry, "numacol.scheduler.tasks.run", "database", db)).isPositive();

            Timer statements = registry.find("numacol.statement").tags("database", db).timer();
            assertThat(statements).isNotNull();
            assertThat(statements.count()).as("create, insert and two queries").isGreaterThanOrEqualTo(4);
            assertThat(statements.totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(statements.max(TimeUnit.NANOSECONDS)).isLessThanOrEqualTo(statements.totalTime(TimeUnit.NANOSECONDS));
            HistogramSnapshot snapshot = statements.takeSnapshot();
            assertThat(snapshot.percentileValues()).extracting(p -> p.percentile()).containsExactly(0.5, 0.95, 0.99);
            assertThat(snapshot.percentileValues()).allSatisfy(p -> assertThat(p.value(TimeUnit.NANOSECONDS)).isPositive());
        } finally {
            NumacolMetrics.unregister("metrics-test");
        }
        assertThat(registry.find("numacol.node.memory").tags("database", db).meters()).as("removed at close").isEmpty();
        assertThat(registry.find("numacol.statement").tags("database", db).meters()).isEmpty();
        assertThat(registry.find("numacol.scheduler.tasks.run").tags("database", db).meters()).isEmpty();
    }

    @Test
    void globalBindsMicrometersGlobalRegistry() throws SQLException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        try {
            Properties properties = new Properties();
            properties.setProperty("metrics", "global");
            try (Connection c = DriverManager.getConnection("jdbc:numacol:", properties)) {
                work(c);
                Timer statements = registry.find("numacol.statement").timer();
                assertThat(statements).isNotNull();
                assertThat(statements.getId().getTag("database")).startsWith("private:");
                assertThat(statements.count()).isGreaterThanOrEqualTo(4);
                assertThat(registry.find("numacol.node.memory").gauges()).isNotEmpty();
            }
            assertThat(registry.find("numacol.statement").meters()).as("removed at close").isEmpty();
        } finally {
            Metrics.removeRegistry(registry);
        }
    }

    @Test
    void withoutThePropertyNothingIsRegistered() throws SQLException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        try (Connection c = DriverManager.getConnection("jdbc:numacol:")) {
            work(c);
            assertThat(registry.getMeters()).isEmpty();
        } finally {
            Metrics.removeRegistry(registry);
        }
    }

    @Test
    void anUnknownRegistryNameIsRefused() {
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;metrics=nosuch")).isInstanceOf(SQLException.class)
                .hasMessageContaining("metrics=nosuch").hasMessageContaining("NumacolMetrics.register")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY024"));
    }
}
