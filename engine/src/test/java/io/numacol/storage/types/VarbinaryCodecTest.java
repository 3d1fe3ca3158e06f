package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VarbinaryCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.varbinary(3);
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return VarbinaryCodec.class;
    }

    /** Unsigned byte order: 0x80 is 128, after 0x7f. */
    @Override
    List<Object> samples() {
        return List.of(new byte[0], new byte[] {0}, new byte[] {1}, new byte[] {1, 0}, new byte[] {0x7f},
                new byte[] {(byte) 0x80}, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion(new byte[] {0, (byte) 0x80, (byte) 0xff}, new byte[] {0, (byte) 0x80, (byte) 0xff}));
    }

    @Override
    List<Object> rejected() {
        return List.of(new byte[4], "abc");
    }

    @Override
    Object randomValue(Random random) {
        byte[] bytes = new byte[random.nextInt(4)];
        random.nextBytes(bytes);
        return bytes;
    }

    @Override
    Comparator<Object> sqlOrder() {
        return (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
    }

    @Test
    void readsPostgreSqlsHexText() {
        assertThat(VarbinaryCodec.fromText("\\x00FFab")).containsExactly(0, 0xff, 0xab);
        assertThat(VarbinaryCodec.fromText("\\x")).isEmpty();
        for (String bad : new String[] {"00ff", "\\x0", "\\xzz", "x00"}) {
            assertThatThrownBy(() -> VarbinaryCodec.fromText(bad)).as(bad).hasMessageContaining("VARBINARY text");
        }
        assertThatThrownBy(() -> type().toStringValue(new byte[4])).hasMessageContaining("X'00000000' (4 bytes) is longer than VARBINARY(3)");
    }
}
