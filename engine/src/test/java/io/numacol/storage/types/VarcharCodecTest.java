package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VarcharCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.varchar(5);
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return VarcharCodec.class;
    }

    /** In code point order: a supplementary character (an emoji, UTF-16 surrogates) after U+FFFD, unlike String.compareTo. */
    @Override
    List<Object> samples() {
        return List.of("", " ", "ab", "ab  ", "abcde", "é中😀ab", "\uFFFD", "😀😀😀😀😀");
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion("ab  ", "ab  "));
    }

    @Override
    List<Object> rejected() {
        return List.of("abcdef", "abcde ", "😀😀😀😀😀😀", 'a', "ab\uD800c");
    }

    @Override
    Object randomValue(Random random) {
        int[] codePoints = new int[random.nextInt(6)];
        for (int i = 0; i < codePoints.length; i++) {
            codePoints[i] = switch (random.nextInt(4)) {
                case 0 -> ' ';
                case 1 -> 'a' + random.nextInt(3);
                case 2 -> 0xE000 + random.nextInt(0x2000); // above the surrogates in UTF-16, below them in code point order
                default -> 0x1F600 + random.nextInt(16);
            };
        }
        return new String(codePoints, 0, codePoints.length);
    }

    @Override
    Comparator<Object> sqlOrder() {
        return (a, b) -> Arrays.compare(((String) a).codePoints().toArray(), ((String) b).codePoints().toArray());
    }

    @Test
    void countsCodePointsAndCutsLongValuesShortInMessages() {
        assertThat(type().toStringValue("😀😀😀😀😀")).as("five code points in ten UTF-16 chars").hasSize(10);
        assertThatThrownBy(() -> type().toStringValue("abcdef")).hasMessage("'abcdef' (6 characters) is longer than VARCHAR(5)");
        assertThatThrownBy(() -> type().toStringValue('a')).hasMessageContaining("value a (java.lang.Character) cannot be stored as VARCHAR(5)");
        assertThatThrownBy(() -> type().toStringValue("ab\uD800c")).hasMessageContaining("unpaired surrogate U+D800 at index 2");
        String huge = "x".repeat(100_000);
        assertThatThrownBy(() -> ColumnType.varchar(10).toStringValue(huge))
                .hasMessageStartingWith("'" + "x".repeat(40) + "...' (100000 characters) is longer than VARCHAR(10)")
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(200));
    }
}
