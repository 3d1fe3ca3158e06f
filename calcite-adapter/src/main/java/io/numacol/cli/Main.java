package io.numacol.cli;

import io.numacol.database.Database;
import io.numacol.jdbc.NumacolDriver;
import io.numacol.jdbc.NumacolMetrics;
import io.numacol.scan.ScanKernels;
import io.numacol.tpch.TpchLoader;
import io.numacol.tpch.TpchQuery;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The launcher's main job: open an in-memory numacol database through JDBC, load TPC-H at a scale
 * factor, show where each table's parts sit (the {@code sys} schema), run TPC-H queries, print
 * their first rows and timings, and exit 0. With {@code --metrics-port N} its meters are served in
 * Prometheus's text format at {@code http://localhost:N/metrics} while it runs, and after the
 * queries until it is stopped (Ctrl-C).
 */
public final class Main {
    private Main() {
    }

    /** The name the job's Prometheus registry is registered under ({@link NumacolMetrics}). */
    private static final String REGISTRY = "numacol-main";

    public static void main(String[] args) throws SQLException, IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("numacol: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.println(Options.USAGE);
            return;
        }
        TpchLoader.startTextPool(); // made on another core while the database opens
        String url = "jdbc:numacol:;topology=" + options.topology;
        MetricsEndpoint endpoint = null;
        if (options.metricsPort >= 0) {
            endpoint = new MetricsEndpoint(options.metricsPort);
            NumacolMetrics.register(REGISTRY, endpoint.registry());
            url += ";metrics=" + REGISTRY;
            System.out.printf("metrics: http://localhost:%d/metrics%n", endpoint.port());
        }
        try (Connection connection = DriverManager.getConnection(url); Statement s = connection.createStatement()) {
            Database db = NumacolDriver.database(connection);
            System.out.printf("numacol %s: %s, scan kernel %s%n", url, db.topology(), ScanKernels.get());

            TpchLoader.LoadResult load = TpchLoader.load(db, options.scaleFactor);
            System.out.printf("%nloaded TPC-H at scale factor %s: %,d rows in %,.1f s (%,.0f rows/s)%n",
                    options.scaleFactor, load.totalRows(), load.nanos() / 1e9, load.rowsPerSecond());

            System.out.println("\nwhere the tables sit (select ... from sys.tables, sys.placements):");
            // sys.placements read once, grouped, not once per table as a correlated subquery would
            print(s, "select t.table_name, t.row_count, t.part_count, t.bytes / 1024 as kib, coalesce(p.nodes, 0) as nodes"
                    + " from sys.tables t left join (select table_name, count(distinct node) as nodes from sys.placements"
                    + " group by table_name) p on p.table_name = t.table_name order by t.row_count desc", 20);
            print(s, "select node, component, sum(pages) as pages from sys.placements"
                    + " where table_name = 'lineitem' group by node, component order by node, component", 20);

            List<Long> timings = new ArrayList<>();
            for (int q : options.queries) {
                String sql = TpchQuery.load(q, options.scaleFactor).sql();
                long best = Long.MAX_VALUE;
                for (int run = 0; run < options.runs; run++) {
                    long t0 = System.nanoTime();
                    try (ResultSet rs = s.executeQuery(sql)) {
                        int rows = 0;
                        while (rs.next()) {
                            rows++;
                        }
                        best = Math.min(best, System.nanoTime() - t0);
                        if (run == options.runs - 1) {
                            System.out.printf("%nQ%d: %,d rows, best of %d runs %,.1f ms%n", q, rows, options.runs, best / 1e6);
                        }
                    }
                }
                print(s, sql, options.rowsShown);
                timings.add(best);
            }
            long total = timings.stream().mapToLong(Long::longValue).sum();
            System.out.printf("%n%d TPC-H queries at SF %s: %,.1f ms in all (best runs)%n", timings.size(),
                    options.scaleFactor, total / 1e6);
            if (endpoint != null) {
                // the database stays open: its meters leave the registry when it closes
                System.out.printf("%nserving metrics at http://localhost:%d/metrics until stopped (Ctrl-C)%n", endpoint.port());
                Thread.sleep(Long.MAX_VALUE);
            }
        } finally {
            if (endpoint != null) {
                NumacolMetrics.unregister(REGISTRY);
                endpoint.close();
            }
        }
    }

    private static void print(Statement s, String sql, int maxRows) throws SQLException {
        if (maxRows <= 0) {
            return;
        }
        try (ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            int columns = md.getColumnCount();
            List<String[]> lines = new ArrayList<>();
            String[] header = new String[columns];
            for (int i = 1; i <= columns; i++) {
                header[i - 1] = md.getColumnLabel(i);
            }
            lines.add(header);
            while (lines.size() <= maxRows && rs.next()) {
                String[] line = new String[columns];
                for (int i = 1; i <= columns; i++) {
                    line[i - 1] = String.valueOf(rs.getString(i));
                }
                lines.add(line);
            }
            // each column as wide as its widest value, two spaces apart: values never run together
            int[] width = new int[columns];
            lines.forEach(l -> {
                for (int i = 0; i < columns; i++) {
                    width[i] = Math.max(width[i], l[i].length());
                }
            });
            for (String[] l : lines) {
                StringBuilder out = new StringBuilder("  ");
                for (int i = 0; i < columns; i++) {
                    out.append(l[i]).append(" ".repeat(width[i] - l[i].length() + 2));
                }
                System.out.println(out.toString().stripTrailing());
            }
        }
    }

    private static final class Options {
        static final String USAGE = """
                usage: numacol [--sf F] [--topology real|fake:N] [--queries 1,6,...] [--runs N] [--rows N] [--metrics-port N]
                  --sf        TPC-H scale factor (default 0.01; 0.1 and 1 for more)
                  --topology  real (default; one node without libnuma) or fake:N nodes over the real CPUs
                  --queries   which TPC-H queries to run (default all 22)
                  --runs      runs per query, the best is reported (default 2)
                  --rows      result rows printed per query (default 3)
                  --metrics-port  serve the meters in Prometheus's format at http://localhost:N/metrics, and keep
                              serving after the queries until stopped (0: a free port)""";

        double scaleFactor = 0.01;
        String topology = "real";
        List<Integer> queries = new ArrayList<>();
        int runs = 2;
        int rowsShown = 3;
        /** -1: no endpoint. */
        int metricsPort = -1;
        boolean help;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "-h", "--help" -> o.help = true;
                    case "--sf" -> {
                        String v = value(args, ++i, arg);
                        try {
                            o.scaleFactor = Double.parseDouble(v);
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--sf takes a number such as 0.1, not '" + v + "'");
                        }
                        if (!(o.scaleFactor > 0 && o.scaleFactor <= 100)) {
                            throw new IllegalArgumentException("--sf must be in (0, 100], not " + v);
                        }
                    }
                    case "--topology" -> o.topology = value(args, ++i, arg);
                    case "--queries" -> {
                        for (String q : value(args, ++i, arg).split(",")) {
                            int n = number(q.trim(), arg);
                            if (n < 1 || n > 22) {
                                throw new IllegalArgumentException("TPC-H has queries 1..22, not " + n);
                            }
                            o.queries.add(n);
                        }
                    }
                    case "--runs" -> o.runs = Math.max(1, number(value(args, ++i, arg), arg));
                    case "--rows" -> o.rowsShown = Math.max(0, number(value(args, ++i, arg), arg));
                    case "--metrics-port" -> {
                        o.metricsPort = number(value(args, ++i, arg), arg);
                        if (o.metricsPort < 0 || o.metricsPort > 65_535) {
                            throw new IllegalArgumentException("--metrics-port takes a port 0..65535, not " + o.metricsPort);
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
                }
            }
            if (o.queries.isEmpty()) {
                for (int q = 1; q <= 22; q++) {
                    o.queries.add(q);
                }
            }
            return o;
        }

        private static int number(String v, String option) {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " takes whole numbers, not '" + v + "'");
            }
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
