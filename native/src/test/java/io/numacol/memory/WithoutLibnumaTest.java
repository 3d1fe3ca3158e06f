package io.numacol.memory;

import io.numacol.linux.Libnuma;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;

/** Runs in its own surefire execution whose {@code numacol.libnuma} names a library that does not exist. */
@Tag("no-libnuma")
class WithoutLibnumaTest {

    @Test
    void numacolDegradesToOneNodeWithPlainMemory() {
        assertThat(Libnuma.isAvailable()).isFalse();
        assertThat(Libnuma.unavailableReason()).contains("libnuma-that-does-not-exist.so.1");
        Topology t = Topology.detect();
        assertThat(t.kind()).isEqualTo(Topology.Kind.SINGLE_NODE);
        assertThat(t.nodeCount()).isEqualTo(1);
        assertThat(t.node(0).cpus()).isNotEmpty();
        assertThat(t.freeMemory(0)).isPositive();

        NumaMemory memory = NumaMemory.create(t);
        assertThat(memory.usesLibnuma()).isFalse();
        try (NodeArena arena = memory.newArena()) {
            MemorySegment s = arena.allocate(10_000, MemoryPlacement.onNode(0), Component.INDEX_VECTOR);
            s.setAtIndex(JAVA_INT, 2499, 7);
            assertThat(s.getAtIndex(JAVA_INT, 2499)).isEqualTo(7);
            int[] where = new int[3];
            memory.pages().locate(s.address(), 3, where);
            assertThat(where).containsOnly(0);
            assertThat(memory.accounting().bytes(0)).isEqualTo(3 * memory.pageSize());
        }
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    @Test
    void aFakeTopologyStillWorksWithoutLibnuma() {
        NumaMemory memory = NumaMemory.create(Topology.fake(4));
        try (NodeArena arena = memory.newArena()) {
            MemorySegment s = arena.allocate(4 * memory.pageSize(), MemoryPlacement.onNode(3), Component.OTHER);
            memory.movePages(s.address(), memory.pageSize(), MemoryPlacement.onNode(2));
            int[] where = new int[4];
            memory.pages().locate(s.address(), 4, where);
            assertThat(where).containsExactly(2, 3, 3, 3);
        }
    }
}
