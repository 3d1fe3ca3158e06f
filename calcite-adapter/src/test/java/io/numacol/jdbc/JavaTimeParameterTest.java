package io.numacol.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every JDBC 4.2 java.time class as a parameter of every kind of statement, set with and without
 * a target SQL type (Spring's SqlParameterValue and SimpleJdbcInsert give one): each reaches the
 * column as the value it names. Single-row statements are planned by Calcite, whose generated code
 * casts a parameter blindly (a LocalDate to the Integer of a DATE failed with a ClassCastException);
 * Avatica converted a value with a target type itself and knew no java.time class ("Cannot convert
 * from java.time.LocalDate to long", unchecked). A value that cannot be converted is an
 * SQLDataException naming the parameter, the value's class and the type.
 */
class JavaTimeParameterTest {

    private static final String CREATE = "create table t (id int not null, d date, tm time, ts timestamp,"
            + " tz timestamp with time zone)";

    /** A java.time value, the column it goes to, the target type a caller would give, the value read back for the check. */
    record Case(String name, Object value, String column, int targetType, Object expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final Instant INSTANT = Instant.parse("2024-02-29T10:15:30Z");

    static List<Case> cases() {
        return List.of(
                new Case("LocalDate", LocalDate.of(2024, 2, 29), "d", Types.DATE, LocalDate.of(2024, 2, 29)),
                new Case("LocalTime", LocalTime.of(10, 15, 30), "tm", Types.TIME, LocalTime.of(10, 15, 30)),
                new Case("OffsetTime", OffsetTime.of(10, 15, 30, 0, ZoneOffset.ofHours(2)), "tm", Types.TIME_WITH_TIMEZONE,
                        LocalTime.of(10, 15, 30)),
                new Case("LocalDateTime", LocalDateTime.of(2024, 2, 29, 10, 15, 30), "ts", Types.TIMESTAMP,
                        LocalDateTime.of(2024, 2, 29, 10, 15, 30)),
                new Case("OffsetDateTime", INSTANT.atOffset(ZoneOffset.ofHours(-5)), "tz", Types.TIMESTAMP_WITH_TIMEZONE, INSTANT),
                new Case("ZonedDateTime", ZonedDateTime.ofInstant(INSTANT, ZoneOffset.ofHours(9)), "tz", Types.TIMESTAMP_WITH_TIMEZONE,
                        INSTANT),
                new Case("Instant", INSTANT, "tz", Types.TIMESTAMP_WITH_TIMEZONE, INSTANT));
    }

    /** The statement kinds a parameter fills a column through; each leaves row 1 with the value in the column. */
    enum Kind {
        INSERT_VALUES("insert into t (id, %s) values (1, ?)"),
        INSERT_SELECT("insert into t (id, %s) select 1, ?"),
        UPDATE_SET("update t set %s = ? where id = 1"),
        UPDATE_COALESCE("update t set %1$s = coalesce(%1$s, ?) where id = 1"),
        UPDATE_CASE("update t set %1$s = case when %1$s is null then ? else %1$s end where id = 1");

        final String sql;

        Kind(String sql) {
            this.sql = sql;
        }

        boolean needsRow() {
            return name().startsWith("UPDATE");
        }
    }

    static Stream<Arguments> everyKindAndClass() {
        List<Arguments> all = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (Case c : cases()) {
                for (boolean typed : new boolean[]{false, true}) {
                    all.add(Arguments.of(kind, c, typed));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1} target type {2}")
    @MethodSource("everyKindAndClass")
    void everyJavaTimeClassFillsItsColumnOnEveryStatementKind(Kind kind, Case c, boolean typed) throws SQLException {
        try (Connection conn = DriverManager.getConnection("jdbc:numacol:");
             Statement s = conn.createStatement()) {
            s.execute(CREATE);
            if (kind.needsRow()) {
                s.execute("insert into t (id) values (1)");
            }
            try (PreparedStatement p = conn.prepareStatement(kind.sql.formatted(c.column()))) {
                set(p, 1, c, typed);
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            assertThat(stored(conn, c)).isEqualTo(c.expected());
            // the same value finds the row in a WHERE and comes back through a select list
            try (PreparedStatement p = conn.prepareStatement("select id, ? from t where " + c.column() + " = ?")) {
                set(p, 1, c, typed);
                set(p, 2, c, typed);
                try (ResultSet r = p.executeQuery()) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.getInt(1)).isEqualTo(1);
                    assertThat(r.getString(2)).isNotBlank();
                    assertThat(r.next()).isFalse();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void batchesAndSingleRowsStoreTheSameValue(Case c) throws SQLException {
        try (Connection conn = DriverManager.getConnection("jdbc:numacol:");
             Statement s = conn.createStatement()) {
            s.execute(CREATE);
            try (PreparedStatement p = conn.prepareStatement("insert into t (id, " + c.column() + ") values (?, ?)")) {
                p.setInt(1, 1);
                p.setObject(2, c.value());
                p.executeUpdate();
                p.setInt(1, 2);
                p.setObject(2, c.value(), c.targetType());
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1);
            }
            assertThat(rows(s, "select count(distinct " + c.column() + "), count(" + c.column() + ") from t"))
                    .containsExactly(List.of(1L, 2L));
        }
    }

    @Test
    void aValueThatCannotBeConvertedIsAnSqlDataExceptionNamingParameterClassAndType() throws SQLException {
        try (Connection conn = DriverManager.getConnection("jdbc:numacol:");
             Statement s = conn.createStatement()) {
            s.execute(CREATE);
            PreparedStatement p = conn.prepareStatement("insert into t (id, d) values (?, ?)");
            p.setInt(1, 1);
            p.setObject(2, LocalTime.NOON);
            assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLDataException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("22"))
                    .hasMessageContainingAll("parameter 2", "java.time.LocalTime", "DATE");
            p.setObject(1, LocalDate.of(2024, 1, 1), Types.INTEGER);
            p.setObject(2, LocalDate.of(2024, 1, 1));
            assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLDataException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("22"))
                    .hasMessageContainingAll("parameter 1", "java.time.LocalDate", "INTEGER");
            p.setInt(1, 1);
            // text is converted as the statement runs, with the checks text without a target type gets
            p.setObject(2, "abc", Types.DATE);
            assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLDataException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22007"))
                    .hasMessageContainingAll("parameter 2", "abc");
            p.setObject(2, "abc", JDBCType.DATE);
            assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLDataException.class)
                    .hasMessageContainingAll("parameter 2", "abc");
            p.setObject(2, "2024-13-45");
            assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLDataException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22007"))
                    .hasMessageContaining("parameter 2");
            assertThat(rows(s, "select count(*) from t")).containsExactly(List.of(0L));
        }
    }

    @Test
    void javaSqlValuesWithATargetTypeStillConvert() throws SQLException {
        try (Connection conn = DriverManager.getConnection("jdbc:numacol:");
             Statement s = conn.createStatement()) {
            s.execute(CREATE);
            try (PreparedStatement p = conn.prepareStatement("insert into t (id, d, ts) values (?, ?, ?)")) {
                p.setObject(1, 7L, Types.INTEGER);
                p.setObject(2, java.sql.Date.valueOf("2024-02-29"), Types.DATE);
                p.setObject(3, "2024-02-29 10:15:30", Types.TIMESTAMP);
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            try (ResultSet r = s.executeQuery("select id, d, ts from t")) {
                assertThat(r.next()).isTrue();
                assertThat(r.getInt(1)).isEqualTo(7);
                assertThat(r.getObject(2, LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 29));
                assertThat(r.getObject(3, LocalDateTime.class)).isEqualTo(LocalDateTime.of(2024, 2, 29, 10, 15, 30));
            }
        }
    }

    private static void set(PreparedStatement p, int index, Case c, boolean typed) throws SQLException {
        if (typed) {
            p.setObject(index, c.value(), c.targetType());
        } else {
            p.setObject(index, c.value());
        }
    }

    /** Row 1's value of the case's column, as the case's expected class. */
    private static Object stored(Connection conn, Case c) throws SQLException {
        try (Statement s = conn.createStatement();
             ResultSet r = s.executeQuery("select " + c.column() + " from t where id = 1")) {
            assertThat(r.next()).isTrue();
            return switch (c.expected()) {
                case LocalDate d -> r.getObject(1, LocalDate.class);
                case LocalTime t -> r.getObject(1, LocalTime.class);
                case LocalDateTime t -> r.getObject(1, LocalDateTime.class);
                case Instant i -> r.getObject(1, Instant.class);
                default -> throw new IllegalArgumentException(String.valueOf(c.expected()));
            };
        }
    }
}
