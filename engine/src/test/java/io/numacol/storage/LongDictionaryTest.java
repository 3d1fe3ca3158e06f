package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LongDictionaryTest extends OffHeapTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void lookupsAgreeWithBinarySearchOnTheHeap(long seed) {
        Random random = new Random(seed);
        int n = random.nextInt(1, 3_000);
        long spread = random.nextBoolean() ? 10L * n : Long.MAX_VALUE; // dense (gaps of a few) or all over the range
        long[] raw = random.longs(n, -spread, spread).toArray();
        if (random.nextBoolean()) {
            raw[0] = Long.MIN_VALUE;
            raw[n - 1] = Long.MAX_VALUE;
        }
        long[] values = DictionaryValues.sortedDistinct(raw, n);
        MemoryPlacement placement = OffHeapTest.placements().toList().get((int) (seed % 3));
        LongDictionary d = LongDictionary.build(values, values.length, arena, placement);

        assertThat(d.size()).isEqualTo(values.length);
        for (int vid = 0; vid < values.length; vid++) {
            assertThat(d.getLong(vid)).isEqualTo(values[vid]);
        }
        long[] probes = IntStream.range(0, 2 * n).mapToLong(i -> switch (i % 4) {
            case 0 -> values[random.nextInt(values.length)];
            case 1 -> values[random.nextInt(values.length)] + 1;
            case 2 -> values[random.nextInt(values.length)] - 1;
            default -> random.nextLong(-spread, spread);
        }).toArray();
        long[] edges = {values[0] - 1, values[values.length - 1] + 1, Long.MIN_VALUE, Long.MAX_VALUE, 0};
        for (long probe : LongStream.concat(Arrays.stream(probes), Arrays.stream(edges)).toArray()) {
            assertLookups(Arrays.binarySearch(values, probe), d.find(probe), d.lowerBound(probe), d.upperBound(probe));
        }
        for (int i = 0; i < 200; i++) {
            long a = probes[random.nextInt(probes.length)];
            long b = probes[random.nextInt(probes.length)];
            VidRange range = d.between(a, b);
            assertThat(IntStream.range(0, values.length).filter(range::contains).toArray())
                    .as("vids of %d <= x <= %d", a, b)
                    .containsExactly(IntStream.range(0, values.length).filter(v -> a <= values[v] && values[v] <= b).toArray());
        }
    }

    @Test
    void emptyDictionaryAnswersEveryLookupWithNothing() {
        LongDictionary d = LongDictionary.build(new long[0], 0, arena, MemoryPlacement.onNode(1));
        assertThat(d.size()).isZero();
        assertThat(d.isEmpty()).isTrue();
        assertThat(d.byteSize()).isZero();
        assertThat(d.all()).isEqualTo(VidRange.EMPTY);
        for (long probe : new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE}) {
            assertLookups(-1, d.find(probe), d.lowerBound(probe), d.upperBound(probe));
            assertThat(d.between(Long.MIN_VALUE, Long.MAX_VALUE).isEmpty()).isTrue();
        }
        assertThatThrownBy(() -> d.getLong(0))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("vid 0 is out of range: the dictionary has 0 values");
    }

    @Test
    void consecutiveValuesAreDenseGapsAndExtremesAreNot() {
        assertThat(LongDictionary.build(new long[] {-2, -1, 0, 1}, 4, arena, MemoryPlacement.onNode(0)).isDense()).isTrue();
        assertThat(LongDictionary.build(new long[] {7}, 1, arena, MemoryPlacement.onNode(0)).isDense()).isTrue();
        assertThat(LongDictionary.build(new long[] {1, 2, 4}, 3, arena, MemoryPlacement.onNode(0)).isDense()).isFalse();
        assertThat(LongDictionary.build(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, 2, arena, MemoryPlacement.onNode(0)).isDense())
                .as("the difference wraps, but not to 1").isFalse();
        assertThat(LongDictionary.build(new long[0], 0, arena, MemoryPlacement.onNode(0)).isDense()).isFalse();
    }

    @Test
    void sqlRangesBecomeVidRanges() {
        LongDictionary d = LongDictionary.build(new long[] {10, 20, 30, 40}, 4, arena, MemoryPlacement.onNode(0));
        assertThat(d.between(20, 30)).isEqualTo(new VidRange(1, 3));
        assertThat(d.between(15, 35)).isEqualTo(new VidRange(1, 3));
        assertThat(d.between(20, 20)).isEqualTo(new VidRange(1, 2));
        assertThat(d.between(21, 29)).as("nothing between two values").isEqualTo(VidRange.EMPTY);
        assertThat(d.between(30, 20)).as("crossed bounds").isEqualTo(VidRange.EMPTY);
        assertThat(d.between(Long.MIN_VALUE, 9)).isEqualTo(VidRange.EMPTY);
        assertThat(d.between(41, Long.MAX_VALUE)).isEqualTo(VidRange.EMPTY);
        assertThat(d.between(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(d.all()).isEqualTo(new VidRange(0, 4));
        assertThat(d.between(20, 30).first()).isEqualTo(1);
        assertThat(d.between(20, 30).last()).isEqualTo(2);
        // x < 30 and x > 20 from the bounds directly
        assertThat(VidRange.of(0, d.lowerBound(30))).isEqualTo(new VidRange(0, 2));
        assertThat(VidRange.of(d.upperBound(20), d.size())).isEqualTo(new VidRange(2, 4));
    }

    @Test
    void randomAccessChecksTheVid() {
        LongDictionary d = LongDictionary.build(new long[] {1, 2, 3, 4, 5, 99}, 5, arena, MemoryPlacement.onNode(0));
        assertThat(d.size()).as("only count values are taken").isEqualTo(5);
        assertThat(d.getLong(4)).isEqualTo(5);
        assertThatThrownBy(() -> d.getLong(5))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("vid 5 is out of range: the dictionary has 5 values (vids 0..4)");
        assertThatThrownBy(() -> d.getLong(-1)).hasMessageStartingWith("vid -1 is out of range");
    }

    @ParameterizedTest
    @MethodSource("io.numacol.storage.OffHeapTest#placements")
    void livesOffHeapWherePlacedUntilTheArenaCloses(MemoryPlacement placement) {
        int n = 5_000; // 40000 bytes: ten pages, so interleaving reaches both nodes
        long[] values = IntStream.range(0, n).mapToLong(i -> 3L * i).toArray();
        LongDictionary d = LongDictionary.build(values, n, arena, placement);

        long pages = (d.byteSize() + memory.pageSize() - 1) / memory.pageSize();
        assertThat(d.byteSize()).isEqualTo(8L * n);
        assertThat(memory.accounting().bytes(0, Component.DICTIONARY) + memory.accounting().bytes(1, Component.DICTIONARY))
                .isEqualTo(pages * memory.pageSize());
        for (int node = 0; node < 2; node++) {
            boolean expected = switch (placement) {
                case MemoryPlacement.OnNode on -> on.node() == node;
                case MemoryPlacement.Interleaved _ -> true;
            };
            assertThat(memory.accounting().bytes(node, Component.DICTIONARY) > 0).as("memory on node %d", node).isEqualTo(expected);
        }
        MemorySegment segment = d.segments().getFirst();
        assertThat(d.segments()).hasSize(1);
        assertThat(segment.isReadOnly()).isTrue();
        assertThat(segment.isNative()).isTrue();
        assertThat(segment.address() % memory.pageSize()).isZero();

        arena.close();
        assertThat(memory.accounting().totalBytes()).isZero();
        assertThatThrownBy(() -> d.find(3)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void rejectsUnsortedAndDuplicateInputBeforeAllocating() {
        assertThatThrownBy(() -> LongDictionary.build(new long[] {1, 5, 3}, 3, arena, MemoryPlacement.onNode(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("value 5 at position 1 comes after value 3 at position 2: dictionary values must be sorted ascending");
        assertThatThrownBy(() -> LongDictionary.build(new long[] {1, 7, 7}, 3, arena, MemoryPlacement.onNode(1)))
                .hasMessageStartingWith("value 7 at position 1 and value 7 at position 2 are the same dictionary value");
        assertThatThrownBy(() -> LongDictionary.build(new long[] {-1, Long.MIN_VALUE}, 2, arena, MemoryPlacement.onNode(0)))
                .hasMessageContaining("value -1 at position 0 comes after value " + Long.MIN_VALUE);
        assertThatThrownBy(() -> LongDictionary.build(new long[] {1, 2}, 3, arena, MemoryPlacement.onNode(0)))
                .hasMessage("count 3 is outside 0..2 (the array's length)");
        assertThatThrownBy(() -> LongDictionary.build(new long[] {1, 2}, -1, arena, MemoryPlacement.onNode(0)))
                .hasMessage("count -1 is outside 0..2 (the array's length)");
        assertThatThrownBy(() -> LongDictionary.build(new long[] {1, 2}, 2, arena, MemoryPlacement.onNode(2)))
                .hasMessageContaining("NUMA node 2 does not exist");
        assertThat(memory.liveAllocations()).isZero();
        assertThat(memory.accounting().totalBytes()).isZero();
        // Unsorted data beyond count is not looked at.
        assertThat(LongDictionary.build(new long[] {1, 2, 0}, 2, arena, MemoryPlacement.onNode(0)).size()).isEqualTo(2);
    }
}
