package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SmallintCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.smallint();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return SmallintCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(Short.MIN_VALUE, (short) -1, (short) 0, (short) 1, Short.MAX_VALUE);
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion(32767, (short) 32767), new Conversion((long) Short.MIN_VALUE, Short.MIN_VALUE), new Conversion(new BigDecimal("-12.00"), (short) -12));
    }

    @Override
    List<Object> rejected() {
        return List.of(32768, -32769L, 1.0, "12");
    }

    @Override
    List<Object> invalidStored() {
        return List.of(32768L);
    }

    @Override
    Object randomValue(Random random) {
        return (short) random.nextInt();
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @Test
    void holdsItsRangeOnly() {
        assertThat(type().holds(32767)).isTrue();
        assertThat(type().holds(32768)).isFalse();
        assertThatThrownBy(() -> type().toLong(32768)).hasMessage("value 32768 is out of range for SMALLINT");
        assertThatThrownBy(() -> type().toLong(-32769L)).hasMessage("value -32769 is out of range for SMALLINT");
        assertThatThrownBy(() -> type().toJava(32768)).hasMessageContaining("stored value 32768");
    }
}
