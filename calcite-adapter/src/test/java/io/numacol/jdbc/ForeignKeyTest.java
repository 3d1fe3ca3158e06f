package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * FOREIGN KEY / REFERENCES enforced on both sides, as PostgreSQL's NO ACTION keys are: a child
 * row needs its parent (23503 naming the constraint and the key), a referenced parent row is
 * neither deleted nor given another key, within transactions and across them; DDL that would
 * break a reference is refused (2BP01) unless CASCADE drops it; file databases keep the keys.
 */
class ForeignKeyTest {

    private static void violates(Statement s, String sql, String... words) {
        var thrown = assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLIntegrityConstraintViolationException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23503"));
        for (String w : words) {
            thrown.hasMessageContaining(w);
        }
    }

    private static void refused(Statement s, String sql, String state, String words) {
        assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state)).hasMessageContaining(words);
    }

    @Test
    void childRowsNeedTheirParentAndParentsStayWhileReferenced() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table customers (id int primary key, name varchar(20))");
            s.execute("create table orders (id int primary key, customer int references customers, total decimal(10, 2))");
            s.executeUpdate("insert into customers values (1, 'ann'), (2, 'bob'), (3, 'cid')");
            s.executeUpdate("insert into orders values (10, 1, 5.00), (11, 1, 6.00), (12, 2, 7.00), (13, null, 1.00)");

            violates(s, "insert into orders values (14, 9, 1.00)", "orders_customer_fkey", "(customer)=(9)", "customers");
            violates(s, "insert into orders values (15, 3, 1.00), (16, 8, 1.00)", "(customer)=(8)");
            violates(s, "update orders set customer = 7 where id = 10", "orders_customer_fkey");
            violates(s, "delete from customers where id = 1", "update or delete on table \"customers\"", "(id)=(1)",
                    "still referenced from table \"orders\"");
            violates(s, "update customers set id = 5 where id = 2", "(id)=(2)");
            assertThat(rows(s, "select count(*) from orders")).containsExactly(List.of(4L)); // nothing of a refused statement

            assertThat(s.executeUpdate("delete from customers where id = 3")).isEqualTo(1); // not referenced
            assertThat(s.executeUpdate("update customers set name = 'anne' where id = 1")).isEqualTo(1); // key kept
            assertThat(s.executeUpdate("delete from orders where customer = 2")).isEqualTo(1);
            assertThat(s.executeUpdate("delete from customers where id = 2")).isEqualTo(1); // no longer referenced
            refused(s, "truncate customers", "23503", "still referenced");
            assertThat(rows(s, "select id, name from customers")).containsExactly(List.of(1, "anne"));
        }
    }

    @Test
    void withinATransactionParentsAndChildrenComeAndGoTogether() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (a int not null, b varchar(5) not null, constraint p_ab unique (a, b))");
            s.execute("create table ch (id int, pa int, pb varchar(5), constraint ch_p foreign key (pa, pb) references p (a, b))");
            c.setAutoCommit(false);
            s.executeUpdate("insert into p values (1, 'x')");
            s.executeUpdate("insert into ch values (1, 1, 'x'), (2, null, 'zz')"); // its parent is the transaction's own; a NULL references nothing
            violates(s, "insert into ch values (3, 1, 'y')", "ch_p", "(pa, pb)=(1, y)");
            violates(s, "delete from p", "ch_p");
            s.executeUpdate("delete from ch where id = 1");
            assertThat(s.executeUpdate("delete from p")).isEqualTo(1); // its child went first, in the same transaction
            s.executeUpdate("insert into p values (2, 'y')");
            try (PreparedStatement insert = c.prepareStatement("insert into ch values (?, ?, ?)")) {
                insert.setInt(1, 4);
                insert.setInt(2, 2);
                insert.setString(3, "y");
                insert.addBatch();
                insert.setInt(1, 5);
                insert.setInt(2, 2);
                insert.setString(3, "nope");
                insert.addBatch();
                assertThatThrownBy(insert::executeBatch).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23503"));
            }
            c.commit();
            assertThat(rows(s, "select id, pa, pb from ch order by id")).containsExactly(Arrays.asList(2, null, "zz"));
            assertThat(rows(s, "select a, b from p")).containsExactly(List.of(2, "y"));
        }
    }

    @Test
    void aConcurrentDeleteOfTheParentLosesToTheChildThatCommittedFirst() throws SQLException {
        String url = "jdbc:numacol:mem:fk_concurrent";
        try (Connection one = DriverManager.getConnection(url); Connection two = DriverManager.getConnection(url);
             Statement s1 = one.createStatement(); Statement s2 = two.createStatement()) {
            s1.execute("create table parent (id int primary key)");
            s1.execute("create table child (id int primary key, parent int references parent (id))");
            s1.executeUpdate("insert into parent values (1), (2)");
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            s1.executeUpdate("delete from parent where id = 1"); // no child yet in its view
            s2.executeUpdate("insert into child values (1, 1)"); // the parent is still there for it
            two.commit();
            assertThatThrownBy(one::commit).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23503"))
                    .hasMessageContaining("still referenced from table \"child\"");
            one.setAutoCommit(true);
            assertThat(rows(s1, "select id from parent order by id")).containsExactly(List.of(1), List.of(2));

            // and the other way round: the parent's delete commits first, the child's insert then fails
            s1.execute("drop table child");
            s1.execute("create table child (id int primary key, parent int references parent (id))");
            one.setAutoCommit(false);
            s1.executeUpdate("delete from parent where id = 2");
            s2.executeUpdate("insert into child values (2, 2)");
            one.commit();
            assertThatThrownBy(two::commit).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23503"))
                    .hasMessageContaining("(parent)=(2)");
            two.setAutoCommit(true);
            assertThat(rows(s2, "select count(*) from child")).containsExactly(List.of(0L));
        }
    }

    @Test
    void selfReferencesAndTheDdlAroundKeys() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table emp (id int primary key, boss int, constraint emp_boss foreign key (boss) references emp (id) "
                    + "on delete no action on update restrict)");
            s.executeUpdate("insert into emp values (1, null), (2, 1), (3, 2)"); // a row's parent earlier in the same statement
            violates(s, "insert into emp values (4, 9)", "emp_boss");
            violates(s, "delete from emp where id = 2", "emp_boss", "(id)=(2)");
            s.execute("alter table emp rename to staff_tree"); // a key to itself follows the table's new name, rows and all
            violates(s, "insert into staff_tree values (9, 8)", "emp_boss");
            s.execute("alter table staff_tree rename to emp");
            assertThat(s.executeUpdate("delete from emp where id >= 2")).isEqualTo(2); // both the parent and its child go

            s.execute("create table dept (code varchar(4) primary key)");
            s.execute("create table staff (id int, dept varchar(4))");
            s.executeUpdate("insert into dept values ('ops')");
            s.executeUpdate("insert into staff values (1, 'ops'), (2, 'art')");
            refused(s, "alter table staff add constraint staff_dept foreign key (dept) references dept", "23503", "(dept)=(art)");
            s.executeUpdate("delete from staff where id = 2");
            s.execute("alter table staff add constraint staff_dept foreign key (dept) references dept");
            violates(s, "insert into staff values (3, 'art')", "staff_dept");
            refused(s, "drop table dept", "2BP01", "constraint staff_dept on table staff depends on table dept");
            refused(s, "alter table dept rename to depts", "2BP01", "staff_dept");
            refused(s, "alter table dept rename column code to c", "2BP01", "staff_dept");
            s.execute("alter table staff rename column dept to unit"); // the key follows its column
            violates(s, "insert into staff values (3, 'art')", "staff_dept", "(unit)=(art)");
            s.execute("alter table staff drop constraint staff_dept");
            s.executeUpdate("insert into staff values (3, 'art')");
            refused(s, "alter table staff drop constraint staff_dept", "42704", "does not exist");
            s.execute("alter table staff drop constraint if exists staff_dept");
            s.executeUpdate("delete from staff where unit = 'art'");
            s.execute("alter table staff add foreign key (unit) references dept (code)");
            assertThat(rows(s, "select constraint_name from information_schema.table_constraints "
                    + "where table_name = 'staff' and constraint_type = 'FOREIGN KEY'")).containsExactly(List.of("staff_unit_fkey"));
            s.execute("drop table dept cascade"); // drops staff's key to it
            s.executeUpdate("insert into staff values (4, 'gone')");
            assertThat(rows(s, "select count(*) from staff")).containsExactly(List.of(2L));
        }
    }

    @Test
    void aFailedAlterOfAReferencedTableSaysWhyAndKeepsItsRows() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:fk_alter;rowsPerPart=2"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key)");
            s.execute("create table ch (id int, p int references p)");
            s.executeUpdate("insert into p values (1), (2), (3), (150), (5)");
            s.executeUpdate("insert into ch values (1, 1), (2, 150)");
            // the copy of p fails on a later part: the user hears of the check, not of the keys the copy's discard would remove
            refused(s, "alter table p add check (id < 100)", "23514", "check");
            assertThat(rows(s, "select count(*) from p")).containsExactly(List.of(5L));
            violates(s, "delete from p where id = 150", "still referenced");
        }
    }

    @Test
    void metadataListsTheKeys() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (a int not null, b int not null, constraint p_ab primary key (a, b))");
            s.execute("create table ch (x int, y int, constraint ch_p foreign key (y, x) references p (b, a))");
            DatabaseMetaData md = c.getMetaData();
            List<List<Object>> imported = new ArrayList<>();
            try (ResultSet rs = md.getImportedKeys(null, null, "CH")) {
                while (rs.next()) {
                    imported.add(List.of(rs.getString("PKTABLE_NAME"), rs.getString("PKCOLUMN_NAME"), rs.getString("FKTABLE_NAME"),
                            rs.getString("FKCOLUMN_NAME"), rs.getShort("KEY_SEQ"), rs.getString("FK_NAME"), rs.getString("PK_NAME"),
                            rs.getShort("DELETE_RULE")));
                }
            }
            short noAction = (short) DatabaseMetaData.importedKeyNoAction;
            assertThat(imported).containsExactly(List.of("p", "b", "ch", "y", (short) 1, "ch_p", "p_ab", noAction),
                    List.of("p", "a", "ch", "x", (short) 2, "ch_p", "p_ab", noAction));
            try (ResultSet rs = md.getExportedKeys(null, null, "P")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("FKTABLE_NAME")).isEqualTo("ch");
            }
            try (ResultSet rs = md.getCrossReference(null, null, "CH", null, null, "P")) {
                assertThat(rs.next()).isFalse(); // P references nothing
            }
            assertThat(rows(s, "select constraint_name, unique_constraint_name, match_option, delete_rule "
                    + "from information_schema.referential_constraints")).containsExactly(List.of("ch_p", "p_ab", "NONE", "NO ACTION"));
            assertThat(rows(s, "select column_name, ordinal_position, position_in_unique_constraint from "
                    + "information_schema.key_column_usage where constraint_name = 'ch_p' order by ordinal_position"))
                    .containsExactly(List.of("y", 1, 2), List.of("x", 2, 1));
        }
    }

    @Test
    void badDeclarationsAreRefusedWithTheirStates() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key, name varchar(5), amount decimal(8, 2) unique)");
            s.execute("create table nokey (id int)");
            refused(s, "create table c1 (x int references missing)", "42P01", "missing");
            refused(s, "create table c2 (x int references p (name))", "42830", "no unique constraint matching");
            refused(s, "create table c3 (x int references nokey)", "42830", "no primary key");
            refused(s, "create table c4 (x varchar(5) references p)", "42804", "incompatible types");
            refused(s, "create table c5 (x decimal(8, 3) references p (amount))", "42804", "incompatible types");
            refused(s, "create table c6 (x int references p on delete set null (x))", "0A000", "with a column list is not supported");
            refused(s, "create table c11 (x int references p on delete cascade on delete restrict)", "42601", "ON DELETE is given twice");
            refused(s, "create table c12 (x int references p on update explode)", "42601", "expected NO ACTION, RESTRICT, CASCADE");
            refused(s, "create table c7 (x int, y int, foreign key (x, y) references p (id))", "42830", "disagree");
            refused(s, "create table c8 (x int references p (nope))", "42703", "nope");
            refused(s, "create table c10 (x int, y int, constraint k foreign key (x) references p, constraint k foreign key (y) references p)",
                    "42710", "\"k\"");
            s.execute("create table c9 (x bigint references p, y decimal(8, 2) references p (amount))"); // widths of integers may differ
            s.executeUpdate("insert into p values (1, 'a', 1.50)");
            s.executeUpdate("insert into c9 values (1, 1.50)");
            violates(s, "insert into c9 values (1, 1.25)", "c9_y_fkey", "(y)=(1.25)");
        }
    }

    @Test
    void aFileDatabaseKeepsItsForeignKeys(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key)");
            s.execute("create table ch (id int, p int constraint ch_to_p references p)");
            s.executeUpdate("insert into p values (1)");
            s.executeUpdate("insert into ch values (1, 1)");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            violates(s, "insert into ch values (2, 2)", "ch_to_p");
            violates(s, "delete from p", "ch_to_p");
            s.execute("checkpoint");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            violates(s, "delete from p", "ch_to_p");
            assertThat(rows(s, "select count(*) from ch")).containsExactly(List.of(1L));
        }
    }
}
