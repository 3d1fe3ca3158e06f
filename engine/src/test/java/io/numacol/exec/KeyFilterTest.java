package io.numacol.exec;

import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.storage.DictionaryValues;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.Topology;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

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

    /**
     * A scan's test on vids keeps the rows whose vid's value is a key, in order, by each of its
     * ways: few keys looked up in the dictionary, a pass over the dictionary's values (keys in a
     * bitmap, or a small dictionary), and states filled as vids are met (many keys not in a
     * bitmap, a large dictionary). The null vid, one past the dictionary, is never a key.
     */
    @ParameterizedTest
    @CsvSource({
            "0, 2500, 1000, 2000",            // a bitmap: a pass over the values
            "0, 100000, 40000, 20000",        // a bitmap, a dictionary of several blocks of values
            "0, 1000000000, 3, 90000",        // few keys: looked up
            "0, 1000000000, 5000, 3000",      // open addressing, a small dictionary: a pass over the values
            "0, 1000000000, 5000, 90000",     // open addressing, a large dictionary: states
            "-9223372036854775808, 9223372036854775807, 9000, 70000", // as wide as it gets
    })
    void vidTestsKeepTheRowsWhoseValueIsAKey(long base, long spread, int count, int dictionarySize) {
        SplittableRandom random = new SplittableRandom(count * 7L + dictionarySize);
        Chunk page = new Chunk(List.of(ColumnType.bigint())).allocate();
        Set<Long> keys = new HashSet<>();
        List<Chunk> pages = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (page.size == Chunk.CAPACITY) {
                pages.add(page);
                page = new Chunk(List.of(ColumnType.bigint())).allocate();
            }
            long k = base + random.nextLong(spread);
            page.longs[0][page.size++] = k;
            keys.add(k);
        }
        pages.add(page);
        KeyFilter filter = KeyFilter.of(pages, 0, ColumnType.bigint(), count);
        // a dictionary of half keys, half other values
        List<Long> keyList = List.copyOf(keys);
        long[] raw = LongStream.range(0, dictionarySize).map(i -> i % 2 == 0 ? keyList.get(random.nextInt(keyList.size()))
                : base + random.nextLong(spread)).toArray();
        long[] values = DictionaryValues.sortedDistinct(raw, raw.length);
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        try (NodeArena arena = memory.newArena()) {
            LongDictionary d = LongDictionary.build(values, values.length, arena, MemoryPlacement.onNode(0));
            KeyFilter.VidTest test = filter.vidTest(d);
            assertThat(filter.vidTest(d)).as("one per dictionary").isSameAs(test);
            for (int round = 0; round < 30; round++) {
                int n = 1 + random.nextInt(Chunk.CAPACITY); // odd lengths too
                int[] vids = new int[n];
                int[] selected = new int[n];
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    vids[i] = random.nextInt(d.size() + 1); // the null vid too
                    selected[i] = i * 3;
                    if (vids[i] < d.size() && keys.contains(d.getLong(vids[i]))) {
                        expected.add(i);
                    }
                }
                int[] before = vids.clone();
                int kept = test.retain(d, vids, selected, n);
                assertThat(kept).isEqualTo(expected.size());
                for (int i = 0; i < kept; i++) {
                    assertThat(selected[i]).isEqualTo(expected.get(i) * 3);
                    assertThat(vids[i]).isEqualTo(before[expected.get(i)]);
                }
            }
            double share = filter.share(List.of(d));
            long keyValues = LongStream.of(values).filter(keys::contains).count();
            assertThat(share).as("sampled share of keys").isCloseTo(keyValues / (double) values.length, offset(0.25));
        }
        assertThat(memory.liveAllocations()).isZero();
    }
}
