package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import static io.numacol.jdbc.JdbcTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Text cast to BOOLEAN reads PostgreSQL's words for a truth value, literals and columns alike; other text is 22P02. */
class TextBooleanCastTest {
    @Test
    void postgresWordsForTruthValuesCast() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            assertThat(rows(s, "select cast('yes' as boolean), cast(' Off ' as boolean), cast('t' as boolean), cast('0' as boolean),"
                    + " cast('TRUE' as boolean)")).containsExactly(List.of(true, false, true, false, true));
            s.execute("create table flags (word varchar(8))");
            s.execute("insert into flags values ('YES'), ('NO'), ('on'), ('f'), (null)");
            assertThat(rows(s, "select cast(word as boolean) from flags")).containsExactly(List.of(true), List.of(false),
                    List.of(true), List.of(false), Arrays.asList((Object) null));
            assertThat(rows(s, "select count(*) from flags where cast(word as boolean)")).containsExactly(List.of(2L));
            assertThatThrownBy(() -> rows(s, "select cast(word || 'x' as boolean) from flags")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("not a valid BOOLEAN")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22P02"));
        }
    }
}
