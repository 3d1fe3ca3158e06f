package io.numacol.export;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * EXPORT DATABASE then IMPORT DATABASE into another database gives the same schemas, tables,
 * rows (every type, NULLs, empty strings, quotes, commas and line breaks in strings), keys,
 * foreign keys, views, indexes, sequences and identities (going on from where they were).
 */
class ExportImportTest {

    private static final String[] QUERIES = {
        "select * from \"Odd, Name\" order by id",
        "select * from sales.orders order by id",
        "select * from customers order by id",
        "select * from big order by n",
        "select table_name, column_name, column_default from information_schema.columns where table_name in ('orders', 'customers') "
                + "order by table_name, ordinal_position",
        "select * from v_totals order by customer",
        "select constraint_name, constraint_type from information_schema.table_constraints order by constraint_name",
        "select constraint_name, unique_constraint_name from information_schema.referential_constraints",
        "select index_name, table_name, columns, is_unique from sys.indexes order by index_name",
    };

    @Test
    void aDatabaseMovesWholeThroughItsExport(@TempDir Path dir) throws SQLException {
        Path export = dir.resolve("export dir");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:export_source"); Statement s = c.createStatement()) {
            fill(s);
            s.execute("COMMENT ON TABLE sales.orders IS 'one per order, it''s said'");
            s.execute("COMMENT ON COLUMN \"Odd, Name\".id IS 'the key'");
            assertThat(s.executeUpdate("EXPORT DATABASE '" + export + "' (FORMAT CSV)")).isEqualTo(3 + 2 + 3 + 3000);
            List<List<List<Object>>> before = answers(s);
            try (Connection d = DriverManager.getConnection("jdbc:numacol:mem:export_target"); Statement t = d.createStatement()) {
                assertThat(t.executeUpdate("IMPORT DATABASE '" + export + "'")).isEqualTo(3 + 2 + 3 + 3000);
                assertThat(answers(t)).isEqualTo(before);
                // COMMENT ONs come along
                try (ResultSet rs = d.getMetaData().getTables(null, "sales", "orders", null)) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString("REMARKS")).isEqualTo("one per order, it's said");
                }
                try (ResultSet rs = d.getMetaData().getColumns(null, "main", "Odd, Name", "id")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString("REMARKS")).isEqualTo("the key");
                }
                // sequences and identities go on from where they were, not from their start
                assertThat(rows(t, "select nextval('ids')")).isEqualTo(rows(s, "select nextval('ids')"));
                t.executeUpdate("insert into customers (name) values ('new')");
                s.executeUpdate("insert into customers (name) values ('new')");
                assertThat(rows(t, "select id from customers where name = 'new'")).isEqualTo(rows(s, "select id from customers where name = 'new'"));
                assertThatThrownBy(() -> rows(t, "select nextval('sales.done')")).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("2200H"));
                assertThatThrownBy(() -> t.executeUpdate("insert into sales.orders values (98, 1, 5000.00, null)"))
                        .isInstanceOf(SQLException.class).satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23514"))
                        .hasMessageContaining("total, at least");
                // the keys hold
                assertThatThrownBy(() -> t.executeUpdate("insert into sales.orders values (99, 77, 1.00, null)"))
                        .isInstanceOf(SQLException.class).satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23503"));
                assertThatThrownBy(() -> t.executeUpdate("insert into \"Odd, Name\" (id) values (1)"))
                        .isInstanceOf(SQLException.class).satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
            }
        }
        assertThat(export.resolve("schema.sql")).exists();
        assertThat(export.resolve("load.sql")).exists();
        assertThat(export.resolve("sales_orders.csv")).exists();
    }

    @Test
    void anExportMovedElsewhereImportsIntoAFileDatabase(@TempDir Path dir) throws Exception {
        Path export = dir.resolve("first");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            fill(s);
            s.executeUpdate("EXPORT DATABASE '" + export + "'");
            List<List<List<Object>>> before = answers(s);
            Path moved = Files.move(export, dir.resolve("moved"));
            String url = "jdbc:numacol:file:" + dir.resolve("db");
            try (Connection d = DriverManager.getConnection(url); Statement t = d.createStatement()) {
                t.executeUpdate("IMPORT DATABASE '" + moved + "'");
            }
            try (Connection d = DriverManager.getConnection(url); Statement t = d.createStatement()) {
                assertThat(answers(t)).isEqualTo(before);
            }
        }
    }

    @Test
    void aMissingExportIsRefusedAndAFailingStatementIsNamed(@TempDir Path dir) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("IMPORT DATABASE '" + dir.resolve("nothing") + "'")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("58P01"))
                    .hasMessageContaining("schema.sql does not exist");
            s.execute("create table t (id int primary key)");
            s.executeUpdate("insert into t values (1)");
            s.executeUpdate("export database '" + dir.resolve("e") + "'");
            assertThatThrownBy(() -> s.execute("import database '" + dir.resolve("e") + "'")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P07"))
                    .hasMessageContaining("schema.sql").hasMessageContaining("CREATE TABLE");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(1L)); // nothing already there was touched
        }
    }

    @Test
    void scriptsSplitAtSemicolonsOutsideQuotesAndComments() {
        assertThat(SqlScript.statements("a 'x;y' \"p;q\"; -- c;\n b /* ; */ c;; ")).containsExactly("a 'x;y' \"p;q\"", "b   c");
        assertThat(DatabaseExport.field("")).isEqualTo("\"\"");
        assertThat(DatabaseExport.field("a,\"b\"")).isEqualTo("\"a,\"\"b\"\"\"");
        assertThat(DatabaseExport.field(" x")).isEqualTo("\" x\"");
        assertThat(DatabaseExport.field("plain")).isEqualTo("plain");
    }

    private static void fill(Statement s) throws SQLException {
        s.execute("create schema sales");
        s.execute("create sequence ids start with 10 increment by 5");
        assertThat(rows(s, "select nextval('ids')")).containsExactly(List.of(10L));
        assertThat(rows(s, "select nextval('ids')")).containsExactly(List.of(15L));
        s.execute("create sequence sales.done as integer start with 1 maxvalue 2");
        assertThat(rows(s, "select nextval('sales.done')")).containsExactly(List.of(1L));
        assertThat(rows(s, "select nextval('sales.done')")).containsExactly(List.of(2L)); // exhausted now
        s.execute("create table customers (id int generated by default as identity primary key, name varchar(20) not null default 'n/a')");
        s.executeUpdate("insert into customers (name) values ('ann'), ('bob'), ('cid')");
        s.executeUpdate("insert into customers (id, name) values (50, 'dan')");
        s.executeUpdate("delete from customers where name = 'bob'");
        s.execute("create table sales.orders (id int primary key, customer int references customers (id), total decimal(12, 2) "
                + "constraint \"total, at least\" check (total > -1 and total < 1000), placed timestamp default current_timestamp, "
                + "tag varchar(10) default 'a' || 'b')");
        s.executeUpdate("insert into sales.orders values (1, 1, 10.50, timestamp '2024-02-29 23:59:59.125', default), "
                + "(2, 50, -0.01, null, 'x')");
        s.execute("create table \"Odd, Name\" (id int primary key, \"a \"\"quoted\"\" col\" varchar(40), d date, t time, "
                + "b boolean, r real, x double, u uuid, bin varbinary(8), tz timestamp with time zone, small smallint, tiny tinyint, "
                + "big bigint, c char(3))");
        s.executeUpdate("insert into \"Odd, Name\" values "
                + "(1, 'comma, \"quote\" and\nnewline', date '1999-12-31', time '12:34:56.789', true, 1.5, -2.25e-10, "
                + "uuid '123e4567-e89b-12d3-a456-426614174000', X'00ff10', timestamp with time zone '2024-01-01 10:00:00+02:00', "
                + "-32768, 127, 9223372036854775807, 'ab'), "
                + "(2, '', null, null, false, null, 0.0, null, null, null, null, null, null, null), "
                + "(3, ' ünï ', date '0001-01-01', time '00:00:00', null, -0.0, 1e300, null, X'', null, 1, -128, -1, null)");
        s.execute("create index odd_d on \"Odd, Name\" (d)");
        s.execute("create view v_totals as select customer, sum(total) as total from sales.orders group by customer");
        s.execute("create table big (n bigint, s varchar(10)) placement RR");
        Random random = new Random(42);
        StringBuilder insert = new StringBuilder("insert into big values ");
        for (int i = 0; i < 3000; i++) {
            insert.append(i == 0 ? "" : ", ").append('(').append(random.nextLong()).append(", '").append(random.nextInt(100)).append("')");
        }
        s.executeUpdate(insert.toString());
    }

    private static List<List<List<Object>>> answers(Statement s) throws SQLException {
        List<List<List<Object>>> all = new ArrayList<>();
        for (String q : QUERIES) {
            all.add(rows(s, q));
        }
        return all;
    }

    private static List<List<Object>> rows(Statement s, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    Object v = rs.getObject(i);
                    row.add(v instanceof byte[] b ? Arrays.toString(b) : v);
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
