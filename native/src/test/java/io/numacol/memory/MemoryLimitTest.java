package io.numacol.memory;

import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryLimitTest {
    private final Topology four = Topology.fake(4);

    @ParameterizedTest
    @CsvSource({"1000, 1000", "4GB, 4000000000", "4 gb, 4000000000", "512MiB, 536870912", "1.5KB, 1500", "2TiB, 2199023255552"})
    void parsesSizes(String spec, long bytes) {
        assertThat(MemoryLimit.parse(spec, four).totalBytes()).isEqualTo(bytes);
    }

    @Test
    void sharesTheLimitAmongNodesByTheirMemory() {
        long machine = four.nodes().stream().mapToLong(n -> n.memoryBytes()).sum();
        MemoryLimit half = MemoryLimit.parse("50%", four);
        assertThat(half.totalBytes()).isEqualTo(machine / 2);
        MemoryLimit byDefault = MemoryLimit.parse(null, four);
        assertThat(byDefault.totalBytes()).isEqualTo((long) (machine * MemoryLimit.DEFAULT_SHARE));
        MemoryLimit limit = MemoryLimit.of(4000, four);
        for (int node = 0; node < 4; node++) {
            assertThat(limit.nodeBytes(node)).isEqualTo(1000);
        }
        assertThatThrownBy(() -> MemoryLimit.parse("0%", four)).hasMessageContaining("more than 0%");
        assertThatThrownBy(() -> MemoryLimit.parse("-5", four)).hasMessageContaining("is not a size");
        assertThatThrownBy(() -> MemoryLimit.parse("0", four)).hasMessageContaining("at least 1 byte");
    }

    @Test
    void aRefusedReservationReservesNothing() {
        MemoryLimit limit = MemoryLimit.of(4000, four);
        limit.reserve(1, 900, "a");
        assertThatThrownBy(() -> limit.reserve(1, 200, "table data (dictionary)"))
                .isInstanceOf(MemoryLimitException.class)
                .hasMessage("table data (dictionary) asked for 200 bytes on node 1, but that node's share of numacol's "
                        + "memoryLimit, 1000 bytes, has 100 left (900 in use)");
        assertThat(limit.usedBytes()).isEqualTo(900);
        assertThat(limit.usedBytes(1)).isEqualTo(900);
        limit.reserve(-1, 3000, "rows");
        assertThatThrownBy(() -> limit.reserve(2, 101, "x")).hasMessage(
                "x asked for 101 bytes, but numacol's memoryLimit of 4000 bytes has 100 left (3900 in use)");
        limit.release(-1, 3000);
        limit.release(1, 900);
        assertThat(limit.usedBytes()).isZero();
        assertThat(limit.usedBytes(1)).isZero();
    }

    @Test
    void concurrentReservationsNeverPassTheLimit() throws InterruptedException {
        MemoryLimit limit = MemoryLimit.of(1_000_000, four);
        AtomicLong granted = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            int node = t;
            pool.execute(() -> {
                for (int i = 0; i < 10_000; i++) {
                    try {
                        limit.reserve(node % 2 == 0 ? -1 : node, 97, "test");
                        granted.addAndGet(97);
                    } catch (MemoryLimitException e) {
                        // full
                    }
                }
            });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(limit.usedBytes()).isEqualTo(granted.get()).isLessThanOrEqualTo(1_000_000);
        assertThat(limit.usedBytes(1)).isLessThanOrEqualTo(limit.nodeBytes(1));
        assertThat(limit.usedBytes(3)).isLessThanOrEqualTo(limit.nodeBytes(3));
    }

    @Test
    void numaMemoryReservesWhatItMapsAndReturnsItAtClose() {
        NumaMemory memory = NumaMemory.create(four, MemoryLimit.of(4 * 64 * 4096L, four));
        long page = memory.pageSize();
        try (NodeArena arena = memory.newArena()) {
            arena.allocate(10 * page, MemoryPlacement.onNode(2), Component.DICTIONARY);
            assertThat(memory.limit().usedBytes(2)).isEqualTo(10 * page);
            assertThatThrownBy(() -> arena.allocate(memory.limit().nodeBytes(2), MemoryPlacement.onNode(2), Component.DICTIONARY))
                    .isInstanceOf(MemoryLimitException.class).hasMessageContaining("table data (dictionary) asked for");
            assertThat(memory.liveAllocations()).isEqualTo(1);
            arena.allocate(8 * page, MemoryPlacement.interleaved(0, 1), Component.INDEX_VECTOR);
            assertThat(memory.limit().usedBytes(0) + memory.limit().usedBytes(1)).isEqualTo(8 * page);
        }
        assertThat(memory.limit().usedBytes()).isZero();
        assertThat(memory.liveAllocations()).isZero();
    }
}
