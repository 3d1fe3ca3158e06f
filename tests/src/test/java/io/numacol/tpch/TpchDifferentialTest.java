package io.numacol.tpch;

import io.numacol.jdbc.NumacolDriver;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * All 22 TPC-H queries on numacol and on DuckDB over the same generated data, compared with
 * {@link ResultComparison}'s rules. The data of a scale factor is generated once and loaded into
 * both engines in the same pass; the cases run scale factor by scale factor, so only one pair of
 * databases is held at a time.
 */
class TpchDifferentialTest {
    /** {@code -Dtpch.scaleFactors=0.01} runs one scale factor only, e.g. while iterating. */
    private static final double[] SCALE_FACTORS = Stream.of(System.getProperty("tpch.scaleFactors", "0.01,0.1").split(","))
            .mapToDouble(Double::parseDouble).toArray();

    private static Engines engines;

    static Stream<Arguments> queries() {
        return DoubleStream.of(SCALE_FACTORS).boxed().flatMap(sf -> IntStream.rangeClosed(1, 22)
                .mapToObj(q -> Arguments.of(sf, q)));
    }

    @ParameterizedTest(name = "SF {0} Q{1}")
    @MethodSource("queries")
    void numacolAgreesWithDuckDb(double scaleFactor, int query) throws Exception {
        Engines e = engines(scaleFactor);
        TpchQuery q = TpchQuery.load(query, scaleFactor);
        List<List<Object>> expected = ResultComparison.rows(e.duckdb, q.sql());
        long start = System.nanoTime();
        List<List<Object>> actual = ResultComparison.rows(e.numacol, q.sql());
        System.out.printf("SF %s Q%02d: numacol %,d ms, %d rows%n", scaleFactor, query,
                (System.nanoTime() - start) / 1_000_000, actual.size());
        assertThat(expected).as("DuckDB returns rows for Q%d", query).isNotEmpty();
        ResultComparison.assertSameResult(actual, expected, q.orderKeys());
    }

    @AfterAll
    static void close() throws SQLException {
        if (engines != null) {
            engines.close();
            engines = null;
        }
    }

    private static Engines engines(double scaleFactor) throws SQLException {
        if (engines == null || engines.scaleFactor != scaleFactor) {
            close();
            engines = Engines.load(scaleFactor);
        }
        return engines;
    }

    /** One numacol and one DuckDB database holding the same TPC-H data. */
    record Engines(double scaleFactor, Connection numacol, DuckDBConnection duckdb) implements AutoCloseable {

        static Engines load(double scaleFactor) throws SQLException {
            return load(scaleFactor, "jdbc:numacol:");
        }

        /** The data loaded into the numacol database at {@code url}. */
        static Engines load(double scaleFactor, String url) throws SQLException {
            Connection numacol = DriverManager.getConnection(url);
            DuckDBConnection duckdb = DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
            var db = NumacolDriver.database(numacol);
            long start = System.nanoTime();
            TpchLoader.generate(scaleFactor, table -> {
                db.catalog().create(table.name(), table.schema());
                var numacolRows = db.appender(table.name());
                DuckDBAppender duckRows;
                try (Statement s = duckdb.createStatement()) {
                    s.execute(table.createTableSql());
                    duckRows = duckdb.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table.name());
                } catch (SQLException ex) {
                    throw new IllegalStateException(ex);
                }
                return new TpchLoader.TableSink() {
                    @Override
                    public void accept(Object[] row) {
                        numacolRows.append(row);
                        try {
                            DuckDbRows.append(duckRows, row);
                        } catch (SQLException ex) {
                            throw new IllegalStateException(ex);
                        }
                    }

                    @Override
                    public void close() {
                        numacolRows.close();
                        try {
                            duckRows.close();
                        } catch (SQLException ex) {
                            throw new IllegalStateException(ex);
                        }
                    }
                };
            });
            System.out.printf("TPC-H SF %s generated into numacol and DuckDB in %,d ms%n", scaleFactor,
                    (System.nanoTime() - start) / 1_000_000);
            return new Engines(scaleFactor, numacol, duckdb);
        }

        @Override
        public void close() throws SQLException {
            try (numacol; duckdb) {
                // closes both
            }
        }
    }
}
