package io.numacol.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The main job's Prometheus endpoint: a Micrometer {@link PrometheusMeterRegistry}, whose text
 * format {@code GET /metrics} on localhost answers (the JDK's own HTTP server: one thread, no
 * framework). The job connects with {@code metrics=NAME} after registering this registry under
 * that name, so numacol's meters land here; how a service does the same is in the embedding guide.
 */
final class MetricsEndpoint implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final HttpServer server;

    /** Serves on {@code port} of the loopback address (0: a free port, see {@link #port}). */
    MetricsEndpoint(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/metrics", this::scrape);
        server.start();
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The port served. */
    int port() {
        return server.getAddress().getPort();
    }

    private void scrape(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, exchange.getRequestMethod().equals("HEAD") ? -1 : body.length);
            if (exchange.getRequestMethod().equals("GET")) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        registry.close();
    }
}
