package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Transactions through JDBC, on two connections of one named database: changes seen by their
 * own transaction only until it commits; a snapshot per transaction (REPEATABLE READ, the
 * default) or per statement (READ COMMITTED); the first committer of two updates of one row wins
 * and the other gets SQLState 40001; rollback, SQL's BEGIN/COMMIT/ROLLBACK, DDL committing first.
 */
class TransactionTest {
    private static Connection open(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:numacol:mem:" + name);
    }

    private static void accounts(Statement s) throws SQLException {
        s.execute("create table acct (id int not null, bal bigint not null)");
        s.executeUpdate("insert into acct values (1, 100), (2, 100), (3, 100)");
    }

    private static long balance(Statement s, int id) throws SQLException {
        return (Long) rows(s, "select bal from acct where id = " + id).getFirst().getFirst();
    }

    @Test
    void changesAreSeenByOthersOnlyOnceCommitted() throws SQLException {
        try (Connection a = open("tx-commit"); Connection b = open("tx-commit");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            accounts(sa);
            a.setAutoCommit(false);
            sa.executeUpdate("update acct set bal = bal - 30 where id = 1");
            sa.executeUpdate("insert into acct values (4, 5)");
            assertThat(balance(sa, 1)).isEqualTo(70);
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(3L));
            assertThat(balance(sb, 1)).isEqualTo(100);
            a.commit();
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(4L));
            assertThat(balance(sb, 1)).isEqualTo(70);
            sa.executeUpdate("delete from acct where id = 4");
            a.rollback();
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(4L));
            assertThat(rows(sa, "select count(*) from acct")).containsExactly(List.of(4L));
        }
    }

    @Test
    void repeatableReadKeepsItsSnapshotAndReadCommittedMovesOn() throws SQLException {
        try (Connection a = open("tx-snapshot"); Connection b = open("tx-snapshot");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            accounts(sa);
            a.setAutoCommit(false);
            assertThat(balance(sa, 2)).isEqualTo(100);
            sb.executeUpdate("update acct set bal = 1 where id = 2");
            assertThat(balance(sa, 2)).isEqualTo(100); // REPEATABLE READ: as of the transaction's start
            a.commit();
            a.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED); // for the transactions that begin next
            assertThat(balance(sa, 2)).isEqualTo(1);
            sb.executeUpdate("update acct set bal = 2 where id = 2");
            assertThat(balance(sa, 2)).isEqualTo(2); // READ COMMITTED: as of each statement's start
            a.commit();
        }
    }

    /** A lost update prevented: both add 10 to one balance; the second to commit fails with 40001 and keeps nothing. */
    @Test
    void firstCommitterWinsTheOtherGetsASerializationFailure() throws SQLException {
        try (Connection a = open("tx-conflict"); Connection b = open("tx-conflict");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            accounts(sa);
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            sa.executeUpdate("update acct set bal = bal + 10 where id = 1");
            sb.executeUpdate("update acct set bal = bal + 10 where id = 1");
            sb.executeUpdate("update acct set bal = bal + 10 where id = 3");
            a.commit();
            assertThatThrownBy(b::commit).isInstanceOf(SQLTransactionRollbackException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
                    .hasMessageContaining("concurrent update");
            assertThat(rows(sb, "select id, bal from acct order by id"))
                    .containsExactly(List.of(1, 110L), List.of(2, 100L), List.of(3, 100L));
            b.commit();
        }
    }

    @Test
    void sqlTransactionStatementsAndDdlCommittingFirst() throws SQLException {
        try (Connection a = open("tx-sql"); Connection b = open("tx-sql");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            accounts(sa);
            sa.execute("begin");
            sa.executeUpdate("delete from acct where id = 3");
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(3L));
            sa.execute("rollback");
            assertThat(rows(sa, "select count(*) from acct")).containsExactly(List.of(3L));
            sa.execute("START TRANSACTION");
            sa.executeUpdate("delete from acct where id = 3");
            sa.execute("commit work");
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(2L));
            assertThat(a.getAutoCommit()).isTrue(); // back in auto-commit after COMMIT

            a.setAutoCommit(false);
            sa.executeUpdate("delete from acct where id = 2");
            sa.execute("create table other (x int)"); // commits the transaction first, as MySQL does
            a.rollback();
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(1L));
        }
    }

    @Test
    void batchesJoinTheTransactionAndClosingRollsBack() throws SQLException {
        try (Connection b = open("tx-batch")) {
            Statement sb = b.createStatement();
            try (Connection a = open("tx-batch")) {
                accounts(a.createStatement());
                a.setAutoCommit(false);
                try (PreparedStatement p = a.prepareStatement("insert into acct values (?, ?)")) {
                    for (int i = 10; i < 20; i++) {
                        p.setInt(1, i);
                        p.setLong(2, i);
                        p.addBatch();
                    }
                    p.executeBatch();
                }
                assertThat(rows(a.createStatement(), "select count(*) from acct")).containsExactly(List.of(13L));
                assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(3L));
                a.commit();
                assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(13L));
                a.createStatement().executeUpdate("delete from acct where id >= 10");
            } // closed without commit: rolled back
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(13L));
        }
    }

    /** DDL with auto-commit off runs on its own: the rows ALTER TABLE copies are published with it, not left in a transaction. */
    @Test
    void ddlWithAutoCommitOffKeepsTheRowsItCopies() throws SQLException {
        try (Connection a = open("tx-ddl"); Connection b = open("tx-ddl");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            accounts(sa);
            a.setAutoCommit(false);
            sa.execute("alter table acct add column note varchar(5)");
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(3L));
            sa.execute("create table copy as select * from acct");
            a.rollback();
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(3L));
            assertThat(rows(sb, "select count(*) from copy")).containsExactly(List.of(3L));
        }
    }

    /** A pool's setAutoCommit(true) after a BEGIN ends that transaction (it commits, as JDBC's setAutoCommit does). */
    @Test
    void setAutoCommitAfterBeginCommits() throws SQLException {
        try (Connection a = open("tx-begin"); Connection b = open("tx-begin");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            accounts(sa);
            sa.execute("begin");
            sa.executeUpdate("delete from acct where id = 1");
            a.setAutoCommit(true);
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(2L));
            sa.executeUpdate("delete from acct where id = 2");
            assertThat(rows(sb, "select count(*) from acct")).containsExactly(List.of(1L));
        }
    }
}
