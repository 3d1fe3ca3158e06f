package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshot isolation under load, through JDBC: writers moving money between accounts in
 * transactions, retrying on SQLState 40001, never make a reader see money appear or vanish, and no
 * committed transfer is lost; a long read in an open transaction keeps its snapshot while writers
 * commit, and neither waits for the other.
 */
class BankTransferTest {
    private static final int ACCOUNTS = 50;
    private static final long OPENING_BALANCE = 1_000;
    private static final long TOTAL = ACCOUNTS * OPENING_BALANCE;
    private static final int WRITERS = 16;
    private static final int TRANSFERS_PER_WRITER = 60;
    /** Attempts of one transfer before the writer gives it up (counted, not failed): bounds the run under contention. */
    private static final int ATTEMPTS_PER_TRANSFER = 20;
    private static final int READERS = 2;
    private static final int READS_PER_READER = 100;
    private static final long SEED = 42;

    private static Connection open(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:numacol:mem:" + name);
    }

    /** The one row of a query, each value as a long (a SUM's type is the JDBC driver's choice). */
    private static List<Long> longs(Statement s, String sql) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (ResultSet r = s.executeQuery(sql)) {
            assertThat(r.next()).isTrue();
            for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                out.add(r.getLong(i));
            }
            assertThat(r.next()).isFalse();
        }
        return out;
    }

    private static boolean serializationFailure(SQLException e) {
        return "40001".equals(e.getSQLState());
    }

    /**
     * 16 writers, each on its own connection (half at REPEATABLE READ, half at READ COMMITTED),
     * make random transfers between 50 accounts ({@code bal - x} from one, {@code bal + x} to
     * another, commit; a 40001 from a statement or the commit rolls back and runs the transfer
     * again), while 2 readers sum the balances, inside transactions (each read twice: the same
     * snapshot) and in auto-commit. Every sum is the opening total, every count 50; at the end
     * each balance is its opening one plus the committed transfers', none lost.
     */
    @Test
    @Timeout(180)
    void transfersKeepTheTotalAndLoseNoUpdate() throws Exception {
        try (Connection admin = open("bank-transfer"); Statement s = admin.createStatement()) {
            s.execute("create table acct (id int not null, bal bigint not null)");
            StringBuilder insert = new StringBuilder("insert into acct values ");
            for (int id = 0; id < ACCOUNTS; id++) {
                insert.append(id == 0 ? "" : ", ").append('(').append(id).append(", ").append(OPENING_BALANCE).append(')');
            }
            assertThat(s.executeUpdate(insert.toString())).isEqualTo(ACCOUNTS);

            AtomicLongArray committedDelta = new AtomicLongArray(ACCOUNTS);
            AtomicLong committed = new AtomicLong();
            AtomicLong conflicts = new AtomicLong();
            AtomicLong givenUp = new AtomicLong();
            AtomicLong reads = new AtomicLong();
            AtomicLong readsWhileWriting = new AtomicLong();
            Queue<String> wrongReads = new ConcurrentLinkedQueue<>();
            CyclicBarrier start = new CyclicBarrier(WRITERS + READERS);
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    done.add(pool.submit(() -> {
                        writer(writer, start, committedDelta, committed, conflicts, givenUp);
                        return null;
                    }));
                }
                for (int r = 0; r < READERS; r++) {
                    done.add(pool.submit(() -> {
                        reader(start, committed, reads, readsWhileWriting, wrongReads);
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(); // a writer's or reader's unexpected SQLException fails the test here
                }
            } finally {
                pool.shutdownNow();
            }

            // the transactions' one-row parts were merged as they went (a merge may run while transactions are open)
            int parts = NumacolDriver.database(admin).catalog().get("acct").parts().size();
            System.out.printf("bank transfers: %d committed, %d serialization failures retried, %d given up; "
                    + "%d sums read, %d of them between the first and the last commit; %d parts left%n",
                    committed.get(), conflicts.get(), givenUp.get(), reads.get(), readsWhileWriting.get(), parts);
            assertThat(parts).as("parts of 50 rows after the transfers").isLessThan(WRITERS * TRANSFERS_PER_WRITER / 4);
            assertThat(wrongReads).isEmpty();
            assertThat(reads.get()).isEqualTo((long) READERS * READS_PER_READER * 3);
            assertThat(committed.get()).isPositive();
            assertThat(committed.get() + givenUp.get()).isEqualTo((long) WRITERS * TRANSFERS_PER_WRITER);
            assertThat(longs(s, "select sum(bal), count(*) from acct")).containsExactly(TOTAL, (long) ACCOUNTS);
            List<List<Object>> expected = new ArrayList<>();
            for (int id = 0; id < ACCOUNTS; id++) {
                expected.add(List.of(id, OPENING_BALANCE + committedDelta.get(id)));
            }
            assertThat(rows(s, "select id, bal from acct order by id")).isEqualTo(expected); // no committed transfer lost
        }
    }

    private static void writer(int writer, CyclicBarrier start, AtomicLongArray committedDelta, AtomicLong committed,
                               AtomicLong conflicts, AtomicLong givenUp) throws Exception {
        Random random = new Random(SEED + writer);
        try (Connection c = open("bank-transfer");
             PreparedStatement debit = c.prepareStatement("update acct set bal = bal - ? where id = ?");
             PreparedStatement credit = c.prepareStatement("update acct set bal = bal + ? where id = ?")) {
            c.setTransactionIsolation(writer % 2 == 0 ? Connection.TRANSACTION_REPEATABLE_READ : Connection.TRANSACTION_READ_COMMITTED);
            c.setAutoCommit(false);
            start.await();
            for (int t = 0; t < TRANSFERS_PER_WRITER; t++) {
                int from = random.nextInt(ACCOUNTS);
                int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                long amount = 1L + random.nextInt(100);
                boolean done = false;
                for (int attempt = 0; attempt < ATTEMPTS_PER_TRANSFER && !done; attempt++) {
                    try {
                        debit.setLong(1, amount);
                        debit.setInt(2, from);
                        assertThat(debit.executeUpdate()).isEqualTo(1);
                        credit.setLong(1, amount);
                        credit.setInt(2, to);
                        assertThat(credit.executeUpdate()).isEqualTo(1);
                        c.commit();
                        done = true;
                    } catch (SQLException e) {
                        if (!serializationFailure(e)) {
                            throw e;
                        }
                        conflicts.incrementAndGet();
                        c.rollback();
                    }
                }
                if (done) {
                    committedDelta.addAndGet(from, -amount);
                    committedDelta.addAndGet(to, amount);
                    committed.incrementAndGet();
                } else {
                    givenUp.incrementAndGet();
                }
            }
        }
    }

    /** Sums the balances: in a REPEATABLE READ transaction (twice), in a READ COMMITTED one, and in auto-commit. */
    private static void reader(CyclicBarrier start, AtomicLong committed, AtomicLong reads, AtomicLong readsWhileWriting,
                               Queue<String> wrongReads) throws Exception {
        try (Connection c = open("bank-transfer");
             PreparedStatement sum = c.prepareStatement("select sum(bal), count(*) from acct")) {
            start.await();
            for (int i = 0; i < READS_PER_READER; i++) {
                long before = committed.get();
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                check(sum, "repeatable read", reads, wrongReads);
                check(sum, "repeatable read, again", reads, wrongReads);
                c.commit();
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                check(sum, "read committed", reads, wrongReads);
                c.commit();
                c.setAutoCommit(true);
                check(sum, "auto-commit", reads, wrongReads);
                if (before > 0 && committed.get() < (long) WRITERS * TRANSFERS_PER_WRITER) {
                    readsWhileWriting.addAndGet(3);
                }
            }
        }
    }

    private static void check(PreparedStatement sum, String how, AtomicLong reads, Queue<String> wrongReads) throws SQLException {
        try (ResultSet rs = sum.executeQuery()) {
            rs.next();
            long total = rs.getLong(1);
            long count = rs.getLong(2);
            if (total != TOTAL || count != ACCOUNTS) {
                wrongReads.add(how + ": sum " + total + ", count " + count);
            }
        }
        if (!how.endsWith("again")) {
            reads.incrementAndGet();
        }
    }

    /**
     * A long analytical read holds an open transaction with its result set partly read while a
     * writer updates, inserts, deletes and commits (in auto-commit and in a transaction): the
     * writer never waits, and the reader reads its snapshot to the end, and again in its next
     * statement (REPEATABLE READ); once it commits it sees the writer's rows.
     */
    @Test
    @Timeout(60)
    void longReadDoesNotBlockWriters() throws Exception {
        int rows = 20_000;
        try (Connection admin = open("bank-long-read"); Statement s = admin.createStatement();
             Connection reader = open("bank-long-read"); Statement rs = reader.createStatement()) {
            s.execute("create table ledger (id int not null, amount bigint not null)");
            try (PreparedStatement insert = admin.prepareStatement("insert into ledger values (?, ?)")) {
                for (int id = 1; id <= rows; id++) {
                    insert.setInt(1, id);
                    insert.setLong(2, 1);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            reader.setAutoCommit(false);
            try (ResultSet r = rs.executeQuery("select id, amount from ledger")) {
                long sum = 0;
                int read = 0;
                for (; read < 100; read++) {
                    assertThat(r.next()).isTrue();
                    sum += r.getLong(2);
                }
                // the writer, on this thread: it would hang here (the test's timeout) if it waited for the reader
                try (Connection writer = open("bank-long-read"); Statement ws = writer.createStatement()) {
                    assertThat(ws.executeUpdate("update ledger set amount = amount + 1 where id <= 10000")).isEqualTo(10_000);
                    assertThat(ws.executeUpdate("delete from ledger where id > 15000")).isEqualTo(5_000);
                    writer.setAutoCommit(false);
                    assertThat(ws.executeUpdate("insert into ledger values (-1, 1000000)")).isEqualTo(1);
                    assertThat(ws.executeUpdate("update ledger set amount = 0 where id = 1")).isEqualTo(1);
                    writer.commit();
                    assertThat(longs(ws, "select count(*), sum(amount) from ledger")).containsExactly(15_001L, 10_000L * 2 - 2 + 5_000 + 1_000_000);
                }
                while (r.next()) {
                    read++;
                    sum += r.getLong(2);
                }
                assertThat(read).isEqualTo(rows);
                assertThat(sum).isEqualTo(rows); // every row as the reader's snapshot had it
            }
            assertThat(longs(rs, "select count(*), sum(amount) from ledger")).containsExactly((long) rows, (long) rows);
            reader.commit();
            assertThat(longs(rs, "select count(*), sum(amount) from ledger")).containsExactly(15_001L, 10_000L * 2 - 2 + 5_000 + 1_000_000);
        }
    }

    /**
     * READ COMMITTED: a reader's result set, partly read, keeps the snapshot of its statement
     * while a writer commits and the reader's next statement (in the same transaction) reads the
     * writer's rows.
     */
    @Test
    @Timeout(60)
    void readCommittedOpenResultKeepsItsStatementsSnapshot() throws Exception {
        int rows = 10_000;
        try (Connection admin = open("bank-long-read-rc"); Statement s = admin.createStatement();
             Connection reader = open("bank-long-read-rc"); Statement first = reader.createStatement();
             Statement second = reader.createStatement()) {
            s.execute("create table ledger (id int not null, amount bigint not null)");
            try (PreparedStatement insert = admin.prepareStatement("insert into ledger values (?, ?)")) {
                for (int id = 1; id <= rows; id++) {
                    insert.setInt(1, id);
                    insert.setLong(2, 1);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            reader.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            reader.setAutoCommit(false);
            try (ResultSet r = first.executeQuery("select l.id, l.amount, m.amount from ledger l join ledger m on l.id = m.id")) {
                long sum = 0;
                int read = 0;
                for (; read < 100; read++) {
                    assertThat(r.next()).isTrue();
                    sum += r.getLong(2) + r.getLong(3);
                }
                try (Connection writer = open("bank-long-read-rc"); Statement ws = writer.createStatement()) {
                    for (int i = 0; i < 5; i++) {
                        assertThat(ws.executeUpdate("update ledger set amount = amount + 1")).isEqualTo(rows);
                    }
                    assertThat(ws.executeUpdate("delete from ledger where id > 5000")).isEqualTo(5_000);
                }
                assertThat(longs(second, "select count(*), sum(amount) from ledger")).containsExactly(5_000L, 30_000L);
                while (r.next()) {
                    read++;
                    sum += r.getLong(2) + r.getLong(3);
                }
                assertThat(read).isEqualTo(rows);
                assertThat(sum).isEqualTo(2L * rows);
            }
            reader.commit();
        }
    }
}
