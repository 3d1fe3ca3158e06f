package io.numacol.jdbc;

import io.numacol.database.Appender;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A JVM's first query pays for work no later one does: Calcite builds its rule and operator
 * tables, Janino compiles the metadata handlers every plan's costing calls, and numacol's scan,
 * aggregation, join and sort kernels run in the interpreter until the JIT has seen enough of them
 * to compile them. An ahead-of-time cache keeps loaded classes and profiles, not that work. So
 * the first connection of a JVM starts one daemon thread that does it on a private database of
 * its own (the inline scheduler: no workers, no placer; a table of {@link #ROWS} rows shaped as
 * an analytical table is), while the application goes on with whatever it does after connecting,
 * loading its data most often, holding back while one of its statements runs. It runs once per
 * JVM for about two seconds of one core, touches none of the application's databases, and its
 * failure only leaves the first query as slow as it was (logged at FINE). {@code warmup=false} on the first connection, or the system property {@code
 * numacol.warmup=false}, leaves it out.
 */
final class Warmup {
    /** The connection property (and, as {@code numacol.warmup}, the system property). */
    static final String PROPERTY = "warmup";

    /** Rows of the warm-up's table: enough for the JIT to compile the kernels' loops, few enough for a second. */
    static final int ROWS = 200_000;

    private static final Logger LOG = Logger.getLogger(Warmup.class.getName());
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile Thread thread;
    /** The application's statements running now: the warm-up waits while there are any. */
    private static final AtomicInteger RUNNING = new AtomicInteger();
    /** How long in all the warm-up waits for the application before it gives up: a busy application warms the JIT itself. */
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The shapes of most analytical queries: filters, groupings, a join, a top-N, and the {@code sys} schema. */
    private static final String[] QUERIES = {
        "select f, g, sum(q) as sq, sum(p) as sp, sum(p * (1 - q / 100)) as sd, avg(q) as aq, count(*) as n from w"
            + " where d <= date '1998-09-02' group by f, g order by f, g",
        "select sum(p * q) from w where d >= date '1994-01-01' and d < date '1995-01-01' and q between 5 and 7",
        "select x.g, count(*) as n, sum(x.p) as s from w x join v y on x.k = y.k where y.c like 'c1%' group by x.g order by s desc",
        "select k, p from w where g <> 'NONE' order by p desc, k limit 10",
        "select count(distinct k % 1000) from w where f = 'R' or q > 40",
        "select t.table_name, t.row_count from sys.tables t order by t.row_count desc",
    };

    private Warmup() {
    }

    /** Whether a connection with {@code props} asks for the warm-up (the system property by default). */
    static boolean wanted(Properties props) throws SQLException {
        String value = props.getProperty(PROPERTY, System.getProperty("numacol." + PROPERTY, "true"));
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "on" -> true;
            case "false", "off" -> false;
            default -> throw new SQLException("warmup must be true or false, not '" + value + "'", "HY024");
        };
    }

    /** Starts the warm-up unless it ran in this JVM already. */
    static void startOnce(NumacolDriver driver) {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread t = Thread.ofPlatform().name("numacol-warmup").daemon(true).unstarted(() -> run(driver, true));
        thread = t;
        t.start();
    }

    /** An application's statement starts ({@link NumacolMeta}): the warm-up holds back until it ends. */
    static void statementStarted() {
        if (Thread.currentThread() != thread) {
            RUNNING.incrementAndGet();
        }
    }

    /** The statement {@link #statementStarted} counted ended. */
    static void statementEnded() {
        if (Thread.currentThread() != thread) {
            RUNNING.decrementAndGet();
        }
    }

    /**
     * Waits while the application runs a statement, up to {@link #STATEMENT_NANOS}, so that on a
     * machine of few cores the warm-up does not slow the short first statements it is there to
     * speed up, and yet goes on beside a long one (a load); false once it has waited {@link
     * #PATIENCE_NANOS} in all: an application that keeps running statements warms the JIT itself.
     */
    private static boolean awaitIdle(long[] waited) throws InterruptedException {
        long start = System.nanoTime();
        while (RUNNING.get() > 0 && System.nanoTime() - start < STATEMENT_NANOS) {
            if (waited[0] > PATIENCE_NANOS) {
                return false;
            }
            long t = System.nanoTime();
            Thread.sleep(5);
            waited[0] += System.nanoTime() - t;
        }
        return true;
    }

    /** The longest the warm-up holds back for one of the application's statements. */
    private static final long STATEMENT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Runs the warm-up's statements on this thread and answers whether it ran them all; {@code
     * holdBack} says whether it waits for the application's statements ({@link #awaitIdle}), as
     * the warm-up's thread does. Without, it answers the same in any JVM (for tests).
     */
    static boolean run(NumacolDriver driver, boolean holdBack) {
        Properties props = new Properties();
        props.setProperty(PROPERTY, "false");
        props.setProperty("scheduler", "inline");
        props.setProperty("placer", "off");
        try (Connection c = driver.connect(NumacolDriver.PREFIX, props); Statement s = c.createStatement()) {
            s.execute("create table w (k bigint not null, g varchar(8), q decimal(15, 2), p decimal(15, 2), d date, f varchar(1))");
            s.execute("create table v (k bigint primary key, c varchar(16))");
            String[] groups = {"AIR", "MAIL", "SHIP", "TRUCK"};
            String[] flags = {"A", "N", "R"};
            LocalDate first = LocalDate.of(1992, 1, 1);
            long[] waited = {0};
            try (Appender w = NumacolDriver.database(c).appender("w"); Appender v = NumacolDriver.database(c).appender("v")) {
                for (int i = 0; i < ROWS; i++) {
                    if (holdBack && i % 10_000 == 0 && !awaitIdle(waited)) {
                        return false;
                    }
                    w.append((long) i, groups[i & 3], BigDecimal.valueOf(i % 50 + 1), BigDecimal.valueOf(i % 100_000, 2),
                            first.plusDays(i % 2_500), flags[i % 3]);
                    if (i % 10 == 0) {
                        v.append((long) i, "c" + (i % 1_000));
                    }
                }
            }
            for (int round = 0; round < 2; round++) {
                for (String query : QUERIES) {
                    if (holdBack && !awaitIdle(waited)) {
                        return false;
                    }
                    try (ResultSet rs = s.executeQuery(query)) {
                        while (rs.next()) {
                            rs.getString(1);
                        }
                    }
                }
            }
            return true;
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "numacol's warm-up stopped; the first query runs without it", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }
}
