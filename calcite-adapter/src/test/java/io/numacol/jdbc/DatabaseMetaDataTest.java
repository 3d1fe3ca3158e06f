package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DatabaseMetaData as the JDBC spec says, value by value: getColumns' TYPE_NAME is the bare type
 * name and COLUMN_SIZE / DECIMAL_DIGITS follow the spec's table, getTableTypes names every type
 * getTables gives, getTypeInfo offers exactly the types CREATE TABLE takes (each is created and
 * read back under its own name), getFunctions lists the functions statements call, isReadOnly is
 * true of a read-only database only, getTypeMap is empty, and the JDBC version is 4.3.
 */
class DatabaseMetaDataTest {
    /** COLUMN_NAME to {TYPE_NAME, DATA_TYPE, COLUMN_SIZE, DECIMAL_DIGITS, NUM_PREC_RADIX, CHAR_OCTET_LENGTH}. */
    private static Map<String, List<Object>> columns(DatabaseMetaData m, String table) throws SQLException {
        Map<String, List<Object>> out = new LinkedHashMap<>();
        try (ResultSet rs = m.getColumns(null, "main", table, "%")) {
            while (rs.next()) {
                out.put(rs.getString("COLUMN_NAME"), Arrays.asList(rs.getString("TYPE_NAME"), rs.getInt("DATA_TYPE"),
                        rs.getObject("COLUMN_SIZE"), rs.getObject("DECIMAL_DIGITS"), rs.getInt("NUM_PREC_RADIX"),
                        rs.getObject("CHAR_OCTET_LENGTH")));
            }
        }
        return out;
    }

    @Test
    void getColumnsNamesAndSizesTypesAsTheSpecSays() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, price DECIMAL(12, 2), name VARCHAR(20), code CHAR(3),"
                    + " b BOOLEAN, ti TINYINT, si SMALLINT, i INTEGER, r REAL, d DOUBLE, dt DATE, ts TIMESTAMP, ts0 TIMESTAMP(0),"
                    + " tm TIME, tz TIMESTAMP WITH TIME ZONE, bin VARBINARY(16), u UUID, txt VARCHAR)");
            Map<String, List<Object>> cols = columns(c.getMetaData(), "t");
            assertThat(cols.get("id")).containsExactly("BIGINT", Types.BIGINT, 19, 0, 10, null);
            assertThat(cols.get("price")).containsExactly("DECIMAL", Types.DECIMAL, 12, 2, 10, null);
            assertThat(cols.get("name")).containsExactly("VARCHAR", Types.VARCHAR, 20, null, 10, 80);
            assertThat(cols.get("code")).containsExactly("CHAR", Types.CHAR, 3, null, 10, 12);
            assertThat(cols.get("b")).containsExactly("BOOLEAN", Types.BOOLEAN, 1, null, 10, null);
            assertThat(cols.get("ti")).containsExactly("TINYINT", Types.TINYINT, 3, 0, 10, null);
            assertThat(cols.get("si")).containsExactly("SMALLINT", Types.SMALLINT, 5, 0, 10, null);
            assertThat(cols.get("i")).containsExactly("INTEGER", Types.INTEGER, 10, 0, 10, null);
            assertThat(cols.get("r")).containsExactly("REAL", Types.REAL, 24, null, 2, null);
            assertThat(cols.get("d")).containsExactly("DOUBLE", Types.DOUBLE, 53, null, 2, null);
            // datetimes: the chars of the literal form at the column's fraction digits
            assertThat(cols.get("dt")).containsExactly("DATE", Types.DATE, 10, 0, 10, null);
            assertThat(cols.get("ts")).as("yyyy-mm-dd hh:mm:ss.fff").containsExactly("TIMESTAMP", Types.TIMESTAMP, 23, 3, 10, null);
            assertThat(cols.get("ts0")).containsExactly("TIMESTAMP", Types.TIMESTAMP, 19, 0, 10, null);
            assertThat(cols.get("tm")).as("hh:mm:ss.fff").containsExactly("TIME", Types.TIME, 12, 3, 10, null);
            assertThat(cols.get("tz")).as("and +hh:mm").containsExactly("TIMESTAMP WITH TIME ZONE", Types.TIMESTAMP_WITH_TIMEZONE,
                    29, 3, 10, null);
            assertThat(cols.get("bin").subList(0, 4)).containsExactly("VARBINARY", Types.VARBINARY, 16, null);
            assertThat(cols.get("u").get(0)).isEqualTo("UUID");
            assertThat(cols.get("u").get(2)).isEqualTo(36);
            assertThat(cols.get("txt").subList(0, 3)).containsExactly("VARCHAR", Types.VARCHAR, Integer.MAX_VALUE);
            try (ResultSet rs = c.getMetaData().getColumns(null, "main", "t", "id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("NULLABLE")).isEqualTo(DatabaseMetaData.columnNoNulls);
                assertThat(rs.getString("IS_NULLABLE")).isEqualTo("NO");
            }
            // a view's columns are described the same way
            s.execute("CREATE VIEW v AS SELECT id, price, name, ts FROM t");
            Map<String, List<Object>> view = columns(c.getMetaData(), "v");
            assertThat(view.get("price")).containsExactly("DECIMAL", Types.DECIMAL, 12, 2, 10, null);
            assertThat(view.get("ts")).containsExactly("TIMESTAMP", Types.TIMESTAMP, 23, 3, 10, null);
        }
    }

    @Test
    void getTableTypesNamesEveryTypeGetTablesGives() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INT)");
            s.execute("CREATE VIEW v AS SELECT a FROM t");
            List<String> types = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getTableTypes()) {
                while (rs.next()) {
                    types.add(rs.getString("TABLE_TYPE"));
                }
            }
            assertThat(types).containsExactly("SYSTEM TABLE", "TABLE", "VIEW");
            Set<String> given = new TreeSet<>();
            try (ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
                while (rs.next()) {
                    given.add(rs.getString("TABLE_TYPE"));
                }
            }
            assertThat(given).containsExactlyInAnyOrder("SYSTEM TABLE", "TABLE", "VIEW");
            try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[]{"SYSTEM TABLE"})) {
                assertThat(rs.next()).as("the system tables are found by their type").isTrue();
            }
        }
    }

    @Test
    void getTypeInfoIsExactlyTheTypesCreateTableTakes() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            Map<String, List<Object>> info = new LinkedHashMap<>();
            List<Integer> order = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getTypeInfo()) {
                while (rs.next()) {
                    info.put(rs.getString("TYPE_NAME"), Arrays.asList(rs.getInt("DATA_TYPE"), rs.getObject("PRECISION"),
                            rs.getString("CREATE_PARAMS"), rs.getBoolean("AUTO_INCREMENT"), rs.getShort("NULLABLE")));
                    order.add(rs.getInt("DATA_TYPE"));
                }
            }
            assertThat(info.keySet()).containsExactlyInAnyOrder("BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "REAL", "DOUBLE",
                    "DECIMAL", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "CHAR", "VARCHAR", "VARBINARY", "UUID");
            assertThat(order).as("ordered by DATA_TYPE").isSorted();
            assertThat(info.get("DECIMAL")).containsExactly(Types.DECIMAL, 18, "precision,scale", false,
                    (short) DatabaseMetaData.typeNullable);
            assertThat(info.get("BIGINT").get(3)).as("an IDENTITY column's type").isEqualTo(true);
            // each is a column type under its own name, and getColumns names the column so
            StringBuilder ddl = new StringBuilder("CREATE TABLE every (");
            int n = 0;
            for (Map.Entry<String, List<Object>> e : info.entrySet()) {
                String params = (String) e.getValue().get(2);
                String args = params == null ? "" : params.equals("precision,scale") ? "(10, 2)" : params.equals("length") ? "(5)" : "(0)";
                String name = e.getKey();
                String spelled = name.equals("TIMESTAMP WITH TIME ZONE") ? "TIMESTAMP" + args + " WITH TIME ZONE" : name + args;
                ddl.append(n++ == 0 ? "" : ", ").append("c").append(n).append(' ').append(spelled);
            }
            s.execute(ddl.append(')').toString());
            Map<String, List<Object>> cols = columns(c.getMetaData(), "every");
            int i = 0;
            for (Map.Entry<String, List<Object>> e : info.entrySet()) {
                List<Object> col = cols.get("c" + ++i);
                assertThat(col.get(0)).as("the column of type %s", e.getKey()).isEqualTo(e.getKey());
                assertThat(col.get(1)).as("DATA_TYPE of %s", e.getKey()).isEqualTo(e.getValue().get(0));
            }
        }
    }

    @Test
    void getFunctionsListsTheFunctionsStatementsCall() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            Map<String, Short> functions = new HashMap<>();
            try (ResultSet rs = c.getMetaData().getFunctions(null, null, "%")) {
                while (rs.next()) {
                    functions.put(rs.getString("FUNCTION_NAME"), rs.getShort("FUNCTION_TYPE"));
                    assertThat(rs.getString("SPECIFIC_NAME")).isEqualTo(rs.getString("FUNCTION_NAME"));
                }
            }
            assertThat(functions).containsKeys("ABS", "UPPER", "LOWER", "SUBSTRING", "COALESCE", "COUNT", "SUM", "NEXTVAL",
                    "DATE_TRUNC", "GEN_RANDOM_UUID", "CURRENT_DATE");
            assertThat(functions.get("ABS")).isEqualTo((short) DatabaseMetaData.functionNoTable);
            assertThat(functions.keySet()).as("operators written as symbols are not functions").doesNotContain("+", "=", "AND");
            // each one listed is a function numacol runs: a few called
            assertThat(JdbcTesting.rows(s, "SELECT ABS(-2), UPPER('a'), COALESCE(NULL, 3)")).containsExactly(List.of(2, "A", 3));
            List<String> found = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getFunctions(null, null, "up%")) {
                while (rs.next()) {
                    found.add(rs.getString("FUNCTION_NAME"));
                }
            }
            assertThat(found).containsExactly("UPPER");
            try (ResultSet rs = c.getMetaData().getFunctions(null, "main", "%")) {
                assertThat(rs.next()).as("built-in functions belong to no schema").isFalse();
            }
            try (ResultSet rs = c.getMetaData().getFunctions(null, "", "UPPER")) {
                assertThat(rs.next()).as("\"\" asks for functions without a schema, which built-ins are").isTrue();
            }
        }
    }

    @Test
    void readOnlyIsTrueOfAReadOnlyDatabaseOnly(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INT)");
            assertThat(c.getMetaData().isReadOnly()).isFalse();
            assertThat(c.isReadOnly()).isFalse();
        }
        try (Connection c = DriverManager.getConnection("jdbc:numacol:")) {
            assertThat(c.getMetaData().isReadOnly()).as("in memory").isFalse();
        }
        try (Connection c = DriverManager.getConnection(url + ";access_mode=read_only")) {
            assertThat(c.getMetaData().isReadOnly()).isTrue();
            assertThat(c.isReadOnly()).isTrue();
        }
    }

    @Test
    void typeMapIsEmptyAndTheJdbcVersionIs43() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:")) {
            assertThat(c.getTypeMap()).isEmpty();
            c.setTypeMap(new HashMap<>());
            assertThatThrownBy(() -> c.setTypeMap(Map.of("point", Object.class))).isInstanceOf(SQLException.class)
                    .hasMessageContaining("setTypeMap").satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            DatabaseMetaData m = c.getMetaData();
            assertThat(m.getJDBCMajorVersion()).isEqualTo(4);
            assertThat(m.getJDBCMinorVersion()).isEqualTo(3);
            assertThat(DriverManager.getDriver("jdbc:numacol:")).isInstanceOf(NumacolDriver.class);
            assertThat(DriverManager.getDriver("jdbc:numacol:").jdbcCompliant()).isTrue();
        }
    }
}
