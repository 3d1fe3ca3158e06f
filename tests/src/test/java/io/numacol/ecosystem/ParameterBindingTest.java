package io.numacol.ecosystem;

import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.SimpleJdbcInsert;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Parameters as the libraries a service uses bind them: Spring's JdbcTemplate (a single-row
 * insert of a LocalDate, SqlParameterValue's target types, SimpleJdbcInsert) and jOOQ with its
 * PostgreSQL dialect (pages bound as Long LIMIT/OFFSET, CASE with binds, a transaction). Each
 * once failed on numacol: a LocalDate cast to a DATE's Integer, a LocalDate with Types.DATE
 * refused unchecked by Avatica, a Long LIMIT cast to Integer, CASE binds refused at prepare. jOOQ's
 * answers are compared with H2's for the same statements.
 */
class ParameterBindingTest {

    private static final String CREATE = "create table ev (id int not null, d date, ts timestamp, price decimal(8,2), name varchar(20))";

    private static Connection numacol() throws SQLException {
        return DriverManager.getConnection("jdbc:numacol:");
    }

    private static Connection h2() throws SQLException {
        return DriverManager.getConnection("jdbc:h2:mem:");
    }

    @Test
    void jdbcTemplateBindsJavaTimeWithAndWithoutATargetType() throws SQLException {
        try (Connection c = numacol(); Statement s = c.createStatement()) {
            s.execute(CREATE);
            JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(c, true));
            LocalDate day = LocalDate.of(2024, 2, 29);
            LocalDateTime at = LocalDateTime.of(2024, 2, 29, 10, 15, 30);
            assertThat(jdbc.update("insert into ev (id, d, ts) values (?, ?, ?)", 1, day, at)).isEqualTo(1);
            assertThat(jdbc.update("insert into ev (id, d, ts) values (?, ?, ?)", 2,
                    new SqlParameterValue(Types.DATE, day.plusDays(1)),
                    new SqlParameterValue(Types.TIMESTAMP, at.plusHours(1)))).isEqualTo(1);
            assertThat(jdbc.update("update ev set d = ? where id = ?", new SqlParameterValue(Types.DATE, day.plusDays(2)), 2))
                    .isEqualTo(1);
            assertThat(jdbc.update("insert into ev (id, d) select ?, ?", 3, day)).isEqualTo(1);
            assertThat(jdbc.queryForList("select id from ev where d = ? order by id", Integer.class, day)).containsExactly(1, 3);
            assertThat(jdbc.queryForObject("select d from ev where id = 2", LocalDate.class)).isEqualTo(day.plusDays(2));
            assertThat(jdbc.queryForObject("select ts from ev where id = 2", LocalDateTime.class)).isEqualTo(at.plusHours(1));
            assertThat(jdbc.queryForObject("select count(*) from ev where coalesce(d, ?) = ?", Long.class, day, day)).isEqualTo(2L);
        }
    }

    @Test
    void simpleJdbcInsertStoresJavaTime() throws SQLException {
        try (Connection c = numacol(); Statement s = c.createStatement()) {
            s.execute(CREATE);
            SingleConnectionDataSource source = new SingleConnectionDataSource(c, true);
            SimpleJdbcInsert insert = new SimpleJdbcInsert(source).withTableName("ev").usingColumns("id", "d", "ts")
                    .withoutTableColumnMetaDataAccess();
            LocalDate day = LocalDate.of(2030, 12, 31);
            assertThat(insert.execute(Map.of("id", 7, "d", day, "ts", day.atTime(23, 59)))).isEqualTo(1);
            assertThat(new JdbcTemplate(source).queryForObject("select d from ev where id = 7", LocalDate.class)).isEqualTo(day);
        }
    }

    @Test
    void aValueThatCannotBeConvertedIsTranslatedAsBadDataNotLeakedUnchecked() throws SQLException {
        try (Connection c = numacol(); Statement s = c.createStatement()) {
            s.execute(CREATE);
            JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(c, true));
            assertThatThrownBy(() -> jdbc.update("insert into ev (id, d) values (?, ?)", 1, new SqlParameterValue(Types.DATE, "abc")))
                    .isInstanceOf(DataIntegrityViolationException.class)
                    .satisfies(e -> assertThat(((SQLException) e.getCause()).getSQLState()).isEqualTo("22007"));
            assertThat(jdbc.queryForObject("select count(*) from ev", Long.class)).isZero();
        }
    }

    private static final Table<Record> EV = DSL.table("ev");
    private static final Field<Integer> ID = DSL.field("id", Integer.class);
    private static final Field<LocalDate> D = DSL.field("d", LocalDate.class);
    private static final Field<BigDecimal> PRICE = DSL.field("price", BigDecimal.class);
    private static final Field<String> NAME = DSL.field("name", String.class);

    /** What jOOQ reads back from the same statements on a database: pages, CASE with binds, a committed and a rolled-back transaction. */
    private static List<Object> jooqAnswers(Connection c, SQLDialect dialect) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(CREATE);
        }
        DSLContext db = DSL.using(c, dialect);
        for (int i = 1; i <= 9; i++) {
            db.insertInto(EV, ID, D, PRICE, NAME)
                    .values(i, LocalDate.of(2024, 1, i), BigDecimal.valueOf(i * 5L, 0), "n" + i).execute();
        }
        List<Object> answers = new ArrayList<>();
        for (int page = 0; page < 4; page++) {
            answers.add(db.select(ID).from(EV).orderBy(ID).limit(3).offset(page * 3).fetch(ID));
        }
        answers.add(db.select(ID, DSL.when(PRICE.gt(BigDecimal.valueOf(20)), DSL.inline("dear")).otherwise(DSL.val("cheap")))
                .from(EV).orderBy(ID).fetch().map(r -> r.value1() + ":" + r.value2()));
        answers.add(db.select(ID, DSL.when(PRICE.gt(BigDecimal.valueOf(20)), DSL.val("dear")).otherwise(DSL.val("cheap")))
                .from(EV).where(D.ge(LocalDate.of(2024, 1, 5))).orderBy(ID).fetch().map(r -> r.value1() + ":" + r.value2()));
        db.transaction(t -> DSL.using(t).update(EV).set(D, LocalDate.of(2025, 1, 1)).where(ID.eq(1)).execute());
        assertThatThrownBy(() -> db.transaction(t -> {
            DSL.using(t).deleteFrom(EV).where(ID.gt(5)).execute();
            throw new IllegalStateException("roll back");
        })).hasMessageContaining("roll back");
        answers.add(db.select(ID, D).from(EV).where(ID.le(2)).orderBy(ID).fetch().map(r -> r.value1() + "@" + r.value2()));
        answers.add(db.selectCount().from(EV).fetchOne(0, Integer.class));
        return answers;
    }

    @Test
    void jooqWithThePostgresDialectAnswersAsH2() throws SQLException {
        List<Object> expected;
        try (Connection c = h2()) {
            expected = jooqAnswers(c, SQLDialect.H2);
        }
        try (Connection c = numacol()) {
            assertThat(jooqAnswers(c, SQLDialect.POSTGRES)).isEqualTo(expected);
        }
        assertThat(expected).hasSize(8);
        assertThat(expected.get(3)).isEqualTo(List.of());
        assertThat(expected.get(6)).isEqualTo(List.of("1@2025-01-01", "2@2024-01-02"));
        assertThat(expected.get(7)).isEqualTo(9);
    }
}
