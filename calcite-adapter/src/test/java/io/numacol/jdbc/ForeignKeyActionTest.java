package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ON DELETE and ON UPDATE actions as PostgreSQL runs them: the child rows of a deleted parent row
 * (or of a changed key) are deleted, set to NULL or their DEFAULT, or given the new key, in the
 * same statement, recursively; a failure anywhere in the cascade keeps nothing of the statement.
 */
class ForeignKeyActionTest {

    private static void fails(Statement s, String sql, String state, String words) {
        assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state)).hasMessageContaining(words);
    }

    @Test
    void onDeleteCascadeDeletesTheChildrenAndTheirChildren() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table customers (id int primary key)");
            s.execute("create table orders (id int primary key, customer int references customers on delete cascade)");
            s.execute("create table lines (id int primary key, ord int references orders on delete cascade, qty int)");
            s.executeUpdate("insert into customers values (1), (2)");
            s.executeUpdate("insert into orders values (10, 1), (11, 1), (12, 2), (13, null)");
            s.executeUpdate("insert into lines values (100, 10, 1), (101, 10, 2), (102, 11, 3), (103, 12, 4)");

            assertThat(s.executeUpdate("delete from customers where id = 1")).isEqualTo(1); // the statement's own rows only
            assertThat(rows(s, "select id from orders order by id")).containsExactly(List.of(12), List.of(13));
            assertThat(rows(s, "select id from lines")).containsExactly(List.of(103));
            assertThat(rows(s, "select id from customers")).containsExactly(List.of(2));
        }
    }

    @Test
    void deleteReturningAnswersTheStatementsOwnRows() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key, name varchar(5))");
            s.execute("create table ch (id int, pid int references p on delete cascade)");
            s.executeUpdate("insert into p values (1, 'a'), (2, 'b')");
            s.executeUpdate("insert into ch values (1, 1), (2, 1), (3, 2)");
            assertThat(rows(s, "delete from p where id = 1 returning id, name")).containsExactly(List.of(1, "a"));
            assertThat(rows(s, "select id from ch")).containsExactly(List.of(3));
        }
    }

    @Test
    void onDeleteSetNullAndSetDefault() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key)");
            s.execute("create table n (id int, pid int references p on delete set null)");
            s.execute("create table d (id int, pid int default 0 references p on delete set default)");
            s.executeUpdate("insert into p values (0), (1), (2)");
            s.executeUpdate("insert into n values (1, 1), (2, 2)");
            s.executeUpdate("insert into d values (1, 1), (2, 2)");
            assertThat(s.executeUpdate("delete from p where id = 1")).isEqualTo(1);
            assertThat(rows(s, "select id, pid from n order by id")).containsExactly(Arrays.asList(1, null), List.of(2, 2)); // ordered
            assertThat(rows(s, "select id, pid from d order by id")).containsExactly(List.of(1, 0), List.of(2, 2));
            // the default must itself reference a row: deleting 0 too leaves d's row without its parent
            fails(s, "delete from p where id in (0, 2)", "23503", "d_pid_fkey");
            assertThat(rows(s, "select id from p order by id")).containsExactly(List.of(0), List.of(2));
            assertThat(rows(s, "select id, pid from n order by id")).containsExactly(Arrays.asList(1, null), List.of(2, 2));
            // a DEFAULT expression is the planner's to evaluate, not the action's: refused, nothing deleted
            s.execute("create table e (id int, pid int default 1 + 1 references p on delete set default)");
            s.executeUpdate("insert into e values (1, 2)");
            fails(s, "delete from p where id = 2", "0A000", "expression");
            assertThat(rows(s, "select id from p order by id")).containsExactly(List.of(0), List.of(2));
        }
    }

    @Test
    void onUpdateActions() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key, code varchar(5) unique, v int)");
            s.execute("create table cc (id int, pid int references p on update cascade)");
            s.execute("create table cn (id int, pcode varchar(5) references p (code) on update set null)");
            s.execute("create table cd (id int, pid int default 7 references p on update set default on delete restrict)");
            s.execute("create table gc (id int, cid int)"); // not a child: untouched
            s.executeUpdate("insert into p values (1, 'a', 0), (2, 'b', 0), (7, 'z', 0)");
            s.executeUpdate("insert into cc values (1, 1), (2, 2)");
            s.executeUpdate("insert into cn values (1, 'a'), (2, 'b')");
            s.executeUpdate("insert into cd values (1, 1), (2, 2)");

            assertThat(s.executeUpdate("update p set v = 5")).isEqualTo(3); // no key changed: nothing acts
            assertThat(rows(s, "select id, pcode from cn order by id")).containsExactly(List.of(1, "a"), List.of(2, "b"));
            assertThat(s.executeUpdate("update p set id = 10, code = 'aa' where id = 1")).isEqualTo(1);
            assertThat(rows(s, "select id, pid from cc order by id")).containsExactly(List.of(1, 10), List.of(2, 2));
            assertThat(rows(s, "select id, pcode from cn order by id")).containsExactly(Arrays.asList(1, null), List.of(2, "b"));
            assertThat(rows(s, "select id, pid from cd order by id")).containsExactly(List.of(1, 7), List.of(2, 2));
            fails(s, "delete from p where id = 7", "23503", "cd_pid_fkey");
        }
    }

    @Test
    void anUpsertThatChangesAKeyActsAsAnUpdateAndTruncateActsOnNothing() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key, code int unique)");
            s.execute("create table ch (id int, pcode int references p (code) on update cascade on delete cascade)");
            s.executeUpdate("insert into p values (1, 10), (2, 20)");
            s.executeUpdate("insert into ch values (1, 10), (2, 20)");
            assertThat(s.executeUpdate("insert into p values (1, 11) on conflict (id) do update set code = excluded.code")).isEqualTo(1);
            assertThat(rows(s, "select id, pcode from ch order by id")).containsExactly(List.of(1, 11), List.of(2, 20));
            fails(s, "truncate p", "23503", "still referenced");
            assertThat(rows(s, "select count(*) from ch")).containsExactly(List.of(2L));
        }
    }

    @Test
    void aSelfReferencingTableCascadesDownItsTree() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table emp (id int primary key, manager int references emp on delete cascade on update cascade)");
            s.executeUpdate("insert into emp values (1, null), (2, 1), (3, 2), (4, 3), (5, null), (6, 5)");
            assertThat(s.executeUpdate("update emp set id = 20 where id = 2")).isEqualTo(1);
            assertThat(rows(s, "select id, manager from emp order by id")).containsExactly(Arrays.asList(1, null), List.of(3, 20),
                    List.of(4, 3), Arrays.asList(5, null), List.of(6, 5), List.of(20, 1));
            assertThat(s.executeUpdate("delete from emp where id = 1")).isEqualTo(1);
            assertThat(rows(s, "select id from emp order by id")).containsExactly(List.of(5), List.of(6));
        }
    }

    @Test
    void aLongChainCascadesWhole() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table emp (id int primary key, manager int references emp on delete cascade)");
            StringBuilder insert = new StringBuilder("insert into emp values (0, null)");
            for (int i = 1; i < 3000; i++) {
                insert.append(", (").append(i).append(", ").append(i - 1).append(')');
            }
            s.executeUpdate(insert.toString());
            assertThat(s.executeUpdate("delete from emp where id = 0")).isEqualTo(1);
            assertThat(rows(s, "select count(*) from emp")).containsExactly(List.of(0L));
        }
    }

    @Test
    void aCycleOfCascadesEnds() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table a (id int primary key, b int)");
            s.execute("create table b (id int primary key, a int references a on delete cascade)");
            s.execute("alter table a add constraint a_b foreign key (b) references b on delete cascade");
            s.executeUpdate("insert into a values (1, null), (2, null)");
            s.executeUpdate("insert into b values (1, 1), (2, 2)");
            s.executeUpdate("update a set b = 2 where id = 1"); // a1 -> b2 -> a2; b1 -> a1
            s.executeUpdate("update a set b = 1 where id = 2"); // a2 -> b1: a cycle a1, b1, a2, b2
            assertThat(s.executeUpdate("delete from a where id = 1")).isEqualTo(1);
            assertThat(rows(s, "select count(*) from a")).containsExactly(List.of(0L));
            assertThat(rows(s, "select count(*) from b")).containsExactly(List.of(0L));
        }
    }

    @Test
    void aFailureInTheCascadeKeepsNothingOfTheStatement() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key)");
            s.execute("create table nn (id int, pid int not null references p on delete set null)");
            s.execute("create table ck (id int, pid int references p on update cascade, check (pid < 100))");
            s.execute("create table uq (id int, pid int unique references p on update cascade)");
            s.execute("create table casc (id int, pid int references p on delete cascade on update cascade)");
            s.executeUpdate("insert into p values (1), (2), (3), (4)");
            s.executeUpdate("insert into casc values (1, 1), (2, 2), (3, 3)");
            s.executeUpdate("insert into nn values (1, 1)");
            s.executeUpdate("insert into ck values (1, 2)");
            s.executeUpdate("insert into uq values (1, 3), (2, 4)");

            fails(s, "delete from p where id = 1", "23502", "pid");
            fails(s, "update p set id = 200 where id = 2", "23514", "ck");
            assertThat(rows(s, "select id from p order by id")).containsExactly(List.of(1), List.of(2), List.of(3), List.of(4));
            assertThat(rows(s, "select id, pid from casc order by id")).containsExactly(List.of(1, 1), List.of(2, 2), List.of(3, 3));
            assertThat(rows(s, "select id, pid from nn")).containsExactly(List.of(1, 1));
            assertThat(rows(s, "select id, pid from ck")).containsExactly(List.of(1, 2));
            s.executeUpdate("update p set id = 30 where id = 3");
            assertThat(rows(s, "select id, pid from uq order by id")).containsExactly(List.of(1, 30), List.of(2, 4));
            assertThat(rows(s, "select id, pid from casc order by id")).containsExactly(List.of(1, 1), List.of(2, 2), List.of(3, 30));
        }
    }

    @Test
    void inATransactionASavepointRollsTheCascadeBack() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key)");
            s.execute("create table ch (id int, pid int references p on delete cascade)");
            s.executeUpdate("insert into p values (1), (2)");
            s.executeUpdate("insert into ch values (1, 1), (2, 2)");
            c.setAutoCommit(false);
            s.executeUpdate("insert into ch values (3, 1)"); // the transaction's own child row goes too
            Savepoint sp = c.setSavepoint();
            assertThat(s.executeUpdate("delete from p where id = 1")).isEqualTo(1);
            assertThat(rows(s, "select id from ch order by id")).containsExactly(List.of(2));
            c.rollback(sp);
            assertThat(rows(s, "select id from ch order by id")).containsExactly(List.of(1), List.of(2), List.of(3));
            assertThat(s.executeUpdate("delete from p where id = 2")).isEqualTo(1);
            c.commit();
            assertThat(rows(s, "select id from ch order by id")).containsExactly(List.of(1), List.of(3));
            assertThat(rows(s, "select id from p")).containsExactly(List.of(1));
        }
    }

    @Test
    void aChildInsertedMeanwhileFailsTheLaterCommit() throws SQLException {
        String url = "jdbc:numacol:mem:cascade-race-" + System.nanoTime();
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url);
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("create table p (id int primary key)");
            sa.execute("create table ch (id int, pid int references p on delete cascade)");
            sa.executeUpdate("insert into p values (1)");
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            assertThat(sa.executeUpdate("delete from p where id = 1")).isEqualTo(1); // no child yet
            sb.executeUpdate("insert into ch values (1, 1)"); // its parent is still committed
            b.commit(); // first
            assertThatThrownBy(a::commit).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23503"));
            assertThat(rows(sa, "select id from p")).containsExactly(List.of(1));
            assertThat(rows(sa, "select id, pid from ch")).containsExactly(List.of(1, 1));
        }
    }

    @Test
    void underRepeatableReadAChildCommittedAfterTheSnapshotFailsTheStatement() throws SQLException {
        String url = "jdbc:numacol:mem:cascade-rr-" + System.nanoTime();
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url);
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("create table p (id int primary key)");
            sa.execute("create table ch (id int, pid int references p on delete cascade)");
            sa.executeUpdate("insert into p values (1)");
            a.setAutoCommit(false);
            a.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            assertThat(rows(sa, "select count(*) from ch")).containsExactly(List.of(0L)); // the snapshot is taken
            sb.executeUpdate("insert into ch values (1, 1)"); // committed after it: the cascade does not see it
            fails(sa, "delete from p where id = 1", "23503", "still referenced from table \"ch\"");
            a.rollback();
            assertThat(rows(sa, "select id, pid from ch")).containsExactly(List.of(1, 1));
        }
    }

    @Test
    void autoCommitChangesOfAParentWithActionsStayOneAfterAnother() throws Exception {
        String url = "jdbc:numacol:mem:cascade-serial-" + System.nanoTime();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key, v int)");
            s.execute("create table ch (id int, pid int references p on delete cascade on update cascade)");
            s.executeUpdate("insert into p values (1, 0)");
            s.executeUpdate("insert into ch values (1, 1)");
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 2; t++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try (Connection own = DriverManager.getConnection(url); Statement os = own.createStatement()) {
                        for (int i = 0; i < 50; i++) {
                            os.executeUpdate("update p set v = v + 1 where id = 1");
                        }
                    } catch (SQLException e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();
            assertThat(rows(s, "select v from p")).containsExactly(List.of(100));
            assertThat(rows(s, "select pid from ch")).containsExactly(List.of(1));
        }
    }

    /**
     * Auto-commit DELETEs and key UPDATEs that act on children, racing on the same rows: each waits
     * for the one before to commit and finds its rows changed (0 rows), as PostgreSQL's second
     * DELETE does, rather than failing with a write conflict (40001).
     */
    @Test
    void autoCommitDeletesThatCascadeWaitForEachOther() throws Exception {
        String url = "jdbc:numacol:mem:cascade-race-" + System.nanoTime();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key, v int)");
            s.execute("create table ch (id int, pid int references p on delete cascade on update cascade)");
            for (int i = 0; i < 60; i++) {
                s.executeUpdate("insert into p values (" + i + ", 0)");
                s.executeUpdate("insert into ch values (" + i + ", " + i + "), (" + (100 + i) + ", " + i + ")");
            }
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            long[] deleted = new long[3];
            for (int t = 0; t < 3; t++) {
                int me = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try (Connection own = DriverManager.getConnection(url); Statement os = own.createStatement()) {
                        for (int i = 0; i < 60; i++) {
                            if (me == 2) {
                                os.executeUpdate("update p set id = id + 1000 where id = " + i); // a key change racing the deletes
                            } else {
                                deleted[me] += os.executeUpdate("delete from p where id = " + i + " or id = " + (i + 1000));
                            }
                        }
                    } catch (SQLException e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();
            long left = (Long) rows(s, "select count(*) from p").getFirst().getFirst();
            assertThat(deleted[0] + deleted[1] + left).as("each parent deleted once or left").isEqualTo(60L);
            // every child went with its parent or followed its new key: none is left without one
            assertThat(rows(s, "select count(*) from ch where pid not in (select id from p)")).containsExactly(List.of(0L));
            assertThat(rows(s, "select count(*) from ch")).containsExactly(List.of(2 * left));
        }
    }

    @Test
    void aFileDatabaseKeepsTheActionsAndTheCascadedRows(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key)");
            s.execute("create table ch (id int, pid int references p on delete cascade on update set null)");
            s.executeUpdate("insert into p values (1), (2), (3)");
            s.executeUpdate("insert into ch values (1, 1), (2, 2), (3, 3)");
            s.executeUpdate("delete from p where id = 1");
            s.executeUpdate("update p set id = 20 where id = 2");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertThat(rows(s, "select id, pid from ch order by id")).containsExactly(Arrays.asList(2, null), List.of(3, 3));
            s.execute("checkpoint");
            s.executeUpdate("delete from p where id = 3");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertThat(rows(s, "select id, pid from ch order by id")).containsExactly(Arrays.asList(2, null));
            assertThat(rows(s, "select update_rule, delete_rule from information_schema.referential_constraints"))
                    .containsExactly(List.of("SET NULL", "CASCADE"));
        }
    }

    @Test
    void metadataShowsTheRules(@TempDir Path dir) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int primary key)");
            s.execute("create table ch (a int references p on delete set default on update restrict, "
                    + "b int references p on delete set null on update cascade, x int references p)");
            DatabaseMetaData md = c.getMetaData();
            List<List<Object>> rules = new ArrayList<>();
            try (ResultSet rs = md.getImportedKeys(null, null, "CH")) {
                while (rs.next()) {
                    rules.add(List.of(rs.getString("FKCOLUMN_NAME"), rs.getShort("UPDATE_RULE"), rs.getShort("DELETE_RULE")));
                }
            }
            assertThat(rules).containsExactlyInAnyOrder(
                    List.of("a", (short) DatabaseMetaData.importedKeyRestrict, (short) DatabaseMetaData.importedKeySetDefault),
                    List.of("b", (short) DatabaseMetaData.importedKeyCascade, (short) DatabaseMetaData.importedKeySetNull),
                    List.of("x", (short) DatabaseMetaData.importedKeyNoAction, (short) DatabaseMetaData.importedKeyNoAction));
            Path export = dir.resolve("export");
            s.execute("export database '" + export + "'");
            String load = Files.readString(export.resolve("load.sql"));
            assertThat(load).contains("ON DELETE SET DEFAULT ON UPDATE RESTRICT").contains("ON DELETE SET NULL ON UPDATE CASCADE");
        }
    }
}
