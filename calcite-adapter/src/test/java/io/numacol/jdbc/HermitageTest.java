package io.numacol.jdbc;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Martin Kleppmann's Hermitage anomaly cases (github.com/ept/hermitage, its PostgreSQL test
 * sequences), each under REPEATABLE READ and under READ COMMITTED, on two or three connections of
 * one in-memory database: which statement sees what, and which transaction fails with SQLState
 * 40001. Setup before every case: {@code test (id, val)} holding {@code 1 => 10, 2 => 20}
 * ({@code value} is a reserved word in Calcite's SQL, hence {@code val}; {@code x % n} is written
 * {@code mod(x, n)}).
 *
 * <p>PostgreSQL makes a transaction that updates a row another one updated and has not committed
 * wait for it (the row lock), then fail with 40001 at REPEATABLE READ, or go on with the newest
 * version of the row at READ COMMITTED. numacol takes no row locks: its UPDATE and DELETE never
 * wait for another transaction, and the second of two transactions that changed one row fails
 * at its commit (first committer wins). Where the outcomes differ, a comment says so: at
 * REPEATABLE READ only the timing differs (PostgreSQL fails the statement, numacol the commit);
 * at READ COMMITTED, numacol's UPDATE or DELETE reads the rows committed when it starts, and fails
 * at commit where PostgreSQL would have waited and then changed the newest version: numacol
 * refuses a transaction that PostgreSQL commits, it never lets one through that PostgreSQL
 * refuses. At READ COMMITTED, once another transaction committed a change of a row this one
 * changed, this one's next statement fails with 40001 too (it could only fail at commit, and it
 * would read the other's version of the row beside its own, {@link
 * #readCommittedNeverShowsTwoVersionsOfARow}).
 */
class HermitageTest {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    /** The isolation levels numacol has (SERIALIZABLE is refused, {@link #serializableIsRefused}). */
    enum Level {
        READ_COMMITTED(Connection.TRANSACTION_READ_COMMITTED),
        REPEATABLE_READ(Connection.TRANSACTION_REPEATABLE_READ);

        final int jdbc;

        Level(int jdbc) {
            this.jdbc = jdbc;
        }
    }

    private final List<Connection> connections = new ArrayList<>();
    private String url;

    @AfterEach
    void closeConnections() throws SQLException {
        for (Connection c : connections.reversed()) {
            c.close();
        }
    }

    /** A new database with Hermitage's table, kept open by a connection of its own until the test ends. */
    private void setup() throws SQLException {
        url = "jdbc:numacol:mem:hermitage-" + DATABASES.incrementAndGet();
        Connection admin = DriverManager.getConnection(url);
        connections.add(admin);
        try (Statement s = admin.createStatement()) {
            s.execute("create table test (id int not null, val int)");
            s.executeUpdate("insert into test (id, val) values (1, 10), (2, 20)");
        }
    }

    /** A transaction at {@code level} on a connection of its own: it begins at its first statement, as PostgreSQL's snapshot is taken. */
    private Tx begin(Level level) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        connections.add(c);
        c.setTransactionIsolation(level.jdbc);
        c.setAutoCommit(false);
        return new Tx(c, c.createStatement());
    }

    /** The committed rows, as a new auto-commit reader sees them. */
    private String committed() throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            return show(s, "");
        }
    }

    /** The rows of {@code test} matching {@code where} (may be empty), as Hermitage writes them: {@code 1 => 10, 2 => 20}. */
    private static String show(Statement s, String where) throws SQLException {
        StringJoiner out = new StringJoiner(", ");
        try (ResultSet rs = s.executeQuery("select id, val from test " + where + " order by id, val")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + " => " + rs.getInt(2));
            }
        }
        return out.toString();
    }

    /** One transaction's connection. */
    private record Tx(Connection connection, Statement statement) {
        String select(String where) throws SQLException {
            return show(statement, where);
        }

        String selectAll() throws SQLException {
            return show(statement, "");
        }

        int update(String sql) throws SQLException {
            return statement.executeUpdate(sql);
        }

        void commit() throws SQLException {
            connection.commit();
        }

        void rollback() throws SQLException {
            connection.rollback();
        }
    }

    /** The second committer of two transactions that changed one row (its commit, or a statement after the first committed): SQLState 40001. */
    private static void assertSerializationFailure(ThrowingCallable commitOrStatement) {
        assertThatThrownBy(commitOrStatement).isInstanceOf(SQLTransactionRollbackException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
                .hasMessageContaining("concurrent update");
    }

    // ---- G0: write cycles ----

    /**
     * G0 prevented at both levels. PostgreSQL: T2's first update waits for T1; at READ COMMITTED it
     * then updates T1's version and both commit (1 => 12, 2 => 22); at REPEATABLE READ it fails
     * with 40001 once T1 commits. numacol: T2 does not wait; its first update changed the version
     * of row 1 it read before T1 committed, so T2 fails: at READ COMMITTED at its next statement,
     * at REPEATABLE READ at its commit. The outcome at READ COMMITTED differs from PostgreSQL's,
     * without any write cycle (1 => 11, 2 => 21).
     */
    @ParameterizedTest
    @EnumSource(Level.class)
    void g0WriteCycles(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.update("update test set val = 11 where id = 1")).isEqualTo(1);
        assertThat(t2.update("update test set val = 12 where id = 1")).isEqualTo(1); // PostgreSQL: blocks until T1 ends
        assertThat(t1.update("update test set val = 21 where id = 2")).isEqualTo(1);
        t1.commit();
        assertThat(t1.selectAll()).isEqualTo("1 => 11, 2 => 21");
        if (level == Level.READ_COMMITTED) {
            assertSerializationFailure(() -> t2.update("update test set val = 22 where id = 2")); // PostgreSQL: updates, and T2 commits
        } else {
            assertThat(t2.update("update test set val = 22 where id = 2")).isEqualTo(1);
        }
        assertSerializationFailure(t2::commit); // PostgreSQL at REPEATABLE READ: failed at T2's first update
        assertThat(committed()).isEqualTo("1 => 11, 2 => 21");
        t1.commit();
    }

    /**
     * Not a Hermitage case: at READ COMMITTED, T2 updates row 1, T1 updates it too and commits. Before
     * the fix, T2's next statement read T1's 1 => 11 beside its own 1 => 12 (its deletion was of
     * the version before T1's), a state no transaction made, where PostgreSQL shows one version
     * (T2 waited for T1, then updated T1's version); T2 only failed at its commit. Now that statement
     * fails with 40001, as does every one after it and the commit, until T2 rolls back.
     */
    @Test
    void readCommittedNeverShowsTwoVersionsOfARow() throws SQLException {
        setup();
        Tx t1 = begin(Level.READ_COMMITTED);
        Tx t2 = begin(Level.READ_COMMITTED);
        assertThat(t2.update("update test set val = 12 where id = 1")).isEqualTo(1);
        assertThat(t2.selectAll()).isEqualTo("1 => 12, 2 => 20");
        assertThat(t1.update("update test set val = 11 where id = 1")).isEqualTo(1);
        t1.commit();
        assertSerializationFailure(t2::selectAll); // was: 1 => 11, 1 => 12, 2 => 20
        assertSerializationFailure(() -> t2.update("update test set val = val + 100 where id = 1")); // was: 2 rows
        assertSerializationFailure(t2::commit);
        assertThat(t2.selectAll()).isEqualTo("1 => 11, 2 => 20"); // a new transaction
        t2.rollback();
        assertThat(committed()).isEqualTo("1 => 11, 2 => 20");
    }

    /** A transaction whose statement failed so rolls back, and the next one on the connection goes on. */
    @Test
    void readCommittedTransactionThatLostItsRowRollsBack() throws SQLException {
        setup();
        Tx t1 = begin(Level.READ_COMMITTED);
        Tx t2 = begin(Level.READ_COMMITTED);
        assertThat(t2.update("delete from test where id = 2")).isEqualTo(1);
        assertThat(t1.update("update test set val = 21 where id = 2")).isEqualTo(1);
        t1.commit();
        assertSerializationFailure(() -> t2.select("where id = 2"));
        t2.rollback();
        assertThat(t2.update("delete from test where id = 2")).isEqualTo(1);
        t2.commit();
        assertThat(committed()).isEqualTo("1 => 10");
    }

    // ---- G1a: aborted reads ----

    /** G1a prevented at both levels, as in PostgreSQL. */
    @ParameterizedTest
    @EnumSource(Level.class)
    void g1aAbortedReads(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.update("update test set val = 101 where id = 1")).isEqualTo(1);
        assertThat(t2.selectAll()).isEqualTo("1 => 10, 2 => 20");
        t1.rollback();
        assertThat(t2.selectAll()).isEqualTo("1 => 10, 2 => 20");
        t2.commit();
        assertThat(committed()).isEqualTo("1 => 10, 2 => 20");
    }

    // ---- G1b: intermediate reads ----

    /** G1b prevented at both levels, as in PostgreSQL: T2 never sees T1's 101; READ COMMITTED then sees T1's final 11. */
    @ParameterizedTest
    @EnumSource(Level.class)
    void g1bIntermediateReads(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.update("update test set val = 101 where id = 1")).isEqualTo(1);
        assertThat(t2.selectAll()).isEqualTo("1 => 10, 2 => 20");
        assertThat(t1.update("update test set val = 11 where id = 1")).isEqualTo(1);
        t1.commit();
        assertThat(t2.selectAll()).isEqualTo(level == Level.READ_COMMITTED ? "1 => 11, 2 => 20" : "1 => 10, 2 => 20");
        t2.commit();
        assertThat(committed()).isEqualTo("1 => 11, 2 => 20");
    }

    // ---- G1c: circular information flow ----

    /** G1c prevented at both levels, as in PostgreSQL: neither sees the other's uncommitted update. */
    @ParameterizedTest
    @EnumSource(Level.class)
    void g1cCircularInformationFlow(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.update("update test set val = 11 where id = 1")).isEqualTo(1);
        assertThat(t2.update("update test set val = 22 where id = 2")).isEqualTo(1);
        assertThat(t1.select("where id = 2")).isEqualTo("2 => 20");
        assertThat(t2.select("where id = 1")).isEqualTo("1 => 10");
        t1.commit();
        t2.commit();
        assertThat(committed()).isEqualTo("1 => 11, 2 => 22");
    }

    // ---- OTV: observed transaction vanishes ----

    /**
     * OTV prevented at both levels: T3 sees all of T1 and nothing of T2, before and after T2
     * ends. PostgreSQL: T2's first update waits for T1; at READ COMMITTED it then commits and T3's
     * last reads show T2's 1 => 12 and 2 => 18; at REPEATABLE READ it fails with 40001 once T1
     * commits. numacol: T2's first update read row 1 before T1 committed, so T2 fails (at READ
     * COMMITTED at its next statement, at REPEATABLE READ at its commit), and T3 goes on seeing
     * T1's rows: at READ COMMITTED the outcome differs from PostgreSQL's, without the anomaly.
     */
    @ParameterizedTest
    @EnumSource(Level.class)
    void otvObservedTransactionVanishes(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        Tx t3 = begin(level);
        assertThat(t1.update("update test set val = 11 where id = 1")).isEqualTo(1);
        assertThat(t1.update("update test set val = 19 where id = 2")).isEqualTo(1);
        assertThat(t2.update("update test set val = 12 where id = 1")).isEqualTo(1); // PostgreSQL: blocks until T1 ends
        t1.commit();
        assertThat(t3.select("where id = 1")).isEqualTo("1 => 11");
        if (level == Level.READ_COMMITTED) {
            assertSerializationFailure(() -> t2.update("update test set val = 18 where id = 2")); // PostgreSQL: updates
        } else {
            assertThat(t2.update("update test set val = 18 where id = 2")).isEqualTo(1);
        }
        assertThat(t3.select("where id = 2")).isEqualTo("2 => 19");
        assertSerializationFailure(t2::commit); // PostgreSQL: READ COMMITTED commits; REPEATABLE READ failed at T2's first update
        assertThat(t3.select("where id = 2")).isEqualTo("2 => 19"); // PostgreSQL at READ COMMITTED: 2 => 18
        assertThat(t3.select("where id = 1")).isEqualTo("1 => 11"); // PostgreSQL at READ COMMITTED: 1 => 12
        t3.commit();
        assertThat(committed()).isEqualTo("1 => 11, 2 => 19");
    }

    // ---- PMP: predicate-many-preceders ----

    /** PMP: READ COMMITTED does not prevent it (T1's second read sees T2's new row), REPEATABLE READ does; as in PostgreSQL. */
    @ParameterizedTest
    @EnumSource(Level.class)
    void pmpPredicateManyPreceders(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.select("where val = 30")).isEmpty();
        assertThat(t2.update("insert into test (id, val) values (3, 30)")).isEqualTo(1);
        t2.commit();
        assertThat(t1.select("where mod(val, 3) = 0")).isEqualTo(level == Level.READ_COMMITTED ? "3 => 30" : "");
        t1.commit();
    }

    /**
     * PMP for write predicates. PostgreSQL: T2's DELETE waits for T1's UPDATE; at READ COMMITTED
     * it then finds T1's 2 => 30, deletes nothing, and T2 sees 1 => 20 and commits; at
     * REPEATABLE READ it fails with 40001 once T1 commits. numacol: T2's DELETE does not wait and
     * deletes the 2 => 20 it reads (committed when it starts), and T2 fails: at READ COMMITTED
     * at its next statement (the read that shows 1 => 20 in PostgreSQL), at REPEATABLE READ at its
     * commit. The rows end as T1 left them in both databases.
     */
    @ParameterizedTest
    @EnumSource(Level.class)
    void pmpForWritePredicates(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.update("update test set val = val + 10")).isEqualTo(2);
        assertThat(t2.update("delete from test where val = 20")).isEqualTo(1); // PostgreSQL: blocks until T1 ends; then 0 rows at READ COMMITTED
        t1.commit();
        if (level == Level.READ_COMMITTED) {
            assertSerializationFailure(() -> t2.select("where val = 20")); // PostgreSQL: 1 => 20, and T2 commits
        }
        assertSerializationFailure(t2::commit); // PostgreSQL at REPEATABLE READ: failed at the DELETE
        assertThat(committed()).isEqualTo("1 => 20, 2 => 30");
    }

    // ---- P4: lost update ----

    /**
     * P4 prevented at both levels. PostgreSQL: T2's UPDATE waits for T1; at READ COMMITTED it then
     * overwrites T1's update and commits (the lost update that level allows); at REPEATABLE READ
     * it fails with 40001 once T1 commits. numacol: T2's UPDATE does not wait, and T2 fails at its
     * commit at both levels: numacol's READ COMMITTED prevents this lost update, which PostgreSQL's does not.
     */
    @ParameterizedTest
    @EnumSource(Level.class)
    void p4LostUpdate(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.select("where id = 1")).isEqualTo("1 => 10");
        assertThat(t2.select("where id = 1")).isEqualTo("1 => 10");
        assertThat(t1.update("update test set val = 11 where id = 1")).isEqualTo(1);
        assertThat(t2.update("update test set val = 11 where id = 1")).isEqualTo(1); // PostgreSQL: blocks until T1 ends
        t1.commit();
        assertSerializationFailure(t2::commit); // PostgreSQL: READ COMMITTED commits; REPEATABLE READ failed at the UPDATE
        assertThat(committed()).isEqualTo("1 => 11, 2 => 20");
    }

    /**
     * P4 at READ COMMITTED where T2's UPDATE starts after T1 committed: it reads T1's version and
     * overwrites it, and both commit, as in PostgreSQL (the level allows it: T2 read 10 before).
     * At REPEATABLE READ T2 read its snapshot and fails, in PostgreSQL at the UPDATE, in numacol at its commit.
     */
    @ParameterizedTest
    @EnumSource(Level.class)
    void p4LostUpdateAfterTheFirstCommitted(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.select("where id = 1")).isEqualTo("1 => 10");
        assertThat(t2.select("where id = 1")).isEqualTo("1 => 10");
        assertThat(t1.update("update test set val = val + 1 where id = 1")).isEqualTo(1);
        t1.commit();
        assertThat(t2.update("update test set val = val + 1 where id = 1")).isEqualTo(1);
        if (level == Level.READ_COMMITTED) {
            t2.commit();
            assertThat(committed()).isEqualTo("1 => 12, 2 => 20"); // T2's increment applies to T1's version
        } else {
            assertSerializationFailure(t2::commit);
            assertThat(committed()).isEqualTo("1 => 11, 2 => 20");
        }
    }

    // ---- G-single: read skew ----

    /** G-single: READ COMMITTED does not prevent it (T1 sees T2's 18 beside the 10 it read), REPEATABLE READ does; as in PostgreSQL. */
    @ParameterizedTest
    @EnumSource(Level.class)
    void gSingleReadSkew(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.select("where id = 1")).isEqualTo("1 => 10");
        assertThat(t2.select("where id = 1")).isEqualTo("1 => 10");
        assertThat(t2.select("where id = 2")).isEqualTo("2 => 20");
        assertThat(t2.update("update test set val = 12 where id = 1")).isEqualTo(1);
        assertThat(t2.update("update test set val = 18 where id = 2")).isEqualTo(1);
        t2.commit();
        assertThat(t1.select("where id = 2")).isEqualTo(level == Level.READ_COMMITTED ? "2 => 18" : "2 => 20");
        t1.commit();
        assertThat(committed()).isEqualTo("1 => 12, 2 => 18");
    }

    /** G-single with predicate dependencies: REPEATABLE READ's second read finds nothing; READ COMMITTED's finds T2's 12. As in PostgreSQL. */
    @ParameterizedTest
    @EnumSource(Level.class)
    void gSingleReadSkewWithPredicateDependencies(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.select("where mod(val, 5) = 0")).isEqualTo("1 => 10, 2 => 20");
        assertThat(t2.update("update test set val = 12 where val = 10")).isEqualTo(1);
        t2.commit();
        assertThat(t1.select("where mod(val, 3) = 0")).isEqualTo(level == Level.READ_COMMITTED ? "1 => 12" : "");
        t1.commit();
    }

    /**
     * G-single with a write predicate. REPEATABLE READ prevents it: PostgreSQL fails T1's DELETE
     * with 40001; numacol's DELETE deletes the 2 => 20 of T1's snapshot and T1 fails at its commit.
     * READ COMMITTED: T1's DELETE reads T2's 2 => 18 and deletes nothing, and T1 commits; as in PostgreSQL.
     */
    @ParameterizedTest
    @EnumSource(Level.class)
    void gSingleReadSkewWithWritePredicate(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.select("where id = 1")).isEqualTo("1 => 10");
        assertThat(t2.selectAll()).isEqualTo("1 => 10, 2 => 20");
        assertThat(t2.update("update test set val = 12 where id = 1")).isEqualTo(1);
        assertThat(t2.update("update test set val = 18 where id = 2")).isEqualTo(1);
        t2.commit();
        if (level == Level.READ_COMMITTED) {
            assertThat(t1.update("delete from test where val = 20")).isZero();
            t1.commit();
        } else {
            assertThat(t1.update("delete from test where val = 20")).isEqualTo(1); // PostgreSQL: fails here with 40001
            assertSerializationFailure(t1::commit);
        }
        assertThat(committed()).isEqualTo("1 => 12, 2 => 18");
    }

    // ---- G2-item: write skew ----

    /** G2-item not prevented at either level (PostgreSQL prevents it only at SERIALIZABLE): both commit, as in PostgreSQL. */
    @ParameterizedTest
    @EnumSource(Level.class)
    void g2ItemWriteSkew(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.select("where id in (1, 2)")).isEqualTo("1 => 10, 2 => 20");
        assertThat(t2.select("where id in (1, 2)")).isEqualTo("1 => 10, 2 => 20");
        assertThat(t1.update("update test set val = 11 where id = 1")).isEqualTo(1);
        assertThat(t2.update("update test set val = 21 where id = 2")).isEqualTo(1);
        t1.commit();
        t2.commit();
        assertThat(committed()).isEqualTo("1 => 11, 2 => 21");
    }

    // ---- G2: anti-dependency cycles ----

    /** G2 not prevented at either level (PostgreSQL prevents it only at SERIALIZABLE): both inserts commit, as in PostgreSQL. */
    @ParameterizedTest
    @EnumSource(Level.class)
    void g2AntiDependencyCycles(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        Tx t2 = begin(level);
        assertThat(t1.select("where mod(val, 3) = 0")).isEmpty();
        assertThat(t2.select("where mod(val, 3) = 0")).isEmpty();
        assertThat(t1.update("insert into test (id, val) values (3, 30)")).isEqualTo(1);
        assertThat(t2.update("insert into test (id, val) values (4, 42)")).isEqualTo(1);
        t1.commit();
        t2.commit();
        assertThat(t1.select("where mod(val, 3) = 0")).isEqualTo("3 => 30, 4 => 42");
        t1.commit();
        assertThat(t2.select("where mod(val, 3) = 0")).isEqualTo("3 => 30, 4 => 42");
        t2.commit();
    }

    /**
     * G2, Fekete et al.'s example with two anti-dependency edges: PostgreSQL fails T1's UPDATE only
     * at SERIALIZABLE; at REPEATABLE READ and READ COMMITTED T1 commits, and so it does in numacol
     * (T3 read 2 => 25 and T1's snapshot did not).
     */
    @ParameterizedTest
    @EnumSource(Level.class)
    void g2TwoAntiDependencyEdges(Level level) throws SQLException {
        setup();
        Tx t1 = begin(level);
        assertThat(t1.selectAll()).isEqualTo("1 => 10, 2 => 20");
        Tx t2 = begin(level);
        assertThat(t2.update("update test set val = val + 5 where id = 2")).isEqualTo(1);
        t2.commit();
        Tx t3 = begin(level);
        assertThat(t3.selectAll()).isEqualTo("1 => 10, 2 => 25");
        t3.commit();
        assertThat(t1.update("update test set val = 0 where id = 1")).isEqualTo(1);
        t1.commit();
        assertThat(committed()).isEqualTo("1 => 0, 2 => 25");
    }

    /** PostgreSQL's SERIALIZABLE, which prevents G2-item and G2, is refused: numacol's strongest level is snapshot isolation. */
    @Test
    void serializableIsRefused() throws SQLException {
        setup();
        try (Connection c = DriverManager.getConnection(url)) {
            assertThatThrownBy(() -> c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
        }
    }
}
