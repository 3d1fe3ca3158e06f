package io.numacol.exec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class LikePatternTest {
    @ParameterizedTest(name = "''{1}'' LIKE ''{0}'' is {2}")
    @CsvSource(delimiter = '|', value = {
            "PROMO%|PROMO BRUSHED|true", "PROMO%|XPROMO|false", "%special%requests%|a special b requests c|true",
            "%special%requests%|requests special|false", "%ab%ba%|aba|false", "%ab%ba%|abba|true", "a%a|a|false",
            "a%a|aa|true", "_b%|abc|true", "_b%|bbc|true", "_b%|b|false", "abc|abc|true", "abc|abcd|false",
            "%|''|true", "100!%|100%|true", "100!%|1000|false", "a!_c|a_c|true", "a!_c|abc|false", "%.%|a.b|true",
            "%.%|ab|false", "a\\\\%|a\\\\xyz|true"})
    void matchesAsSqlSays(String pattern, String value, boolean expected) {
        String v = value.equals("''") ? "" : value;
        assertThat(LikePattern.compile(pattern, "!").test(v)).isEqualTo(expected);
        LikePattern.Utf8Like utf8 = LikePattern.utf8(pattern, "!");
        if (pattern.replace("!_", "").indexOf('_') < 0) {
            byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
            assertThat(utf8.test(bytes, bytes.length)).as("on UTF-8 bytes").isEqualTo(expected);
        } else {
            assertThat(utf8).as("one character is several bytes").isNull();
        }
    }

    /**
     * On UTF-8 bytes a pattern of literal runs between %s answers as on Strings, with characters
     * of one to four bytes, runs that nearly match, and runs that overlap.
     */
    @Test
    void bytesAnswerAsStringsDo() {
        String[] alphabet = {"a", "b", "é", "€", "😀", "ab", "%"};
        SplittableRandom random = new SplittableRandom(13);
        int matched = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder pattern = new StringBuilder();
            for (int k = random.nextInt(7); k > 0; k--) {
                pattern.append(alphabet[random.nextInt(alphabet.length)]);
            }
            StringBuilder value = new StringBuilder();
            for (int k = random.nextInt(9); k > 0; k--) {
                value.append(alphabet[random.nextInt(alphabet.length - 1)]);
            }
            String p = pattern.toString();
            String v = value.toString();
            byte[] bytes = (v + "trailing bytes past the length").getBytes(StandardCharsets.UTF_8);
            boolean expected = LikePattern.compile(p, null).test(v);
            matched += expected ? 1 : 0;
            assertThat(LikePattern.utf8(p, null).test(bytes, v.getBytes(StandardCharsets.UTF_8).length))
                    .as("'%s' LIKE '%s'", v, p).isEqualTo(expected);
        }
        assertThat(matched).as("both answers occur").isBetween(1_000, 19_000);
    }

    /**
     * Values tested together, back to back in one array, answer as each on its own as a String
     * does: the search for a middle run that crosses into the next value, or finds its first
     * occurrence values later, must not decide for the wrong value.
     */
    @Test
    void valuesTestedTogetherAnswerAsEachAlone() {
        String[] alphabet = {"a", "b", "é", "ab", "ba", "bab", "€"};
        SplittableRandom random = new SplittableRandom(29);
        for (String p : new String[] {"%ab%", "%ab%ba%", "%b%a%b%", "a%b%", "%bab%ab", "%é%", "b%ab%a", "%a€%"}) {
            LikePattern.Utf8Like like = LikePattern.utf8(p, null);
            int count = 3_000;
            String[] values = new String[count];
            int[] starts = new int[count + 1];
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < count; i++) {
                StringBuilder value = new StringBuilder();
                for (int k = random.nextInt(6); k > 0; k--) {
                    value.append(alphabet[random.nextInt(alphabet.length)]);
                }
                values[i] = value.toString();
                out.writeBytes(values[i].getBytes(StandardCharsets.UTF_8));
                starts[i + 1] = out.size();
            }
            byte[] bytes = out.toByteArray();
            boolean[] matches = new boolean[count];
            like.test(bytes, new String(bytes, StandardCharsets.ISO_8859_1), starts, count, matches);
            int matched = 0;
            for (int i = 0; i < count; i++) {
                boolean expected = LikePattern.compile(p, null).test(values[i]);
                matched += expected ? 1 : 0;
                assertThat(matches[i]).as("'%s' LIKE '%s' among others", values[i], p).isEqualTo(expected);
            }
            assertThat(matched).as("both answers occur for " + p).isBetween(1, count - 1);
        }
    }

    @Test
    void anUnpairedSurrogateHasNoBytesToMatch() {
        assertThat(LikePattern.utf8("%\uD800%", null)).isNull();
        assertThat(LikePattern.utf8("%😀%", null)).isNotNull();
    }
}
