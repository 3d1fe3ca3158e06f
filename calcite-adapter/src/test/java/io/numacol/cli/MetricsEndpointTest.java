package io.numacol.cli;

import io.numacol.jdbc.NumacolMetrics;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** The main job's Prometheus endpoint answers GET /metrics with numacol's meters in Prometheus's text format. */
class MetricsEndpointTest {

    @Test
    void theEndpointServesNumacolsMeters() throws Exception {
        try (MetricsEndpoint endpoint = new MetricsEndpoint(0); HttpClient http = HttpClient.newHttpClient()) {
            NumacolMetrics.register("endpoint-test", endpoint.registry());
            try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:scraped;metrics=endpoint-test");
                 Statement s = c.createStatement()) {
                s.execute("create table t (v bigint)");
                s.execute("insert into t values (1), (2), (3)");
                try (ResultSet rs = s.executeQuery("select sum(v) from t")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(6);
                }
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + endpoint.port() + "/metrics")).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
                assertThat(response.body())
                        .containsPattern("numacol_statement_seconds_count\\{database=\"mem:scraped\"[^}]*} [3-9]")
                        .contains("numacol_statement_seconds_bucket{")
                        .containsPattern("numacol_node_memory_bytes\\{component=\"index_vector\",database=\"mem:scraped\",node=\"0\"} [1-9]")
                        .contains("numacol_node_scan_bytes_total{")
                        .contains("numacol_node_busy_cores{")
                        .contains("numacol_scheduler_tasks_stolen_total{")
                        .contains("numacol_placer_actions_total{action=\"move\"");
            } finally {
                NumacolMetrics.unregister("endpoint-test");
            }
        }
    }
}
