package io.numacol.jdbc;

import io.numacol.database.Database;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AlterTableTest {

    @Test
    void columnsAreAddedDroppedAndRenamedWithEveryRowKept() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;rowsPerPart=2");
             Statement s = c.createStatement()) {
            s.execute("create table a (id int not null, name varchar(5))");
            s.executeUpdate("insert into a values (1, 'x'), (2, null), (3, 'z')");
            s.execute("create index a_name on a (name)");
            s.execute("alter table a add column price decimal(8,2) default 1.5");
            s.execute("alter table a add d date");
            s.execute("alter table a add column n int not null default -3");
            assertThat(rows(s, "select * from a order by id")).containsExactly(
                    Arrays.asList(1, "x", new BigDecimal("1.50"), null, -3),
                    Arrays.asList(2, null, new BigDecimal("1.50"), null, -3),
                    Arrays.asList(3, "z", new BigDecimal("1.50"), null, -3));
            s.execute("alter table a rename column name to label");
            s.execute("alter table a drop column d");
            s.execute("alter table a drop column if exists d");
            s.execute("alter table a add column if not exists n int");
            assertThat(rows(s, "select id, label, n from a where label is not null order by id"))
                    .containsExactly(List.of(1, "x", -3), List.of(3, "z", -3));
            assertThat(rows(s, "select index_name, table_name, columns from sys.indexes")).containsExactly(List.of("a_name", "a", "label"));
            s.execute("create view av as select * from a");
            assertThat(rows(s, "select * from av where id = 1")).containsExactly(List.of(1, "x", new BigDecimal("1.50"), -3));
            s.execute("alter table a add column z int default 9");
            // the view's columns follow the table's
            assertThat(rows(s, "select * from av where id = 1")).containsExactly(List.of(1, "x", new BigDecimal("1.50"), -3, 9));
            s.execute("alter table a drop column z");
            s.execute("drop view av");
            s.execute("alter table a rename to b");
            assertThat(rows(s, "select count(*) from b")).containsExactly(List.of(3L));
            assertThat(rows(s, "select table_name from sys.indexes")).containsExactly(List.of("b"));
            assertThatThrownBy(() -> rows(s, "select * from a")).isInstanceOf(SQLException.class);
            s.executeUpdate("insert into b (id, label, n) values (4, 'w', 4)");
            assertThat(rows(s, "select sum(n), count(price) from b")).containsExactly(List.of(-5L, 4L)); // SUM of INTEGER is BIGINT, as in PostgreSQL; price took its DEFAULT
        }
    }

    @Test
    void aRefusedChangeLeavesTheTableAsItWas() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table a (id int not null, name varchar(5))");
            s.execute("create table other (x int)");
            s.executeUpdate("insert into a values (1, 'x'), (2, null)");
            List<List<Object>> before = rows(s, "select * from a order by id");
            assertThatThrownBy(() -> s.execute("alter table a add column n int not null"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column n is NOT NULL: give it a DEFAULT for the 2 rows");
            assertThatThrownBy(() -> s.execute("alter table a add column d date default '2024-13-01'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("'2024-13-01' is not a valid DATE");
            assertThatThrownBy(() -> s.execute("alter table a add column v varchar(2) default 'toolong'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("is longer than VARCHAR(2)");
            assertThatThrownBy(() -> s.execute("alter table a add column id int"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("table a already has a column id");
            assertThatThrownBy(() -> s.execute("alter table a drop column nosuch"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("table a has no column nosuch");
            assertThatThrownBy(() -> s.execute("alter table a rename column name to id"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("column id is defined twice");
            assertThatThrownBy(() -> s.execute("alter table a rename to other"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("table other already exists");
            assertThatThrownBy(() -> s.execute("alter table other drop column x"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("is the only column of table other");
            assertThatThrownBy(() -> s.execute("alter table nosuch add column x int"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("table nosuch does not exist");
            s.execute("alter table if exists nosuch add column x int");
            assertThatThrownBy(() -> s.execute("alter table a frobnicate"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("expected ADD, DROP, RENAME, ALTER [COLUMN] or SET PLACEMENT");
            assertThat(rows(s, "select * from a order by id")).isEqualTo(before);

            Database db = NumacolDriver.database(c);
            try (PreparedStatement p = c.prepareStatement("select count(*) from a");
                 PreparedStatement u = c.prepareStatement("delete from a where id = 1")) {
                s.execute("alter table a add column extra int default 7");
                // planned against the table ALTER replaced: planned again, as PostgreSQL does
                assertThat(rows(p.executeQuery())).containsExactly(List.of(2L));
                assertThat(u.executeUpdate()).isEqualTo(1);
            }
            assertThat(rows(s, "select count(*), sum(extra) from a")).containsExactly(List.of(1L, 7L));
            s.execute("drop table a");
            s.execute("drop table other");
            assertThat(db.memory().accounting().totalBytes()).as("the tables ALTER replaced are freed").isZero();
        }
    }

    @Test
    void aQueryStartedBeforeAnAlterReadsTheTableItStartedWithAndItsMemoryGoesWhenItEnds() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:alter-reader");
             Connection other = DriverManager.getConnection("jdbc:numacol:mem:alter-reader");
             Statement s = c.createStatement();
             Statement o = other.createStatement()) {
            s.execute("create table t (a int, b varchar(10))");
            s.executeUpdate("insert into t values (1, 'one'), (2, 'two'), (3, 'three')");
            Database db = NumacolDriver.database(c);
            long oneVersion = db.memory().accounting().totalBytes();
            try (ResultSet r = s.executeQuery("select a, b from t order by a")) {
                // the query runs at its first row: after the ALTER, on the table as it was when it started
                o.execute("alter table t drop column b");
                assertThat(db.catalog().retiredTables()).as("the old version waits for its reader").isEqualTo(1);
                assertThat(rows(r)).containsExactly(List.of(1, "one"), List.of(2, "two"), List.of(3, "three"));
            }
            assertThat(db.catalog().retiredTables()).as("freed once its reader ended").isZero();
            try (ResultSet r = s.executeQuery("select * from t")) {
                o.execute("drop table t");
                assertThat(rows(r)).hasSize(3); // a DROP too waits for the readers that began before it
            }
            assertThat(db.catalog().retiredTables()).isZero();
            assertThat(db.memory().accounting().totalBytes()).as("every version freed (%d bytes held one)", oneVersion).isZero();
            assertThatThrownBy(() -> rows(s, "select * from t")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P01"));
        }
    }

    @Test
    void aPreparedStatementIsPlannedAgainAfterItsTableChanges() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (a int, b int)");
            s.executeUpdate("insert into t values (1, 2), (3, 4)");
            try (PreparedStatement sum = c.prepareStatement("select sum(a) from t where b > ?");
                 PreparedStatement star = c.prepareStatement("select * from t where a = ?");
                 PreparedStatement insert = c.prepareStatement("insert into t (a, b) values (?, ?)")) {
                sum.setInt(1, 0);
                star.setInt(1, 1);
                assertThat(rows(sum.executeQuery())).containsExactly(List.of(4L));
                s.execute("alter table t add column x int default 5");
                assertThat(rows(sum.executeQuery())).containsExactly(List.of(4L));
                insert.setInt(1, 5);
                insert.setInt(2, 6);
                assertThat(insert.executeUpdate()).isEqualTo(1);
                assertThat(rows(s, "select a, b, x from t where a = 5")).containsExactly(Arrays.asList(5, 6, 5)); // the DEFAULT of ADD COLUMN is kept for later INSERTs, as in PostgreSQL
                // its columns are not what the application was given: it must prepare the statement again, as in PostgreSQL
                assertThatThrownBy(star::executeQuery).isInstanceOf(SQLException.class)
                        .hasMessageContaining("prepare it again")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
                s.execute("alter table t drop column a");
                assertThatThrownBy(sum::executeQuery).isInstanceOf(SQLException.class)
                        .hasMessageContaining("Column 'a' not found")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42703"));
                s.execute("drop table t");
                assertThatThrownBy(insert::executeUpdate).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P01"));
            }
        }
    }

    /**
     * Readers against a table another connection keeps altering, dropping and creating: each
     * statement plans against one catalog version and reads the table it started with, so it
     * either answers in full or, when the table is absent as it starts, fails as not found, never
     * in between (before: 40-60% failed, some with Calcite's AssertionError from a table looked up
     * twice in two versions).
     */
    @Test
    void readersDuringAltersAndDropsAnswerFromTheVersionTheyStartedWith() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:alter-race");
             Connection other = DriverManager.getConnection("jdbc:numacol:mem:alter-race");
             Statement s = c.createStatement()) {
            s.execute("create table t (a int, b int)");
            s.executeUpdate("insert into t select x, x from (select row_number() over () as x from "
                    + "(values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) p, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) q) r");
            AtomicBoolean done = new AtomicBoolean();
            List<Throwable> writerFailed = new ArrayList<>();
            Thread writer = new Thread(() -> {
                try (Statement w = other.createStatement()) {
                    for (int i = 0; !done.get(); i++) {
                        w.execute("alter table t add column x" + i + " int");
                        w.execute("alter table t drop column x" + i);
                        if (i % 4 == 3) {
                            w.execute("create table t2 as select * from t");
                            w.execute("drop table t");
                            w.execute("alter table t2 rename to t");
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    writerFailed.add(e);
                }
            });
            writer.start();
            int answered = 0;
            int absent = 0;
            try {
                for (int i = 0; i < 300; i++) {
                    try (ResultSet r = s.executeQuery("select count(*), sum(a), min(b) from t where b > " + (i % 7))) {
                        r.next();
                        assertThat(r.getLong(1)).isEqualTo(100 - i % 7);
                        assertThat(r.getLong(2)).isEqualTo(5050 - (i % 7) * (i % 7 + 1) / 2);
                        answered++;
                    } catch (SQLException e) {
                        assertThat(e.getSQLState()).as("%s", e).isEqualTo("42P01");
                        absent++;
                    }
                }
            } finally {
                done.set(true);
                writer.join();
            }
            assertThat(writerFailed).isEmpty();
            assertThat(answered).isGreaterThan(absent);
        }
    }
}
