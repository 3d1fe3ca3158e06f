package io.numacol.jdbc;

import io.numacol.database.Appender;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ALTER TABLE ... ADD FOREIGN KEY racing a DELETE of a referenced parent row: the ALTER holds the
 * writes of both tables from its check until the rebuilt table holds the key, so the two never
 * both succeed (which would leave a child row without its parent). Whichever comes second fails
 * with 23503: the DELETE, checked with the key, or the ALTER, checking the rows then stored.
 */
class ForeignKeyAddRaceTest {

    @Test
    void aParentDeletedWhileTheKeyIsAddedLeavesNoOrphan() throws Exception {
        String url = "jdbc:numacol:mem:fk_race;close_delay=-1";
        int rounds = 6;
        int deletesRefused = 0;
        int altersRefused = 0;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection admin = DriverManager.getConnection(url); Statement s = admin.createStatement()) {
            for (int round = 0; round < rounds; round++) {
                s.execute("drop table if exists child");
                s.execute("drop table if exists parent");
                s.execute("create table parent (id int primary key)");
                s.execute("create table child (id int primary key, p int)");
                s.executeUpdate("insert into parent values (1), (2), (3)");
                // a child big enough that its rebuild takes a while; every row references parent 2
                try (Appender a = NumacolDriver.database(admin).appender("child")) {
                    for (int i = 0; i < 60_000; i++) {
                        a.append(i, 2);
                    }
                }
                CountDownLatch go = new CountDownLatch(1);
                Future<String> alter = pool.submit(() -> outcome(url, go, "alter table child add foreign key (p) references parent"));
                Future<String> delete = pool.submit(() -> outcome(url, go, "delete from parent where id = 2"));
                go.countDown();
                String altered = alter.get();
                String deleted = delete.get();
                assertThat(List.of(altered, deleted)).as("round %d: the ALTER and the DELETE never both succeed", round)
                        .contains("23503");
                assertThat(List.of(altered, deleted)).as("round %d: one of the two succeeds", round).contains("ok");
                altersRefused += altered.equals("23503") ? 1 : 0;
                deletesRefused += deleted.equals("23503") ? 1 : 0;
                // the key holds whenever it was added: no child row without its parent then (the
                // DELETE, checked with it, failed); a DELETE that came first made the ALTER fail instead
                long orphans = (Long) rows(s, "select count(*) from child where p not in (select id from parent)").getFirst().getFirst();
                assertThat(orphans).as("round %d: child rows without a parent, the key %s", round,
                        altered.equals("ok") ? "added" : "refused").isEqualTo(altered.equals("ok") ? 0L : 60_000L);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(altersRefused + deletesRefused).isEqualTo(rounds);
    }

    /** "ok", or the SQLState the statement failed with. */
    private static String outcome(String url, CountDownLatch go, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            go.await();
            s.execute(sql);
            return "ok";
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }
}
