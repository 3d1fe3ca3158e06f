package io.numacol.tpch;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultComparisonTest {

    @Test
    void numbersCompareByValueWithinTheirPrecision() {
        assertThat(ResultComparison.same(new BigDecimal("1.50"), new BigDecimal("1.5"))).isTrue();
        assertThat(ResultComparison.same(3L, 3)).isTrue();
        assertThat(ResultComparison.same(new BigDecimal("0.049912"), 0.04991234)).isTrue();
        assertThat(ResultComparison.same(1.0, 1.0 + 1e-12)).isTrue();
        assertThat(ResultComparison.same(1.0, 1.0 + 1e-6)).isFalse();
        // Q1's avg_disc cut to DECIMAL(15,2), as Calcite types AVG by default: not an answer.
        assertThat(ResultComparison.same(new BigDecimal("0.04"), 0.0499)).isFalse();
    }

    @Test
    void tiesUnderAnOrderByMayComeInAnyOrderButKeysMayNot() {
        List<List<Object>> expected = List.of(List.of(2, "b"), List.of(2, "a"), List.of(1, "c"));
        ResultComparison.assertSameResult(List.of(List.of(2, "a"), List.of(2, "b"), List.of(1, "c")), expected, new int[] {1});
        assertThatThrownBy(() -> ResultComparison.assertSameResult(
                List.of(List.of(1, "c"), List.of(2, "a"), List.of(2, "b")), expected, new int[] {1}))
                .hasMessageContaining("order keys differ");
        ResultComparison.assertSameResult(List.of(List.of(1, "c"), List.of(2, "a"), List.of(2, "b")), expected, new int[0]);
        assertThat(ResultComparison.same(LocalDate.of(1995, 1, 1), LocalDate.of(1995, 1, 1))).isTrue();
    }
}
