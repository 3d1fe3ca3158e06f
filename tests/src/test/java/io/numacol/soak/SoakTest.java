package io.numacol.soak;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.jdbc.NumacolDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many clients on one shared database for a while ({@code -Dsoak.seconds}, 60 by default; 600
 * for the long run): prepared and ad-hoc queries with known answers over a table nobody
 * changes, INSERTs, Appenders, COPY (some of the files malformed), UPDATEs and DELETEs (some
 * refused) of each client's own table checked against the client's model of it after every
 * step, background merges (small parts), cancel(), setQueryTimeout and connections closed under
 * a running query. At the end
 * every connection is closed: the database's native memory must be back to zero and its
 * threads gone.
 */
class SoakTest {
    private static final int CLIENTS = Integer.getInteger("soak.clients", 64);
    private static final long SECONDS = Long.getLong("soak.seconds", 60);
    private static final long SEED = Long.getLong("soak.seed", 20261124);
    private static final String URL = "jdbc:numacol:mem:soak;topology=fake:2;rowsPerPart=2000";

    private static final int BASE_ROWS = 20_000;
    private static final int GROUPS = 10;
    /** Runs until cancelled: 20,000 x 20,000 pairs through a condition no hash join takes. */
    private static final String ENDLESS = "select count(*) from base a, base b where a.id + b.id > -1";

    @TempDir
    Path dir;

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final List<String> wrong = Collections.synchronizedList(new ArrayList<>());

    private void count(String what) {
        counts.computeIfAbsent(what, k -> new LongAdder()).increment();
    }

    private void check(boolean ok, String what) {
        count("answers checked");
        if (!ok) {
            wrong.add(what);
        }
    }

    @Test
    void manyClientsMixingQueriesLoadsAndFaults() throws Exception {
        Set<Thread> threadsBefore = numacolThreads();
        Database db;
        long baselineBytes;
        try (Connection admin = DriverManager.getConnection(URL); Statement s = admin.createStatement()) {
            db = NumacolDriver.database(admin);
            s.execute("CREATE TABLE base (id BIGINT NOT NULL, grp INTEGER NOT NULL, cents BIGINT NOT NULL, name VARCHAR(20))");
            s.execute("CREATE TABLE dim (grp INTEGER NOT NULL, label VARCHAR(10))");
            try (Appender a = db.appender("base")) {
                for (long id = 0; id < BASE_ROWS; id++) {
                    a.append(id, (int) (id % GROUPS), id % 1000, "n" + (id % 777));
                }
            }
            try (Appender a = db.appender("dim")) {
                for (int g = 0; g < GROUPS; g++) {
                    a.append(g, "g" + g % 3);
                }
            }
            baselineBytes = db.memory().accounting().totalBytes();

            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    new Client(client, new Random(SEED * 31 + client)).run(deadline);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(SECONDS + 300, TimeUnit.SECONDS); // a hang fails here
            }
            clients.shutdown();
            assertThat(clients.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

            // the writers' tables are dropped by them; what is left is the base data
            assertThat(rows(s, "select count(*) from base")).isEqualTo(List.of(List.of((long) BASE_ROWS)));
            assertThat(db.memory().accounting().totalBytes()).as("native memory back to the base tables'")
                    .isEqualTo(baselineBytes);
        }
        assertThat(db.isClosed()).as("the last connection closed the database").isTrue();
        long after = db.memory().accounting().totalBytes();
        Set<String> leaked = waitForThreads(threadsBefore);
        System.out.printf("soak: %d clients, %d s: %s; native memory %d bytes loaded, %d after close; threads left: %s%n",
                CLIENTS, SECONDS, new TreeMap<>(counts.entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().sum()))), baselineBytes, after, leaked);
        assertThat(wrong).as("wrong answers").isEmpty();
        assertThat(after).isZero();
        assertThat(leaked).as("numacol threads after close").isEmpty();
        assertThat(counts.get("answers checked").sum()).isGreaterThan(CLIENTS);
    }

    /** One client: a connection of its own and a table of its own, and the model of that table. */
    private final class Client {
        final int id;
        final Random random;
        final String table;
        long rows;
        long sum;

        Client(int id, Random random) {
            this.id = id;
            this.random = random;
            this.table = "w" + id;
        }

        void run(long deadline) throws Exception {
            try (Connection c = DriverManager.getConnection(URL)) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE " + table + " (k BIGINT NOT NULL, v INTEGER)");
                }
                PreparedStatement byGroup = c.prepareStatement("select count(*), sum(cents) from base where grp = ?");
                while (System.nanoTime() < deadline) {
                    int pick = random.nextInt(100);
                    try {
                        if (pick < 30) {
                            adHocQuery(c);
                        } else if (pick < 50) {
                            preparedQuery(byGroup);
                        } else if (pick < 62) {
                            insert(c);
                        } else if (pick < 72) {
                            append(c);
                        } else if (pick < 84) {
                            copy(c);
                        } else if (pick < 88) {
                            cancel(c);
                        } else if (pick < 91) {
                            timeout(c);
                        } else if (pick < 93) {
                            closeUnderAQuery();
                        } else if (pick < 97) {
                            updateOrDelete(c);
                        } else {
                            checkOwnTable(c);
                        }
                        count("statements");
                    } catch (SQLException e) {
                        wrong.add("client " + id + ": unexpected " + e);
                    }
                }
                checkOwnTable(c);
                try (Statement s = c.createStatement()) {
                    s.execute("DROP TABLE " + table);
                }
                byGroup.close();
            }
        }

        void adHocQuery(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                switch (random.nextInt(3)) {
                    case 0 -> {
                        int g = random.nextInt(GROUPS);
                        check(rows(s, "select count(*), sum(cents) from base where grp = " + g)
                                .equals(List.of(List.of((long) BASE_ROWS / GROUPS, BigDecimal.valueOf(groupCents(g))))), "count/sum of group " + g);
                    }
                    case 1 -> {
                        List<List<Object>> r = rows(s, "select grp, count(*) from base group by grp order by grp");
                        boolean ok = r.size() == GROUPS;
                        for (int g = 0; ok && g < GROUPS; g++) {
                            ok = r.get(g).equals(List.of(g, (long) BASE_ROWS / GROUPS));
                        }
                        check(ok, "group by: " + r);
                    }
                    default -> {
                        long below = 1L + random.nextInt(BASE_ROWS);
                        List<List<Object>> r = rows(s, "select d.label, count(*) from base b join dim d on b.grp = d.grp "
                                + "where b.id < " + below + " group by d.label order by d.label");
                        long[] expected = new long[3];
                        for (long i = 0; i < below; i++) {
                            expected[(int) (i % GROUPS) % 3]++;
                        }
                        List<List<Object>> want = new ArrayList<>();
                        for (int l = 0; l < 3; l++) {
                            if (expected[l] > 0) {
                                want.add(List.of("g" + l, expected[l]));
                            }
                        }
                        check(r.equals(want), "join below " + below + ": " + r);
                    }
                }
            }
        }

        void preparedQuery(PreparedStatement byGroup) throws SQLException {
            int g = random.nextInt(GROUPS);
            byGroup.setInt(1, g);
            try (ResultSet rs = byGroup.executeQuery()) {
                check(rows(rs).equals(List.of(List.of((long) BASE_ROWS / GROUPS, BigDecimal.valueOf(groupCents(g))))), "prepared group " + g);
            }
        }

        void insert(Connection c) throws SQLException {
            int n = 1 + random.nextInt(5);
            StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
            long added = 0;
            for (int i = 0; i < n; i++) {
                int v = random.nextInt(1000);
                sql.append(i == 0 ? "" : ", ").append("(").append(rows + i).append(", ").append(v).append(")");
                added += v;
            }
            try (Statement s = c.createStatement()) {
                check(s.executeUpdate(sql.toString()) == n, "insert count");
            }
            rows += n;
            sum += added;
            count("inserts");
        }

        void append(Connection c) throws SQLException {
            int n = 1 + random.nextInt(5000);
            long added = 0;
            try (Appender a = NumacolDriver.database(c).appender(table)) {
                for (int i = 0; i < n; i++) {
                    int v = random.nextInt(1000);
                    a.append(rows + i, v);
                    added += v;
                }
            }
            rows += n;
            sum += added;
            count("appender loads");
        }

        void copy(Connection c) throws SQLException {
            boolean malformed = random.nextInt(3) == 0;
            int n = 1 + random.nextInt(3000);
            int bad = malformed ? random.nextInt(n) : -1;
            StringBuilder csv = new StringBuilder();
            long added = 0;
            for (int i = 0; i < n; i++) {
                int v = random.nextInt(1000);
                csv.append(rows + i).append(',').append(i == bad ? "x" + v : String.valueOf(v)).append('\n');
                added += v;
            }
            Path file = dir.resolve(table + "-" + random.nextInt(1_000_000) + ".csv");
            try {
                Files.writeString(file, csv);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            try (Statement s = c.createStatement()) {
                s.execute("COPY " + table + " FROM '" + file.toString().replace("'", "''") + "'");
                check(!malformed, "a malformed COPY was accepted");
                rows += n;
                sum += added;
                count("files copied");
            } catch (SQLException e) {
                check(malformed && e.getMessage().contains("line " + (bad + 1)), "COPY failed: " + e.getMessage());
                count("malformed files refused");
            }
            checkOwnTable(c); // a refused file left the table as it was
        }

        /**
         * An UPDATE or DELETE of the client's table (a rewrite of it, under background merges),
         * its effect on the model known from its count; or an UPDATE refused for a NULL in a
         * NOT NULL column, which must leave the table as it was.
         */
        void updateOrDelete(Connection c) throws SQLException {
            int v = random.nextInt(1000);
            try (Statement s = c.createStatement()) {
                switch (random.nextInt(3)) {
                    case 0 -> {
                        long n = s.executeLargeUpdate("DELETE FROM " + table + " WHERE v = " + v);
                        rows -= n;
                        sum -= n * v;
                        count("deletes");
                    }
                    case 1 -> {
                        long n = s.executeLargeUpdate("UPDATE " + table + " SET v = v + 1 WHERE v = " + v);
                        sum += n;
                        count("updates");
                    }
                    default -> {
                        try {
                            long n = s.executeLargeUpdate("UPDATE " + table + " SET k = NULL WHERE v = " + v);
                            check(n == 0, "a NULL was stored in NOT NULL column k of " + n + " rows");
                        } catch (SQLException e) {
                            check("23502".equals(e.getSQLState()) && e.getMessage().contains("column \"k\""),
                                    "refused UPDATE: " + e.getSQLState() + " " + e.getMessage());
                            count("updates refused");
                        }
                    }
                }
            }
            checkOwnTable(c);
        }

        void checkOwnTable(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                List<List<Object>> r = rows(s, "select count(*), sum(v) from " + table);
                Object count = r.get(0).get(0);
                Object total = r.get(0).get(1);
                boolean ok = ((Number) count).longValue() == rows
                        && (rows == 0 ? total == null : total != null && ((Number) total).longValue() == sum);
                check(ok, table + ": " + r + " where the model has " + rows + " rows summing to " + sum);
            }
        }

        void cancel(Connection c) throws Exception {
            try (Statement s = c.createStatement()) {
                CompletableFuture<Throwable> run = endless(s, null);
                while (!run.isDone()) {
                    s.cancel();
                    try {
                        run.get(20, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException stillRunning) {
                        // cancel again: a cancel before the execution started is not remembered
                    }
                }
                Throwable t = run.get(60, TimeUnit.SECONDS);
                check(t instanceof SQLException && t.getMessage().contains("cancel"), "cancel gave " + t);
                count("cancels");
            }
        }

        void timeout(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(1);
                try (ResultSet rs = s.executeQuery(ENDLESS)) {
                    rs.next();
                    wrong.add("an endless query ended within its timeout");
                } catch (SQLException e) {
                    check(e.getMessage().contains("timeout"), "timeout gave " + e);
                    count("timeouts");
                }
            }
        }

        void closeUnderAQuery() throws Exception {
            Connection victim = DriverManager.getConnection(URL);
            Statement s = victim.createStatement();
            CountDownLatch starting = new CountDownLatch(1);
            CompletableFuture<Throwable> run = endless(s, starting);
            starting.await(); // closed as the query is prepared or runs: both must fail it cleanly
            victim.close();
            Throwable t = run.get(60, TimeUnit.SECONDS);
            check(t instanceof SQLException, "a query under a closed connection gave " + t);
            count("connections closed under a query");
        }
    }

    /** ENDLESS on another thread, counting {@code starting} down just before it is executed: what it threw, or null. */
    private static CompletableFuture<Throwable> endless(Statement s, CountDownLatch starting) {
        return CompletableFuture.supplyAsync(() -> {
            if (starting != null) {
                starting.countDown();
            }
            try (ResultSet rs = s.executeQuery(ENDLESS)) {
                rs.next();
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
    }

    private static long groupCents(int g) {
        long sum = 0;
        for (long id = g; id < BASE_ROWS; id += GROUPS) {
            sum += id % 1000;
        }
        return sum;
    }

    static List<List<Object>> rows(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            return rows(rs);
        }
    }

    static List<List<Object>> rows(ResultSet rs) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                row.add(rs.getObject(i));
            }
            out.add(row);
        }
        return out;
    }

    private static Set<Thread> numacolThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith("numacol")).collect(Collectors.toSet());
    }

    /** The numacol threads beyond {@code before} still alive after each was given ten seconds to end. */
    private static Set<String> waitForThreads(Set<Thread> before) throws InterruptedException {
        for (Thread t : numacolThreads()) {
            if (!before.contains(t)) {
                t.join(10_000);
            }
        }
        return numacolThreads().stream().filter(t -> !before.contains(t)).map(Thread::getName).collect(Collectors.toSet());
    }
}
