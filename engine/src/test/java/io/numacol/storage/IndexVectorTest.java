package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IndexVectorTest {
    @ParameterizedTest(name = "bitcase {0}, {1} rows")
    @MethodSource("io.numacol.storage.TestVids#bitcasesAndLengths")
    void packGetAndDecodeRoundTrip(int bitcase, int length) {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Random random = new Random(31L * bitcase + length);
        int[] vids = TestVids.random(random, length, bitcase);
        try (NodeArena arena = memory.newArena()) {
            IndexVector iv = IndexVector.pack(vids, length, bitcase, arena, MemoryPlacement.onNode(1));
            long blocks = (length + 1023L) / 1024;
            assertThat(iv.segment().byteSize()).isEqualTo(blocks * 128 * bitcase).isEqualTo(IndexVector.byteSize(length, bitcase));
            assertThat(iv.length()).isEqualTo(length);
            assertThat(iv.bitcase()).isEqualTo(bitcase);
            if (length > 0) {
                assertThat(memory.accounting().bytes(1, Component.INDEX_VECTOR)).isGreaterThanOrEqualTo(iv.segment().byteSize());
                assertThat(memory.accounting().bytes(0)).isZero();
            }
            for (int row = 0; row < length; row++) {
                assertThat(iv.get(row)).as("row %d", row).isEqualTo(vids[row]);
            }
            int[] out = new int[length + 2];
            out[0] = 7;
            out[length + 1] = 9;
            iv.decode(0, length, out, 1);
            assertThat(Arrays.copyOfRange(out, 1, length + 1)).isEqualTo(vids);
            assertThat(out[0]).isEqualTo(7);
            assertThat(out[length + 1]).isEqualTo(9);
            for (int i = 0; i < 20 && length > 0; i++) {
                int from = random.nextInt(length);
                int to = from + random.nextInt(length - from + 1);
                int[] part = new int[to - from];
                iv.decode(from, to, part, 0);
                assertThat(part).as("decode [%d, %d)", from, to).isEqualTo(Arrays.copyOfRange(vids, from, to));
            }
        }
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    /** Reads every vid bit by bit as the layout documents it, independently of get and decode. */
    @ParameterizedTest(name = "bitcase {0}")
    @ValueSource(ints = {1, 3, 5, 8, 13, 17, 31, 32})
    void layoutIsTheDocumentedTransposedOne(int bitcase) {
        int length = 2 * 1024 + 100;
        int[] vids = TestVids.random(new Random(bitcase), length, bitcase);
        try (NodeArena arena = NumaMemory.create(Topology.detect()).newArena()) {
            IndexVector iv = IndexVector.pack(vids, length, bitcase, arena, MemoryPlacement.onNode(0));
            MemorySegment segment = iv.segment();
            int paddedRows = 3 * 1024;
            for (int row = 0; row < paddedRows; row++) {
                int block = row / 1024;
                int r = row % 1024;
                int lane = r % 32;
                int position = r / 32;
                long vid = 0;
                for (int j = 0; j < bitcase; j++) {
                    int streamBit = position * bitcase + j;
                    long wordIndex = (long) block * 32 * bitcase + (streamBit / 32) * 32L + lane;
                    int word = segment.get(IndexVector.WORD, wordIndex * 4);
                    vid |= (long) ((word >>> (streamBit % 32)) & 1) << j;
                }
                int expected = row < length ? vids[row] : 0;
                assertThat((int) vid).as("row %d", row).isEqualTo(expected);
            }
        }
    }

    @Test
    void wordsAreLittleEndianBytes() {
        try (NodeArena arena = NumaMemory.create(Topology.detect()).newArena()) {
            IndexVector iv = IndexVector.pack(new int[] {0x0A0B0C0D}, 1, 32, arena, MemoryPlacement.onNode(0));
            byte[] first = iv.segment().asSlice(0, 4).toArray(ValueLayout.JAVA_BYTE);
            assertThat(first).containsExactly(0x0D, 0x0C, 0x0B, 0x0A);
        }
    }

    @Test
    void bitcaseForIsTheMinimalWidth() {
        assertThat(IndexVector.bitcaseFor(0)).isEqualTo(1);
        assertThat(IndexVector.bitcaseFor(1)).isEqualTo(1);
        assertThat(IndexVector.bitcaseFor(2)).isEqualTo(2);
        assertThat(IndexVector.bitcaseFor(255)).isEqualTo(8);
        assertThat(IndexVector.bitcaseFor(256)).isEqualTo(9);
        assertThat(IndexVector.bitcaseFor(0xFFFF_FFFFL)).isEqualTo(32);
        for (int b = 1; b <= 32; b++) {
            assertThat(IndexVector.bitcaseFor(Integer.toUnsignedLong(IndexVector.maxVid(b)))).isEqualTo(b);
        }
        assertThatThrownBy(() -> IndexVector.bitcaseFor(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> IndexVector.bitcaseFor(1L << 32)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4294967296");
    }

    @Test
    void badInputIsRejectedBeforeAnythingIsAllocated() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        try (NodeArena arena = memory.newArena()) {
            MemoryPlacement node1 = MemoryPlacement.onNode(1);
            int[] vids = new int[2000];
            vids[1500] = 8;
            assertThatThrownBy(() -> IndexVector.pack(vids, 2000, 3, arena, node1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("row 1500").hasMessageContaining("vid 8").hasMessageContaining("bitcase 3");
            int[] negative = {0, -1};
            assertThatThrownBy(() -> IndexVector.pack(negative, 2, 31, arena, node1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("row 1").hasMessageContaining("vid 4294967295");
            assertThatThrownBy(() -> IndexVector.pack(new int[4], 4, 0, arena, node1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bitcase 0");
            assertThatThrownBy(() -> IndexVector.pack(new int[4], 4, 33, arena, node1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bitcase 33");
            assertThatThrownBy(() -> IndexVector.pack(new int[4], -1, 8, arena, node1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
            assertThatThrownBy(() -> IndexVector.pack(new int[4], 5, 8, arena, node1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("length 5").hasMessageContaining("4 vids");
            assertThatThrownBy(() -> IndexVector.pack(new int[4], 4, 8, arena, MemoryPlacement.onNode(2)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(memory.liveAllocations()).isZero();
            assertThat(memory.accounting().totalBytes()).isZero();
        }
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    @Test
    void bitcase32TakesEveryInt() {
        int[] vids = {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 12345};
        try (NodeArena arena = NumaMemory.create(Topology.detect()).newArena()) {
            IndexVector iv = IndexVector.pack(vids, vids.length, 32, arena, MemoryPlacement.onNode(0));
            int[] out = new int[vids.length];
            iv.decode(0, vids.length, out, 0);
            assertThat(out).isEqualTo(vids);
        }
    }

    @Test
    void accessOutsideTheRowsIsRejectedWithTheRow() {
        try (NodeArena arena = NumaMemory.create(Topology.detect()).newArena()) {
            IndexVector iv = IndexVector.pack(new int[10], 10, 4, arena, MemoryPlacement.onNode(0));
            assertThatThrownBy(() -> iv.get(10)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("row 10").hasMessageContaining("[0, 10)");
            assertThatThrownBy(() -> iv.get(-1)).isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("row -1");
            assertThatThrownBy(() -> iv.decode(5, 11, new int[6], 0)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("[5, 11)");
            assertThatThrownBy(() -> iv.decode(6, 5, new int[6], 0)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("[6, 5)");
            assertThatThrownBy(() -> iv.decode(0, 10, new int[9], 0)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void wrapChecksTheSizeAndReadsTheSameLayout() {
        int[] vids = TestVids.random(new Random(5), 1500, 11);
        try (NodeArena arena = NumaMemory.create(Topology.detect()).newArena()) {
            IndexVector packed = IndexVector.pack(vids, vids.length, 11, arena, MemoryPlacement.onNode(0));
            IndexVector wrapped = IndexVector.wrap(packed.segment(), vids.length, 11);
            int[] out = new int[vids.length];
            wrapped.decode(0, vids.length, out, 0);
            assertThat(out).isEqualTo(vids);
            assertThatThrownBy(() -> IndexVector.wrap(packed.segment(), vids.length, 12))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("takes " + IndexVector.byteSize(1500, 12) + " bytes")
                    .hasMessageContaining("has " + packed.segment().byteSize());
            assertThatThrownBy(() -> IndexVector.wrap(packed.segment(), 3000, 11))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3000 rows");
        }
    }
}
