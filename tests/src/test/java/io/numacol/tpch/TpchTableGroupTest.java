package io.numacol.tpch;

import io.numacol.exec.PipelineExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 22 TPC-H queries over table groups on a fake topology of four nodes (thesis §6.3): orders
 * and lineitem PP(4) by the order key, part and partsupp PP(4) by the part key, so that their
 * joins on those keys run partition by partition. Every answer still matches DuckDB's.
 */
class TpchTableGroupTest {
    private static final double SCALE_FACTOR = 0.01;
    private static TpchDifferentialTest.Engines engines;

    @BeforeAll
    static void load() throws SQLException {
        engines = TpchDifferentialTest.Engines.load(SCALE_FACTOR, "jdbc:numacol:;topology=fake:4;rowsPerPart=5000");
        try (Statement s = engines.numacol().createStatement()) {
            s.execute("ALTER TABLE orders SET PLACEMENT PP(4) BY HASH (o_orderkey)");
            s.execute("ALTER TABLE lineitem SET PLACEMENT PP(4) BY HASH (l_orderkey)");
            s.execute("ALTER TABLE part SET PLACEMENT PP(4) BY HASH (p_partkey)");
            s.execute("ALTER TABLE partsupp SET PLACEMENT PP(4) BY HASH (ps_partkey)");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        engines.close();
    }

    @ParameterizedTest(name = "Q{0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
    void numacolAgreesWithDuckDb(int query) throws Exception {
        TpchQuery q = TpchQuery.load(query, SCALE_FACTOR);
        ResultComparison.assertSameResult(ResultComparison.rows(engines.numacol(), q.sql()),
                ResultComparison.rows(engines.duckdb(), q.sql()), q.orderKeys());
    }

    private static List<List<Object>> rows(String sql) throws SQLException {
        return ResultComparison.rows(engines.numacol(), sql);
    }

    /** The joins of a group's tables on their key run partition by partition; on another key, or across groups, they do not. */
    @Test
    void joinsOnTheGroupKeyRunByPartition() throws SQLException {
        { // the counter is the process's: no other test of this module joins PP tables
            long before = PipelineExecutor.coPartitionedJoins();
            String sql = "SELECT COUNT(*), SUM(l_quantity) FROM orders JOIN lineitem ON o_orderkey = l_orderkey"
                    + " WHERE o_orderdate < DATE '1995-01-01'";
            List<List<Object>> byKey = rows(sql);
            assertThat(PipelineExecutor.coPartitionedJoins()).as("orders-lineitem on the order key").isEqualTo(before + 1);
            ResultComparison.assertSameResult(byKey, ResultComparison.rows(engines.duckdb(), sql), new int[0]);
            rows("SELECT COUNT(*) FROM part JOIN partsupp ON p_partkey = ps_partkey AND p_size = ps_suppkey");
            assertThat(PipelineExecutor.coPartitionedJoins()).as("a join on the key and more").isEqualTo(before + 2);
            rows("SELECT COUNT(*) FROM orders JOIN lineitem ON o_custkey = l_suppkey");
            rows("SELECT COUNT(*) FROM orders JOIN customer ON o_custkey = c_custkey");
            rows("SELECT COUNT(*) FROM lineitem JOIN partsupp ON l_partkey = ps_partkey AND l_suppkey = ps_suppkey");
            assertThat(PipelineExecutor.coPartitionedJoins()).as("other keys, another group, a table of none").isEqualTo(before + 2);
        }
    }
}
