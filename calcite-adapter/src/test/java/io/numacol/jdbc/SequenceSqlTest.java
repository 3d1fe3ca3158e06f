package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CREATE SEQUENCE, DROP SEQUENCE, nextval, currval and setval as PostgreSQL has them: numbers
 * never given twice, also across a rollback and a reopened file database.
 */
class SequenceSqlTest {
    @TempDir
    Path dir;

    private String fileUrl() {
        return "jdbc:numacol:file:" + dir.resolve("db") + ";topology=fake:2";
    }

    private static long single(Statement s, String sql) throws SQLException {
        return ((Number) rows(s, sql).getFirst().getFirst()).longValue();
    }

    private static void assertState(SqlWork work, String state, String message) {
        assertThatThrownBy(work::run).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
                .hasMessageContaining(message);
    }

    @FunctionalInterface
    interface SqlWork {
        void run() throws SQLException;
    }

    @Test
    void nextvalCountsFromStartByIncrementInSelectAndInsert() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create sequence s start with 10 increment by 5");
            assertThat(single(s, "select nextval('s')")).isEqualTo(10);
            assertThat(single(s, "select nextval('S')")).isEqualTo(15);
            assertThat(single(s, "select currval('s')")).isEqualTo(15);
            s.execute("create table t (id bigint primary key, name varchar(10))");
            s.executeUpdate("insert into t values (nextval('s'), 'a'), (nextval('s'), 'b')");
            s.executeUpdate("insert into t (id, name) select nextval('s'), name || '2' from t");
            assertThat(rows(s, "select id, name from t order by id")).extracting(r -> r.getFirst())
                    .containsExactly(20L, 25L, 30L, 35L);
            try (PreparedStatement p = c.prepareStatement("insert into t values (nextval('s'), ?)")) {
                p.setString(1, "p1");
                p.executeUpdate();
                p.setString(1, "p2");
                p.executeUpdate();
            }
            assertThat(rows(s, "select id from t where name like 'p%' order by id")).containsExactly(List.of(40L), List.of(45L));
            assertThat(single(s, "select nextval('main.s') + 1")).isEqualTo(51);
            // two calls in one row are two numbers, as PostgreSQL gives them (not one expression computed once)
            assertThat(rows(s, "select nextval('s'), nextval('s'), nextval('s') - nextval('s')"))
                    .containsExactly(List.of(55L, 60L, -5L));
        }
    }

    @Test
    void optionsBoundTheNumbersAndCycleWraps() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create sequence up as smallint start 32766");
            assertThat(single(s, "select nextval('up')")).isEqualTo(32766);
            assertThat(single(s, "select nextval('up')")).isEqualTo(32767);
            assertState(() -> rows(s, "select nextval('up')"), "2200H", "nextval: reached maximum value of sequence \"up\" (32767)");
            s.execute("create sequence round minvalue 1 maxvalue 3 start 2 cycle");
            List<Long> got = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                got.add(single(s, "select nextval('round')"));
            }
            assertThat(got).containsExactly(2L, 3L, 1L, 2L);
            s.execute("create sequence down increment by -1 no minvalue no maxvalue no cycle");
            assertThat(single(s, "select nextval('down')")).isEqualTo(-1);
            assertThat(single(s, "select setval('down', -100)")).isEqualTo(-100);
            assertThat(single(s, "select nextval('down')")).isEqualTo(-101);
        }
    }

    @Test
    void currvalIsTheSessionsOwnAndRefusedBeforeItsFirstNextval() throws SQLException {
        try (Connection a = DriverManager.getConnection(fileUrl()); Connection b = DriverManager.getConnection(fileUrl());
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("create sequence s");
            assertState(() -> rows(sa, "select currval('s')"), "55000", "currval of sequence \"s\" is not yet defined in this session");
            assertThat(single(sa, "select nextval('s')")).isEqualTo(1);
            assertThat(single(sb, "select nextval('s')")).isEqualTo(2);
            assertThat(single(sa, "select currval('s')")).isEqualTo(1);
            assertThat(single(sb, "select currval('s')")).isEqualTo(2);
        }
    }

    @Test
    void aNumberTakenIsNotGivenAgainAfterARollback() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create sequence s");
            s.execute("create table t (id bigint)");
            c.setAutoCommit(false);
            s.executeUpdate("insert into t values (nextval('s'))");
            c.rollback();
            s.executeUpdate("insert into t values (nextval('s'))");
            c.commit();
            assertThat(rows(s, "select id from t")).containsExactly(List.of(2L));
        }
    }

    @Test
    void preparedBatchesAndTransactionsOfAFileDatabaseTakeEachNumberOnce() throws SQLException {
        try (Connection c = DriverManager.getConnection(fileUrl()); Statement s = c.createStatement()) {
            s.execute("create sequence s");
            s.execute("create table t (id bigint primary key, name varchar(10))");
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("insert into t (id, name) values (nextval('s'), ?)")) {
                for (int i = 0; i < 50; i++) {
                    p.setString(1, "n" + i);
                    p.addBatch();
                }
                p.executeBatch();
            }
            c.rollback(); // the 50 numbers stay taken
            s.executeUpdate("insert into t (id, name) values (nextval('s'), 'kept')");
            c.commit();
            assertThat(rows(s, "select id from t")).containsExactly(List.of(51L));
        }
        try (Connection c = DriverManager.getConnection(fileUrl()); Statement s = c.createStatement()) {
            assertThat(single(s, "select nextval('s')")).isGreaterThan(51);
        }
    }

    @Test
    void badStatementsAreRefusedSayingWhatToDo() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create sequence s");
            s.execute("create sequence if not exists s start 100");
            assertThat(single(s, "select nextval('s')")).isEqualTo(1);
            assertState(() -> s.execute("create sequence s"), "42P07", "sequence s already exists");
            assertState(() -> rows(s, "select nextval('nope')"), "42P01", "relation \"nope\" does not exist");
            assertState(() -> s.execute("create sequence t increment 0"), "22023", "INCREMENT must not be zero");
            assertState(() -> s.execute("create sequence t start 0"), "22023", "START value (0) must lie between MINVALUE (1)");
            assertState(() -> s.execute("create sequence t as varchar"), "22023", "SMALLINT, INTEGER or BIGINT");
            assertState(() -> s.execute("create sequence t cache 10"), "42601", "does not support CACHE");
            assertState(() -> s.execute("create sequence t start 1 start 2"), "42601", "START is given twice");
            s.execute("create table tab (a int)");
            assertState(() -> s.execute("create sequence tab"), "42P07", "a table named tab already exists");
            assertState(() -> rows(s, "select nextval(name) from (values ('s')) as v(name)"), "22023",
                    "nextval takes the sequence's name as a string literal");
            assertState(() -> s.execute("drop sequence nope"), "42704", "sequence nope does not exist");
            s.execute("drop sequence if exists nope");
            s.execute("drop sequence s");
            assertState(() -> rows(s, "select nextval('s')"), "42P01", "relation \"s\" does not exist");
        }
    }

    @Test
    void aFileDatabaseGoesOnWithoutRepeatingANumber() throws SQLException {
        Set<Long> given = new HashSet<>();
        try (Connection c = DriverManager.getConnection(fileUrl()); Statement s = c.createStatement()) {
            s.execute("create schema shop");
            s.execute("create sequence shop.ids increment by 3 maxvalue 1000000");
            for (int i = 0; i < 40; i++) {
                assertThat(given.add(single(s, "select nextval('shop.ids')"))).isTrue();
            }
        }
        try (Connection c = DriverManager.getConnection(fileUrl()); Statement s = c.createStatement()) {
            long next = single(s, "select nextval('shop.ids')");
            // the checkpoint keeps the counter's reservation, up to 32 numbers ahead: a number given after
            // the image was taken is then never given again, whether or not the log that follows survives
            assertThat(next).isGreaterThan(118).isLessThanOrEqualTo(118 + 3 * 32);
            assertThat(given).doesNotContain(next);
            assertThat(rows(s, "select sequence_schema, sequence_name, data_type, start_value, increment, maximum_value, cycle_option"
                    + " from information_schema.sequences"))
                    .containsExactly(List.of("shop", "ids", "bigint", "1", "3", "1000000", "NO"));
            assertThat(rows(s, "select schema_name, sequence_name, next_value, exhausted, logged_next_value > next_value"
                    + " from sys.sequences")).containsExactly(List.of("shop", "ids", next + 3, false, true));
            s.execute("drop schema shop cascade");
        }
        try (Connection c = DriverManager.getConnection(fileUrl()); Statement s = c.createStatement()) {
            assertThat(rows(s, "select count(*) from information_schema.sequences")).containsExactly(List.of(0L));
        }
    }
}
