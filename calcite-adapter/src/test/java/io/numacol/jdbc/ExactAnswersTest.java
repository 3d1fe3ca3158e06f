package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Answers that were once silently wrong, each with the path that computed it: sums that wrapped in
 * Calcite's aggregate code, averages of integers divided in integers, a plain statement's {@code ?}
 * taken for NULL, literals outside Latin-1, strings counted in UTF-16 units, and values past the
 * ends of their types' ranges.
 */
class ExactAnswersTest {

    /**
     * SUM of 150,000 INTEGER keys is 11250075000 whichever operators compute it: numacol's, or
     * Calcite's when the aggregate list holds an expression numacol does not run (its int sum
     * wrapped to -1634826888). SUM of an INTEGER is a BIGINT, of a BIGINT a DECIMAL(38, 0).
     */
    @Test
    void sumsOfIntegersAreExactInEveryPath() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (k integer not null, v integer, b bigint, sm smallint)");
            try (PreparedStatement p = c.prepareStatement("insert into t values (?, ?, ?, ?)")) {
                for (int k = 1; k <= 150_000; k++) {
                    p.setInt(1, k);
                    p.setInt(2, k);
                    p.setLong(3, k * 100_000_000L);
                    p.setShort(4, (short) (k % 30_000));
                    p.addBatch();
                }
                p.executeBatch();
            }
            long keys = 150_000L * 150_001 / 2;
            assertThat(rows(s, "select sum(k) from t")).containsExactly(List.of(keys));
            // the second SUM's argument is no numacol expression: the whole aggregate runs in Calcite
            assertThat(rows(s, "select sum(k), sum(char_length(trim(trailing ' ' from cast(v as varchar(10))))) from t"))
                    .containsExactly(List.of(keys, 788_895L));
            BigDecimal bigints = BigDecimal.valueOf(keys).multiply(BigDecimal.valueOf(100_000_000L));
            assertThat(rows(s, "select sum(b) from t")).containsExactly(List.of(bigints));
            assertThat(rows(s, "select sum(b), count(char_length(cast(v as varchar(10)))) from t"))
                    .containsExactly(List.of(bigints, 150_000L));
            assertThat(rows(s, "select sum(sm), sum(sm + 0) from t")).containsExactly(List.of(2_249_925_000L, 2_249_925_000L));
        }
    }

    @Test
    void sumTypesAreWideAndAveragesOfIntegersExact() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (k integer not null, g integer, b bigint)");
            s.execute("insert into t values (1, 1, 9000000000000000000), (2, 1, 9000000000000000000), (2147483647, 2, -5)");
            try (ResultSet rs = s.executeQuery("select sum(k), sum(b), avg(k), avg(b) from t where g = 2 or k = 1")) {
                assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.BIGINT);
                assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(Types.DECIMAL);
                assertThat(rs.getMetaData().getPrecision(2)).isEqualTo(38);
                assertThat(rs.getMetaData().getColumnType(3)).isEqualTo(Types.DOUBLE);
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(2_147_483_648L);
                assertThat(rs.getBigDecimal(2)).isEqualTo(new BigDecimal("8999999999999999995"));
                assertThat(rs.getDouble(3)).isEqualTo(1_073_741_824.0);
            }
            assertThat(rows(s, "select avg(x) from (values (1), (2)) as v(x)")).containsExactly(List.of(1.5));
            assertThat(rows(s, "select g, sum(k), avg(k) from t group by g order by g"))
                    .containsExactly(List.of(1, 3L, 1.5), List.of(2, 2_147_483_647L, 2.147483647E9));
            // Calcite's window code added in the argument's Java type
            assertThat(rows(s, "select sum(k) over (), sum(b) over (partition by g) from t where g = 1"))
                    .containsExactly(List.of(3L, new BigDecimal("18000000000000000000")),
                            List.of(3L, new BigDecimal("18000000000000000000")));
            // past the 18 digits numacol's operators carry between them, a clean error, never a wrapped value
            for (String sql : List.of("select sum(b) from t", "select sum(a.b) from t a join t c on a.k = c.k")) {
                assertThatThrownBy(() -> rows(s, sql)).as(sql)
                        .isInstanceOf(SQLDataException.class).hasMessageContaining("numeric value out of range")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
            }
        }
    }

    /** A plain Statement has no values for {@code ?}: Calcite bound each to NULL. */
    @Test
    void aPlainStatementRefusesParameterMarkers() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (a integer, b integer)");
            s.execute("insert into t values (2, 20)");
            for (String sql : List.of("update t set b = ? where a = 2", "insert into t values (3, ?)", "select * from t where a = ?",
                    "delete from t where a = ?")) {
                assertThatThrownBy(() -> s.execute(sql)).as(sql).isInstanceOf(SQLException.class)
                        .hasMessageContaining("use a PreparedStatement")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("07001"));
            }
            s.addBatch("insert into t values (4, ?)");
            assertThatThrownBy(s::executeBatch).isInstanceOf(SQLException.class).hasMessageContaining("parameter marker");
            assertThat(rows(s, "select a, b from t")).containsExactly(List.of(2, 20));
            try (PreparedStatement p = c.prepareStatement("select b from t where a = ?")) {
                p.setInt(1, 2);
                assertThat(rows(p.executeQuery())).containsExactly(List.of(20));
            }
        }
    }

    /** Literals are UTF-8: outside Latin-1 they failed to encode, and stored rows could not be found by them. */
    @Test
    void literalsOutsideLatin1FindTheirRows() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table city (id integer, name varchar(20))");
            s.execute("insert into city values (1, 'Москва'), (2, '東京'), (3, 'Paris'), (4, '😀 party')");
            assertThat(rows(s, "select count(*) from city where name = 'Москва'")).containsExactly(List.of(1L));
            assertThat(rows(s, "select id from city where name like '東%'")).containsExactly(List.of(2));
            assertThat(rows(s, "select id from city where name in ('Москва', 'x') or name = '😀 party' order by id"))
                    .containsExactly(List.of(1), List.of(4));
            assertThat(rows(s, "select 'Москва', N'東京', U&'\\0041\\00E9'")).containsExactly(List.of("Москва", "東京", "Aé"));
            assertThat(s.executeUpdate("update city set id = 10 where name = 'Москва'")).isEqualTo(1);
            assertThat(s.executeUpdate("delete from city where name = '東京'")).isEqualTo(1);
            assertThat(rows(s, "select id, name from city order by id"))
                    .containsExactly(List.of(3, "Paris"), List.of(4, "😀 party"), List.of(10, "Москва"));
        }
    }

    /** Characters are code points and octets UTF-8 bytes, in literals, columns and VARCHAR(n). */
    @Test
    void stringsAreCountedInCharacters() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            assertThat(rows(s, "select char_length('😀😀😀'), character_length('ab'), octet_length('ééé'), "
                    + "substring('😀😀😀' from 2 for 1), substring('a😀b' from 2), position('😀' in 'a😀b'), position('b' in 'a😀b😀b' from 4)"))
                    .containsExactly(List.of(3, 2, 6, "😀", "😀b", 2, 5));
            s.execute("create table e (s varchar(2))");
            s.execute("insert into e values ('😀😀'), ('é')");
            assertThatThrownBy(() -> s.execute("insert into e values ('😀😀😀')")).isInstanceOf(SQLDataException.class)
                    .hasMessageContaining("longer than VARCHAR(2)");
            assertThat(rows(s, "select s, char_length(s), octet_length(s), substring(s from 2 for 1) from e order by 2"))
                    .containsExactly(List.of("é", 1, 2, ""), List.of("😀😀", 2, 8, "😀"));
            // numacol's own SUBSTRING, over a join
            assertThat(rows(s, "select substring(a.s from 2 for 1), substring(a.s from 1 for 1) from e a join e b on a.s = b.s order by 1"))
                    .containsExactly(List.of("", "é"), List.of("😀", "😀"));
            assertThat(rows(s, "select count(*) from e where char_length(s) = 2")).containsExactly(List.of(1L));
        }
    }

    /** Values past the ends of their types fail (22003, 22008), in numacol's operators and in Calcite's. */
    @Test
    void rangeEndsFailInsteadOfWrapping() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table r (i integer, sm smallint, b bigint, t tinyint, ts timestamp, d date)");
            s.execute("insert into r values (-2147483648, -32768, -9223372036854775808, -128, "
                    + "timestamp '9999-12-31 23:59:59', date '9999-12-31'), (5, -5, -5, -5, timestamp '0001-01-01 00:00:00', date '0001-01-01')");
            for (String sql : List.of("select abs(i) from r", "select abs(sm) from r", "select abs(b) from r", "select abs(t) from r",
                    "select abs(-2147483648)", "select abs(cast(-32768 as smallint))")) {
                assertThatThrownBy(() -> rows(s, sql)).as(sql).isInstanceOf(SQLDataException.class).hasMessageContaining("overflow")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
            }
            assertThat(rows(s, "select abs(i), abs(sm), abs(b), abs(t) from r where i = 5")).containsExactly(List.of(5, (short) 5, 5L, (byte) 5));
            for (String sql : List.of("select timestamp '9999-12-31 23:59:59' + interval '1' day", "select ts + interval '1' day from r",
                    "select d + interval '1' day from r", "select d + interval '1' month from r", "select d - interval '1' day from r",
                    "select cast(date '0001-01-01' - interval '1' day as varchar)", "select ts - interval '1' second from r")) {
                assertThatThrownBy(() -> rows(s, sql)).as(sql).isInstanceOf(SQLDataException.class).hasMessageContaining("out of range")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22008"));
            }
            assertThatThrownBy(() -> rows(s, "select date '0000-01-01'")).isInstanceOf(SQLException.class);
            assertThat(rows(s, "select cast(d + interval '1' day as varchar) from r where i = 5")).containsExactly(List.of("0001-01-02"));
        }
    }

    /** COPY, CAST and INSERT read a DOUBLE with one parser: SQL's numbers, not Java's {@code 0x1p3} or {@code 1.5d}. */
    @Test
    void doublesHaveOneSyntax() throws Exception {
        Path csv = Files.createTempFile("doubles", ".csv");
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table dd (x double, y real)");
            for (String bad : List.of("0x1p3", "1.5d", "2f", "1_000")) {
                Files.writeString(csv, "1.5," + bad + "\n");
                assertThatThrownBy(() -> s.execute("copy dd from '" + csv + "'")).as(bad).isInstanceOf(SQLDataException.class)
                        .hasMessageContaining(bad);
                assertThatThrownBy(() -> rows(s, "select cast('" + bad + "' as double)")).as(bad).isInstanceOf(SQLDataException.class);
            }
            Files.writeString(csv, "1.5e3,-.25\nNaN,Infinity\n");
            s.execute("copy dd from '" + csv + "'");
            assertThat(rows(s, "select x, y from dd")).containsExactlyInAnyOrder(List.of(1500.0, -0.25f), List.of(Double.NaN, Float.POSITIVE_INFINITY));
        } finally {
            Files.deleteIfExists(csv);
        }
    }
}
