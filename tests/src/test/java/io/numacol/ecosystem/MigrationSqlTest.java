package io.numacol.ecosystem;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SQL that migration tools and their JDBC code send besides DDL: {@code prepareCall} in
 * JDBC's call escape and plain ({@code call current_schema}, as Liquibase asks its schema),
 * PostgreSQL's {@code current_schema}, the standard's {@code NEXT VALUE FOR}, {@code COMMENT ON}
 * (kept by a file database, and given as REMARKS).
 */
class MigrationSqlTest {
    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:numacol:");
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    private String one(String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            String v = rs.getString(1);
            assertThat(rs.next()).isFalse();
            return v;
        }
    }

    @Test
    void currentSchemaIsTheSessionsSchema() throws SQLException {
        assertThat(one("SELECT current_schema")).isEqualTo("main");
        assertThat(one("SELECT current_schema()")).isEqualTo("main");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA other");
            s.execute("SET SCHEMA other");
        }
        assertThat(one("SELECT CURRENT_SCHEMA")).isEqualTo("other");
        assertThat(one("SELECT upper(current_schema) || '!'")).isEqualTo("OTHER!");
    }

    @Test
    void callsRunTheFunctionsValue() throws SQLException {
        for (String sql : new String[]{"call current_schema", "{call current_schema}", "{ call current_schema() }", "CALL CURRENT_SCHEMA;"}) {
            try (CallableStatement call = c.prepareCall(sql); ResultSet rs = call.executeQuery()) {
                assertThat(rs.next()).as(sql).isTrue();
                assertThat(rs.getString(1)).as(sql).isEqualTo("main");
            }
        }
        try (CallableStatement call = c.prepareCall("{call upper(CAST(? AS VARCHAR(10)))}")) {
            call.setString(1, "abc");
            try (ResultSet rs = call.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("ABC");
            }
        }
    }

    @Test
    void aCallsValueIsItsOutParameter() throws SQLException {
        try (CallableStatement call = c.prepareCall("{? = call abs(CAST(? AS INTEGER))}")) {
            call.registerOutParameter(1, Types.INTEGER);
            call.setInt(2, -42);
            call.execute();
            assertThat(call.getInt(1)).isEqualTo(42);
            assertThat(call.getObject(1)).isEqualTo(42);
            assertThat(call.wasNull()).isFalse();
            call.setInt(2, 7);
            call.execute();
            assertThat(call.getLong(1)).isEqualTo(7L);
        }
        try (CallableStatement call = c.prepareCall("{?= call current_schema}")) {
            call.registerOutParameter(1, Types.VARCHAR);
            call.execute();
            assertThat(call.getString(1)).isEqualTo("main");
        }
        try (CallableStatement call = c.prepareCall("{? = call nullif(CAST(? AS INTEGER), CAST(? AS INTEGER))}")) {
            call.registerOutParameter(1, Types.INTEGER);
            call.setInt(2, 3);
            call.setInt(3, 3);
            call.execute();
            assertThat(call.getInt(1)).isZero();
            assertThat(call.wasNull()).isTrue();
        }
    }

    @Test
    void whatACallCannotDoIsRefusedWithAState() throws SQLException {
        try (CallableStatement call = c.prepareCall("{call abs(CAST(? AS INTEGER))}")) {
            assertThatThrownBy(() -> call.registerOutParameter(1, Types.INTEGER)).isInstanceOf(SQLFeatureNotSupportedException.class)
                    .hasMessageContaining("OUT").extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0A000");
            assertThatThrownBy(() -> call.setInt("x", 1)).isInstanceOf(SQLFeatureNotSupportedException.class)
                    .hasMessageContaining("by name");
        }
        assertThatThrownBy(() -> c.prepareCall("{call no_such_function(1)}")).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isNotNull().startsWith("42"));
        assertThatThrownBy(() -> c.prepareCall("{call abs(1)")).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"));
    }

    private String remark(ResultSet rs) throws SQLException {
        try (rs) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getObject("REMARKS")).isEqualTo(rs.getString(rs.findColumn("REMARKS")));
            return rs.getString("REMARKS");
        }
    }

    @Test
    void commentsAreRemarksAndOutliveTheDatabase(@TempDir Path dir) throws SQLException {
        String url = "jdbc:numacol:file:" + dir.resolve("db");
        try (Connection f = DriverManager.getConnection(url); Statement s = f.createStatement()) {
            s.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name VARCHAR(50))");
            s.execute("COMMENT ON TABLE people IS 'who is who'");
            s.execute("COMMENT ON COLUMN people.name IS 'as they write it, it''s theirs'");
            s.execute("COMMENT ON COLUMN main.people.id IS 'gone soon'");
            s.execute("COMMENT ON COLUMN main.people.id IS NULL");
            assertThatThrownBy(() -> s.execute("COMMENT ON COLUMN people.nope IS 'x'")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("nope").satisfies(e -> assertThat(((SQLException) e).getSQLState()).isNotNull());
            // as numacol's other DDL of a missing table says it (TRUNCATE nobody)
            String missing;
            try {
                s.execute("TRUNCATE nobody");
                missing = null;
            } catch (SQLException e) {
                missing = e.getSQLState();
            }
            String state = missing;
            assertThat(state).startsWith("42");
            assertThatThrownBy(() -> s.execute("COMMENT ON TABLE nobody IS 'x'")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("nobody").satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state));
            assertThatThrownBy(() -> s.execute("COMMENT ON TABLE people IS")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"));
        }
        // the file database closed with its last connection: the comments come back from its log
        try (Connection f = DriverManager.getConnection(url)) {
            DatabaseMetaData m = f.getMetaData();
            assertThat(remark(m.getTables(null, "main", "people", null))).isEqualTo("who is who");
            assertThat(remark(m.getColumns(null, "main", "people", "name"))).isEqualTo("as they write it, it's theirs");
            assertThat(remark(m.getColumns(null, "main", "people", "id"))).isNull();
            try (Statement s = f.createStatement()) {
                s.execute("ALTER TABLE people RENAME COLUMN name TO full_name");
                s.execute("ALTER TABLE people RENAME TO persons");
            }
            assertThat(remark(m.getTables(null, "main", "persons", null))).isEqualTo("who is who");
            assertThat(remark(m.getColumns(null, "main", "persons", "full_name"))).isEqualTo("as they write it, it's theirs");
            try (Statement s = f.createStatement()) {
                s.execute("DROP TABLE persons");
                s.execute("CREATE TABLE persons (id INTEGER)");
            }
            assertThat(remark(m.getTables(null, "main", "persons", null))).isNull();
        }
    }

    @Test
    void nextValueForIsNextval() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SEQUENCE s1 START WITH 5");
            s.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(10))");
            assertThat(one("SELECT NEXT VALUE FOR s1")).isEqualTo("5");
            assertThat(one("SELECT nextval('s1')")).isEqualTo("6");
            assertThat(one("SELECT next value for main.s1")).isEqualTo("7");
            assertThat(s.executeUpdate("INSERT INTO t VALUES (NEXT VALUE FOR s1, 'a')")).isEqualTo(1);
            assertThat(one("SELECT id FROM t")).isEqualTo("8");
            assertThat(one("SELECT currval('s1')")).isEqualTo("8");
            assertThatThrownBy(() -> s.executeQuery("SELECT NEXT VALUE FOR no_such_sequence")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("no_such_sequence")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P01"));
        }
    }
}
