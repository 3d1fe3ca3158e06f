package io.numacol.differential;

import io.numacol.tpch.ResultComparison;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.IntFunction;

/**
 * numacol and DuckDB side by side, as the differential tests of one type use them: the same
 * statements run on both, then a query's answers must agree (see {@link ResultComparison}).
 */
final class EnginePair implements AutoCloseable {
    private final Connection numacol;
    private final Connection duckdb;

    EnginePair(String numacolUrl) throws SQLException {
        numacol = DriverManager.getConnection(numacolUrl);
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
    }

    /** Both engines with {@code zone} as the session's time zone. */
    static EnginePair inZone(String numacolUrl, String zone) throws SQLException {
        EnginePair pair = new EnginePair(numacolUrl + ";timeZone=" + zone);
        try (Statement s = pair.duckdb.createStatement()) {
            s.execute("SET TimeZone = '" + zone + "'");
        }
        return pair;
    }

    /** {@code INSERT INTO table VALUES (..), ..} of {@code rows} rows, row {@code i} the text {@code row.apply(i)} in its parentheses. */
    static String insert(String table, int rows, IntFunction<String> row) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" VALUES ");
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "(" : ", (").append(row.apply(i)).append(')');
        }
        return sql.toString();
    }

    /** Runs each statement on both engines, in order. */
    void executeOnBoth(String... statements) throws SQLException {
        for (Connection c : List.of(numacol, duckdb)) {
            try (Statement s = c.createStatement()) {
                for (String statement : statements) {
                    s.execute(statement);
                }
            }
        }
    }

    /**
     * Fails unless both engines answer {@code sql} alike: as multisets, or with an ORDER BY row by
     * row on the query's first two columns (the order keys of the type tests' queries).
     */
    void assertAgree(String sql) throws SQLException {
        List<List<Object>> expected = ResultComparison.rows(duckdb, sql);
        List<List<Object>> actual = ResultComparison.rows(numacol, sql);
        System.out.printf("%d rows (DuckDB %d): %s%n", actual.size(), expected.size(), sql);
        ResultComparison.assertSameResult(actual, expected, sql.contains("ORDER BY") ? new int[] {2, 1} : new int[0]);
    }

    @Override
    public void close() throws SQLException {
        try (numacol; duckdb) {
            // closes both, the second even when the first fails
        }
    }
}
