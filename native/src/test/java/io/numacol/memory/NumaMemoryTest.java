package io.numacol.memory;

import io.numacol.linux.Libnuma;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.stream.IntStream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NumaMemoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"real", "fake:4"})
    void accountingReturnsToZeroWhenArenasClose(String spec) {
        NumaMemory memory = NumaMemory.create(Topology.fromSpec(spec));
        int nodes = memory.topology().nodeCount();
        long page = memory.pageSize();
        try (NodeArena a = memory.newArena(); NodeArena b = memory.newArena()) {
            for (int node = 0; node < nodes; node++) {
                MemorySegment s = a.allocate(3 * page + 1, MemoryPlacement.onNode(node), Component.INDEX_VECTOR);
                assertThat(s.byteSize()).isEqualTo(3 * page + 1);
                assertThat(s.address() % page).isZero();
                s.set(JAVA_LONG, 8, 42);
                assertThat(memory.accounting().bytes(node, Component.INDEX_VECTOR)).isEqualTo(4 * page);
            }
            b.allocate(100 * page, MemoryPlacement.interleaved(IntStream.range(0, nodes).toArray()),
                    Component.DICTIONARY);
            long dictionary = 0;
            for (int node = 0; node < nodes; node++) {
                dictionary += memory.accounting().bytes(node, Component.DICTIONARY);
            }
            assertThat(dictionary).isEqualTo(100 * page);
            assertThat(memory.liveAllocations()).isEqualTo(nodes + 1);
        }
        assertThat(memory.accounting().totalBytes()).isZero();
        assertThat(memory.liveAllocations()).isZero();
    }

    @Test
    void memoryIsZeroFilledAndDeadAfterClose() {
        NumaMemory memory = NumaMemory.create(Topology.detect());
        MemorySegment s;
        try (NodeArena arena = memory.newArena()) {
            s = arena.allocate(1 << 20, MemoryPlacement.onNode(0), Component.OTHER);
            assertThat(s.toArray(JAVA_LONG)).containsOnly(0L);
        }
        assertThatThrownBy(() -> s.get(JAVA_LONG, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void pagesLandOnTheRequestedNodeOfTheRealTopology() {
        NumaMemory memory = NumaMemory.create(Topology.detect());
        int pages = 64;
        try (NodeArena arena = memory.newArena()) {
            for (int node = 0; node < memory.topology().nodeCount(); node++) {
                MemorySegment s = arena.allocate(pages * memory.pageSize(), MemoryPlacement.onNode(node), Component.OTHER);
                s.fill((byte) 1);
                int[] where = new int[pages];
                memory.kernelPages().locate(s.address(), pages, where);
                assertThat(where).containsOnly(node);
            }
        }
    }

    @Test
    void movesUpdateBookkeepingAndAccountingOnAFakeTopology() {
        NumaMemory memory = NumaMemory.create(Topology.fake(4));
        long page = memory.pageSize();
        try (NodeArena arena = memory.newArena()) {
            MemorySegment s = arena.allocate(8 * page, MemoryPlacement.onNode(1), Component.INDEX_VECTOR);
            memory.movePages(s.address() + 2 * page, 3 * page, MemoryPlacement.onNode(3));
            int[] where = new int[8];
            memory.pages().locate(s.address(), 8, where);
            assertThat(where).containsExactly(1, 1, 3, 3, 3, 1, 1, 1);
            assertThat(memory.accounting().bytes(1, Component.INDEX_VECTOR)).isEqualTo(5 * page);
            assertThat(memory.accounting().bytes(3, Component.INDEX_VECTOR)).isEqualTo(3 * page);

            memory.movePages(s.address(), 8 * page, MemoryPlacement.interleaved(0, 2));
            memory.pages().locate(s.address(), 8, where);
            assertThat(Arrays.stream(where).distinct().sorted().toArray()).containsExactly(0, 2);
            assertThat(where[0]).isNotEqualTo(where[1]);
            assertThat(memory.accounting().bytes(0) + memory.accounting().bytes(2)).isEqualTo(8 * page);
        }
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    @Test
    void badRequestsFailClearlyAndLeakNothing() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        try (NodeArena arena = memory.newArena()) {
            assertThatThrownBy(() -> arena.allocate(-1, MemoryPlacement.onNode(0), Component.OTHER))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1 bytes");
            assertThatThrownBy(() -> arena.allocate(Long.MAX_VALUE, MemoryPlacement.onNode(0), Component.OTHER))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(String.valueOf(Long.MAX_VALUE));
            assertThatThrownBy(() -> arena.allocate(4096, MemoryPlacement.onNode(2), Component.OTHER))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NUMA node 2 does not exist");
            assertThatThrownBy(() -> MemoryPlacement.onNode(-3)).hasMessageContaining("-3");
            assertThatThrownBy(() -> memory.movePages(4096, 4096, MemoryPlacement.onNode(0)))
                    .hasMessageContaining("not numacol memory");
            assertThat(arena.allocate(0, MemoryPlacement.onNode(1), Component.OTHER).byteSize()).isZero();
        }
        assertThat(memory.liveAllocations()).isZero();
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    @Test
    void aFailedMovePagesReportsItsErrno() {
        assumeTrue(Libnuma.isAvailable(), "libnuma: " + Libnuma.unavailableReason());
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment page = scratch.allocate(8192, 4096);
            page.fill((byte) 1);
            MemorySegment pages = scratch.allocate(ADDRESS, 1);
            pages.setAtIndex(ADDRESS, 0, page);
            MemorySegment targets = scratch.allocate(JAVA_INT, 1);
            targets.setAtIndex(JAVA_INT, 0, 4000); // no such node
            MemorySegment status = scratch.allocate(JAVA_INT, 1);
            int rc = Libnuma.movePages(1, pages, targets, status, Libnuma.MPOL_MF_MOVE);
            assertThat(rc).as("the negated errno of the failed call").isIn(-19, -22); // ENODEV, or EINVAL
        }
        assertThat(NumaMemory.errno(19)).isEqualTo("errno 19 (ENODEV)");
        assertThat(NumaMemory.errno(99)).isEqualTo("errno 99");
    }

    @Test
    void anAllocationThatCannotBeHandedOutReturnsItsMapping() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        NodeArena arena = memory.newArena();
        arena.close();
        assertThatThrownBy(() -> arena.allocate(3 * memory.pageSize(), MemoryPlacement.onNode(1), Component.OTHER))
                .isInstanceOf(IllegalStateException.class);
        assertThat(memory.liveAllocations()).isZero();
        assertThat(memory.accounting().totalBytes()).isZero();
    }
}
