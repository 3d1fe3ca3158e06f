package io.numacol.placement;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.memory.PageLocator;
import io.numacol.placement.PageSocketMap.Range;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PageSocketMapTest {
    private static final long PAGE = 4096;

    /** A synthetic page map: page k (from address 0) is on nodes[k]. */
    private static PageLocator synthetic(int[] nodes) {
        return (address, count, out) -> {
            for (int i = 0; i < count; i++) {
                long page = address / PAGE + i;
                out[i] = page < nodes.length ? nodes[(int) page] : -1;
            }
        };
    }

    private static PageSocketMap mapOf(int[] nodes) {
        PageSocketMap psm = new PageSocketMap(synthetic(nodes), PAGE);
        psm.add(0, nodes.length * PAGE);
        return psm;
    }

    @Test
    void collapsesRunsAndDetectsInterleaving() {
        int[] nodes = {1, 1, 1, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 2, -1, -1, 3};
        PageSocketMap psm = mapOf(nodes);
        assertThat(psm.ranges()).containsExactly(
                new Range(0, 3, 1, 0),
                new Range(3, 11, 0, 0b1111),
                new Range(14, 1, 2, 0),
                new Range(15, 2, -1, 0),
                new Range(17, 1, 3, 0));
        for (int page = 0; page < nodes.length; page++) {
            assertThat(psm.lookup(page * PAGE + 17)).as("page %d", page).isEqualTo(nodes[page]);
        }
        assertThat(psm.pagesPerNode()).startsWith(3, 6, 4, 3);
        assertThat(psm.majorityNode()).isEqualTo(1);
    }

    @Test
    void rotatedCyclesAreInterleavedButShortOrUnorderedOnesAreNot() {
        assertThat(mapOf(new int[] {2, 3, 0, 2, 3, 0, 2}).ranges())
                .containsExactly(new Range(0, 7, 2, 0b1101));
        // one cycle only: not enough evidence
        assertThat(mapOf(new int[] {0, 1, 0}).ranges()).hasSize(3);
        // a cycle the kernel would never produce (descending)
        assertThat(mapOf(new int[] {1, 0, 1, 0, 1, 0}).ranges()).hasSize(1);
        assertThat(mapOf(new int[] {2, 1, 0, 2, 1, 0}).ranges()).hasSize(6);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void randomPageMapsAreReproducedExactly(int seed) {
        Random random = new Random(seed);
        int[] nodes = new int[5000];
        int i = 0;
        while (i < nodes.length) {
            int len = 1 + random.nextInt(200);
            boolean interleave = random.nextBoolean();
            int start = random.nextInt(4);
            for (int k = 0; k < len && i < nodes.length; k++, i++) {
                nodes[i] = interleave ? (start + k) % 4 : start;
            }
        }
        PageSocketMap psm = mapOf(nodes);
        long[] expected = new long[4];
        for (int page = 0; page < nodes.length; page++) {
            assertThat(psm.lookup(page * PAGE)).isEqualTo(nodes[page]);
            expected[nodes[page]]++;
        }
        assertThat(psm.pagesPerNode()).startsWith(expected);
        assertThat(psm.ranges().stream().mapToLong(Range::pageCount).sum()).isEqualTo(nodes.length);
    }

    @Test
    void addSkipsTrackedPagesAndRemoveAndSubsetCut() {
        int[] nodes = IntStream.range(0, 40).map(p -> p < 20 ? 0 : (p + 1) % 2).toArray();
        PageSocketMap psm = new PageSocketMap(synthetic(nodes), PAGE);
        psm.add(0, 10 * PAGE);
        psm.add(5 * PAGE, 35 * PAGE);
        assertThat(psm.ranges()).containsExactly(new Range(0, 20, 0, 0), new Range(20, 20, 1, 0b11));
        assertThat(psm.pages(0) + psm.pages(1)).isEqualTo(40);

        PageSocketMap sub = psm.subset(18 * PAGE, 5 * PAGE);
        assertThat(sub.ranges()).containsExactly(new Range(18, 2, 0, 0), new Range(20, 3, 1, 0b11));
        assertThat(sub.lookup(21 * PAGE)).isEqualTo(0);

        psm.remove(10 * PAGE + 1, 11 * PAGE);
        assertThat(psm.ranges()).containsExactly(new Range(0, 10, 0, 0), new Range(22, 18, 1, 0b11));
        assertThat(psm.lookup(15 * PAGE)).isEqualTo(-1);
        assertThat(psm.lookup(23 * PAGE)).isEqualTo(0);
        assertThatThrownBy(() -> psm.add(0, -5)).hasMessageContaining("-5 bytes");
    }

    @Test
    void realAllocationsOnTheRealNode() {
        NumaMemory memory = NumaMemory.create(Topology.detect());
        try (NodeArena arena = memory.newArena()) {
            int pages = 256;
            MemorySegment onNode = arena.allocate(pages * memory.pageSize(), MemoryPlacement.onNode(0), Component.INDEX_VECTOR);
            MemorySegment interleaved = arena.allocate(pages * memory.pageSize(),
                    MemoryPlacement.interleaved(IntStream.range(0, memory.topology().nodeCount()).toArray()), Component.DICTIONARY);
            PageSocketMap psm = new PageSocketMap(memory);
            psm.add(onNode);
            assertThat(psm.lookup(onNode.address())).as("untouched pages have no node yet").isEqualTo(-1);
            onNode.fill((byte) 7);
            interleaved.fill((byte) 7);
            psm.refresh();
            psm.add(interleaved);
            assertThat(psm.lookup(onNode.address() + 5 * memory.pageSize())).isZero();
            assertThat(psm.pagesPerNode()[0] + (memory.topology().nodeCount() > 1 ? psm.pagesPerNode()[1] : 0))
                    .isEqualTo(2L * pages);
        }
    }

    @Test
    void movesAndInterleavesOnAFakeTopology() {
        NumaMemory memory = NumaMemory.create(Topology.fake(4));
        long page = memory.pageSize();
        try (NodeArena arena = memory.newArena()) {
            MemorySegment s = arena.allocate(64 * page, MemoryPlacement.onNode(2), Component.INDEX_VECTOR);
            PageSocketMap psm = new PageSocketMap(memory);
            psm.add(s);
            assertThat(psm.majorityNode()).isEqualTo(2);
            psm.move(s.address(), 40 * page, 3);
            assertThat(psm.majorityNode()).isEqualTo(3);
            assertThat(psm.pages(3)).isEqualTo(40);
            psm.interleave(s.address(), 64 * page, 0, 1, 2, 3);
            assertThat(psm.ranges()).hasSize(1);
            assertThat(psm.ranges().getFirst().interleaveMask()).isEqualTo(0b1111);
            assertThat(psm.pagesPerNode()).startsWith(16, 16, 16, 16);
            assertThat(memory.accounting().bytes(1, Component.INDEX_VECTOR)).isEqualTo(16 * page);
        }
    }
}
