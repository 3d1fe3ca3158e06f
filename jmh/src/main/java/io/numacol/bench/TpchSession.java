package io.numacol.bench;

import io.numacol.tpch.TpchQuery;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The 22 TPC-H queries as a user's JDBC session meets them, on numacol and DuckDB loaded with the
 * same rows in this process ({@link TpchBenchmark}'s load): first each query's first run, right
 * after the load, the queries in order (numacol's, then DuckDB's, of each); then {@code rounds}
 * rounds of the 22 in turn, each query's best run kept, so that the queries share the JIT's
 * profiles as a session's do (a JMH loop of one query hid what a mixed session sees). Each
 * statement is sent as text through a plain {@code Statement}, as an application would, and read
 * to the end. Prints per query the first run and the best, in ms and as numacol ÷ DuckDB, then
 * the sums of the first runs and the geometric mean of the best runs' ratios. Not a JMH
 * benchmark: a run of a session.
 *
 * <p>Run: {@code src/bin/numacol-bench TpchSession [sf] [rounds]} (SF 1 and 8 rounds by default).
 */
public final class TpchSession {
    private TpchSession() {
    }

    public static void main(String[] args) throws Exception {
        double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        Connection[] engines = TpchBenchmark.engines(sf);
        String[] names = {"numacol", "DuckDB"};
        int queries = 22;
        double[][] first = new double[2][queries];
        double[][] best = new double[2][queries];
        long[][] rows = new long[2][queries];
        List<String> sql = new ArrayList<>();
        for (int q = 1; q <= queries; q++) {
            sql.add(TpchQuery.load(q, sf).sql());
        }
        for (int q = 0; q < queries; q++) {
            for (int e = 0; e < 2; e++) {
                long t0 = System.nanoTime();
                rows[e][q] = run(engines[e], sql.get(q));
                first[e][q] = (System.nanoTime() - t0) / 1e6;
                best[e][q] = Double.MAX_VALUE;
            }
            if (rows[0][q] != rows[1][q]) {
                System.out.printf(Locale.ROOT, "Q%d: numacol answered %d rows, DuckDB %d%n", q + 1, rows[0][q], rows[1][q]);
            }
        }
        for (int r = 0; r < rounds; r++) {
            for (int q = 0; q < queries; q++) {
                for (int e = 0; e < 2; e++) {
                    long t0 = System.nanoTime();
                    run(engines[e], sql.get(q));
                    best[e][q] = Math.min(best[e][q], (System.nanoTime() - t0) / 1e6);
                }
            }
        }
        System.out.printf(Locale.ROOT, "%nTPC-H SF %s as a session: each query's first run after the load, then the best of %d rounds"
                + " of the 22 in turn (ms)%n", sf, rounds);
        System.out.printf(Locale.ROOT, "| query | first %s | first %s | first ratio | best %s | best %s | best ratio |%n",
                names[0], names[1], names[0], names[1]);
        System.out.println("|---|---|---|---|---|---|---|");
        double firstSum0 = 0;
        double firstSum1 = 0;
        double logBest = 0;
        int above = 0;
        for (int q = 0; q < queries; q++) {
            double ratio = best[0][q] / best[1][q];
            System.out.printf(Locale.ROOT, "| Q%d | %,.1f | %,.1f | %.2f | %,.1f | %,.1f | %.2f |%n", q + 1, first[0][q], first[1][q],
                    first[0][q] / first[1][q], best[0][q], best[1][q], ratio);
            firstSum0 += first[0][q];
            firstSum1 += first[1][q];
            logBest += Math.log(ratio);
            above += ratio > 1.5 ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "| first runs, sum | %,.0f | %,.0f | %.2f | | | |%n", firstSum0, firstSum1, firstSum0 / firstSum1);
        System.out.printf(Locale.ROOT, "| best runs, geometric mean of ratios | | | | | | %.2f |%n", Math.exp(logBest / queries));
        System.out.printf(Locale.ROOT, "%d of %d queries above 1.5x DuckDB's best%n", above, queries);
        for (Connection c : engines) {
            c.close();
        }
    }

    /** Runs {@code sql} on {@code c} and reads every value of every row; answers the rows. */
    private static long run(Connection c, String sql) throws SQLException {
        long n = 0;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    rs.getObject(i);
                }
                n++;
            }
        }
        return n;
    }
}
