package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DoubleDictionaryTest extends OffHeapTest {

    private static final double[] SPECIAL = {
            0.0, -0.0, Double.NaN, Double.longBitsToDouble(0x7ff8_0000_0000_0badL), Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 1.0, -1.0};

    /** -0.0 and 0.0 are one value, and so are all NaNs: the reference applies that before comparing. */
    private static double sqlValue(double x) {
        return x == 0.0 ? 0.0 : Double.isNaN(x) ? Double.NaN : x;
    }

    private static double randomValue(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> SPECIAL[random.nextInt(SPECIAL.length)];
            case 1 -> random.nextInt(-50, 50) / 4.0; // many repeats
            default -> random.nextGaussian() * Math.pow(10, random.nextInt(-5, 10));
        };
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void lookupsAgreeWithBinarySearchOnTheHeap(long seed) {
        Random random = new Random(seed);
        int n = random.nextInt(1, 3_000);
        double[] raw = IntStream.range(0, n).mapToDouble(i -> randomValue(random)).toArray();
        // Reference: a TreeSet of boxed Doubles, whose compareTo is Double.compare.
        TreeSet<Double> distinct = new TreeSet<>();
        Arrays.stream(raw).forEach(x -> distinct.add(sqlValue(x)));
        double[] reference = distinct.stream().mapToDouble(Double::doubleValue).toArray();

        double[] values = DictionaryValues.sortedDistinct(raw, n);
        assertThat(Arrays.equals(values, reference)).as("sortedDistinct: %s", Arrays.toString(values)).isTrue();
        MemoryPlacement placement = OffHeapTest.placements().toList().get((int) (seed % 3));
        DoubleDictionary d = DoubleDictionary.build(values, values.length, arena, placement);

        assertThat(d.size()).isEqualTo(reference.length);
        for (int vid = 0; vid < reference.length; vid++) {
            assertThat(Double.compare(d.getDouble(vid), reference[vid])).isZero();
        }
        double[] probes = IntStream.range(0, 2 * n).mapToDouble(i -> switch (i % 3) {
            case 0 -> reference[random.nextInt(reference.length)];
            case 1 -> Math.nextUp(reference[random.nextInt(reference.length)]);
            default -> randomValue(random);
        }).toArray();
        for (double probe : probes) {
            assertLookups(Arrays.binarySearch(reference, sqlValue(probe)),
                    d.find(probe), d.lowerBound(probe), d.upperBound(probe));
        }
        for (double probe : SPECIAL) {
            assertLookups(Arrays.binarySearch(reference, sqlValue(probe)),
                    d.find(probe), d.lowerBound(probe), d.upperBound(probe));
        }
    }

    @Test
    void negativeZeroIsZeroAndNanSortsLastAsOneValue() {
        double[] values = DictionaryValues.sortedDistinct(
                new double[] {Double.NaN, 3, -0.0, Double.POSITIVE_INFINITY, 0.0, Double.NEGATIVE_INFINITY, -2.5,
                        Double.longBitsToDouble(0xfff0_0000_0000_0001L)}, 8);
        DoubleDictionary d = DoubleDictionary.build(values, values.length, arena, MemoryPlacement.interleaved(0, 1));

        assertThat(d.size()).isEqualTo(6);
        assertThat(IntStream.range(0, d.size()).mapToDouble(d::getDouble).toArray())
                .containsExactly(Double.NEGATIVE_INFINITY, -2.5, 0.0, 3, Double.POSITIVE_INFINITY, Double.NaN);
        assertThat(Double.doubleToRawLongBits(d.getDouble(2))).as("stored as +0.0").isZero();
        assertThat(Double.doubleToRawLongBits(d.getDouble(5))).isEqualTo(Double.doubleToRawLongBits(Double.NaN));
        assertThat(d.find(-0.0)).isEqualTo(2).isEqualTo(d.find(0.0));
        assertThat(d.find(Double.longBitsToDouble(0x7ff0_0000_0000_0042L))).as("any NaN").isEqualTo(5);
        assertThat(d.between(-0.0, 3)).as("x >= -0.0 includes 0.0").isEqualTo(new VidRange(2, 4));
        assertThat(d.between(-1, -0.0)).isEqualTo(new VidRange(2, 3));
        assertThat(d.between(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY)).as("NaN is not a number in range")
                .isEqualTo(new VidRange(0, 5));
        assertThat(d.between(4, Double.NaN)).as("NaN above everything, as in PostgreSQL").isEqualTo(new VidRange(4, 6));
        assertThat(d.upperBound(Double.NaN)).isEqualTo(6);
        assertThat(d.lowerBound(Double.MAX_VALUE)).isEqualTo(4);
    }

    @Test
    void buildNormalizesNegativeZeroItself() {
        DoubleDictionary d = DoubleDictionary.build(new double[] {-1, -0.0, 1}, 3, arena, MemoryPlacement.onNode(1));
        assertThat(Double.doubleToRawLongBits(d.getDouble(1))).isZero();
        assertThat(memory.accounting().bytes(1, Component.DICTIONARY)).isEqualTo(memory.pageSize());
        assertThat(memory.accounting().bytes(0, Component.DICTIONARY)).isZero();
    }

    @Test
    void emptyDictionary() {
        DoubleDictionary d = DoubleDictionary.build(new double[] {1.5}, 0, arena, MemoryPlacement.onNode(0));
        assertThat(d.size()).isZero();
        assertThat(d.byteSize()).isZero();
        for (double probe : SPECIAL) {
            assertLookups(-1, d.find(probe), d.lowerBound(probe), d.upperBound(probe));
        }
        assertThatThrownBy(() -> d.getDouble(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void rejectsUnsortedAndDuplicateInputBeforeAllocating() {
        assertThatThrownBy(() -> DoubleDictionary.build(new double[] {-0.0, 0.0}, 2, arena, MemoryPlacement.onNode(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("value -0.0 at position 0 and value 0.0 at position 1 are the same dictionary value");
        assertThatThrownBy(() -> DoubleDictionary.build(
                        new double[] {1, Double.NaN, Double.longBitsToDouble(0x7ff0_0000_0000_0001L)}, 3, arena,
                        MemoryPlacement.onNode(1)))
                .hasMessageStartingWith("value NaN at position 1 and value NaN at position 2 are the same dictionary value");
        assertThatThrownBy(() -> DoubleDictionary.build(new double[] {Double.NaN, 1}, 2, arena, MemoryPlacement.onNode(1)))
                .hasMessageStartingWith("value NaN at position 0 comes after value 1.0 at position 1");
        assertThatThrownBy(() -> DoubleDictionary.build(new double[] {0.5, -0.5}, 2, arena, MemoryPlacement.interleaved(0, 1)))
                .hasMessageStartingWith("value 0.5 at position 0 comes after value -0.5 at position 1");
        assertThatThrownBy(() -> DoubleDictionary.build(new double[0], 1, arena, MemoryPlacement.onNode(1)))
                .hasMessage("count 1 is outside 0..0 (the array's length)");
        assertThat(memory.liveAllocations()).isZero();
        assertThat(memory.accounting().totalBytes()).isZero();
    }
}
