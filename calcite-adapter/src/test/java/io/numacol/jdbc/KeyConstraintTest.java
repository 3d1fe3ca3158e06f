package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PRIMARY KEY and UNIQUE enforced on INSERT, UPDATE and batches, within a statement, against
 * stored rows and across transactions: a violation is SQLState 23505 naming the constraint and
 * the key, and nothing of the statement is kept.
 */
class KeyConstraintTest {

    private static void violates(Statement s, String sql, String constraint, String key) {
        assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLIntegrityConstraintViolationException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"))
                .hasMessageContaining(constraint).hasMessageContaining(key);
    }

    @Test
    void primaryKeyOnInsertAndUpdate() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table items (id int primary key, name varchar(10) unique, qty int)");
            s.executeUpdate("insert into items values (1, 'a', 10), (2, 'b', 20)");
            violates(s, "insert into items values (3, 'c', 1), (1, 'd', 1)", "items_pkey", "(id)=(1)");
            violates(s, "insert into items values (4, 'x', 1), (4, 'y', 1)", "items_pkey", "(id)=(4)");
            violates(s, "insert into items values (5, 'a', 1)", "items_name_key", "(name)=(a)");
            assertThat(rows(s, "select id from items order by id")).containsExactly(List.of(1), List.of(2));

            assertThat(s.executeUpdate("update items set qty = qty + 1")).isEqualTo(2); // keys kept: no violation
            assertThat(s.executeUpdate("update items set id = 3 - id")).isEqualTo(2); // 1 and 2 swap places
            violates(s, "update items set id = 7", "items_pkey", "(id)=(7)");
            assertThat(rows(s, "select id, name, qty from items order by id"))
                    .containsExactly(List.of(1, "b", 21), List.of(2, "a", 11));

            s.executeUpdate("insert into items values (8, null, 0), (9, null, 0)"); // NULLs repeat no UNIQUE key
            s.executeUpdate("delete from items where id = 8");
            s.executeUpdate("insert into items values (8, 'h', 0)");
            assertThat(rows(s, "select count(*) from items")).containsExactly(List.of(4L));
        }
    }

    @Test
    void namedAndCompositeKeysAndAlteredTables() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table lines (ord bigint not null, line int not null, sku varchar(8), "
                    + "constraint pk_lines primary key (ord, line), constraint uq_sku unique (sku))");
            s.executeUpdate("insert into lines values (1, 1, 'a'), (1, 2, 'b'), (2, 1, 'c')");
            violates(s, "insert into lines values (1, 2, 'z')", "pk_lines", "(ord, line)=(1, 2)");
            violates(s, "insert into lines values (3, 1, 'b')", "uq_sku", "(sku)=(b)");
            s.execute("alter table lines rename column line to lineno");
            violates(s, "insert into lines values (2, 1, 'q')", "pk_lines", "(ord, lineno)=(2, 1)");
            s.execute("alter table lines add column note varchar(5)");
            violates(s, "insert into lines values (2, 1, 'r', 'n')", "pk_lines", "(ord, lineno)=(2, 1)");
            assertThat(rows(s, "select count(*) from lines")).containsExactly(List.of(3L));
        }
    }

    @Test
    void batchesStoreNothingOfAViolatingBatch() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table k (id bigint primary key, v int)");
            s.executeUpdate("insert into k values (100, 0)");
            try (PreparedStatement p = c.prepareStatement("insert into k values (?, ?)")) {
                for (long id : new long[] {1, 2, 100}) {
                    p.setLong(1, id);
                    p.setInt(2, 1);
                    p.addBatch();
                }
                assertThatThrownBy(p::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .satisfies(e -> assertThat(Arrays.asList(((SQLException) e).getSQLState(),
                                ((SQLException) e).getCause() instanceof SQLException x ? x.getSQLState() : null)).contains("23505"));
            }
            assertThat(rows(s, "select count(*) from k")).containsExactly(List.of(1L));
        }
    }

    /** Two transactions insert the same key: the first to commit wins, the other fails at commit with 23505. */
    @Test
    void concurrentInsertsOfOneKeyExactlyOneWins() throws SQLException {
        try (Connection a = DriverManager.getConnection("jdbc:numacol:mem:keys-tx");
             Connection b = DriverManager.getConnection("jdbc:numacol:mem:keys-tx");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("create table u (id int primary key, who varchar(1))");
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            sa.executeUpdate("insert into u values (1, 'a')");
            sb.executeUpdate("insert into u values (1, 'b')");
            a.commit();
            assertThatThrownBy(b::commit).isInstanceOf(SQLIntegrityConstraintViolationException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
            assertThat(rows(sb, "select id, who from u")).containsExactly(List.of(1, "a"));

            // inside a transaction the statement fails at once, and the transaction goes on without it
            sb.executeUpdate("insert into u values (2, 'b')");
            violates(sb, "insert into u values (3, 'b'), (1, 'b')", "u_pkey", "(id)=(1)");
            sb.executeUpdate("delete from u where id = 1");
            sb.executeUpdate("insert into u values (1, 'c')"); // its own delete freed the key
            b.commit();
            assertThat(rows(sa, "select id, who from u order by id")).containsExactly(List.of(1, "c"), List.of(2, "b"));
            a.commit();
        }
    }

    /** In a transaction a failing batch keeps nothing of its rows, and the transaction goes on. */
    @Test
    void aFailingBatchInATransactionKeepsNothing() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table k (id bigint primary key, v int)");
            s.executeUpdate("insert into k values (100, 0)");
            c.setAutoCommit(false);
            s.executeUpdate("insert into k values (1, 0)");
            try (PreparedStatement p = c.prepareStatement("insert into k values (?, ?)")) {
                for (long id : new long[] {2, 3, 100}) {
                    p.setLong(1, id);
                    p.setInt(2, 1);
                    p.addBatch();
                }
                assertThatThrownBy(p::executeBatch).isInstanceOf(BatchUpdateException.class);
            }
            assertThat(rows(s, "select id from k order by id")).containsExactly(List.of(1L), List.of(100L));
            c.commit();
            assertThat(rows(s, "select count(*) from k")).containsExactly(List.of(2L));
        }
    }
}
