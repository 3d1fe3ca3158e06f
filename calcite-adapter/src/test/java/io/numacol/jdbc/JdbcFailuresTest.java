package io.numacol.jdbc;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each JDBC entry point provoked to fail: what leaves it is an SQLException with an SQLSTATE (and
 * the JDBC 4 subclass of the state's class), never an Error or an unchecked exception, and the
 * data stays as it was.
 */
class JdbcFailuresTest {

    /** {@code call} fails with an SQLException of {@code state}. */
    private static void failsWith(String state, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(e.getMessage()).isEqualTo(state));
    }

    @Test
    void connectionPropertiesAreCheckedByName() throws SQLException {
        failsWith("HY024", () -> DriverManager.getConnection("jdbc:numacol:;memorylimit=32MB"));
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;memorylimit=32MB"))
                .hasMessageContaining("unknown connection property 'memorylimit' (did you mean memoryLimit?)")
                .hasMessageContaining("rowsPerPart");
        failsWith("HY024", () -> DriverManager.getConnection("jdbc:numacol:;persist=true"));
        Properties info = new Properties();
        info.setProperty("stealpolicy", "OS");
        failsWith("HY024", () -> DriverManager.getConnection("jdbc:numacol:", info));
        failsWith("HY024", () -> DriverManager.getConnection("jdbc:numacol:;groupsPerNode=100000"));
        failsWith("HY024", () -> DriverManager.getConnection("jdbc:numacol:;groupsPerNode=many"));
        // what tools and pools pass, and Calcite's own, are known
        Properties user = new Properties();
        user.setProperty("user", "sa");
        user.setProperty("password", "");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;fun=standard", user)) {
            assertThat(rows(c.createStatement(), "select 1")).containsExactly(List.of(1));
        }
    }

    @Test
    void aSharedDatabaseRefusesOtherSettings() throws SQLException {
        try (Connection first = DriverManager.getConnection("jdbc:numacol:mem:settings;rowsPerPart=1000")) {
            failsWith("HY024", () -> DriverManager.getConnection("jdbc:numacol:mem:settings;rowsPerPart=2000"));
            assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:mem:settings;memoryLimit=1GB"))
                    .hasMessageContaining("database settings is open with no memoryLimit");
            try (Connection same = DriverManager.getConnection("jdbc:numacol:mem:settings;rowsPerPart=1000");
                 Connection plain = DriverManager.getConnection("jdbc:numacol:mem:settings")) {
                assertThat(same.isValid(1) && plain.isValid(1) && first.isValid(1)).isTrue();
            }
        }
    }

    @Test
    void statementsFailWithTheirStates() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id integer not null, name varchar(3))");
            s.execute("insert into t values (1, 'a'), (2, 'b')");
            failsWith("42601", () -> s.execute("selec 1"));
            failsWith("42P01", () -> s.executeQuery("select * from nothere"));
            failsWith("42703", () -> s.executeQuery("select nocolumn from t"));
            failsWith("42883", () -> s.executeQuery("select nofunction(id) from t"));
            failsWith("22012", () -> rows(s, "select id / (id - id) from t"));
            failsWith("22003", () -> rows(s, "select id * 2000000000 * 2 from t"));
            failsWith("22001", () -> s.executeUpdate("insert into t values (3, 'toolong')"));
            failsWith("22P02", () -> s.executeUpdate("insert into t values ('x', 'c')"));
            failsWith("07001", () -> s.executeQuery("select * from t where id = ?"));
            failsWith("42P07", () -> s.execute("create table t (x integer)"));
            assertThatThrownBy(() -> s.executeQuery("select 1 / 0")).isInstanceOf(SQLDataException.class);
            assertThatThrownBy(() -> s.executeQuery("selec 1")).isInstanceOf(SQLSyntaxErrorException.class)
                    .hasMessageNotContaining("java.lang.").hasMessageNotContaining("java.sql.");
            assertThat(rows(s, "select id, name from t order by id")).containsExactly(List.of(1, "a"), List.of(2, "b"));
        }
    }

    @Test
    void preparedStatementsBatchesResultSetsAndTheConnectionFailAsSqlExceptions() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id integer not null, name varchar(3))");
            s.execute("insert into t values (1, 'a'), (0, 'b')");
            failsWith("42601", () -> c.prepareStatement("select from where"));
            try (PreparedStatement p = c.prepareStatement("insert into t values (?, ?)")) {
                p.setInt(1, 5);
                p.setString(2, "waytoolong");
                assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isNotNull());
            }
            try (PreparedStatement p = c.prepareStatement("select 10 / id from t where name = ?")) {
                p.setString(1, "b");
                failsWith("22012", () -> { // the first rows are computed at once, or as they are read
                    try (ResultSet rs = p.executeQuery()) {
                        rs.next();
                    }
                });
            }
            try (ResultSet rs = s.executeQuery("select name from t order by id")) {
                rs.next();
                assertThatThrownBy(() -> rs.getInt(1)).isInstanceOf(SQLException.class);
                assertThatThrownBy(() -> rs.getString(7)).isInstanceOf(SQLException.class);
            }
            s.addBatch("insert into t values (7, 'c')");
            s.addBatch("insert into t values (8, 'toolong')");
            assertThatThrownBy(s::executeBatch).isInstanceOf(SQLException.class);
            failsWith("0A000", () -> c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
            assertThatThrownBy(() -> c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> c.setSchema("nosuchschema")).isInstanceOf(SQLException.class);
            assertThat(c.getMetaData().getTables(null, null, "nothing%", null).next()).isFalse();
        }
    }

    /**
     * A 10 MB string literal (one token) and a CREATE TABLE AS ending in 40,000 spaces: JavaCC's
     * stream grew 2 KB at a time (over 60 s) and a lazy regular expression tried every end (25 s).
     */
    @Test
    void hugeLiteralsAndLongWhiteSpaceRead() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (s varchar)");
            String big = "ab".repeat(5_000_000);
            assertThat(s.executeUpdate("insert into t values ('" + big + "')")).isEqualTo(1);
            assertThat(rows(s, "select char_length(s) from t where s = '" + big + "'")).containsExactly(List.of(10_000_000));
            s.execute("create table u as select 1 as x" + " ".repeat(40_000) + ";" + " ".repeat(40_000));
            s.execute("create view v as select x from u" + " ".repeat(40_000));
            assertThat(rows(s, "select x from v")).containsExactly(List.of(1));
        }
    }

    /**
     * Deep expressions plan, on a deeper stack than the caller's where they overflow it: 1,000
     * nested parentheses, a sum of a wide table's 2,000 columns, an IN list of 20,000 values (each
     * threw a raw StackOverflowError). What overflows even that stack is 54001.
     */
    @Test
    void deepExpressionsPlanAndWhatIsTooDeepIsAnSqlException() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            assertThat(rows(s, "select " + "(".repeat(1_000) + "1" + ")".repeat(1_000))).containsExactly(List.of(1));
            StringBuilder columns = new StringBuilder();
            StringBuilder sum = new StringBuilder();
            StringBuilder ones = new StringBuilder();
            for (int i = 0; i < 2_000; i++) {
                columns.append(i == 0 ? "" : ", ").append("c").append(i).append(" integer");
                sum.append(i == 0 ? "" : " + ").append("c").append(i);
                ones.append(i == 0 ? "" : ", ").append(i % 3);
            }
            s.execute("create table w (" + columns + ")");
            s.execute("insert into w values (" + ones + ")");
            assertThat(rows(s, "select " + sum + " from w")).containsExactly(List.of(1_999));
            StringBuilder in = new StringBuilder();
            for (int i = 0; i < 20_000; i++) {
                in.append(i == 0 ? "" : ", ").append(i * 2);
            }
            assertThat(rows(s, "select count(*) from w where c2 in (" + in + ") and c1 not in (" + in + ")"))
                    .containsExactly(List.of(1L));
        }
        SQLException tooDeep = SqlStates.of(new StackOverflowError());
        assertThat(tooDeep.getSQLState()).isEqualTo("54001");
        assertThat(tooDeep.getMessage()).contains("nest too deeply");
        assertThat(SqlStates.of(new OutOfMemoryError("Java heap space")).getSQLState()).isEqualTo("53200");
        assertThatThrownBy(() -> SqlStates.of(new OutOfMemoryError("Metaspace"))).isInstanceOf(OutOfMemoryError.class);
        assertThat(SqlStates.of(new AssertionError("getRelOptTable returned null")).getSQLState()).isEqualTo("40001");
        // a planner rule's own assertion is an internal error, though its message names a NOT NULL type
        IllegalArgumentException mismatch = new IllegalArgumentException("Type mismatch: rowtype of rel before registration: BIGINT NOT NULL");
        mismatch.setStackTrace(new StackTraceElement[] {new StackTraceElement("org.apache.calcite.util.Litmus$1", "fail", null, 1)});
        assertThat(SqlStates.of(new RuntimeException("Error while applying rule ProjectFilterTransposeRule", mismatch)).getSQLState())
                .isEqualTo("XX000");
        assertThat(SqlStates.of(new IllegalArgumentException("column x is NOT NULL but got NULL")).getSQLState()).isEqualTo("23502");
        // a cancel thrown out of the planner, wrapped by Calcite's rule call and Avatica: said as the cancel it is
        SQLException stopped = SqlStates.of(new SQLException("Error while executing SQL \"select 1\": Error while applying rule"
                + " NumacolToEnumerableConverterRule", new RuntimeException("Error while applying rule NumacolToEnumerableConverterRule",
                new java.util.concurrent.CancellationException("query canceled (Statement.cancel())"))));
        assertThat(stopped.getSQLState()).isEqualTo("57014");
        assertThat(stopped.getMessage()).isEqualTo("query canceled (Statement.cancel())");
    }
}
