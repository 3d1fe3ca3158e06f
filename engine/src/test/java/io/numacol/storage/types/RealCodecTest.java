package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RealCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.real();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return RealCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(Float.NEGATIVE_INFINITY, -Float.MAX_VALUE, -1.5f, 0.0f, Float.MIN_VALUE, 0.1f, 16_777_216f, Float.MAX_VALUE,
                Float.POSITIVE_INFINITY, Float.NaN);
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion(0.1, 0.1f), new Conversion(new BigDecimal("0.1"), 0.1f), new Conversion(16_777_217, 16_777_216f),
                new Conversion(1e-50, 0.0f), new Conversion(Double.NaN, Float.NaN), new Conversion(Double.POSITIVE_INFINITY, Float.POSITIVE_INFINITY));
    }

    @Override
    List<Object> rejected() {
        return List.of(1e39, -4e38, new BigDecimal("1E+400"), "1.5");
    }

    @Override
    List<Object> invalidStored() {
        return List.of(0.1);
    }

    @Override
    Object randomValue(Random random) {
        return Float.intBitsToFloat(random.nextInt()); // every float, NaNs included (Java has one Float.NaN value after boxing compare)
    }

    /** SQL's order of floats, NaN last as in PostgreSQL and DuckDB, which is Float.compare's. */
    @Override
    Comparator<Object> sqlOrder() {
        return (a, b) -> Float.compare((Float) a, (Float) b);
    }

    @Test
    void roundsToTheNearestFloatAndRefusesFiniteOverflow() {
        ColumnType t = type();
        assertThat(t.toDouble(16_777_217)).as("past 2^24 integers round to even").isEqualTo(16_777_216.0);
        assertThat(t.toDouble(1e-50)).as("below the smallest float: zero, as a cast gives").isEqualTo(0.0);
        assertThatThrownBy(() -> t.toDouble(1e39)).hasMessage("value 1.0E39 is out of range for REAL");
        assertThatThrownBy(() -> t.toJava(0.1)).hasMessageContaining("stored value 0.1 is not a REAL value");
    }

    @Test
    void textBeyondTheFloatRangeIsOutOfRangeNotInfinite() {
        ColumnType t = type();
        Object big = t.codec().valueOfText(t, "1e39", null);
        assertThat(big).isEqualTo(1e39);
        assertThatThrownBy(() -> t.toDouble(big)).hasMessageContaining("out of range for REAL");
        assertThat(t.codec().valueOfText(t, "-Infinity", null)).isEqualTo(Float.NEGATIVE_INFINITY);
    }
}
