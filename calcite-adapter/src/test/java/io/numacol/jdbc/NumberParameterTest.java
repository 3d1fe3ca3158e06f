package io.numacol.jdbc;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A number of any Java class reaches a numeric column of any width when its value fits, through a
 * single-row INSERT (Calcite's generated code, which casts a parameter to its type's class), an
 * UPDATE, a WHERE and a batch (the Appender) alike.
 */
class NumberParameterTest {

    private static final List<String> COLUMNS = List.of("tinyint", "smallint", "int", "bigint", "decimal(10,2)", "double", "real");

    static Stream<Arguments> everyClassIntoEveryColumn() {
        List<Object> values = List.of((byte) 12, (short) 12, 12, 12L, BigInteger.valueOf(12), new BigDecimal("12"),
                12.0f, 12.0d, "12");
        List<Arguments> all = new ArrayList<>();
        for (String column : COLUMNS) {
            for (Object value : values) {
                all.add(Arguments.of(column, value, value.getClass().getSimpleName()));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{2} {1} into {0}")
    @MethodSource("everyClassIntoEveryColumn")
    void aNumberThatFitsIsStoredWhateverItsClass(String column, Object value, String javaClass) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:");
             Statement s = c.createStatement()) {
            s.execute("create table t (id int not null, n " + column + ")");
            try (PreparedStatement p = c.prepareStatement("insert into t values (?, ?)")) {
                p.setInt(1, 1);
                p.setObject(2, value);
                assertThat(p.executeUpdate()).isEqualTo(1);
                p.setInt(1, 2);
                p.setObject(2, value);
                p.addBatch();
                assertThat(p.executeBatch()).containsExactly(1);
            }
            try (PreparedStatement p = c.prepareStatement("update t set n = ? + n where id = ?")) {
                p.setObject(1, value);
                p.setObject(2, 2);
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement p = c.prepareStatement("select id from t where n = ?")) {
                p.setObject(1, value);
                assertThat(JdbcTesting.rows(p.executeQuery())).containsExactly(List.of(1));
            }
            assertThat(rows(s, "select cast(n as double) from t order by id")).containsExactly(List.of(12.0), List.of(24.0));
        }
    }
}
