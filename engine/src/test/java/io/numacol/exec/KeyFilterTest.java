package io.numacol.exec;

import io.numacol.storage.ColumnType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** A join's build keys as a filter: the bitmap of dense keys and the open addressing of the others say the same. */
class KeyFilterTest {

    /** Keys drawn from {@code [base, base + spread)}, probed inside, around and far outside that range. */
    @ParameterizedTest
    @CsvSource({
            "0, 2500, 1000",                             // dense: a bitmap
            "-300, 700, 90",                             // dense across zero
            "0, 2500, 3",                                // sparse: open addressing
            "9223372036854775000, 800, 200",             // dense at Long.MAX_VALUE
            "-9223372036854775808, 800, 200",            // dense from Long.MIN_VALUE (the open addressing's free mark)
            "-9223372036854775808, 9223372036854775807, 500", // as wide as it gets
            "7, 1, 1",                                   // one key
    })
    void answersAsASetOfTheKeys(long base, long spread, int count) {
        SplittableRandom random = new SplittableRandom(count * 31L + spread);
        Chunk page = new Chunk(List.of(ColumnType.bigint())).allocate();
        Set<Long> keys = new HashSet<>();
        for (int i = 0; i < count; i++) {
            long k = base + random.nextLong(spread);
            page.longs[0][i] = k;
            if (i % 17 == 5) {
                page.nulls[0][i] = true; // NULL is no key
            } else {
                keys.add(k);
            }
        }
        page.size = count;
        KeyFilter filter = KeyFilter.of(List.of(page), 0, ColumnType.bigint(), count);
        assertThat(filter.size()).isEqualTo(keys.size());

        Chunk probe = new Chunk(List.of(ColumnType.bigint())).allocate();
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < Chunk.CAPACITY; i++) {
                probe.longs[0][i] = switch (i % 4) {
                    case 0 -> base + random.nextLong(spread);
                    case 1 -> base + spread - 64 + random.nextInt(128); // around the top of the range
                    case 2 -> base - 64 + random.nextInt(128);          // around its bottom
                    default -> random.nextLong();
                };
            }
            probe.size = Chunk.CAPACITY;
            for (int i = 0; i < probe.size; i++) {
                assertThat(filter.contains(probe, 0, i)).as("%d", probe.longs[0][i]).isEqualTo(keys.contains(probe.longs[0][i]));
            }
        }
    }
}
