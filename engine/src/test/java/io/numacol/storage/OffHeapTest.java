package io.numacol.storage;

import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dictionaries built in an arena of a fake two-node topology; after each test the arena closes
 * and every byte must be given back.
 */
abstract class OffHeapTest {
    NumaMemory memory;
    NodeArena arena;

    /** On each node and interleaved over both. */
    static Stream<MemoryPlacement> placements() {
        return Stream.of(MemoryPlacement.onNode(0), MemoryPlacement.onNode(1), MemoryPlacement.interleaved(0, 1));
    }

    @BeforeEach
    void openArena() {
        memory = NumaMemory.create(Topology.fake(2));
        arena = memory.newArena();
    }

    @AfterEach
    void closeArenaAndCheckNothingLeaks() {
        if (arena.isAlive()) {
            arena.close();
        }
        assertThat(memory.accounting().totalBytes()).isZero();
        assertThat(memory.liveAllocations()).isZero();
    }

    /** What a Dictionary lookup must agree with: {@code reference} is Arrays.binarySearch's answer for the probe. */
    static void assertLookups(int reference, int find, int lowerBound, int upperBound) {
        int insertionPoint = reference >= 0 ? reference : -reference - 1;
        assertThat(find).as("find").isEqualTo(reference);
        assertThat(lowerBound).as("lowerBound").isEqualTo(insertionPoint);
        assertThat(upperBound).as("upperBound").isEqualTo(reference >= 0 ? reference + 1 : insertionPoint);
    }
}
