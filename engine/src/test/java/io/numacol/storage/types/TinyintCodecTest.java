package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TinyintCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.tinyint();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return TinyintCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(Byte.MIN_VALUE, (byte) -1, (byte) 0, (byte) 1, Byte.MAX_VALUE);
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion(127, (byte) 127), new Conversion(-128L, (byte) -128), new Conversion(new BigDecimal("-12.00"), (byte) -12));
    }

    @Override
    List<Object> rejected() {
        return List.of(128, (short) -129, 1.0, "12");
    }

    @Override
    List<Object> invalidStored() {
        return List.of(128L, -129L);
    }

    @Override
    Object randomValue(Random random) {
        return (byte) random.nextInt();
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @Test
    void holdsItsRangeOnly() {
        assertThat(type().holds(-128)).isTrue();
        assertThat(type().holds(-129)).isFalse();
        assertThatThrownBy(() -> type().toLong(128)).hasMessage("value 128 is out of range for TINYINT");
        assertThatThrownBy(() -> type().toLong((short) -129)).hasMessage("value -129 is out of range for TINYINT");
        assertThatThrownBy(() -> type().toJava(-129)).hasMessageContaining("stored value -129");
    }
}
