package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The JVM's warm-up ({@link Warmup}) runs every one of its statements on its private database (a
 * statement numacol stopped taking would leave first queries slow without a word), leaves the
 * application's database as it was, and its property takes only true or false.
 */
class WarmupTest {
    @Test
    void theWarmupRunsWholeAndLeavesTheApplicationsDatabaseAlone() throws SQLException, InterruptedException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            assertThat(Warmup.await()).as("every warm-up statement ran").isTrue();
            try (ResultSet rs = s.executeQuery("select count(*) from sys.tables")) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }

    @Test
    void warmupTakesTrueOrFalse() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:;warmup=false")) {
            assertThat(c.isValid(1)).isTrue();
        }
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:numacol:;warmup=maybe"))
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("HY024");
                    assertThat(e.getMessage()).contains("warmup must be true or false");
                });
    }
}
