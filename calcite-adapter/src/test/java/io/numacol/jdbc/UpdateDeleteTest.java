package io.numacol.jdbc;

import io.numacol.database.Appender;
import io.numacol.storage.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UpdateDeleteTest {

    @Test
    void deleteAndUpdateChangeTheRowsTheWhereKeeps() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id bigint not null, qty int, price decimal(8,2), shipped date, name varchar(5))");
            s.executeUpdate("insert into t values (1, 10, 1.5, date '2024-02-29', 'a'), (2, null, 2, null, null), "
                    + "(3, 30, 3.25, date '2024-03-01', 'c'), (4, 40, null, null, 'd')");
            assertThat(s.executeUpdate("delete from t where qty > 35")).isEqualTo(1);
            assertThat(s.executeUpdate("delete from t where qty > 35")).isZero();
            assertThat(s.executeUpdate("update t set qty = qty + 1, name = 'x' || name where id <> 2")).isEqualTo(2);
            // a NULL condition changes nothing, like FALSE
            assertThat(s.executeUpdate("update t set price = 0 where qty > 0 and name is null")).isZero();
            assertThat(s.executeUpdate("update t set shipped = '2024-12-24', price = null where shipped is null")).isEqualTo(1);
            assertThat(rows(s, "select id, qty, price, shipped, name from t order by id")).containsExactly(
                    List.of(1L, 11, new BigDecimal("1.50"), Date.valueOf("2024-02-29"), "xa"),
                    Arrays.asList(2L, null, null, Date.valueOf("2024-12-24"), null),
                    List.of(3L, 31, new BigDecimal("3.25"), Date.valueOf("2024-03-01"), "xc"));
            assertThat(s.executeUpdate("delete from t")).isEqualTo(3);
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(0L));
            s.executeUpdate("insert into t (id) values (9)");
            assertThat(rows(s, "select id from t")).containsExactly(List.of(9L));
        }
    }

    @Test
    void truncateRemovesEveryRowAndItsMemory() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=2");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int, name varchar(10))");
            long empty = NumacolDriver.database(c).memory().accounting().totalBytes();
            s.executeUpdate("insert into t values (1, 'a'), (2, 'b'), (3, 'c')");
            assertThat(s.executeUpdate("truncate table t")).isEqualTo(3);
            assertThat(NumacolDriver.database(c).memory().accounting().totalBytes()).isEqualTo(empty);
            assertThat(s.executeUpdate("truncate t")).isZero();
            s.executeUpdate("insert into t values (4, 'd')");
            assertThat(rows(s, "select id, name from t")).containsExactly(List.of(4, "d"));
            assertThatThrownBy(() -> s.executeUpdate("truncate table nosuch")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("table nosuch does not exist");
        }
    }

    @Test
    void conditionsAndValuesWithSubqueriesAndAliases() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int, grp int, v int)");
            s.execute("create table g (grp int, bonus int)");
            s.executeUpdate("insert into t values (1, 1, 10), (2, 1, 20), (3, 2, 30), (4, 3, 40), (5, null, 50)");
            s.executeUpdate("insert into g values (1, 100), (2, 200)");
            assertThat(s.executeUpdate("update t as a set v = a.v + (select g.bonus from g where g.grp = a.grp) "
                    + "where a.grp in (select grp from g)")).isEqualTo(3);
            assertThat(s.executeUpdate("delete from t where v > (select avg(v) from t)")).isEqualTo(2);
            assertThat(s.executeUpdate("delete from t as a where not exists (select 1 from g where g.grp = a.grp)")).isEqualTo(2);
            assertThat(rows(s, "select id, v from t order by id")).containsExactly(List.of(1, 110));
        }
    }

    @Test
    void aNewValueIsComputedOnlyForTheRowsTheWhereKeeps() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (x int)");
            s.executeUpdate("insert into t values (0), (2), (5)");
            assertThat(s.executeUpdate("update t set x = 10 / x where x <> 0")).isEqualTo(2);
            assertThat(rows(s, "select x from t order by x")).containsExactly(List.of(0), List.of(2), List.of(5));
        }
    }

    @Test
    void theWhereIsEvaluatedOncePerRow() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (x int not null, y int)");
            StringBuilder values = new StringBuilder();
            for (int i = 1; i <= 500; i++) {
                values.append(i == 1 ? "" : ", ").append("(").append(i).append(", ").append(i).append(")");
            }
            s.executeUpdate("insert into t values " + values);
            // a value per row where its flag holds: never a NULL, never a row counted but unchanged
            int changed = s.executeUpdate("update t set x = x + 1000, y = -y where rand() < 0.5");
            assertThat(rows(s, "select count(*), count(y) from t where x >= 1000 and y <= 0"))
                    .containsExactly(List.of((long) changed, (long) changed));
            assertThat(rows(s, "select count(*) from t where x < 1000 and y > 0")).containsExactly(List.of(500L - changed));
        }
    }

    @Test
    void aRefusedValueOrAFailureLeavesTheTableAsItWas() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=3");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int not null, name varchar(3), d date)");
            s.executeUpdate("insert into t values (1, 'a', null), (2, 'b', null), (3, 'c', null), (4, 'd', null), (5, 'e', null)");
            s.executeUpdate("delete from t where id = 2"); // a part with a deleted row: the bitmap must stay as it is too
            List<List<Object>> before = rows(s, "select id, name, d from t order by id");
            List<List<Object>> storage = rows(s, "select * from sys.columns where lower(table_name) = 't'");
            List<List<Object>> tables = rows(s, "select * from sys.tables where lower(table_name) = 't'");
            assertThat(tables).hasSize(1);
            assertThatThrownBy(() -> s.executeUpdate("update t set name = 'toolong' where id = 4")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("column name: 'toolong' (7 characters) is longer than VARCHAR(3)");
            assertThatThrownBy(() -> s.executeUpdate("update t set name = 'toolong'")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("is longer than VARCHAR(3)");
            assertThatThrownBy(() -> s.executeUpdate("update t set id = 2.5")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("value 2.5 is not a whole number");
            assertThatThrownBy(() -> s.executeUpdate("update t set id = null where id = 5")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("null value in column \"id\" of relation \"t\" violates not-null constraint");
            assertThatThrownBy(() -> s.executeUpdate("update t set d = '2024-13-01'")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("'2024-13-01' is not a valid DATE");
            assertThatThrownBy(() -> s.executeUpdate("update t set id = 10 / (id - 3)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("by zero");
            assertThatThrownBy(() -> s.executeUpdate("delete from t where 10 / (id - 3) > 0")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("by zero");
            assertThatThrownBy(() -> s.executeUpdate("update t set nosuch = 1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Unknown target column 'nosuch'");
            assertThat(rows(s, "select id, name, d from t order by id")).isEqualTo(before);
            assertThat(rows(s, "select * from sys.columns where lower(table_name) = 't'")).as("nothing stored, nothing marked").isEqualTo(storage);
            assertThat(rows(s, "select * from sys.tables where lower(table_name) = 't'")).isEqualTo(tables);
        }
    }

    /**
     * DELETE marks rows in their parts' deletion bitmaps, UPDATE marks the old versions and
     * appends the new ones (the delta): the parts read before stay as they are, until a merge
     * rebuilds those with a fifth of their rows deleted.
     */
    @Test
    void deletesMarkRowsInPlaceUntilAMergeCompactsTheirParts() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=1000");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int not null, v varchar(10))");
            // parts counted below: a background merge would compact the part with 23.5% deleted as soon as the DELETE ends
            NumacolDriver.database(c).pauseMerges(true);
            try (Appender a = NumacolDriver.database(c).appender("T")) {
                for (int i = 0; i < 5000; i++) {
                    a.append(i, "v" + i % 7);
                }
            }
            Table table = NumacolDriver.database(c).catalog().get("T");
            NumacolDriver.database(c).mergeParts("T");
            List<List<Object>> columns = rows(s, "select part, column_name, dictionary_size, index_vector_bytes from sys.columns "
                    + "where lower(table_name) = 't' order by part, column_name");
            assertThat(s.executeUpdate("delete from t where mod(id, 10) = 0")).isEqualTo(500);
            assertThat(rows(s, "select row_count, deleted_rows, part_count from sys.tables where lower(table_name) = 't'"))
                    .containsExactly(List.of(4500L, 500L, 5));
            assertThat(rows(s, "select part, column_name, dictionary_size, index_vector_bytes from sys.columns "
                    + "where lower(table_name) = 't' order by part, column_name")).as("the parts themselves unchanged").isEqualTo(columns);
            assertThat(s.executeUpdate("update t set v = 'new' where id between 1 and 9")).isEqualTo(9);
            assertThat(rows(s, "select row_count, deleted_rows, part_count from sys.tables where lower(table_name) = 't'"))
                    .as("the new versions in a part of their own").containsExactly(List.of(4500L, 509L, 6));
            assertThat(rows(s, "select count(*), count(distinct id), min(id), max(id) from t"))
                    .containsExactly(List.of(4500L, 4500L, 1, 4999));
            assertThat(rows(s, "select v, count(*) from t where id < 20 group by v order by v")).containsExactly(
                    List.of("new", 9L), List.of("v0", 1L), List.of("v1", 1L), List.of("v2", 1L), List.of("v3", 1L),
                    List.of("v4", 2L), List.of("v5", 2L), List.of("v6", 1L));
            assertThat(s.executeUpdate("delete from t where id >= 4000 and id < 4150")).isEqualTo(135);
            assertThat(table.parts().get(4).deleted().count()).isEqualTo(235);
            NumacolDriver.database(c).mergeParts("T"); // the last part of the load: 235 of 1,000 deleted, rebuilt
            assertThat(rows(s, "select row_count, deleted_rows from sys.tables where lower(table_name) = 't'"))
                    .containsExactly(List.of(4365L, 409L));
            assertThat(rows(s, "select count(*) from t where mod(id, 10) = 0 or id between 4000 and 4149")).containsExactly(List.of(0L));
        }
    }

    /** An INSERT, DELETE or UPDATE waiting for another change of its table stops at its timeout, and the table stays as it was. */
    @Test
    @Timeout(60) // before, the statement waited for the other change however long it took
    void aWaitForAnotherChangeEndsAtTheTimeout() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int not null)");
            s.executeUpdate("insert into t values (1), (2), (3)");
            Table t = NumacolDriver.database(c).catalog().get("t");
            CountDownLatch locked = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            Thread other = new Thread(() -> { // another change of t, under way on another thread
                t.lockWrites();
                try {
                    locked.countDown();
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    t.unlockWrites();
                }
            });
            other.start();
            try {
                locked.await();
                s.setQueryTimeout(1);
                assertThatThrownBy(() -> s.executeUpdate("delete from t where id = 2")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("timeout of 1000 ms");
                assertThatThrownBy(() -> s.executeUpdate("update t set id = 7")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("timeout of 1000 ms");
                assertThatThrownBy(() -> s.executeUpdate("insert into t values (9)")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("timeout of 1000 ms");
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            } finally {
                done.countDown();
            }
            s.setQueryTimeout(0);
            assertThat(rows(s, "select id from t order by id")).containsExactly(List.of(1), List.of(2), List.of(3));
            assertThat(s.executeUpdate("delete from t where id = 2")).isEqualTo(1);
        }
    }

    @Test
    void viewsAndSysTablesTakeNoChanges() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int)");
            s.execute("create view v as select id from t");
            assertThatThrownBy(() -> s.executeUpdate("delete from v")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("main.v takes no DELETE: it is a view or a sys table");
            assertThatThrownBy(() -> s.executeUpdate("delete from sys.nodes")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("sys.nodes takes no DELETE");
            assertThatThrownBy(() -> s.executeUpdate("insert into sys.nodes select * from sys.nodes")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("sys.nodes takes no INSERT");
            assertThatThrownBy(() -> s.executeUpdate("merge into t using (values (1)) as x(id) on t.id = x.id "
                    + "when matched then update set id = 2")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not support MERGE yet");
        }
    }

    @Test
    void preparedWithParameters() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int, name varchar(10), price decimal(8,2))");
            s.executeUpdate("insert into t values (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
            // the condition's parameter comes after the values' in the text and in the metadata
            try (PreparedStatement p = c.prepareStatement("update t set name = ?, price = ? where id >= ?")) {
                assertThat(p.getParameterMetaData().getParameterCount()).isEqualTo(3);
                assertThat(p.getParameterMetaData().getParameterTypeName(1)).isEqualTo("VARCHAR");
                assertThat(p.getParameterMetaData().getParameterTypeName(3)).isEqualTo("INTEGER");
                p.setString(1, "z");
                p.setBigDecimal(2, new BigDecimal("20"));
                p.setInt(3, 2);
                assertThat(p.executeUpdate()).isEqualTo(2);
                p.setString(1, "y");
                p.setBigDecimal(2, new BigDecimal("300"));
                p.setInt(3, 3);
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement p = c.prepareStatement("delete from t where id = ?")) {
                for (int id : new int[]{1, 7}) {
                    p.setInt(1, id);
                    p.addBatch();
                }
                assertThat(p.executeBatch()).containsExactly(1, 0);
            }
            assertThat(rows(s, "select id, name, price from t order by id")).containsExactly(
                    List.of(2, "z", new BigDecimal("20.00")), List.of(3, "y", new BigDecimal("300.00")));
        }
    }

    /** Rows inserted while a DELETE or UPDATE runs are kept: the rewrite replaces only the parts it read. */
    @ParameterizedTest
    @ValueSource(strings = {"delete from t where x % 2 = 0", "update t set x = x + 1000000 where x % 2 = 0"})
    void concurrentInsertsAreNeverLost(String change) throws Exception {
        String url = "jdbc:numacol:mem:rewriteRace" + change.length() + ";rowsPerPart=500";
        try (Connection writer = DriverManager.getConnection(url); Statement w = writer.createStatement();
             Connection other = DriverManager.getConnection(url); Statement o = other.createStatement()) {
            w.execute("create table t (x int)");
            try (Appender a = NumacolDriver.database(writer).appender("t")) {
                for (int i = 0; i < 4000; i++) {
                    a.append(i);
                }
            }
            AtomicBoolean stop = new AtomicBoolean();
            CompletableFuture<Integer> inserts = CompletableFuture.supplyAsync(() -> {
                int n = 0;
                try {
                    while (!stop.get() && n < 2000) {
                        o.executeUpdate("insert into t values (-1), (-3)"); // odd: no statement below touches them
                        n += 2;
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                return n;
            });
            long changed = 0;
            for (int round = 0; round < 5; round++) {
                changed += w.executeUpdate(change);
            }
            stop.set(true);
            int inserted = inserts.get();
            boolean delete = change.startsWith("delete");
            // the 2000 even rows: deleted once, or updated in each round (x + 1000000 is even again)
            assertThat(changed).isEqualTo(delete ? 2000 : 5 * 2000);
            assertThat(rows(w, "select count(*), count(case when x < 0 then 1 end) from t"))
                    .containsExactly(List.of((delete ? 2000L : 4000L) + inserted, (long) inserted));
        }
    }
}
