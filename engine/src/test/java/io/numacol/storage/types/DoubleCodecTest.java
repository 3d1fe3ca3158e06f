package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DoubleCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.doubleType();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return DoubleCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -2.5, 0.0, Double.MIN_VALUE, 0.1, 1.5, Double.MAX_VALUE,
                Double.POSITIVE_INFINITY, Double.NaN);
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion(1.5f, 1.5), new Conversion(3, 3.0), new Conversion(new BigDecimal("0.25"), 0.25),
                new Conversion(7L, 7.0));
    }

    @Override
    List<Object> rejected() {
        return List.of(new BigDecimal("1E+400"), "1.5", true);
    }

    @Override
    Object randomValue(Random random) {
        return Double.longBitsToDouble(random.nextLong());
    }

    /** SQL's order of doubles, NaN last as in PostgreSQL and DuckDB, which is Double.compare's. */
    @Override
    Comparator<Object> sqlOrder() {
        return (a, b) -> Double.compare((Double) a, (Double) b);
    }

    @Test
    void readsNumbersAsSqlWritesThemOnly() {
        assertThat(DoubleCodec.parseApproximate(" -2E-3 ")).isEqualTo(-0.002);
        assertThat(DoubleCodec.parseApproximate("+infinity")).isEqualTo(Double.POSITIVE_INFINITY);
        for (String javaOnly : new String[] {"0x1p3", "1.5d", "1_000", ""}) {
            assertThatThrownBy(() -> DoubleCodec.parseApproximate(javaOnly)).as(javaOnly).isInstanceOf(NumberFormatException.class);
        }
        assertThatThrownBy(() -> type().toDouble(new BigDecimal("1E+400"))).hasMessage("value 1E+400 is out of range for DOUBLE");
    }
}
