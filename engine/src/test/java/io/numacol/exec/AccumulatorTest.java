package io.numacol.exec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class AccumulatorTest {

    /** SUM(DISTINCT) of DECIMALs keeps each value once whatever its scale, and sums 150 as 150 (it was 1.5E+2, read as 15). */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void distinctSumOfDecimalsWithTrailingZeros(long seed) {
        List<BigDecimal> values = new ArrayList<>(List.of(new BigDecimal("-73"), new BigDecimal("150"), new BigDecimal("1"),
                new BigDecimal("112"), new BigDecimal("150"), new BigDecimal("2.50"), new BigDecimal("2.5"), new BigDecimal("1000")));
        Collections.shuffle(values, new Random(seed));
        Accumulator distinct = Accumulator.create(new AggregateCall(AggregateKind.SUM, 0, true));
        Accumulator half = Accumulator.create(new AggregateCall(AggregateKind.SUM, 0, true));
        for (int i = 0; i < values.size(); i++) {
            (i % 2 == 0 ? distinct : half).add(values.get(i));
        }
        distinct.merge(half);
        assertThat((BigDecimal) distinct.result()).isEqualByComparingTo("1192.5");
        Accumulator first = Accumulator.create(new AggregateCall(AggregateKind.SUM, 0, true));
        first.add(new BigDecimal("150"));
        first.add(new BigDecimal("1"));
        assertThat((BigDecimal) first.result()).isEqualByComparingTo("151");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void sumsKeepTheirType(boolean distinct) {
        Accumulator integers = Accumulator.create(new AggregateCall(AggregateKind.SUM, 0, distinct));
        integers.add(150L);
        integers.add(Long.MAX_VALUE);
        assertThat(integers.result()).isEqualTo(new BigDecimal(Long.MAX_VALUE).add(BigDecimal.valueOf(150)));
        Accumulator small = Accumulator.create(new AggregateCall(AggregateKind.SUM, 0, distinct));
        small.add(150L);
        small.add(-7L);
        assertThat(small.result()).isEqualTo(143L);
        Accumulator decimals = Accumulator.create(new AggregateCall(AggregateKind.SUM, 0, distinct));
        decimals.add(new BigDecimal("1.25"));
        decimals.add(new BigDecimal("2.75"));
        assertThat((BigDecimal) decimals.result()).isEqualByComparingTo("4");
    }
}
