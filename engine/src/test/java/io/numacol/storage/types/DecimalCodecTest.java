package io.numacol.storage.types;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecimalCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.decimal(15, 2);
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return DecimalCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(new BigDecimal("-9999999999999.99"), new BigDecimal("-1.00"), new BigDecimal("-0.01"), new BigDecimal("0.00"),
                new BigDecimal("0.01"), new BigDecimal("12.34"), new BigDecimal("9999999999999.99"));
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion(7, new BigDecimal("7.00")), new Conversion(-7L, new BigDecimal("-7.00")),
                new Conversion(BigInteger.TEN, new BigDecimal("10.00")), new Conversion((short) 3, new BigDecimal("3.00")),
                new Conversion((byte) 3, new BigDecimal("3.00")),
                new Conversion(2.675, new BigDecimal("2.68")), // the double's shortest decimal form, not its binary expansion
                new Conversion(0.1f, new BigDecimal("0.10")), new Conversion("12.345", new BigDecimal("12.35")),
                new Conversion(new BigDecimal("1.005"), new BigDecimal("1.01")));
    }

    @Override
    List<Object> rejected() {
        return List.of(12345.678e12, Double.NaN, Float.NEGATIVE_INFINITY, "12,5", true, new BigDecimal("1E+999999999"));
    }

    @Override
    List<Object> invalidStored() {
        return List.of(1_000_000_000_000_000L, -1_000_000_000_000_000L);
    }

    @Override
    Object randomValue(Random random) {
        return BigDecimal.valueOf(random.nextLong(-999_999_999_999_999L, 1_000_000_000_000_000L), 2);
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @ParameterizedTest
    @CsvSource({
            "15, 2, 12.34,       1234",
            "15, 2, 1.005,       101",
            "15, 2, -1.005,      -101",
            "15, 2, 1.0049999,   100",
            "15, 2, 0.004,       0",
            "15, 2, -0.005,      -1",
            "5,  2, 999.99,      99999",
            "5,  2, -999.994,    -99999",
            "5,  0, 12345,       12345",
            "3,  3, 0.9994,      999",
            "18, 0, 999999999999999999, 999999999999999999",
            "18, 18, -0.999999999999999999, -999999999999999999",
            "4,  2, 1E+1,        1000",
            "4,  2, 1E-999999999, 0"})
    void roundsHalfUpToItsScale(int precision, int scale, String value, long unscaled) {
        ColumnType t = ColumnType.decimal(precision, scale);
        assertThat(t.toLong(new BigDecimal(value))).isEqualTo(unscaled);
        assertThat(t.toLong(value)).isEqualTo(unscaled);
        assertThat(t.toJava(unscaled)).isEqualTo(BigDecimal.valueOf(unscaled, scale));
    }

    @ParameterizedTest
    @CsvSource({
            "5, 2, 12345.678",
            "5, 2, 1000",
            "5, 2, 999.995",
            "5, 2, -999.995",
            "3, 3, 0.9995",
            "18, 0, 1000000000000000000",
            "18, 2, 1E+999999999"})
    void rejectsValuesWithTooManyDigits(int precision, int scale, String value) {
        ColumnType t = ColumnType.decimal(precision, scale);
        assertThatThrownBy(() -> t.toLong(new BigDecimal(value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(value + " does not fit DECIMAL(" + precision + "," + scale + ")");
    }

    @Test
    void namesWhyAValueIsRefused() {
        ColumnType t = type();
        assertThatThrownBy(() -> t.toLong(12345.678e12)).hasMessage("1.2345678E16 does not fit DECIMAL(15,2)");
        assertThatThrownBy(() -> t.toLong(Double.NaN)).hasMessage("value NaN is not a finite number, as DECIMAL(15,2) requires");
        assertThatThrownBy(() -> t.toLong("12,5")).hasMessage("'12,5' is not a number, as DECIMAL(15,2) requires");
        assertThatThrownBy(() -> t.toJava(1_000_000_000_000_000L)).hasMessageContaining("stored value 1000000000000000 is not a DECIMAL(15,2)");
    }

    @Test
    void randomValuesOfEveryPrecisionAndScaleRoundTrip() {
        Random random = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            int precision = 1 + random.nextInt(DecimalCodec.MAX_PRECISION);
            int scale = random.nextInt(precision + 1);
            ColumnType t = ColumnType.decimal(precision, scale);
            long limit = BigInteger.TEN.pow(precision).longValueExact();
            long unscaled = random.nextLong(-limit + 1, limit);
            BigDecimal value = BigDecimal.valueOf(unscaled, scale);
            assertThat(t.toLong(value)).as("%s in %s", value, t).isEqualTo(unscaled);
            assertThat(t.toLong(t.codec().toText(t, value))).isEqualTo(unscaled);
            assertThat(t.toJava(unscaled)).isEqualTo(value);
        }
    }
}
