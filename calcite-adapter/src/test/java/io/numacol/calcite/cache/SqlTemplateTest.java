package io.numacol.calcite.cache;

import io.numacol.calcite.plan.NumacolPrepare;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SqlTemplateTest {
    private static SqlTemplate of(String sql) {
        return SqlTemplate.of(sql, NumacolPrepare.VIEW_PARSER);
    }

    @Test
    void literalsComparedWithColumnsBecomeParametersOfTheirOwnType() {
        SqlTemplate seven = of("SELECT a FROM t1 WHERE b = 7");
        SqlTemplate eight = of("SELECT a FROM t1 WHERE b = 8");
        assertThat(seven.sql()).isEqualTo("SELECT a FROM t1 WHERE b = CAST(? AS INTEGER)").isEqualTo(eight.sql());
        assertThat(seven.values()).containsExactly(7);
        assertThat(eight.values()).containsExactly(8);
        SqlTemplate mixed = of("SELECT a FROM t1 WHERE b = 7.5 AND c > 1.5E0 AND d <> 'x''y' AND e < DATE '2024-02-29' AND f >= 3000000000");
        assertThat(mixed.sql()).isEqualTo("SELECT a FROM t1 WHERE b = CAST(? AS DECIMAL(2, 1)) AND c > CAST(? AS DOUBLE) "
                + "AND d <> CAST(? AS CHAR(3)) AND e < CAST(? AS DATE) AND f >= CAST(? AS BIGINT)");
        assertThat(mixed.values()).containsExactly(new BigDecimal("7.5"), 1.5, "x'y",
                (int) LocalDate.of(2024, 2, 29).toEpochDay(), 3_000_000_000L);
    }

    @Test
    void betweenInListsJoinConditionsSubqueriesAndNegativeNumbers() {
        SqlTemplate t = of("SELECT * FROM t1 JOIN t2 ON t1.a = t2.a AND t2.b > -5 WHERE t1.c BETWEEN 1 AND 9 "
                + "AND t1.d IN ('p', 'q') AND t1.e IN (SELECT x FROM t3 WHERE y = 4)");
        assertThat(t.values()).containsExactly(-5, 1, 9, "p", "q", 4);
        assertThat(t.sql()).doesNotContainPattern("[0-9]'").contains("IN (CAST(? AS CHAR(1)), CAST(? AS CHAR(1)))");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT a, 7 FROM t1",                              // the select list
            "SELECT a FROM t1 ORDER BY 1 LIMIT 10 OFFSET 2",    // ordinals and counts shape the plan
            "SELECT a + 1 FROM t1 GROUP BY a + 1 HAVING COUNT(*) > 2",
            "SELECT a FROM t1 WHERE 1 = 1",                     // a constant the planner folds
            "SELECT a FROM t1 WHERE b + 1 = c",                 // operands of arithmetic
            "SELECT a FROM t1 WHERE d LIKE 'x%'",
            "SELECT a FROM t1 WHERE d = ''",
            "SELECT a FROM t1 WHERE d = 'é'",
    })
    void otherLiteralsStay(String sql) {
        SqlTemplate t = of(sql);
        assertThat(t.sql()).isEqualTo(sql);
        assertThat(t.values()).isEmpty();
    }

    @Test
    void statementsWithParametersAreTheirOwnTemplate() {
        SqlTemplate t = of("SELECT a FROM t1 WHERE b = ? AND c = 5");
        assertThat(t.sql()).isEqualTo("SELECT a FROM t1 WHERE b = ? AND c = 5");
        assertThat(t.values()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT a FROM t1 WHERE d < CURRENT_DATE",
            "SELECT RAND() FROM t1 WHERE b = 1",
            "INSERT INTO t1 VALUES (1)",
            "CREATE TABLE x (a INTEGER)",
            "EXPLAIN PLAN FOR SELECT a FROM t1 WHERE b = 1",
            "SELEKT nonsense",
    })
    void noTemplateForWhatIsNotARepeatableQuery(String sql) {
        assertThat(of(sql)).isNull();
    }

    @Test
    void literalsOnSeveralLines() {
        SqlTemplate t = of("SELECT a\nFROM t1\nWHERE b = 7\n  AND c = 'z'");
        assertThat(t.sql()).isEqualTo("SELECT a\nFROM t1\nWHERE b = CAST(? AS INTEGER)\n  AND c = CAST(? AS CHAR(1))");
        assertThat(t.values()).isEqualTo(List.of(7, "z"));
    }
}
