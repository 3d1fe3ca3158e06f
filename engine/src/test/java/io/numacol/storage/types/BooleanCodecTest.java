package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BooleanCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.booleanType();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return BooleanCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(false, true);
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion(true, true), new Conversion(false, false)); // a Boolean is the one class it takes
    }

    @Override
    List<Object> rejected() {
        return List.of(1, "true");
    }

    @Override
    List<Object> invalidStored() {
        return List.of(2L, -1L);
    }

    @Override
    Object randomValue(Random random) {
        return random.nextBoolean();
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @Test
    void storesZeroAndOne() {
        ColumnType t = type();
        assertThat(t.toLong(true)).isEqualTo(1);
        assertThat(t.toLong(false)).isZero();
        assertThatThrownBy(() -> t.toLong(1)).hasMessageContaining("value 1 (java.lang.Integer) cannot be stored as BOOLEAN");
        assertThatThrownBy(() -> t.toJava(2)).hasMessageContaining("stored value 2 is not a BOOLEAN value");
        assertThatThrownBy(() -> t.codec().valueOfText(t, "yes", null)).isInstanceOf(NumberFormatException.class);
    }
}
