package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BigintCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.bigint();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return BigintCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE);
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion(BigInteger.valueOf(Long.MIN_VALUE), Long.MIN_VALUE), new Conversion(new BigDecimal(Long.MIN_VALUE), Long.MIN_VALUE), new Conversion(-5, -5L));
    }

    @Override
    List<Object> rejected() {
        return List.of(BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE), new BigDecimal("9223372036854775808"), new BigDecimal("1E+999999999"), new BigDecimal("1E-999999999"), 1.5f);
    }

    @Override
    Object randomValue(Random random) {
        return random.nextLong();
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @Test
    void rejectsWiderNumbersWithoutExpandingThem() {
        ColumnType t = type();
        assertThatThrownBy(() -> t.toLong(new BigDecimal("1E+999999999"))).hasMessage("value 1E+999999999 is out of range for BIGINT");
        assertThatThrownBy(() -> t.toLong(new BigDecimal("1E-999999999"))).hasMessageContaining("not a whole number");
        assertThat(t.holds(Long.MIN_VALUE)).isTrue();
    }
}
