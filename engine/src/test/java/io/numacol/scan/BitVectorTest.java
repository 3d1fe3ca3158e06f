package io.numacol.scan;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BitVectorTest {

    @ParameterizedTest(name = "{0} rows")
    @ValueSource(ints = {0, 1, 63, 64, 65, 1000, 4097})
    void countingAndIterationAgreeWithGet(int size) {
        Random random = new Random(size);
        BitVector bits = new BitVector(size);
        assertThat(bits.words()).hasSize((size + 63) / 64);
        List<Integer> set = new ArrayList<>();
        for (int row = 0; row < size; row++) {
            if (random.nextInt(3) == 0) {
                bits.set(row, true);
                set.add(row);
            }
        }
        if (bits.words().length > 0) {
            bits.words()[bits.words().length - 1] |= size % 64 == 0 ? 0 : -1L << size;
        }
        assertThat(bits.cardinality()).isEqualTo(set.size());
        List<Integer> seen = new ArrayList<>();
        bits.forEach(seen::add);
        assertThat(seen).isEqualTo(set);
        PositionList positions = new PositionList();
        positions.add(-1);
        assertThat(bits.toPositions(positions)).isEqualTo(set.size());
        assertThat(positions.size()).isEqualTo(set.size() + 1);
        for (int i = 0; i < 50 && size > 0; i++) {
            int from = random.nextInt(size);
            int to = from + random.nextInt(size - from + 1);
            long expected = set.stream().filter(r -> r >= from && r < to).count();
            assertThat(bits.cardinality(from, to)).as("[%d, %d)", from, to).isEqualTo((int) expected);
        }
        for (int row = 0; row < size; row++) {
            assertThat(bits.get(row)).isEqualTo(set.contains(row));
        }
    }

    @Test
    void equalityIgnoresBitsPastTheSize() {
        BitVector a = new BitVector(70);
        BitVector b = new BitVector(70);
        a.set(69, true);
        b.set(69, true);
        b.words()[1] |= 1L << 63;
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        b.set(3, true);
        assertThat(a).isNotEqualTo(b);
        assertThat(new BitVector(70)).isNotEqualTo(new BitVector(71));
        b.set(3, false);
        assertThat(a).isEqualTo(b);
    }

    @Test
    void badRowsAndSizesAreRejected() {
        BitVector bits = new BitVector(10);
        assertThatThrownBy(() -> bits.get(10)).isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("row 10");
        assertThatThrownBy(() -> bits.set(-1, true)).isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("row -1");
        assertThatThrownBy(() -> bits.cardinality(5, 11)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("[5, 11)");
        assertThatThrownBy(() -> new BitVector(-3)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-3");
    }

    @Test
    void positionListGrowsFromZeroCapacity() {
        PositionList list = new PositionList(0);
        for (int i = 0; i < 1000; i++) {
            list.add(i * 3);
        }
        assertThat(list.size()).isEqualTo(1000);
        assertThat(list.get(999)).isEqualTo(2997);
        assertThat(list.toArray()).hasSize(1000).startsWith(0, 3, 6);
        assertThatThrownBy(() -> list.get(1000)).isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("1000");
        list.clear();
        assertThat(list.isEmpty()).isTrue();
        assertThatThrownBy(() -> new PositionList(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @Test
    void andAndOrCombineColumnPredicates() {
        BitVector a = new BitVector(130);
        BitVector b = new BitVector(130);
        for (int row = 0; row < 130; row++) {
            a.set(row, row % 2 == 0);
            b.set(row, row % 3 == 0);
        }
        BitVector both = new BitVector(130).or(a).and(b);
        BitVector either = new BitVector(130).or(a).or(b);
        for (int row = 0; row < 130; row++) {
            assertThat(both.get(row)).as("row %d", row).isEqualTo(row % 6 == 0);
            assertThat(either.get(row)).as("row %d", row).isEqualTo(row % 2 == 0 || row % 3 == 0);
        }
        assertThatThrownBy(() -> a.and(new BitVector(129))).hasMessageContaining("130 rows with one of 129");
    }
}
