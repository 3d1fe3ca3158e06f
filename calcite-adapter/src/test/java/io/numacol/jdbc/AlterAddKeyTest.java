package io.numacol.jdbc;

import io.numacol.database.Database;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ALTER TABLE ... ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE (columns): the stored rows are
 * checked first (a duplicate is 23505, a NULL in a primary key column 23502), a second primary
 * key is 42P16 and a taken name 42710, each refusal leaving the table as it was; an added key is
 * enforced on later changes and by concurrent transactions, named as PostgreSQL names it, listed
 * by the metadata, served by key lookups and kept by a file database. DROP CONSTRAINT ... CASCADE
 * drops the foreign keys that reference a key.
 */
class AlterAddKeyTest {

    private static void refused(Statement s, String sql, String state, String... words) {
        assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
                .satisfies(e -> assertThat(e.getMessage()).contains(words));
    }

    @Test
    void addedKeysAreEnforcedAndNamedAsPostgresNamesThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int, code varchar(5), grp int, seq int)");
            s.executeUpdate("insert into t values (1, 'a', 1, 1), (2, 'b', 1, 2), (3, null, 2, 1), (4, null, 2, 2)");
            s.execute("alter table t add primary key (id)");
            s.execute("alter table t add unique (code)"); // NULLs repeat no key
            s.execute("alter table t add constraint grp_seq unique (grp, seq)");
            s.execute("alter table t add unique (code)"); // PostgreSQL takes a second one too, numbered
            assertThat(rows(s, "select constraint_name, constraint_type, column_names from sys.constraints where table_name = 't'"))
                    .containsExactly(List.of("t_pkey", "PRIMARY KEY", "id"), List.of("t_code_key", "UNIQUE", "code"),
                            List.of("grp_seq", "UNIQUE", "grp, seq"), List.of("t_code_key1", "UNIQUE", "code"));
            assertThat(rows(s, "select is_nullable from information_schema.columns where table_name = 't' order by ordinal_position"))
                    .containsExactly(List.of("NO"), List.of("YES"), List.of("YES"), List.of("YES")); // a primary key's column became NOT NULL

            refused(s, "insert into t values (1, 'z', 9, 9)", "23505", "t_pkey", "(id)=(1)");
            refused(s, "insert into t values (5, 'a', 9, 9)", "23505", "t_code_key", "(code)=(a)");
            refused(s, "update t set seq = 1 where id = 2", "23505", "grp_seq", "(grp, seq)=(1, 1)");
            refused(s, "insert into t (code, grp, seq) values ('q', 7, 7)", "23502", "id");
            s.executeUpdate("insert into t values (5, 'e', 3, 1)");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(5L));

            s.execute("alter table t drop constraint t_code_key1");
            s.execute("alter table t drop constraint t_pkey");
            s.execute("alter table t add constraint t_pk primary key (grp, seq)");
            assertThat(rows(s, "select constraint_name from information_schema.table_constraints where table_name = 't' "
                    + "and constraint_type = 'PRIMARY KEY'")).containsExactly(List.of("t_pk"));
        }
    }

    @Test
    void refusalsLeaveTheTableAsItWas() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table t (id int, code varchar(5), n int, constraint n_pos check (n > 0))");
            s.executeUpdate("insert into t values (1, 'a', 1), (2, 'a', 2), (2, null, 3), (null, 'c', 4)");
            refused(s, "alter table t add unique (code)", "23505", "t_code_key", "(code)=(a)");
            s.execute("alter table t add constraint uq unique (id, code)"); // (1, a), (2, a) and (2, null) differ
            s.execute("alter table t drop constraint uq");
            refused(s, "alter table t add primary key (n, id)", "23502", "column \"id\"", "contains null values");
            refused(s, "alter table t add unique (id)", "23505", "t_id_key", "(id)=(2)");
            refused(s, "alter table t add primary key (nothing)", "42703", "nothing");
            refused(s, "alter table t add constraint n_pos unique (n)", "42710", "n_pos");
            s.execute("alter table t add primary key (n)");
            refused(s, "alter table t add primary key (code)", "42P16", "multiple primary keys for table \"t\" are not allowed");
            refused(s, "alter table t add constraint t_pkey unique (code)", "42710", "t_pkey");
            refused(s, "alter table nowhere add primary key (id)", "42704", "nowhere"); // as every "table ... does not exist" of numacol says
            s.execute("alter table if exists nowhere add primary key (id)");
            assertThat(rows(s, "select id, code, n from t order by n")).containsExactly(Arrays.asList(1, "a", 1), Arrays.asList(2, "a", 2),
                    Arrays.asList(2, null, 3), Arrays.asList(null, "c", 4));
            assertThat(rows(s, "select constraint_name from sys.constraints where table_name = 't' order by constraint_name"))
                    .containsExactly(List.of("n_pos"), List.of("t_pkey"));
            refused(s, "insert into t values (9, 'z', -1)", "23514", "n_pos"); // the check was carried
        }
    }

    @Test
    void theMetadataListsAnAddedKey() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table lines (ord bigint, line int, sku varchar(8))");
            s.execute("alter table lines add constraint pk_lines primary key (ord, line)");
            s.execute("alter table lines add unique (sku)");
            DatabaseMetaData md = c.getMetaData();
            List<List<Object>> keys = new ArrayList<>();
            try (ResultSet rs = md.getPrimaryKeys(null, "main", "lines")) {
                while (rs.next()) {
                    keys.add(List.of(rs.getString("COLUMN_NAME"), rs.getShort("KEY_SEQ"), rs.getString("PK_NAME")));
                }
            }
            assertThat(keys).containsExactly(List.of("line", (short) 2, "pk_lines"), List.of("ord", (short) 1, "pk_lines"));
            List<String> unique = new ArrayList<>();
            try (ResultSet rs = md.getIndexInfo(null, "main", "lines", true, false)) {
                while (rs.next()) {
                    unique.add(rs.getString("INDEX_NAME") + "." + rs.getString("COLUMN_NAME"));
                }
            }
            assertThat(unique).contains("pk_lines.ord", "pk_lines.line", "lines_sku_key.sku");
            assertThat(rows(s, "select constraint_name, constraint_type from information_schema.table_constraints "
                    + "where table_name = 'lines'")).containsExactly(List.of("pk_lines", "PRIMARY KEY"), List.of("lines_sku_key", "UNIQUE"));
        }
    }

    /** A transaction that inserted a duplicate of a key added meanwhile fails its commit: no duplicate is stored. */
    @Test
    void aKeyAddedWhileATransactionInsertsADuplicateStoresNoDuplicate() throws SQLException {
        try (Connection a = DriverManager.getConnection("jdbc:numacol:mem:alter-key-tx");
             Connection b = DriverManager.getConnection("jdbc:numacol:mem:alter-key-tx");
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("create table u (id int, who varchar(1))");
            sa.executeUpdate("insert into u values (1, 'a')");
            b.setAutoCommit(false);
            sb.executeUpdate("insert into u values (1, 'b')");
            sa.execute("alter table u add primary key (id)");
            assertThatThrownBy(b::commit).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
                    .hasMessageContaining("altered");
            b.setAutoCommit(true);
            assertThat(rows(sb, "select id, who from u")).containsExactly(List.of(1, "a"));
            refused(sb, "insert into u values (1, 'c')", "23505", "u_pkey");
        }
    }

    /** The parts an ALTER builds carry an Index of the new key's first column, and lookups by it answer what a scan answers. */
    @Test
    void keyLookupsServeTheAddedKey() throws SQLException {
        SplittableRandom random = new SplittableRandom(7);
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table big (id bigint, code varchar(12), v int)");
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("insert into big values (?, ?, ?)")) {
                for (int i = 0; i < 3000; i++) {
                    p.setLong(1, i);
                    p.setString(2, "c" + i);
                    p.setInt(3, random.nextInt(100));
                    p.addBatch();
                }
                p.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);
            s.execute("alter table big add unique (code)");
            Database db = NumacolDriver.database(c);
            Table big = db.catalog().get("main", "big");
            int code = big.schema().indexOf("code");
            try (TableSnapshot snapshot = big.snapshot()) {
                assertThat(snapshot.parts()).anySatisfy(part -> assertThat(part.rowCount()).isGreaterThanOrEqualTo(1024));
                for (TablePart part : snapshot.parts()) {
                    if (part.rowCount() >= 1024) {
                        assertThat(part.column(code).index()).isNotNull();
                    }
                }
            }
            for (int q = 0; q < 20; q++) {
                int i = random.nextInt(3000);
                assertThat(rows(s, "select id from big where code = 'c" + i + "'")).containsExactly(List.of((long) i));
            }
            refused(s, "insert into big values (9999, 'c17', 0)", "23505", "big_code_key", "(code)=(c17)");
        }
    }

    @Test
    void aFileDatabaseKeepsAnAddedKey(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("create table k (id int, code varchar(4))");
            s.executeUpdate("insert into k values (1, 'a'), (2, 'b')");
            s.execute("alter table k add primary key (id)");
            s.execute("alter table k add constraint k_code unique (code)");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            refused(s, "insert into k values (1, 'z')", "23505", "k_pkey");
            refused(s, "insert into k values (3, 'b')", "23505", "k_code");
            refused(s, "insert into k values (null, 'y')", "23502", "id");
            s.execute("checkpoint");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            refused(s, "insert into k values (2, 'q')", "23505", "k_pkey");
            assertThat(rows(s, "select constraint_name from sys.constraints where table_name = 'k'"))
                    .containsExactly(List.of("k_pkey"), List.of("k_code"));
            assertThat(rows(s, "select count(*) from k")).containsExactly(List.of(2L));
        }
    }

    @Test
    void dropConstraintCascadeDropsTheForeignKeysOfTheKey() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create table p (id int, code varchar(3))");
            s.execute("alter table p add primary key (id)");
            s.execute("alter table p add unique (code)");
            s.execute("create table ch (id int, p int references p, pc varchar(3) references p (code))");
            s.execute("create table tree (id int primary key, parent int references tree)");
            s.executeUpdate("insert into p values (1, 'a')");
            s.executeUpdate("insert into ch values (1, 1, 'a')");
            s.executeUpdate("insert into tree values (1, null), (2, 1)");
            refused(s, "alter table p drop constraint p_pkey", "2BP01", "ch_p_fkey");
            refused(s, "alter table p drop constraint p_pkey restrict", "2BP01", "ch_p_fkey");
            s.execute("alter table p drop constraint p_pkey cascade");
            assertThat(rows(s, "select constraint_name from sys.constraints where table_name in ('p', 'ch') order by constraint_name"))
                    .containsExactly(List.of("ch_pc_fkey"), List.of("p_code_key")); // the foreign key to the other key stays
            s.executeUpdate("insert into ch values (2, 99, 'a')"); // nothing references p's id any more
            refused(s, "insert into ch values (3, 1, 'zz')", "23503", "ch_pc_fkey");

            s.execute("alter table tree drop constraint tree_pkey cascade"); // a foreign key to its own key
            assertThat(rows(s, "select constraint_name from sys.constraints where table_name = 'tree'")).isEmpty();
            s.executeUpdate("insert into tree values (1, 42)");
            assertThat(rows(s, "select count(*) from tree")).containsExactly(List.of(3L));
        }
    }
}
