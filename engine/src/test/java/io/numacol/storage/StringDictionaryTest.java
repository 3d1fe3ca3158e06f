package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.storage.types.Utf8;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.IntStream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StringDictionaryTest extends OffHeapTest {

    /** 1-, 2-, 3- and 4-byte UTF-8, and characters on both sides of the surrogate range. */
    private static final String[] PIECES = {"a", "b", "z", "A", " ", "é", "ß", "中", "文", "\uE000", "\uFFFD", "😀", "𝄞", "🙂"};

    /** The reference order: UTF-8 bytes compared unsigned, as Arrays.compareUnsigned does. */
    private static final Comparator<byte[]> BYTES = Arrays::compareUnsigned;

    private static String randomString(Random random) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(5);
        for (int i = 0; i < length; i++) {
            s.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return s.toString();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void lookupsAgreeWithBinarySearchOnUtf8BytesOnTheHeap(long seed) {
        Random random = new Random(seed);
        int n = random.nextInt(1, 3_000);
        String[] raw = IntStream.range(0, n).mapToObj(i -> randomString(random)).toArray(String[]::new);
        TreeSet<byte[]> distinct = new TreeSet<>(BYTES);
        Arrays.stream(raw).forEach(s -> distinct.add(s.getBytes(UTF_8)));
        byte[][] reference = distinct.toArray(byte[][]::new);

        String[] values = DictionaryValues.sortedDistinct(raw, n);
        assertThat(values).containsExactly(distinct.stream().map(b -> new String(b, UTF_8)).toArray(String[]::new));
        MemoryPlacement placement = OffHeapTest.placements().toList().get((int) (seed % 3));
        StringDictionary d = StringDictionary.build(values, values.length, arena, placement);

        assertThat(d.size()).isEqualTo(reference.length);
        assertThat(d.byteSize()).isEqualTo(8L * (reference.length + 1) + Arrays.stream(reference).mapToLong(b -> b.length).sum());
        byte[] copied = new byte[Arrays.stream(reference).mapToInt(b -> b.length).max().orElse(0) + 3];
        for (int vid = 0; vid < reference.length; vid++) {
            assertThat(d.getString(vid).getBytes(UTF_8)).isEqualTo(reference[vid]);
            assertThat(d.utf8Length(vid)).isEqualTo(reference[vid].length);
            assertThat(Arrays.copyOf(copied, d.copyUtf8(vid, copied))).as("the bytes copied out").isEqualTo(reference[vid]);
        }
        for (int i = 0; i < 3 * n; i++) {
            String probe = switch (i % 3) {
                case 0 -> values[random.nextInt(values.length)];
                case 1 -> values[random.nextInt(values.length)] + PIECES[random.nextInt(PIECES.length)];
                default -> randomString(random);
            };
            assertLookups(Arrays.binarySearch(reference, probe.getBytes(UTF_8), BYTES),
                    d.find(probe), d.lowerBound(probe), d.upperBound(probe));
        }
        for (String probe : new String[] {"", "\u0000", "\uFFFF", "\uDBFF\uDFFF", "zzzzzzzzzzzzzz"}) {
            assertLookups(Arrays.binarySearch(reference, probe.getBytes(UTF_8), BYTES),
                    d.find(probe), d.lowerBound(probe), d.upperBound(probe));
        }
    }

    /** withPrefix is the vids whose value starts with the prefix, whatever the prefix's length or characters. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void prefixesAreVidRanges(long seed) {
        Random random = new Random(seed);
        int n = random.nextInt(1, 2_000);
        String[] raw = IntStream.range(0, n).mapToObj(i -> randomString(random)).toArray(String[]::new);
        String[] values = DictionaryValues.sortedDistinct(raw, n);
        StringDictionary d = StringDictionary.build(values, values.length, arena, MemoryPlacement.onNode(0));
        List<String> probes = new ArrayList<>(List.of("", "\u0000", "\uFFFF", "\uDBFF\uDFFF", "zzzz"));
        for (int i = 0; i < 200; i++) {
            String v = values[random.nextInt(values.length)];
            probes.add(v.substring(0, random.nextInt(v.length() + 1)));
            probes.add(randomString(random));
        }
        for (String prefix : probes) {
            if (!prefix.equals(new String(prefix.getBytes(UTF_8), UTF_8))) {
                continue; // an unpaired surrogate (a value cut inside a pair) has no UTF-8 form
            }
            int[] expected = IntStream.range(0, values.length).filter(v -> values[v].startsWith(prefix)).toArray();
            VidRange range = d.withPrefix(prefix);
            assertThat(IntStream.range(range.from(), range.to()).toArray()).as("prefix %s", prefix).containsExactly(expected);
        }
    }

    @Test
    void ordersByCodePointNotByUtf16() {
        String[] values = {"", "a", "ab", "b", "é", "中", "\uFFFD", "😀"};
        StringDictionary d = StringDictionary.build(values, values.length, arena, MemoryPlacement.onNode(1));
        assertThat("\uFFFD".compareTo("😀")).as("String.compareTo disagrees").isPositive();

        for (int vid = 0; vid < values.length; vid++) {
            assertThat(d.getString(vid)).isEqualTo(values[vid]);
            assertThat(d.find(values[vid])).isEqualTo(vid);
        }
        assertThat(d.find("")).isZero();
        assertThat(d.find("aa")).as("between a and ab").isEqualTo(-3);
        assertThat(d.find("abc")).as("a stored value is a prefix of the probe").isEqualTo(-4);
        assertThat(d.lowerBound("e")).isEqualTo(4);
        assertThat(d.upperBound("😀")).isEqualTo(8);
        assertThat(d.find("😀😀")).isEqualTo(-9);
        assertThat(d.between("a", "b")).isEqualTo(new VidRange(1, 4));
        assertThat(d.between("b", "a")).isEqualTo(VidRange.EMPTY);
        assertThat(d.between("é", "\uFFFF")).as("U+FFFF sorts before the emoji").isEqualTo(new VidRange(4, 7));
        // 0+1+2+1+2+3+3+4 bytes of UTF-8 after 9 offsets
        assertThat(d.byteSize()).isEqualTo(9 * 8 + 16);
        assertThat(memory.accounting().bytes(1, Component.DICTIONARY)).isEqualTo(memory.pageSize());
        assertThat(d.segments()).singleElement().satisfies(s -> assertThat(s.isReadOnly()).isTrue());
    }

    @Test
    void sortedDistinctUsesTheDictionarysOrder() {
        String[] values = DictionaryValues.sortedDistinct(new String[] {"😀", "\uFFFD", "b", "", "b", "a", "😀"}, 7);
        assertThat(values).containsExactly("", "a", "b", "\uFFFD", "😀");
        assertThat(StringDictionary.build(values, values.length, arena, MemoryPlacement.onNode(0)).size()).isEqualTo(5);
    }

    @Test
    void emptyDictionaryKeepsOneOffset() {
        StringDictionary d = StringDictionary.build(new String[0], 0, arena, MemoryPlacement.interleaved(0, 1));
        assertThat(d.size()).isZero();
        assertThat(d.byteSize()).isEqualTo(8);
        for (String probe : new String[] {"", "a", "😀"}) {
            assertLookups(-1, d.find(probe), d.lowerBound(probe), d.upperBound(probe));
        }
        assertThatThrownBy(() -> d.getString(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void onlyTheEmptyString() {
        StringDictionary d = StringDictionary.build(new String[] {""}, 1, arena, MemoryPlacement.onNode(0));
        assertThat(d.getString(0)).isEmpty();
        assertThat(d.find("")).isZero();
        assertThat(d.find("a")).isEqualTo(-2);
        assertThat(d.between("", "")).isEqualTo(new VidRange(0, 1));
    }

    @Test
    void probesWithoutUtf8FormAreRejected() {
        StringDictionary d = StringDictionary.build(new String[] {"a"}, 1, arena, MemoryPlacement.onNode(0));
        assertThatThrownBy(() -> d.find("x\uDC00"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'x\uDC00' has an unpaired surrogate U+DC00 at index 1");
        assertThatThrownBy(() -> d.lowerBound(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void manyPagesInterleaved() {
        String[] values = IntStream.range(0, 20_000).mapToObj(i -> String.format("key-%06d-中", i)).toArray(String[]::new);
        StringDictionary d = StringDictionary.build(values, values.length, arena, MemoryPlacement.interleaved(0, 1));
        assertThat(memory.accounting().bytes(0, Component.DICTIONARY)).isPositive();
        assertThat(memory.accounting().bytes(1, Component.DICTIONARY)).isPositive();
        assertThat(d.find("key-012345-中")).isEqualTo(12345);
        assertThat(d.between("key-000100", "key-000200")).isEqualTo(new VidRange(100, 200));
        MemorySegment block = d.segments().getFirst();
        assertThat(block.byteSize()).isEqualTo(d.byteSize());
    }

    @Test
    void rejectsBadInputBeforeAllocating() {
        MemoryPlacement node1 = MemoryPlacement.onNode(1);
        assertThatThrownBy(() -> StringDictionary.build(new String[] {"b", "a"}, 2, arena, node1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("value 'b' at position 0 comes after value 'a' at position 1");
        assertThatThrownBy(() -> StringDictionary.build(new String[] {"a", "é", "é"}, 3, arena, node1))
                .hasMessageStartingWith("value 'é' at position 1 and value 'é' at position 2 are the same dictionary value");
        assertThatThrownBy(() -> StringDictionary.build(new String[] {"😀", "\uFFFD"}, 2, arena, node1))
                .as("sorted by String.compareTo is not sorted here")
                .hasMessageStartingWith("value '😀' at position 0 comes after value '\uFFFD' at position 1");
        assertThatThrownBy(() -> StringDictionary.build(new String[] {"a", null}, 2, arena, node1))
                .hasMessage("null at position 1: a dictionary holds no nulls");
        assertThatThrownBy(() -> StringDictionary.build(new String[] {"a", "b\uD83D"}, 2, arena, node1))
                .hasMessageContaining("unpaired surrogate U+D83D at index 1");
        assertThatThrownBy(() -> DictionaryValues.sortedDistinct(new String[] {"a", null}, 2))
                .hasMessage("null at position 1: a dictionary holds no nulls");
        assertThat(memory.liveAllocations()).isZero();
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    @ParameterizedTest
    @ValueSource(longs = {7, 8})
    void codePointComparisonMatchesUtf8Bytes(long seed) {
        Random random = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            String a = randomString(random);
            String b = random.nextInt(4) == 0 ? a + randomString(random) : randomString(random);
            assertThat(Integer.signum(Utf8.compare(a, b)))
                    .as("'%s' vs '%s'", a, b)
                    .isEqualTo(Integer.signum(Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8))));
        }
    }
}
