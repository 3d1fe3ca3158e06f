package io.numacol.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.numacol.database.Database;
import io.numacol.scheduler.InlineScheduler;
import io.numacol.scheduler.WorkerPoolScheduler;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code scheduler=inline}: a whole database on the InlineScheduler answers as on the worker pool. */
class InlineSchedulerDatabaseTest {
    /** Small parts, so that every scan, aggregate and join runs as many tasks. */
    private static final String URL = "jdbc:numacol:;topology=fake:4;rowsPerPart=5000";

    /** A filter, aggregates, joins (inner, semi) and a top-N; DECIMAL sums, exact whatever the order of the tasks. */
    private static final List<String> QUERIES = List.of(
            "select count(*), sum(l_quantity), sum(l_extendedprice) from lineitem"
                    + " where l_shipdate < date '1995-01-01' and l_discount > 0.05 and l_returnflag <> 'N'",
            "select l_orderkey, l_linenumber, l_partkey from lineitem where l_quantity = 1 and l_tax = 0.08 order by 1, 2",
            "select l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice * (1 - l_discount)), count(*)"
                    + " from lineitem where l_shipdate <= date '1998-09-02' group by l_returnflag, l_linestatus order by 1, 2",
            "select n_name, count(*), sum(o_totalprice) from orders join customer on o_custkey = c_custkey"
                    + " join nation on c_nationkey = n_nationkey where o_orderdate >= date '1995-01-01' group by n_name order by n_name",
            "select o_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue from lineitem join orders on l_orderkey = o_orderkey"
                    + " where o_orderpriority = '1-URGENT' group by o_orderkey order by revenue desc, o_orderkey fetch first 10 rows only",
            "select o_orderpriority, count(*) from orders where exists (select * from lineitem where l_orderkey = o_orderkey"
                    + " and l_commitdate < l_receiptdate) group by o_orderpriority order by 1");

    @Test
    void answersAsTheWorkerPoolDoes() throws SQLException {
        try (Connection pool = DriverManager.getConnection(URL);
             Connection inline = DriverManager.getConnection(URL + ";scheduler=inline");
             Statement onPool = pool.createStatement();
             Statement onInline = inline.createStatement()) {
            assertThat(NumacolDriver.database(pool).scheduler()).isInstanceOf(WorkerPoolScheduler.class);
            Database inlineDb = NumacolDriver.database(inline);
            assertThat(inlineDb.scheduler()).isInstanceOf(InlineScheduler.class);
            onPool.execute("CALL dbgen(sf = 0.01)");
            onInline.execute("CALL dbgen(sf = 0.01)");
            long loadTasks = tasksRun(inlineDb);
            assertThat(loadTasks).as("the load's part builds ran as tasks").isPositive();

            for (String sql : QUERIES) {
                List<List<Object>> expected = rows(onPool, sql);
                assertThat(expected).as(sql).isNotEmpty();
                assertThat(rows(onInline, sql)).as(sql).isEqualTo(expected);
            }
            assertThat(tasksRun(inlineDb)).as("the queries ran as tasks, inline").isGreaterThan(loadTasks + QUERIES.size());
        }
    }

    /** ADAPTIVE's threshold experiment measures stealing, which inline has none of: it does not run. */
    @Test
    void adaptiveDoesNotCalibrateInline() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2;stealPolicy=ADAPTIVE;scheduler=inline");
             Statement s = c.createStatement()) {
            Database db = NumacolDriver.database(c);
            assertThat(db.stealCalibrating()).isFalse();
            assertThat(db.stealCalibration()).isNull();
            s.execute("create table t (x int not null)");
            s.executeUpdate("insert into t values (1), (2), (3)");
            assertThat(rows(s, "select count(*) from t where x > 1")).containsExactly(List.of(2L));
        }
    }

    @Test
    void anUnknownSchedulerIsRefusedNamingTheChoices() {
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;scheduler=threads"))
                .isInstanceOf(SQLException.class).hasMessageContaining("scheduler must be pool or inline, got 'threads'");
    }

    private static long tasksRun(Database db) {
        return (long) db.scheduler().meterRegistry().find("numacol.scheduler.tasks.run").functionCounters().stream()
                .mapToDouble(FunctionCounter::count).sum();
    }
}
