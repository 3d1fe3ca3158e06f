package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PRIMARY KEY and UNIQUE constraints and CREATE INDEX as DatabaseMetaData answers them
 * (getPrimaryKeys, getIndexInfo; no foreign keys), with JDBC's columns and types.
 */
class KeyMetaDataTest {

    private static List<String> labels(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> labels = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            labels.add(md.getColumnLabel(i));
        }
        return labels;
    }

    /** The named columns of each row. */
    private static List<List<Object>> read(ResultSet rs, String... columns) throws SQLException {
        try (rs) {
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (String c : columns) {
                    row.add(rs.getObject(c));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private static void create(Statement s) throws SQLException {
        s.execute("create table lines (ord bigint not null, line int not null, sku varchar(8), note varchar(8), "
                + "constraint pk_lines primary key (ord, line), constraint uq_sku unique (sku))");
        s.execute("create table items (id int primary key, name varchar(10) unique, qty int)");
        s.execute("create table plain (a int, b int)");
    }

    @Test
    void compositeAndNamedPrimaryKeys() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            create(s);
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getPrimaryKeys(null, "main", "lines")) {
                assertThat(labels(rs)).containsExactly("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
                assertThat(rs.getMetaData().getColumnType(5)).isEqualTo(Types.SMALLINT);
                // ordered by COLUMN_NAME; KEY_SEQ is the position in the key
                assertThat(read(rs, "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME")).containsExactly(
                        List.of("main", "lines", "line", (short) 2, "pk_lines"), List.of("main", "lines", "ord", (short) 1, "pk_lines"));
            }
            assertThat(read(md.getPrimaryKeys(null, null, "items"), "COLUMN_NAME", "KEY_SEQ", "PK_NAME"))
                    .containsExactly(List.of("id", (short) 1, "items_pkey"));
            assertThat(md.getPrimaryKeys(null, null, "plain").next()).isFalse();
            assertThat(md.getPrimaryKeys(null, null, "nothing").next()).isFalse();
            assertThat(md.getPrimaryKeys(null, "sys", "tables").next()).isFalse();

            s.execute("alter table lines rename column line to lineno"); // the key follows the rename
            assertThat(read(md.getPrimaryKeys(null, "main", "lines"), "COLUMN_NAME", "KEY_SEQ"))
                    .containsExactly(List.of("lineno", (short) 2), List.of("ord", (short) 1));
        }
    }

    @Test
    void catalogMatchesGetTables() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            create(s);
            DatabaseMetaData md = c.getMetaData();
            Object cat;
            try (ResultSet rs = md.getTables(null, "main", "items", null)) {
                assertThat(rs.next()).isTrue();
                cat = rs.getObject("TABLE_CAT");
            }
            assertThat(read(md.getPrimaryKeys(null, "main", "items"), "TABLE_CAT")).containsExactly(Arrays.asList(cat));
            assertThat(read(md.getIndexInfo(null, "main", "items", false, true), "TABLE_CAT"))
                    .containsOnly(Arrays.asList(cat));
            assertThat(md.getPrimaryKeys("elsewhere", "main", "items").next()).isFalse();
        }
    }

    @Test
    void indexInfoOfConstraintsAndIndexes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            create(s);
            s.execute("create index lines_note on lines (note, sku)");
            s.execute("create unique index lines_rev on lines (line, ord)");
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getIndexInfo(null, "main", "lines", false, false)) {
                assertThat(labels(rs)).containsExactly("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER",
                        "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES",
                        "FILTER_CONDITION");
                ResultSetMetaData m = rs.getMetaData();
                assertThat(List.of(m.getColumnType(4), m.getColumnType(7), m.getColumnType(8), m.getColumnType(11)))
                        .containsExactly(Types.BOOLEAN, Types.SMALLINT, Types.SMALLINT, Types.BIGINT);
                // unique ones first, then by name and position
                assertThat(read(rs, "TABLE_NAME", "NON_UNIQUE", "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME")).containsExactly(
                        List.of("lines", false, "lines_rev", DatabaseMetaData.tableIndexOther, (short) 1, "line"),
                        List.of("lines", false, "lines_rev", DatabaseMetaData.tableIndexOther, (short) 2, "ord"),
                        List.of("lines", false, "pk_lines", DatabaseMetaData.tableIndexOther, (short) 1, "ord"),
                        List.of("lines", false, "pk_lines", DatabaseMetaData.tableIndexOther, (short) 2, "line"),
                        List.of("lines", false, "uq_sku", DatabaseMetaData.tableIndexOther, (short) 1, "sku"),
                        List.of("lines", true, "lines_note", DatabaseMetaData.tableIndexOther, (short) 1, "note"),
                        List.of("lines", true, "lines_note", DatabaseMetaData.tableIndexOther, (short) 2, "sku"));
            }
            assertThat(read(md.getIndexInfo(null, null, "lines", true, false), "INDEX_NAME", "COLUMN_NAME")).containsExactly(
                    List.of("lines_rev", "line"), List.of("lines_rev", "ord"), List.of("pk_lines", "ord"),
                    List.of("pk_lines", "line"), List.of("uq_sku", "sku"));
            assertThat(read(md.getIndexInfo(null, null, "items", false, true), "NON_UNIQUE", "INDEX_NAME", "COLUMN_NAME"))
                    .containsExactly(List.of(false, "items_name_key", "name"), List.of(false, "items_pkey", "id"));
            assertThat(md.getIndexInfo(null, null, "plain", false, false).next()).isFalse();
            s.execute("create index plain_a on plain (a)");
            assertThat(read(md.getIndexInfo(null, null, "plain", false, false), "NON_UNIQUE", "INDEX_NAME", "COLUMN_NAME"))
                    .containsExactly(List.of(true, "plain_a", "a"));
            assertThat(md.getIndexInfo(null, null, "plain", true, false).next()).isFalse();
            assertThat(read(md.getIndexInfo(null, null, "plain", false, false), "INDEX_QUALIFIER", "ASC_OR_DESC", "CARDINALITY",
                    "PAGES", "FILTER_CONDITION")).containsExactly(Arrays.asList(null, null, 0L, 0L, null));
        }
    }

    @Test
    void schemaFilters() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("create schema sales");
            s.execute("create table main.t (id int primary key)");
            s.execute("create table sales.t (k varchar(4) not null, n int, constraint t_k primary key (k), unique (n))");
            s.execute("create unique index t_n on sales.t (n)");
            DatabaseMetaData md = c.getMetaData();
            assertThat(read(md.getPrimaryKeys(null, null, "t"), "TABLE_SCHEM", "COLUMN_NAME", "PK_NAME"))
                    .containsExactly(List.of("main", "id", "t_pkey"), List.of("sales", "k", "t_k"));
            assertThat(read(md.getPrimaryKeys(null, "sales", "t"), "TABLE_SCHEM", "COLUMN_NAME"))
                    .containsExactly(List.of("sales", "k"));
            assertThat(read(md.getPrimaryKeys(null, "main", "t"), "TABLE_SCHEM", "COLUMN_NAME"))
                    .containsExactly(List.of("main", "id"));
            assertThat(md.getPrimaryKeys(null, "nowhere", "t").next()).isFalse();
            // names resolve as numacol resolves them: ignoring case
            assertThat(read(md.getPrimaryKeys(null, "SALES", "T"), "TABLE_SCHEM", "TABLE_NAME")).containsExactly(List.of("sales", "t"));
            assertThat(read(md.getIndexInfo(null, "sales", "t", false, false), "TABLE_SCHEM", "INDEX_NAME", "COLUMN_NAME"))
                    .containsExactly(List.of("sales", "t_k", "k"), List.of("sales", "t_n", "n"), List.of("sales", "t_n_key", "n"));
            assertThat(read(md.getIndexInfo(null, "main", "t", false, false), "TABLE_SCHEM", "INDEX_NAME"))
                    .containsExactly(List.of("main", "t_pkey"));
        }
    }

    @Test
    void noForeignKeys() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            create(s);
            DatabaseMetaData md = c.getMetaData();
            List<String> keyColumns = List.of("PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_CAT",
                    "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE", "FK_NAME", "PK_NAME",
                    "DEFERRABILITY");
            try (ResultSet rs = md.getImportedKeys(null, "main", "lines")) {
                assertThat(labels(rs)).containsExactlyElementsOf(keyColumns);
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = md.getExportedKeys(null, "main", "items")) {
                assertThat(labels(rs)).containsExactlyElementsOf(keyColumns);
                assertThat(rs.getMetaData().getColumnType(9)).isEqualTo(Types.SMALLINT);
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = md.getCrossReference(null, "main", "items", null, "main", "lines")) {
                assertThat(labels(rs)).containsExactlyElementsOf(keyColumns);
                assertThat(rs.next()).isFalse();
            }
            assertThat(rows(s, "select count(*) from lines")).containsExactly(List.of(0L));
        }
    }

    @Test
    void sysConstraints() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            create(s);
            s.execute("create schema sales");
            s.execute("create table sales.t (k varchar(4) not null, n int, unique (n), constraint t_k primary key (k))");
            s.execute("create unique index lines_rev on lines (line, ord)"); // an index, not a constraint
            assertThat(rows(s, "select schema_name, table_name, constraint_name, constraint_type, column_names from sys.constraints"))
                    .containsExactly(
                            List.of("main", "items", "items_pkey", "PRIMARY KEY", "id"),
                            List.of("main", "items", "items_name_key", "UNIQUE", "name"),
                            List.of("main", "lines", "pk_lines", "PRIMARY KEY", "ord, line"),
                            List.of("main", "lines", "uq_sku", "UNIQUE", "sku"),
                            List.of("sales", "t", "t_k", "PRIMARY KEY", "k"),
                            List.of("sales", "t", "t_n_key", "UNIQUE", "n"));
            assertThat(rows(s, "select constraint_name from sys.constraints where schema_name = 'sales' and constraint_type = 'UNIQUE'"))
                    .containsExactly(List.of("t_n_key"));
            s.execute("drop table items");
            assertThat(rows(s, "select count(*) from sys.constraints where table_name = 'items'")).containsExactly(List.of(0L));
        }
    }

    @Test
    void informationSchemaConstraints() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            create(s);
            s.execute("create schema sales");
            s.execute("create table sales.t (k varchar(4) not null, n int, unique (n), constraint t_k primary key (k))");
            s.execute("create view v as select * from items");
            try (ResultSet rs = s.executeQuery("select * from information_schema.table_constraints")) {
                assertThat(labels(rs)).startsWith("constraint_catalog", "constraint_schema", "constraint_name", "table_catalog",
                        "table_schema", "table_name", "constraint_type");
                assertThat(read(rs, "constraint_catalog", "constraint_schema", "constraint_name", "table_catalog", "table_schema",
                        "table_name", "constraint_type")).containsExactly(
                        List.of("numacol", "main", "items_pkey", "numacol", "main", "items", "PRIMARY KEY"),
                        List.of("numacol", "main", "items_name_key", "numacol", "main", "items", "UNIQUE"),
                        List.of("numacol", "main", "pk_lines", "numacol", "main", "lines", "PRIMARY KEY"),
                        List.of("numacol", "main", "uq_sku", "numacol", "main", "lines", "UNIQUE"),
                        List.of("numacol", "sales", "t_k", "numacol", "sales", "t", "PRIMARY KEY"),
                        List.of("numacol", "sales", "t_n_key", "numacol", "sales", "t", "UNIQUE"));
            }
            try (ResultSet rs = s.executeQuery("select * from information_schema.key_column_usage where table_schema = 'main'")) {
                assertThat(labels(rs)).startsWith("constraint_catalog", "constraint_schema", "constraint_name", "table_catalog",
                        "table_schema", "table_name", "column_name", "ordinal_position");
                assertThat(read(rs, "constraint_name", "table_name", "column_name", "ordinal_position")).containsExactly(
                        List.of("items_pkey", "items", "id", 1),
                        List.of("items_name_key", "items", "name", 1),
                        List.of("pk_lines", "lines", "ord", 1),
                        List.of("pk_lines", "lines", "line", 2),
                        List.of("uq_sku", "lines", "sku", 1));
            }
            // the PostgreSQL query of a table's primary key columns
            assertThat(rows(s, "select kcu.column_name from information_schema.table_constraints tc "
                    + "join information_schema.key_column_usage kcu on tc.constraint_schema = kcu.constraint_schema "
                    + "and tc.constraint_name = kcu.constraint_name "
                    + "where tc.constraint_type = 'PRIMARY KEY' and tc.table_name = 'lines' order by kcu.ordinal_position"))
                    .containsExactly(List.of("ord"), List.of("line"));
            assertThat(rows(s, "select count(*) from information_schema.table_constraints where table_name in ('plain', 'v')"))
                    .containsExactly(List.of(0L));
        }
    }
}
