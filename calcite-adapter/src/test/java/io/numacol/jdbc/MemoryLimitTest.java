package io.numacol.jdbc;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The memoryLimit property: loads and queries that would pass it fail clearly, and nothing else changes. */
class MemoryLimitTest {

    @Test
    void theLimitIsSharedAmongTheNodesAndShownInSys() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2;memoryLimit=4MB");
             Statement s = c.createStatement()) {
            assertThat(rows(s, "select node_id, memory_limit_bytes, limit_used_bytes from sys.nodes order by 1"))
                    .containsExactly(List.of(0, 2_000_000L, 0L), List.of(1, 2_000_000L, 0L));
        }
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2");
             Statement s = c.createStatement()) {
            List<List<Object>> r = rows(s, "select sum(memory_limit_bytes), sum(memory_bytes) from sys.nodes");
            double share = ((Number) r.get(0).get(0)).doubleValue() / ((Number) r.get(0).get(1)).doubleValue();
            assertThat(share).as("80% of the machine by default").isCloseTo(0.8, Offset.offset(0.001));
        }
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;memoryLimit=lots")).isInstanceOf(SQLException.class)
                .hasMessageContaining("memoryLimit 'lots' is not a size: write bytes, 4GB, 512MiB or 50%");
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;memoryLimit=4XB")).isInstanceOf(SQLException.class)
                .hasMessageContaining("unknown unit 'XB'");
    }

    @Test
    void aLoadBeyondTheLimitFailsAndLeavesTheTableAsItWas() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2;memoryLimit=1MiB;rowsPerPart=50000");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(40))");
            s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
            Database db = NumacolDriver.database(c);
            long before = db.memory().limit().usedBytes();
            assertThatThrownBy(() -> {
                try (Appender a = db.appender("t")) {
                    for (long i = 0; i < 200_000; i++) {
                        a.append(i, "name number " + i); // distinct strings: a dictionary beyond 1 MiB
                    }
                }
            }).hasMessageContaining("numacol's memoryLimit of 1048576 bytes").hasMessageContaining("asked for");
            assertThat(rows(s, "select count(*), sum(id) from t")).containsExactly(List.of(2L, new BigDecimal("3")));
            assertThat(db.memory().limit().usedBytes()).as("the failed load's memory is returned").isEqualTo(before);

            s.execute("INSERT INTO t VALUES (3, 'three')");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(3L));
            s.execute("DROP TABLE t");
            assertThat(db.memory().limit().usedBytes()).isZero();
            assertThat(db.memory().accounting().totalBytes()).isZero();
        }
    }

    @Test
    void aQueryWhoseIntermediatesPassTheLimitFailsAndTheNextOneRuns() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2;memoryLimit=8MB");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE a (k INTEGER NOT NULL, v INTEGER)");
            Database db = NumacolDriver.database(c);
            try (Appender app = db.appender("a")) {
                for (int i = 0; i < 20_000; i++) {
                    app.append(i % 10, i);
                }
            }
            long tableBytes = db.memory().limit().usedBytes();
            // 20,000 x 2,000 rows per key: 40 million rows between the join and the count
            assertThatThrownBy(() -> rows(s, "select x.v, y.v from a x join a y on x.k = y.k"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("asked for").hasMessageContaining("numacol's memoryLimit of 8000000 bytes")
                    .hasMessageNotContaining("StatementFailedException");
            assertThat(db.memory().limit().usedBytes()).as("the statement's intermediates are returned").isEqualTo(tableBytes);
            assertThat(rows(s, "select count(*) from a x join a y on x.v = y.v")).containsExactly(List.of(20_000L));
            assertThat(db.memory().limit().usedBytes()).isEqualTo(tableBytes);
        }
    }

    /** A large hash join table is numacol memory on the nodes: past a node's share it fails, and is freed when its statement ends. */
    @Test
    void aHashTablePastTheLimitFailsAndItsMemoryReturns() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2;memoryLimit=24MB");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE a (k INTEGER NOT NULL, v INTEGER)");
            Database db = NumacolDriver.database(c);
            try (Appender app = db.appender("a")) {
                for (int i = 0; i < 500_000; i++) {
                    app.append(i, i % 1000);
                }
            }
            long tableBytes = db.memory().limit().usedBytes();
            assertThatThrownBy(() -> rows(s, "select count(*) from a x join a y on x.k = y.k"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("a hash join's table asked for").hasMessageContaining("numacol's memoryLimit of 24000000 bytes");
            assertThat(db.memory().limit().usedBytes()).as("the statement's intermediates are returned").isEqualTo(tableBytes);
            assertThat(rows(s, "select count(*) from a x join a y on x.k = y.k where y.v = 3")).containsExactly(List.of(500L));
            assertThat(rows(s, "select sum(hash_table_bytes) from sys.nodes")).containsExactly(List.of(BigDecimal.ZERO));
            assertThat(db.memory().limit().usedBytes()).isEqualTo(tableBytes);
        }
    }

    @Test
    void anAggregationWhoseGroupsPassTheLimitFailsAndTheNextOneRuns() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2;memoryLimit=16MB");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE a (k INTEGER NOT NULL, v INTEGER)");
            Database db = NumacolDriver.database(c);
            try (Appender app = db.appender("a")) {
                for (int i = 0; i < 300_000; i++) {
                    app.append(i, i % 7);
                }
            }
            long tableBytes = db.memory().limit().usedBytes();
            assertThat(tableBytes).isLessThan(8_000_000);
            // 150,000 groups (k alone is a key, which needs no aggregation): each task's table of
            // them, then the merged ones, pass what the table leaves
            assertThatThrownBy(() -> rows(s, "select k / 2, count(*), sum(v), max(v) from a group by k / 2"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("a query's aggregation groups").hasMessageContaining("numacol's memoryLimit of 16000000 bytes");
            assertThat(db.memory().limit().usedBytes()).as("the statement's groups are returned").isEqualTo(tableBytes);
            assertThat(rows(s, "select v, count(*) from a group by v order by v").getFirst()).containsExactly(0, 42_858L);
            assertThat(db.memory().limit().usedBytes()).isEqualTo(tableBytes);
        }
    }
}
