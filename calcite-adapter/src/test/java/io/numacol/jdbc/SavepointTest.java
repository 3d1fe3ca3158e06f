package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Savepoints through JDBC ({@code setSavepoint}, {@code rollback(Savepoint)}, {@code
 * releaseSavepoint}) and SQL ({@code SAVEPOINT}, {@code ROLLBACK TO}, {@code RELEASE}), on
 * connections from DriverManager and from a DataSource that wraps them as a pool does; a failing
 * statement that leaves its transaction usable; what DatabaseMetaData says of transactions.
 */
class SavepointTest {
    private static Connection open(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:numacol:mem:" + name);
    }

    private static void accounts(Statement s) throws SQLException {
        s.execute("create table acct (id int not null, bal bigint not null)");
        s.executeUpdate("insert into acct values (1, 100), (2, 100), (3, 100)");
    }

    private static List<List<Object>> all(Statement s) throws SQLException {
        return rows(s, "select id, bal from acct order by id");
    }

    private static String state(Throwable e) {
        return ((SQLException) e).getSQLState();
    }

    /** Savepoints on {@code c} (auto-commit on when given), the other connection {@code b} seeing only what commits. */
    private static void jdbcSavepoints(Connection a, Connection b) throws SQLException {
        Statement sa = a.createStatement();
        Statement sb = b.createStatement();
        accounts(sa);
        a.setAutoCommit(false);
        sa.executeUpdate("insert into acct values (4, 4)");
        Savepoint first = a.setSavepoint();
        sa.executeUpdate("update acct set bal = 0 where id = 1");
        sa.executeUpdate("update acct set bal = 44 where id = 4"); // a row the transaction inserted
        Savepoint second = a.setSavepoint("second");
        sa.executeUpdate("delete from acct where id in (2, 4)");
        assertThat(all(sa)).containsExactly(List.of(1, 0L), List.of(3, 100L));

        a.rollback(second);
        assertThat(all(sa)).containsExactly(List.of(1, 0L), List.of(2, 100L), List.of(3, 100L), List.of(4, 44L));
        a.rollback(second); // a savepoint stays after a rollback to it
        a.rollback(first);
        assertThat(all(sa)).containsExactly(List.of(1, 100L), List.of(2, 100L), List.of(3, 100L), List.of(4, 4L));
        assertThatThrownBy(() -> a.rollback(second)).isInstanceOf(SQLException.class) // rolled back past it
                .satisfies(e -> assertThat(state(e)).isEqualTo("3B001"));
        assertThat(all(sb)).hasSize(3); // nothing committed yet

        sa.executeUpdate("update acct set bal = 3 where id = 3");
        a.releaseSavepoint(first);
        assertThatThrownBy(() -> a.rollback(first)).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(state(e)).isEqualTo("3B001")).hasMessageContaining("does not exist");
        assertThat(first.getSavepointId()).isEqualTo(1);
        assertThatThrownBy(first::getSavepointName).isInstanceOf(SQLException.class);
        assertThat(second.getSavepointName()).isEqualTo("second");
        assertThatThrownBy(second::getSavepointId).isInstanceOf(SQLException.class);
        a.commit();
        assertThat(all(sb)).containsExactly(List.of(1, 100L), List.of(2, 100L), List.of(3, 3L), List.of(4, 4L));
    }

    @Test
    void jdbcSavepointsFromDriverManager() throws SQLException {
        try (Connection a = open("sp-jdbc"); Connection b = open("sp-jdbc")) {
            jdbcSavepoints(a, b);
        }
    }

    /** A pool hands out its own proxy of the driver's connection and calls the driver's methods through the interface. */
    @Test
    void jdbcSavepointsThroughADataSourceThatWrapsConnectionsAsPoolsDo() throws SQLException {
        DataSource pool = new PoolLike("jdbc:numacol:mem:sp-pool");
        try (Connection a = pool.getConnection(); Connection b = pool.getConnection()) {
            assertThat(Proxy.isProxyClass(a.getClass())).isTrue();
            jdbcSavepoints(a, b);
        }
    }

    @Test
    void sqlSavepoints() throws SQLException {
        try (Connection a = open("sp-sql"); Connection b = open("sp-sql");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            accounts(sa);
            sa.execute("BEGIN");
            sa.executeUpdate("delete from acct where id = 1");
            sa.execute("SAVEPOINT one");
            sa.executeUpdate("delete from acct where id = 2");
            sa.execute("savepoint \"Two words\";");
            sa.executeUpdate("delete from acct where id = 3");
            assertThat(all(sa)).isEmpty();
            sa.execute("rollback to savepoint \"Two words\"");
            assertThat(all(sa)).containsExactly(List.of(3, 100L));
            sa.execute("ROLLBACK TO ONE"); // names ignore case, as numacol's identifiers do
            assertThat(all(sa)).containsExactly(List.of(2, 100L), List.of(3, 100L));
            assertThatThrownBy(() -> sa.execute("ROLLBACK TO SAVEPOINT \"Two words\"")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("3B001")).hasMessageContaining("savepoint Two words does not exist");
            sa.executeUpdate("insert into acct values (5, 5)");
            sa.execute("RELEASE SAVEPOINT one");
            assertThatThrownBy(() -> sa.execute("rollback to one")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("3B001"));
            sa.execute("savepoint one");
            sa.execute("savepoint one"); // a second of the name hides the first, as in PostgreSQL
            sa.executeUpdate("insert into acct values (6, 6)");
            sa.execute("release one");
            sa.execute("rollback work to savepoint one"); // the first one
            assertThat(all(sb)).hasSize(3);
            sa.execute("COMMIT");
            assertThat(all(sb)).containsExactly(List.of(2, 100L), List.of(3, 100L), List.of(5, 5L));
        }
    }

    @Test
    void savepointsNeedATransactionAndAName() throws SQLException {
        try (Connection a = open("sp-errors"); Connection b = open("sp-errors"); Statement sa = a.createStatement()) {
            accounts(sa);
            assertThatThrownBy(a::setSavepoint).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("25P01")).hasMessageContaining("no transaction in progress");
            assertThatThrownBy(() -> sa.execute("SAVEPOINT x")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("25P01"));
            assertThatThrownBy(() -> sa.execute("ROLLBACK TO x")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("25P01"));
            a.setAutoCommit(false);
            assertThatThrownBy(() -> sa.execute("RELEASE SAVEPOINT nope")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("3B001")).hasMessageContaining("savepoint nope does not exist");
            b.setAutoCommit(false);
            Savepoint ofB = b.setSavepoint();
            assertThatThrownBy(() -> a.rollback(ofB)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("3B001"));
            Savepoint ofA = a.setSavepoint("a");
            sa.executeUpdate("delete from acct where id = 1");
            sa.execute("create table other (x int)"); // DDL commits the transaction first: its savepoints end with it
            assertThatThrownBy(() -> a.rollback(ofA)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("3B001"));
            assertThat(rows(b.createStatement(), "select count(*) from acct")).containsExactly(List.of(3L)); // b's snapshot
            b.commit();
            assertThat(rows(b.createStatement(), "select count(*) from acct")).containsExactly(List.of(2L));
            Savepoint beforeCommit = a.setSavepoint();
            a.commit();
            assertThatThrownBy(() -> a.releaseSavepoint(beforeCommit)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("3B001"));
        }
    }

    /** A failing statement is undone whole, and the transaction goes on with what came before it. */
    @Test
    void aFailingStatementLeavesItsTransactionUsable() throws SQLException {
        try (Connection a = open("sp-atomic"); Connection b = open("sp-atomic");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            accounts(sa);
            a.setAutoCommit(false);
            sa.executeUpdate("update acct set bal = 50 where id = 1");
            assertThatThrownBy(() -> sa.executeUpdate("update acct set bal = 1000 / (id - 2)")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> sa.executeUpdate("insert into acct values (7, 7), (8, null)")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> sa.executeUpdate("delete from acct where id = 'x'")).isInstanceOf(SQLException.class);
            try (PreparedStatement p = a.prepareStatement("insert into acct values (?, ?)")) {
                p.setInt(1, 9);
                p.setLong(2, 9);
                p.addBatch();
                p.setInt(1, 10);
                p.setNull(2, java.sql.Types.BIGINT);
                p.addBatch();
                assertThatThrownBy(p::executeBatch).isInstanceOf(BatchUpdateException.class);
            }
            assertThat(all(sa)).containsExactly(List.of(1, 50L), List.of(2, 100L), List.of(3, 100L));
            sa.executeUpdate("insert into acct values (4, 4)");
            a.commit();
            assertThat(all(sb)).containsExactly(List.of(1, 50L), List.of(2, 100L), List.of(3, 100L), List.of(4, 4L));
        }
    }

    @Test
    void databaseMetaDataTellsOfTransactions() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:")) {
            DatabaseMetaData m = c.getMetaData();
            assertThat(m.supportsTransactions()).isTrue();
            assertThat(m.supportsSavepoints()).isTrue();
            assertThat(m.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_UNCOMMITTED)).isTrue();
            assertThat(m.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_COMMITTED)).isTrue();
            assertThat(m.supportsTransactionIsolationLevel(Connection.TRANSACTION_REPEATABLE_READ)).isTrue();
            assertThat(m.supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE)).isFalse();
            assertThat(m.supportsTransactionIsolationLevel(Connection.TRANSACTION_NONE)).isFalse();
            assertThat(m.getDefaultTransactionIsolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ)
                    .isEqualTo(c.getTransactionIsolation());
            assertThat(m.dataDefinitionCausesTransactionCommit()).isTrue();
            assertThat(m.supportsDataManipulationTransactionsOnly()).isFalse();
            assertThat(m.supportsDataDefinitionAndDataManipulationTransactions()).isFalse();
            assertThat(m.getConnection()).isSameAs(c);
        }
    }

    /** A DataSource that hands out connections behind proxies of its own, as connection pools (HikariCP, DBCP) do. */
    private record PoolLike(String url) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            Connection real = DriverManager.getConnection(url);
            return (Connection) Proxy.newProxyInstance(SavepointTest.class.getClassLoader(), new Class<?>[]{Connection.class},
                    (proxy, method, args) -> {
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
