package io.numacol.storage;

import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every way a column finds its rows' vids gives each row its value back and a strictly
 * ascending dictionary: ranks by counting (narrow spans), sort and binary search (wide ones),
 * strings deduplicated by hash and sorted in code point order.
 */
class ColumnBuilderTest {
    private final NumaMemory memory = NumaMemory.create(Topology.fake(2));
    private final NodeArena arena = memory.newArena();

    @AfterEach
    void close() {
        arena.close();
    }

    private Column build(ColumnType type, List<Object> values) {
        ColumnBuilder b = new ColumnBuilder("c", type, true);
        values.forEach(b::add);
        return b.build(arena, ColumnPlacement.onNode(1), false);
    }

    private static void assertRoundTrip(Column column, List<Object> values) {
        for (int row = 0; row < values.size(); row++) {
            assertThat(column.value(row)).as("row %d", row).isEqualTo(values.get(row));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"narrow", "dense", "wide", "extreme", "single"})
    void longsKeepTheirValuesWhateverTheirSpan(String spread) {
        Random r = new Random(spread.hashCode());
        LongSupplier next = switch (spread) {
            case "narrow" -> () -> 1_000_000L + r.nextInt(30_000) * 3L;
            case "dense" -> () -> -500L + r.nextInt(1000);
            case "wide" -> () -> r.nextLong(1L << 50);
            case "extreme" -> () -> r.nextBoolean() ? Long.MIN_VALUE + r.nextInt(3) : Long.MAX_VALUE - r.nextInt(3);
            default -> () -> 42L;
        };
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < 10_007; i++) {
            values.add(r.nextInt(13) == 0 ? null : next.getAsLong());
        }
        Column c = build(ColumnType.bigint(), values);
        assertRoundTrip(c, values);
        assertThat(c.dictionary().size()).isEqualTo((int) values.stream().filter(v -> v != null).distinct().count());
    }

    @Test
    void stringsSortInCodePointOrderAcrossSurrogates() {
        // U+1F600 (surrogates D83D DE00) sorts after U+FFFD in code points, before it in UTF-16 units
        List<Object> values = new ArrayList<>(List.of("b", "\uFFFD", "\uD83D\uDE00", "a", "b", "\uFFFD"));
        values.add(null);
        Column c = build(ColumnType.varchar(8), values);
        assertRoundTrip(c, values);
        StringDictionary d = (StringDictionary) c.dictionary();
        assertThat(List.of(d.getString(0), d.getString(1), d.getString(2), d.getString(3)))
                .containsExactly("a", "b", "\uFFFD", "\uD83D\uDE00");
    }

    @Test
    void manyRepeatedStringsBecomeOneEntryEach() {
        Random r = new Random(5);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            values.add("flag" + (char) ('A' + r.nextInt(3)));
        }
        Column c = build(ColumnType.varchar(8), values);
        assertRoundTrip(c, values);
        assertThat(c.dictionary().size()).isEqualTo(3);
        assertThat(c.bitcase()).isEqualTo(2);
    }
}
