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
 * application's database as it was, and its property takes only true or false. It is run here on
 * the test's thread without holding back: the JVM's own warm-up thread may have given up, as it
 * does beside an application (these tests) that keeps running statements.
 */
class WarmupTest {
    @Test
    void theWarmupRunsWholeAndLeavesTheApplicationsDatabaseAlone() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:"); Statement s = c.createStatement()) {
            assertThat(Warmup.run((NumacolDriver) DriverManager.getDriver(NumacolDriver.PREFIX), false))
                    .as("every warm-up statement ran").isTrue();
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
