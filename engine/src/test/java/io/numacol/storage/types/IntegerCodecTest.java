package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IntegerCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.integer();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return IntegerCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE);
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion((long) Integer.MAX_VALUE, Integer.MAX_VALUE), new Conversion((short) -7, -7), new Conversion((byte) 9, 9), new Conversion(BigInteger.valueOf(-12), -12), new Conversion(new BigDecimal("42.000"), 42), new Conversion(new BigDecimal("4.2E+1"), 42), new Conversion(BigDecimal.ZERO.setScale(5), 0));
    }

    @Override
    List<Object> rejected() {
        return List.of(Integer.MAX_VALUE + 1L, Integer.MIN_VALUE - 1L, new BigDecimal("2147483648"), new BigDecimal("42.5"), 1.0, "12");
    }

    @Override
    List<Object> invalidStored() {
        return List.of(Integer.MAX_VALUE + 1L);
    }

    @Override
    Object randomValue(Random random) {
        return random.nextInt();
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @Test
    void namesTheValueAndWhyItIsRefused() {
        ColumnType t = type();
        assertThatThrownBy(() -> t.toLong(Integer.MAX_VALUE + 1L)).hasMessage("value 2147483648 is out of range for INTEGER");
        assertThatThrownBy(() -> t.toLong(3_000_000_000L)).hasMessage("value 3000000000 is out of range for INTEGER");
        assertThatThrownBy(() -> t.toLong(new BigDecimal("42.5"))).hasMessage("value 42.5 is not a whole number, as INTEGER requires");
        assertThatThrownBy(() -> t.toLong(1.0)).hasMessageContaining("value 1.0 (java.lang.Double) cannot be stored as INTEGER");
        assertThatThrownBy(() -> t.toLong("12")).hasMessageContaining("'12' (java.lang.String) cannot be stored as INTEGER");
        assertThat(t.holds(Integer.MIN_VALUE - 1L)).isFalse();
    }
}
