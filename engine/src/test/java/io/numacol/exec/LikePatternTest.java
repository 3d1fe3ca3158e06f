package io.numacol.exec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
        assertThat(LikePattern.compile(pattern, "!").test(value.equals("''") ? "" : value)).isEqualTo(expected);
    }
}
