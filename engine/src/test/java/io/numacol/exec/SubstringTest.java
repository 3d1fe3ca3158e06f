package io.numacol.exec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** SQL's SUBSTRING(s FROM start FOR length): 1-based, positions before the first and after the last cut away. */
class SubstringTest {
    @ParameterizedTest(name = "SUBSTRING(''{0}'' FROM {1} FOR {2}) = ''{3}''")
    @CsvSource(value = {"hello,1,2,he", "hello,2,3,ell", "hello,4,10,lo", "hello,6,1,''", "hello,0,2,h", "hello,-1,3,h",
            "hello,-5,2,''", "hello,1,0,''", "'',1,3,''", "hello,5,1,o", "hello,1,2147483647,hello", "hello,3,2147483647,llo"})
    void cutsAsSqlSays(String s, int start, int length, String expected) {
        assertThat(ChunkExpr.Substring.of(s, start, length)).isEqualTo(expected);
    }
}
