package io.numacol.ecosystem;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.numacol.jdbc.NumacolDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HikariCP configured by class name ({@code dataSourceClassName=io.numacol.jdbc.NumacolDataSource}
 * and a {@code url} data source property), as a service's pool is: 8 connections to a file
 * database, 8 threads reading and writing through them while the pool's connections are evicted
 * again and again under them; every answer is the one the rows give, and every row written is there.
 */
class HikariDataSourceTest {
    private static final int THREADS = 8;
    private static final int ROUNDS = 36;
    private static final int ACCOUNTS = 100;

    @TempDir
    Path dir;

    @Test
    void aPoolOfEightServesEightThreadsThroughEvictions() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setDataSourceClassName(NumacolDataSource.class.getName());
        config.addDataSourceProperty("url", "jdbc:numacol:file:" + dir.resolve("db"));
        config.addDataSourceProperty("timeZone", "UTC");
        config.setMaximumPoolSize(THREADS);
        config.setMinimumIdle(THREADS);
        config.setPoolName("numacol");
        try (HikariDataSource pool = new HikariDataSource(config)) {
            assertThat(pool.isWrapperFor(NumacolDataSource.class)).isTrue();
            assertThat(pool.unwrap(NumacolDataSource.class).getUrl()).endsWith("db");
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
                s.execute("CREATE TABLE log (thread INT, round INT, amount BIGINT)");
                try (PreparedStatement p = c.prepareStatement("INSERT INTO accounts VALUES (?, ?)")) {
                    for (int id = 0; id < ACCOUNTS; id++) {
                        p.setInt(1, id);
                        p.setLong(2, id * 10L);
                        p.addBatch();
                    }
                    assertThat(p.executeBatch()).hasSize(ACCOUNTS);
                }
            }
            AtomicInteger evictions = new AtomicInteger();
            Set<Connection> physical = ConcurrentHashMap.newKeySet(); // numacol's connections behind the pool's proxies
            ExecutorService workers = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<Long>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    done.add(workers.submit(() -> work(pool, thread, evictions, physical)));
                }
                long written = 0;
                for (Future<Long> f : done) {
                    written += f.get();
                }
                assertThat(evictions.get()).isGreaterThan(0);
                assertThat(physical).as("evicted connections were replaced by new ones: more than the pool holds at once")
                        .hasSizeGreaterThan(THREADS);
                assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isLessThanOrEqualTo(THREADS);
                try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT count(*), sum(amount), count(DISTINCT thread) FROM log")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo((long) THREADS * ROUNDS);
                    assertThat(rs.getLong(2)).isEqualTo(written);
                    assertThat(rs.getInt(3)).isEqualTo(THREADS);
                }
            } finally {
                workers.shutdownNow();
            }
        }
    }

    /** One thread's rounds: a point read and a sum checked against what the rows hold, and a row of its own written; the amounts it wrote. */
    private static long work(HikariDataSource pool, int thread, AtomicInteger evictions, Set<Connection> physical) throws SQLException {
        Random random = new Random(43L * thread + 1);
        long written = 0;
        for (int round = 0; round < ROUNDS; round++) {
            if (thread == 0 && round % 12 == 6) {
                pool.getHikariPoolMXBean().softEvictConnections(); // idle ones close now, busy ones when returned
                evictions.incrementAndGet();
            }
            try (Connection c = pool.getConnection()) {
                physical.add(c.unwrap(Connection.class));
                int id = random.nextInt(ACCOUNTS);
                try (PreparedStatement p = c.prepareStatement("SELECT balance FROM accounts WHERE id = ?")) {
                    p.setInt(1, id);
                    try (ResultSet rs = p.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(1)).isEqualTo(id * 10L);
                        assertThat(rs.next()).isFalse();
                    }
                }
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sum(balance) FROM accounts")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(10L * ACCOUNTS * (ACCOUNTS - 1) / 2);
                }
                long amount = random.nextInt(1000);
                try (PreparedStatement p = c.prepareStatement("INSERT INTO log VALUES (?, ?, ?)")) {
                    p.setInt(1, thread);
                    p.setInt(2, round);
                    p.setLong(3, amount);
                    assertThat(p.executeUpdate()).isEqualTo(1);
                }
                written += amount;
            }
        }
        return written;
    }
}
