package io.numacol.jdbc;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JdbcTest {

    @Test
    void createLoadQueryDrop() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;topology=fake:2");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, qty INTEGER, price DECIMAL(10,2), shipped DATE, name VARCHAR(20))");
            Database db = NumacolDriver.database(c);
            assertThat(db.topology().nodeCount()).isEqualTo(2);
            try (Appender a = db.appender("items")) {
                for (int i = 0; i < 1000; i++) {
                    a.append((long) i, i % 10, BigDecimal.valueOf(i, 2), LocalDate.of(2020, 1, 1).plusDays(i % 30),
                            i % 7 == 0 ? null : "item " + (i % 13));
                }
            }
            assertThat(rows(s, "select count(*), sum(qty), max(price), min(shipped) from items where qty between 3 and 5"))
                    .containsExactly(List.of(300L, 1200L, new BigDecimal("9.95"), Date.valueOf("2020-01-04")));
            assertThat(rows(s, "select name, count(*) from ITEMS where name is not null group by name order by 2 desc, 1 limit 2"))
                    .hasSize(2);
            assertThat(rows(s, "select table_name, row_count from sys.tables")).containsExactly(List.of("items", 1000L));
            assertThat(rows(s, "select count(*) from sys.columns where table_name = 'items'")).containsExactly(List.of(5L));
            assertThat(rows(s, "select distinct node from sys.placements where table_name = 'items'")).hasSize(1);
            assertThat(rows(s, "select node_id from sys.nodes order by node_id")).containsExactly(List.of(0), List.of(1));

            assertThatThrownBy(() -> s.execute("CREATE TABLE items (a INT)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("table items already exists");
            assertThatThrownBy(() -> s.execute("CREATE TABLE bad (a INTEGR)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("INTEGR");
            assertThatThrownBy(() -> s.executeQuery("select nope from items")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Column 'nope' not found");
            s.execute("DROP TABLE items");
            s.execute("DROP TABLE IF EXISTS items");
            assertThatThrownBy(() -> s.execute("DROP TABLE items")).hasMessageContaining("table items does not exist");
            assertThat(db.memory().accounting().totalBytes()).isZero();
        }
    }

    @Test
    void indexesAreRecordedInSysAndDroppedWithTheirTable() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE tab1 (pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT)");
            s.execute("INSERT INTO tab1 VALUES (1, 2, 3.5, 'x'), (2, 2, 4.5, 'y')");
            s.execute("CREATE INDEX idx_tab1_0 on tab1 (col0)");
            s.execute("CREATE UNIQUE INDEX idx_tab1_1 ON tab1 (COL1 DESC, col2 ASC)");
            s.execute("CREATE INDEX IF NOT EXISTS IDX_TAB1_0 ON tab1 (col2)");
            assertThat(rows(s, "select index_name, table_name, columns, is_unique, built from sys.indexes order by 1"))
                    .containsExactly(List.of("idx_tab1_0", "tab1", "col0", false, false),
                            List.of("idx_tab1_1", "tab1", "col1, col2", true, false));
            assertThat(rows(s, "select sum(col1) from tab1 where col0 = 2")).containsExactly(List.of(8.0));
            assertThatThrownBy(() -> s.execute("CREATE INDEX idx_tab1_0 ON tab1 (col2)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("index idx_tab1_0 already exists");
            assertThatThrownBy(() -> s.execute("CREATE INDEX i2 ON tab1 (nope)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("table tab1 has no column nope");
            assertThatThrownBy(() -> s.execute("CREATE INDEX i2 ON tab9 (col0)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("table tab9 does not exist");
            assertThatThrownBy(() -> s.execute("CREATE INDEX i2 ON tab1 (col0, COL0)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("names column col0 twice");
            s.execute("DROP INDEX idx_tab1_0");
            s.execute("DROP INDEX IF EXISTS idx_tab1_0");
            assertThatThrownBy(() -> s.execute("DROP INDEX idx_tab1_0")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("index idx_tab1_0 does not exist");
            s.execute("DROP TABLE tab1 CASCADE");
            assertThat(rows(s, "select count(*) from sys.indexes")).containsExactly(List.of(0L));
            s.execute("CREATE TABLE tab1 (col0 INTEGER)");
            s.execute("CREATE INDEX idx_tab1_1 ON tab1 (col0)");
            assertThat(rows(s, "select columns from sys.indexes")).containsExactly(List.of("col0"));

            // UNIQUE is accepted as PRIMARY KEY is, and not enforced either
            s.execute("CREATE TABLE u (a INTEGER UNIQUE, b TEXT NOT NULL UNIQUE, c INT, UNIQUE (b, c))");
            assertThatThrownBy(() -> s.execute("CREATE TABLE u2 (a INTEGER, UNIQUE (z))")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("UNIQUE names z, which is not a column of u2");
            // unary plus changes no value, of any type (as in SQLite, HSQLDB and H2)
            s.execute("INSERT INTO u VALUES (1, 'abc', 2)");
            assertThat(rows(s, "SELECT + b, +a, - + a FROM u WHERE NOT + b IS NULL")).containsExactly(List.of("abc", 1, -1));
        }
    }

    @Test
    void viewsAreQueriesByName() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:mem:views");
             Connection other = DriverManager.getConnection("jdbc:numacol:mem:views");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t1 (x INTEGER, Name VARCHAR(10))");
            s.execute("INSERT INTO t1 VALUES (1, 'a'), (-2, 'b'), (3, NULL)");
            s.execute("CREATE VIEW view1 AS SELECT x, Name FROM t1 WHERE x > 0");
            s.execute("create view V2 (doubled, n) as select x * 2, name from view1;");
            assertThat(rows(s, "select * from VIEW1 order by x")).containsExactly(List.of(1, "a"), Arrays.asList(3, null));
            try (ResultSet rs = s.executeQuery("select * from view1")) {
                assertThat(rs.getMetaData().getColumnLabel(2)).as("names as written").isEqualTo("Name");
            }
            try (Statement o = other.createStatement()) {
                assertThat(rows(o, "select sum(doubled), count(n) from v2")).containsExactly(List.of(8L, 1L));
            }
            assertThat(rows(s, "select count(*) from t1 join view1 on t1.x = view1.x")).containsExactly(List.of(2L));
            try (ResultSet rs = c.getMetaData().getTables(null, "main", "%", new String[] {"VIEW"})) {
                List<String> views = new ArrayList<>();
                while (rs.next()) {
                    views.add(rs.getString("TABLE_NAME"));
                }
                assertThat(views).containsExactlyInAnyOrder("view1", "V2");
            }
            s.execute("CREATE OR REPLACE VIEW view1 AS SELECT x, name FROM t1 WHERE x < 0");
            assertThat(rows(s, "select x from view1")).containsExactly(List.of(-2));

            assertThatThrownBy(() -> s.execute("CREATE VIEW view1 AS SELECT 1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("view view1 already exists");
            assertThatThrownBy(() -> s.execute("CREATE VIEW t1 AS SELECT 1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("a table named t1 already exists");
            assertThatThrownBy(() -> s.execute("CREATE TABLE view1 (a INT)")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("a view named view1 already exists");
            assertThatThrownBy(() -> s.execute("CREATE VIEW bad AS SELECT nope FROM t1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("view bad").hasMessageContaining("nope");
            assertThatThrownBy(() -> s.execute("CREATE VIEW bad (a, b) AS SELECT x FROM t1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("view bad names 2 columns but its query has 1");
            assertThatThrownBy(() -> s.executeQuery("select * from bad")).isInstanceOf(SQLException.class);

            s.execute("DROP VIEW v2");
            s.execute("DROP VIEW IF EXISTS v2 CASCADE");
            assertThatThrownBy(() -> s.execute("DROP VIEW v2")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("view v2 does not exist");
            assertThatThrownBy(() -> s.executeQuery("select * from v2")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("v2");
            s.execute("DROP VIEW view1");
            s.execute("DROP TABLE t1");
        }
    }

    @Test
    void informationSchemaListsSchemasTablesColumnsAndViews() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t1 (x INTEGER NOT NULL, Name VARCHAR(10), price DECIMAL(8,2), d DATE)");
            s.execute("CREATE VIEW Cheap AS SELECT x, Name FROM t1 WHERE price < 10");
            // a view's columns seen by metadata first (not inside a statement's planning) keep their case
            try (ResultSet rs = c.getMetaData().getColumns(null, "main", "Cheap", "%")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("x");
            }
            assertThat(rows(s, "select x, Name from Cheap")).isEmpty();
            assertThat(rows(s, "select schema_name from information_schema.schemata"))
                    .containsExactly(List.of("information_schema"), List.of("main"), List.of("pg_catalog"), List.of("sys"));
            assertThat(rows(s, "select table_name, table_type from information_schema.tables where table_schema = 'main'"))
                    .containsExactly(List.of("Cheap", "VIEW"), List.of("t1", "BASE TABLE"));
            assertThat(rows(s, "select table_type, count(*) from information_schema.tables where table_schema = 'sys' group by table_type"))
                    .containsExactly(List.of("SYSTEM TABLE", 16L));
            assertThat(rows(s, "select column_name, ordinal_position, is_nullable, data_type, character_maximum_length, "
                    + "numeric_precision, numeric_scale from information_schema.columns where table_name = 't1'")).containsExactly(
                    Arrays.asList("x", 1, "NO", "INTEGER", null, 10, 0),
                    Arrays.asList("Name", 2, "YES", "VARCHAR", 10, null, null),
                    Arrays.asList("price", 3, "YES", "DECIMAL", null, 8, 2),
                    Arrays.asList("d", 4, "YES", "DATE", null, null, null));
            assertThat(rows(s, "select column_name from information_schema.columns where table_name = 'Cheap'"))
                    .containsExactly(List.of("x"), List.of("Name"));
            assertThat(rows(s, "select table_name, view_definition from information_schema.views"))
                    .containsExactly(List.of("Cheap", "SELECT x, Name FROM t1 WHERE price < 10"));
        }
    }

    @Test
    void everyStatementCommitsItselfAndToolsThatCommitStillWork() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:")) {
            assertThat(c.getAutoCommit()).isTrue();
            c.setAutoCommit(true);
            c.createStatement().execute("create table t (x integer)");
            c.createStatement().executeUpdate("insert into t values (1)");
            c.commit();
            c.rollback();
            assertThat(c.getAutoCommit()).isTrue();
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
            try (ResultSet rs = c.createStatement().executeQuery("select count(*) from t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(1);
            }
        }
    }

    @Test
    void namedDatabasesAreSharedWhileAConnectionIsOpen() throws SQLException {
        Database first;
        try (Connection a = DriverManager.getConnection("jdbc:numacol:mem:shared")) {
            a.createStatement().execute("create table t (x int)");
            first = NumacolDriver.database(a);
            try (Connection b = DriverManager.getConnection("jdbc:numacol:mem:shared")) {
                assertThat(NumacolDriver.database(b)).isSameAs(first);
                assertThat(rows(b.createStatement(), "select count(*) from t")).containsExactly(List.of(0L));
            }
            assertThat(first.isClosed()).isFalse();
        }
        assertThat(first.isClosed()).isTrue();
        try (Connection a = DriverManager.getConnection("jdbc:numacol:mem:shared")) {
            assertThatThrownBy(() -> a.createStatement().executeQuery("select * from t")).hasMessageContaining("'t' not found");
        }
    }

    @Test
    void badUrlsAndPropertiesSayWhatIsWrong() {
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:disk:/x")).hasMessageContaining("unknown numacol location 'disk:/x'");
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:mem:")).hasMessageContaining("names no database");
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;topology=fake:0")).hasMessageContaining("1..64");
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;stealPolicy=NEVER")).hasMessageContaining("NEVER");
    }
}
