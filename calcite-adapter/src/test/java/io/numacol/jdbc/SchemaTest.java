package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaTest {

    @Test
    void aSchemaHoldsTablesAndViewsOfItsOwn(@TempDir Path dir) throws SQLException, IOException {
        Path csv = Files.writeString(dir.resolve("t.csv"), "7,seven\n8,eight\n");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create schema sales");
            s.execute("create schema if not exists sales");
            s.execute("create table t (id int, name varchar)");
            s.execute("create table sales.t (id int, name varchar)"); // the same name, another table
            s.executeUpdate("insert into t values (1, 'main one'), (2, 'main two')");
            s.executeUpdate("insert into sales.t values (1, 'sales one'), (3, 'sales three')");
            assertThat(s.executeUpdate("copy sales.t from '" + csv + "'")).isEqualTo(2);
            try (PreparedStatement p = c.prepareStatement("insert into sales.t values (?, ?)")) {
                p.setInt(1, 9);
                p.setString(2, "nine");
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1);
            }
            assertThat(rows(s, "select id, name from t order by id")).containsExactly(List.of(1, "main one"), List.of(2, "main two"));
            assertThat(rows(s, "select count(*) from sales.t")).containsExactly(List.of(5L));
            assertThat(rows(s, "select m.name, x.name from main.t m join sales.t x on m.id = x.id")).containsExactly(
                    List.of("main one", "sales one"));

            assertThat(s.executeUpdate("update sales.t set name = upper(name) where id > 3")).isEqualTo(3);
            assertThat(s.executeUpdate("delete from sales.t where id = 3")).isEqualTo(1);
            s.execute("alter table sales.t add column region varchar default 'north'");
            s.execute("alter table sales.t rename column name to label");
            s.execute("create index by_id on sales.t (id)");
            s.execute("create table sales.summary as select region, count(*) as n from sales.t group by region");
            assertThat(rows(s, "select id, label, region from sales.t order by id")).containsExactly(
                    List.of(1, "sales one", "north"), List.of(7, "SEVEN", "north"), List.of(8, "EIGHT", "north"),
                    List.of(9, "NINE", "north"));
            assertThat(rows(s, "select region, n from sales.summary")).containsExactly(List.of("north", 4L));
            assertThat(rows(s, "select id, name from t order by id")).as("main.t untouched")
                    .containsExactly(List.of(1, "main one"), List.of(2, "main two"));

            // a view reads its names where it was created: here, main
            s.execute("create view sales.both_ts as select m.id, x.label from t m join sales.t x on m.id = x.id");
            s.execute("set schema sales");
            assertThat(rows(s, "select id, label from both_ts")).containsExactly(List.of(1, "sales one"));
            s.execute("set schema main");

            assertThat(rows(s, "select schema_name from information_schema.schemata order by 1")).containsExactly(
                    List.of("information_schema"), List.of("main"), List.of("pg_catalog"), List.of("sales"), List.of("sys"));
            assertThat(rows(s, "select table_schema, table_name, table_type from information_schema.tables "
                    + "where table_schema in ('main', 'sales') order by 1, 2")).containsExactly(
                    List.of("main", "t", "BASE TABLE"), List.of("sales", "both_ts", "VIEW"), List.of("sales", "summary", "BASE TABLE"),
                    List.of("sales", "t", "BASE TABLE"));
            assertThat(rows(s, "select schema_name, table_name, row_count from sys.tables order by 1, 2")).containsExactly(
                    List.of("main", "t", 2L), List.of("sales", "summary", 1L), List.of("sales", "t", 4L));
            assertThat(rows(s, "select schema_name, index_name, table_name from sys.indexes")).containsExactly(
                    List.of("sales", "by_id", "t"));
            assertThat(rows(s, "select distinct schema_name, table_name from sys.placements order by 1, 2")).containsExactly(
                    List.of("main", "t"), List.of("sales", "summary"), List.of("sales", "t"));

            DatabaseMetaData meta = c.getMetaData();
            List<String> schemas = new ArrayList<>();
            try (ResultSet rs = meta.getSchemas()) {
                while (rs.next()) {
                    schemas.add(rs.getString("TABLE_SCHEM"));
                }
            }
            assertThat(schemas).contains("main", "sales");
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = meta.getTables(null, "sales", "%", null)) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            assertThat(tables).containsExactlyInAnyOrder("t", "summary", "both_ts");

            assertThat(s.executeUpdate("truncate sales.summary")).isEqualTo(1);
            s.execute("drop view sales.both_ts");
            s.execute("drop index sales.by_id");
            s.execute("drop table sales.summary");
            assertThat(rows(s, "select table_name from information_schema.tables where table_schema = 'sales'"))
                    .containsExactly(List.of("t"));
        }
    }

    @Test
    void setSchemaMovesTheSessionAndOtherConnectionsSeeSchemasAtOnce() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:schemas-session");
             Connection other = DriverManager.getConnection("jdbc:numacol:mem:schemas-session");
             Statement s = c.createStatement();
             Statement o = other.createStatement()) {
            s.execute("create table t (v varchar)");
            s.executeUpdate("insert into t values ('main')");
            s.execute("create schema a");
            assertThat(c.getSchema()).isEqualTo("main");
            s.execute("set schema a");
            assertThat(c.getSchema()).isEqualTo("a");
            s.execute("create table t (v varchar)"); // unqualified: in the session's schema
            s.executeUpdate("insert into t values ('a')");
            // the same text in two schemas is two plans: the plan cache keys them by the schema
            assertThat(rows(s, "select v from t")).containsExactly(List.of("a"));
            s.execute("use main");
            assertThat(rows(s, "select v from t")).containsExactly(List.of("main"));
            s.execute("SET SCHEMA = 'A'"); // the schema as created, whatever the case written
            assertThat(c.getSchema()).isEqualTo("a");
            assertThat(rows(s, "select v from t")).containsExactly(List.of("a"));
            c.setSchema("main");
            assertThat(rows(s, "select v from t")).containsExactly(List.of("main"));

            assertThat(rows(o, "select v from a.t")).containsExactly(List.of("a"));
            o.execute("create schema b");
            o.execute("create table b.t (v varchar)");
            o.executeUpdate("insert into b.t values ('b')");
            assertThat(rows(s, "select v from b.t")).containsExactly(List.of("b"));
            try (PreparedStatement p = c.prepareStatement("set schema b")) {
                p.execute();
            }
            assertThat(rows(s, "select v from t")).containsExactly(List.of("b"));
            s.execute("set schema sys"); // numacol's own schemas can be read unqualified too
            assertThat(rows(s, "select count(*) from tables")).containsExactly(List.of(3L));

            assertThatThrownBy(() -> s.execute("set schema nope")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema nope does not exist: CREATE SCHEMA nope first");
            assertThatThrownBy(() -> s.execute("create table x (i int)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema sys is numacol's own and holds no tables or views of yours");
            assertThat(c.getSchema()).isEqualTo("sys");
        }
    }

    @Test
    void dropSchemaRefusesWhatItHoldsUnlessCascade() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create schema s");
            s.execute("create table s.t (i int)");
            s.executeUpdate("insert into s.t select x from (values (1), (2), (3)) as v(x)");
            s.execute("create view s.v as select i * 2 as j from s.t");
            s.execute("create index ix on s.t (i)");
            assertThatThrownBy(() -> s.execute("drop schema s")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema s is not empty: it holds table t, view v; DROP SCHEMA s CASCADE drops them with it");
            assertThatThrownBy(() -> s.execute("drop schema s restrict")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("is not empty");
            assertThat(rows(s, "select sum(j) from s.v")).containsExactly(List.of(12L));
            long held = ((Number) rows(s, "select sum(numacol_bytes) from sys.nodes").getFirst().getFirst()).longValue();
            assertThat(held).isPositive();

            s.execute("drop schema s cascade");
            assertThat(rows(s, "select count(*) from information_schema.schemata where schema_name = 's'")).containsExactly(List.of(0L));
            assertThat(rows(s, "select count(*) from sys.tables")).containsExactly(List.of(0L));
            assertThat(rows(s, "select count(*) from sys.indexes")).containsExactly(List.of(0L));
            assertThat(((Number) rows(s, "select sum(numacol_bytes) from sys.nodes").getFirst().getFirst()).longValue())
                    .as("the dropped table's memory is freed").isZero();
            assertThatThrownBy(() -> s.executeQuery("select * from s.t")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Object 's' not found");
            s.execute("drop schema if exists s");
            assertThatThrownBy(() -> s.execute("drop schema s")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema s does not exist");
            s.execute("create schema s"); // again, empty
            assertThat(rows(s, "select count(*) from information_schema.tables where table_schema = 's'")).containsExactly(List.of(0L));

            assertThatThrownBy(() -> s.execute("drop schema main")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema main cannot be dropped");
            assertThatThrownBy(() -> s.execute("drop schema sys cascade")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema sys is numacol's own and cannot be dropped");
        }
    }

    @Test
    void badNamesAreRefusedWithWhatToDo() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create schema s");
            s.execute("create table s.t (i int)");
            assertThatThrownBy(() -> s.execute("create schema S")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema S already exists");
            assertThatThrownBy(() -> s.execute("create schema information_schema")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema information_schema is numacol's own: choose another name");
            assertThatThrownBy(() -> s.execute("create table nosuch.t (i int)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema nosuch does not exist");
            assertThatThrownBy(() -> s.execute("create table sys.t (i int)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("schema sys is numacol's own and holds no tables or views of yours: name another schema");
            assertThatThrownBy(() -> s.execute("create table s.t (i int)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("table s.t already exists");
            assertThatThrownBy(() -> s.execute("alter table s.t rename to main.u")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("a table stays in its schema, s");
            // an index's schema written before it (as Liquibase writes it) is its table's: another one is refused
            s.execute("create index s.ix on s.t (i)");
            assertThat(rows(s, "select table_name from sys.indexes where index_name = 'ix'")).containsExactly(List.of("t"));
            s.execute("drop index s.ix");
            assertThatThrownBy(() -> s.execute("create index main.ix on s.t (i)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("an index is in the schema of its table");
            assertThatThrownBy(() -> s.execute("drop table t")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("table t does not exist");
            s.execute("drop table if exists t");
            s.execute("alter table s.t rename to u");
            assertThat(rows(s, "select table_name from information_schema.tables where table_schema = 's'")).containsExactly(List.of("u"));
        }
    }

    /** Calcite lists every token that could have come (some 150 after SELECT): the message keeps a line of them. */
    @Test
    void aSyntaxErrorIsOneLine() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("select from t")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Encountered \"from\" at line 1, column 8. Expected one of")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThatThrownBy(() -> s.executeQuery("select * from t where")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").hasSizeLessThan(400));
            assertThatThrownBy(() -> s.execute("set schema s extra")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("unexpected 'extra' after the statement");
        }
    }
}
