package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CharCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.charType(3);
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return CharCodec.class;
    }

    /** Values as read back: without trailing spaces. */
    @Override
    List<Object> samples() {
        return List.of("", " a\t", "a", "ab", "abc", "中", "😀😀😀");
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion("ab ", "ab"), new Conversion("abc      ", "abc"), new Conversion("   ", ""));
    }

    @Override
    List<Object> rejected() {
        return List.of("abcd ", 3, "\uDE00");
    }

    @Override
    Object randomValue(Random random) {
        int[] codePoints = new int[random.nextInt(4)];
        for (int i = 0; i < codePoints.length; i++) {
            codePoints[i] = random.nextBoolean() ? 'a' + random.nextInt(3) : 0x1F600 + random.nextInt(16);
        }
        return new String(codePoints, 0, codePoints.length);
    }

    @Override
    Comparator<Object> sqlOrder() {
        return (a, b) -> Arrays.compare(((String) a).codePoints().toArray(), ((String) b).codePoints().toArray());
    }

    @Test
    void stripsTrailingSpacesOnlyAndIsAVarcharToCalcite() {
        assertThat(type().toStringValue(" a\t")).as("tabs are not padding").isEqualTo(" a\t");
        assertThatThrownBy(() -> type().toStringValue("abcd ")).hasMessage("'abcd ' (4 characters) is longer than CHAR(3)");
        assertThat(type().codec().calciteTypeName()).isEqualTo("VARCHAR");
    }
}
