package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class BatchInsertTest {

    @Test
    void batchedInsertsGoThroughTheAppender() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int, name varchar(10), shipped date)");
            PreparedStatement p = c.prepareStatement("insert into t (name, id, shipped) values (?, ?, ?)");
            for (int i = 0; i < 5; i++) {
                p.setString(1, "n" + i);
                p.setLong(2, i);
                p.setDate(3, Date.valueOf("2024-01-0" + (i + 1)));
                p.addBatch();
            }
            assertThat(p.executeBatch()).containsExactly(1, 1, 1, 1, 1);
            assertThat(rows(s, "select id, qty, name, shipped from t where id = 4"))
                    .containsExactly(Arrays.asList(4L, null, "n4", Date.valueOf("2024-01-05")));
            // one part per batch, not one per row
            assertThat(NumacolDriver.database(c).catalog().get("t").parts()).hasSize(1);
        }
    }

    /** The two ways a prepared INSERT batch runs: straight into an Appender, or planned by Calcite entry by entry. */
    enum Route {
        APPENDER("insert into t (id, qty, name) values (?, ?, ?)"),
        PLANNED("insert into t (id, qty, name) values (?, ?, cast(? as varchar(20)))");

        final String sql;

        Route(String sql) {
            this.sql = sql;
        }
    }

    /**
     * A value one entry of the batch gets wrong, and what the error must say about it: the
     * Appender names the column, the planned route the parameter (whose type Calcite inferred).
     */
    enum Mistake {
        NOT_NULL("id", "null value") {
            @Override
            void set(PreparedStatement p) throws SQLException {
                p.setNull(1, Types.BIGINT);
            }
        },
        OUT_OF_RANGE("qty", "3000000000", "parameter 2 (INTEGER)") {
            @Override
            void set(PreparedStatement p) throws SQLException {
                p.setLong(2, 3_000_000_000L);
            }
        },
        NOT_A_NUMBER("qty", "abc", "parameter 2 (INTEGER)") {
            @Override
            void set(PreparedStatement p) throws SQLException {
                p.setString(2, "abc");
            }
        },
        TOO_LONG("name", "toolong") {
            @Override
            void set(PreparedStatement p) throws SQLException {
                p.setString(3, "toolong");
            }
        };

        final String column;
        final String value;
        final String plannedWhere;

        Mistake(String column, String value) {
            this(column, value, column);
        }

        Mistake(String column, String value, String plannedWhere) {
            this.column = column;
            this.value = value;
            this.plannedWhere = plannedWhere;
        }

        String where(Route route) {
            return route == Route.APPENDER ? column : plannedWhere;
        }

        abstract void set(PreparedStatement p) throws SQLException;
    }

    static Stream<Arguments> failedBatches() {
        Random random = new Random(7);
        return Arrays.stream(Route.values()).flatMap(route -> Arrays.stream(Mistake.values()).map(mistake -> {
            int size = 1 + random.nextInt(40);
            return Arguments.of(route, mistake, size, random.nextInt(size));
        }));
    }

    @ParameterizedTest(name = "{0} {1}: entry {3} of {2}")
    @MethodSource("failedBatches")
    void aFailedBatchThrowsBatchUpdateExceptionAndStoresNothing(Route route, Mistake mistake, int size, int bad)
            throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int, name varchar(5))");
            s.executeUpdate("insert into t values (-1, -1, 'old')");
            List<List<Object>> before = rows(s, "select id, qty, name from t");
            PreparedStatement p = c.prepareStatement(route.sql);
            for (int i = 0; i < size; i++) {
                p.setLong(1, i);
                p.setInt(2, i);
                p.setString(3, "n" + i);
                if (i == bad) {
                    mistake.set(p);
                }
                p.addBatch();
            }
            BatchUpdateException e = catchThrowableOfType(BatchUpdateException.class, p::executeBatch);
            assertThat(e.getMessage()).contains("batch entry " + (bad + 1) + " of " + size + " failed, so nothing of the batch was stored")
                    .contains(mistake.where(route)).contains(mistake.value);
            // nothing took effect, so no entry counts as executed
            int[] failed = new int[size];
            Arrays.fill(failed, Statement.EXECUTE_FAILED);
            assertThat(e.getUpdateCounts()).containsExactly(failed);
            assertThat(e.getCause()).isNotNull();
            assertThat(rows(s, "select id, qty, name from t")).isEqualTo(before);

            // the failed batch is gone and the statement stays usable
            assertThat(p.executeBatch()).isEmpty();
            for (int i = 0; i < 3; i++) {
                p.setLong(1, 10 + i);
                p.setInt(2, i);
                p.setString(3, "ok");
                p.addBatch();
            }
            assertThat(p.executeBatch()).containsExactly(1, 1, 1);
            assertThat(rows(s, "select count(*), sum(qty) from t")).containsExactly(List.of(4L, 2L));
        }
    }

    @Test
    void aBadRowLeavesTheStatementUsableForPlainExecutes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int)");
            PreparedStatement p = c.prepareStatement("insert into t values (?, ?)");
            p.setLong(1, 1);
            p.setInt(2, 1);
            p.addBatch();
            p.setLong(1, 2);
            p.setLong(2, 3_000_000_000L);
            p.addBatch();
            assertThatThrownBy(p::executeBatch).isInstanceOf(BatchUpdateException.class)
                    .hasMessageContaining("batch entry 2 of 2 failed, so nothing of the batch was stored: "
                            + "parameter 2 (INTEGER, column qty): value 3000000000 is out of range");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(0L));
            // a plain execute takes the planned path
            p.setLong(1, 7);
            p.setInt(2, 8);
            assertThat(p.executeUpdate()).isEqualTo(1);
            assertThat(rows(s, "select id, qty from t")).containsExactly(List.of(7L, 8));
        }
    }

    @Test
    void otherBatchesRunAsCalciteRunsThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint, qty int)");
            PreparedStatement p = c.prepareStatement("insert into t values (?, ? + 1)");
            for (int i = 0; i < 3; i++) {
                p.setLong(1, i);
                p.setInt(2, i);
                p.addBatch();
            }
            assertThat(p.executeBatch()).containsExactly(1, 1, 1);
            assertThat(rows(s, "select sum(qty) from t")).containsExactly(List.of(6L));
        }
    }

    /** Not a benchmark: prints the rows per second of a narrow batched load, for the record. */
    @Test
    void narrowRowsPerSecond() throws SQLException {
        int rows = 200_000;
        int batch = 50_000;
        Random random = new Random(42);
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint, qty int)");
            PreparedStatement p = c.prepareStatement("insert into t values (?, ?)");
            long start = System.nanoTime();
            for (int i = 0; i < rows; i++) {
                p.setLong(1, i);
                p.setInt(2, random.nextInt(1000));
                p.addBatch();
                if ((i + 1) % batch == 0) {
                    p.executeBatch();
                }
            }
            long nanos = System.nanoTime() - start;
            System.out.printf("numacol batched insert: %d rows of (BIGINT, INT) in %.2f s = %.0f rows/s%n",
                    rows, nanos / 1e9, rows / (nanos / 1e9));
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of((long) rows));
        }
    }
}
