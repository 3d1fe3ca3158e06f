package io.numacol.jdbc;

import io.numacol.database.Database;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

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
            assertThat(rows(s, "select sum(n), count(price) from b")).containsExactly(List.of(-5L, 3L)); // SUM of INTEGER is BIGINT, as in PostgreSQL
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
                    .isInstanceOf(SQLException.class).hasMessageContaining("expected ADD, DROP, RENAME or SET PLACEMENT");
            assertThat(rows(s, "select * from a order by id")).isEqualTo(before);

            Database db = NumacolDriver.database(c);
            try (PreparedStatement p = c.prepareStatement("select count(*) from a");
                 PreparedStatement u = c.prepareStatement("delete from a where id = 1")) {
                s.execute("alter table a add column extra int default 7");
                // planned against the table ALTER replaced: an error, not the empty table it left
                assertThatThrownBy(p::executeQuery).isInstanceOf(SQLException.class)
                        .hasMessageContaining("table a was dropped or altered after the statement was planned");
                assertThatThrownBy(u::executeUpdate).isInstanceOf(SQLException.class)
                        .hasMessageContaining("table a was dropped or altered after the statement was planned");
            }
            assertThat(rows(s, "select count(*), sum(extra) from a")).containsExactly(List.of(2L, 14L));
            s.execute("drop table a");
            s.execute("drop table other");
            assertThat(db.memory().accounting().totalBytes()).as("the tables ALTER replaced are freed").isZero();
        }
    }
}
