package io.numacol.scan;

import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.storage.IndexVector;
import io.numacol.storage.TestVids;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Both kernels against a reference that decodes and tests row by row. */
class ScanKernelTest {
    static List<ScanKernel> kernels() {
        return List.of(ScanKernels.scalar(), ScanKernels.vector());
    }

    @ParameterizedTest(name = "bitcase {0}, {1} rows")
    @MethodSource("io.numacol.storage.TestVids#bitcasesAndLengths")
    void kernelsMatchTheReference(int bitcase, int length) {
        Random random = new Random(1000L * bitcase + length);
        int[] vids = TestVids.random(random, length, bitcase);
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        try (NodeArena arena = memory.newArena()) {
            IndexVector iv = IndexVector.pack(vids, length, bitcase, arena, MemoryPlacement.onNode(1));
            List<VidPredicate> predicates = predicates(random, bitcase, vids);
            List<int[]> ranges = ranges(random, length);
            for (ScanKernel kernel : kernels()) {
                for (VidPredicate predicate : predicates) {
                    for (int[] range : ranges) {
                        check(kernel, iv, vids, range[0], range[1], predicate, random);
                    }
                }
            }
        }
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    private static void check(ScanKernel kernel, IndexVector iv, int[] vids, int from, int to, VidPredicate predicate,
                              Random random) {
        String what = kernel.name() + " " + predicate + " over [" + from + ", " + to + ") of " + iv;
        // Pre-filled with noise (bits past the size too): the scan must touch only [from, to).
        BitVector actual = new BitVector(iv.length());
        for (int i = 0; i < actual.words().length; i++) {
            actual.words()[i] = random.nextLong();
        }
        BitVector expected = new BitVector(iv.length());
        System.arraycopy(actual.words(), 0, expected.words(), 0, actual.words().length);
        List<Integer> expectedPositions = new ArrayList<>(List.of(-7, 42));
        for (int row = from; row < to; row++) {
            boolean match = predicate.test(vids[row]);
            expected.set(row, match);
            if (match) {
                expectedPositions.add(row);
            }
        }
        kernel.scan(iv, from, to, predicate, actual);
        assertThat(actual.words()).as(what).isEqualTo(expected.words());

        PositionList positions = new PositionList(1);
        positions.add(-7);
        positions.add(42);
        int added = kernel.scanPositions(iv, from, to, predicate, positions);
        assertThat(positions.toArray()).as(what).isEqualTo(expectedPositions.stream().mapToInt(Integer::intValue).toArray());
        assertThat(added).as(what).isEqualTo(expectedPositions.size() - 2);

        if (predicate instanceof VidPredicate.Between between) {
            long count = 0;
            long sum = 0;
            for (int row = from; row < to; row++) {
                if (between.test(vids[row])) {
                    count++;
                    sum += Integer.toUnsignedLong(vids[row]);
                }
            }
            long[] into = {5, 7}; // the kernel adds to what is there
            kernel.countAndSumVids(iv, from, to, between, into);
            assertThat(into).as("count and vid sum, " + what).containsExactly(5 + count, 7 + sum);
        }
    }

    /** Whole, unaligned, inside one block, across blocks, single rows and empty ranges. */
    private static List<int[]> ranges(Random random, int length) {
        List<int[]> ranges = new ArrayList<>();
        ranges.add(new int[] {0, length});
        ranges.add(new int[] {length, length});
        if (length >= 8) {
            ranges.add(new int[] {3, length - 5});
            ranges.add(new int[] {length - 1, length});
        }
        if (length >= 200) {
            ranges.add(new int[] {64, 128});
            ranges.add(new int[] {100, 170});
            ranges.add(new int[] {33, 34});
        }
        if (length > 1100) {
            ranges.add(new int[] {1000, 1100});
            ranges.add(new int[] {1024, length});
            ranges.add(new int[] {1023, 2049 > length ? length : 2049});
        }
        for (int i = 0; i < 3 && length > 0; i++) {
            int from = random.nextInt(length);
            ranges.add(new int[] {from, from + random.nextInt(length - from + 1)});
        }
        return ranges;
    }

    private static List<VidPredicate> predicates(Random random, int bitcase, int[] vids) {
        int max = IndexVector.maxVid(bitcase);
        int present = vids.length == 0 ? 0 : vids[random.nextInt(vids.length)];
        List<VidPredicate> p = new ArrayList<>();
        // Everything, both as the bitcase's max and as the unsigned max.
        p.add(VidPredicate.range(0, max));
        p.add(VidPredicate.range(0, -1));
        // Nothing: reversed bounds, and (below bitcase 32) a range above every vid.
        p.add(VidPredicate.range(5, 4));
        p.add(VidPredicate.range(-1, 0));
        if (bitcase < 32) {
            p.add(VidPredicate.range(max + 1, -1));
        }
        // Single values.
        p.add(VidPredicate.range(0, 0));
        p.add(VidPredicate.range(max, max));
        p.add(VidPredicate.range(present, present));
        // Partial ranges, one reaching past the bitcase.
        int a = random.nextInt() >>> (32 - bitcase);
        int b = random.nextInt() >>> (32 - bitcase);
        p.add(Integer.compareUnsigned(a, b) <= 0 ? VidPredicate.range(a, b) : VidPredicate.range(b, a));
        p.add(VidPredicate.range(a, -1));
        p.add(VidPredicate.range(1, Math.max(1, max >>> 1)));
        // Sets: empty, one vid, few (equality path), more (bitmap path), many; with vids past the bitcase.
        p.add(VidPredicate.in());
        p.add(VidPredicate.in(present));
        p.add(VidPredicate.in(0, present));
        p.add(VidPredicate.in(1, 3, present, 5));
        p.add(VidPredicate.in(2, 4, 6, 7, 9, 40));
        p.add(VidPredicate.in(present, 1 << 20));
        if (bitcase < 20) {
            p.add(VidPredicate.in(max, 0));
            p.add(VidPredicate.in(max + 1, max + 2));
        }
        if (bitcase <= 12) {
            p.add(VidPredicate.in(IntStream.rangeClosed(0, max).toArray()));
        }
        int[] many = new int[300];
        for (int i = 0; i < many.length; i++) {
            int v = vids.length > 0 && i % 2 == 0 ? vids[random.nextInt(vids.length)] : random.nextInt(1 << 12);
            many[i] = Integer.compareUnsigned(v, 1 << 16) < 0 ? v : v & 0xFFFF;
        }
        p.add(VidPredicate.in(many));
        return p;
    }

    @ParameterizedTest(name = "bitcase {0}, {1} rows")
    @MethodSource("io.numacol.storage.TestVids#bitcasesAndLengths")
    void blocksDecodeAsTheIndexVectorDoes(int bitcase, int length) {
        if (length == 0) {
            return;
        }
        int[] vids = TestVids.random(new Random(7000L * bitcase + length), length, bitcase);
        try (NodeArena arena = NumaMemory.create(Topology.fake(2)).newArena()) {
            IndexVector iv = IndexVector.pack(vids, length, bitcase, arena, MemoryPlacement.onNode(0));
            int[] words = new int[IndexVector.LANES * bitcase];
            for (int block = 0; block < iv.blocks(); block++) {
                int[] expected = new int[IndexVector.BLOCK_ROWS];
                int rows = Math.min(IndexVector.BLOCK_ROWS, length - block * IndexVector.BLOCK_ROWS);
                System.arraycopy(vids, block * IndexVector.BLOCK_ROWS, expected, 0, rows); // padding decodes as zeros
                for (ScanKernel kernel : kernels()) {
                    int[] out = new int[IndexVector.BLOCK_ROWS];
                    Arrays.fill(out, -5);
                    kernel.decodeBlock(iv, block, words, out);
                    assertThat(out).as("%s, block %d", kernel.name(), block).isEqualTo(expected);
                }
            }
        }
    }

    /** Every share of rows kept, from none to all, over blocks cut at odd lengths. */
    @ParameterizedTest(name = "{0} rows")
    @ValueSource(ints = {0, 1, 7, 15, 16, 17, 31, 33, 63, 64, 65, 100, 511, 1000, 1023, 1024})
    void compactKeepsTheSelectedRowsInOrder(int rows) {
        Random random = new Random(rows);
        for (double keep : new double[] {0, 0.02, 0.5, 0.985, 1}) {
            int[] values = random.ints(IndexVector.BLOCK_ROWS).toArray();
            long[] selection = new long[IndexVector.BLOCK_ROWS / Long.SIZE];
            for (int i = 0; i < IndexVector.BLOCK_ROWS; i++) { // bits past rows too: compact must ignore them
                if (random.nextDouble() < keep || (i >= rows && random.nextBoolean())) {
                    selection[i >>> 6] |= 1L << i;
                }
            }
            int[] expected = IntStream.range(0, rows).filter(i -> (selection[i >>> 6] & 1L << i) != 0).map(i -> values[i]).toArray();
            for (ScanKernel kernel : kernels()) {
                int[] v = values.clone();
                int n = kernel.compact(v, selection, rows);
                assertThat(Arrays.copyOf(v, n)).as("%s keeping %s", kernel.name(), keep).isEqualTo(expected);
            }
        }
    }

    @Test
    void compactRejectsShortArrays() {
        for (ScanKernel kernel : kernels()) {
            assertThatThrownBy(() -> kernel.compact(new int[40], new long[1], 40))
                    .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("64 values");
            assertThatThrownBy(() -> kernel.compact(new int[128], new long[1], 100))
                    .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("2 selection words");
        }
    }

    @Test
    void tasksScanDisjointRangesIntoOneSharedBitVector() throws Exception {
        int length = 50_000;
        int[] vids = TestVids.random(new Random(3), length, 9);
        VidPredicate predicate = VidPredicate.range(10, 300);
        try (NodeArena arena = NumaMemory.create(Topology.fake(2)).newArena()) {
            IndexVector iv = IndexVector.pack(vids, length, 9, arena, MemoryPlacement.interleaved(0, 1));
            for (ScanKernel kernel : kernels()) {
                BitVector whole = new BitVector(length);
                kernel.scan(iv, 0, length, predicate, whole);
                BitVector shared = new BitVector(length);
                int[] splits = {0, 64 * 100, 64 * 101, 64 * 500, length};
                List<Thread> tasks = new ArrayList<>();
                for (int i = 0; i + 1 < splits.length; i++) {
                    int from = splits[i];
                    int to = splits[i + 1];
                    tasks.add(Thread.ofPlatform().start(() -> kernel.scan(iv, from, to, predicate, shared)));
                }
                for (Thread t : tasks) {
                    t.join();
                }
                assertThat(shared).as(kernel.name()).isEqualTo(whole);
                assertThat(shared.cardinality()).isEqualTo((int) Arrays.stream(vids).filter(predicate::test).count());
            }
        }
    }

    @Test
    void badRangesAndOutputsAreRejected() {
        try (NodeArena arena = NumaMemory.create(Topology.detect()).newArena()) {
            IndexVector iv = IndexVector.pack(new int[100], 100, 4, arena, MemoryPlacement.onNode(0));
            VidPredicate all = VidPredicate.range(0, 15);
            for (ScanKernel kernel : kernels()) {
                assertThatThrownBy(() -> kernel.scan(iv, -1, 10, all, new BitVector(100)))
                        .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("[-1, 10)").hasMessageContaining("100");
                assertThatThrownBy(() -> kernel.scan(iv, 0, 101, all, new BitVector(101)))
                        .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("[0, 101)");
                assertThatThrownBy(() -> kernel.scanPositions(iv, 20, 10, all, new PositionList()))
                        .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("[20, 10)");
                assertThatThrownBy(() -> kernel.scan(iv, 0, 100, all, new BitVector(99)))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("99 rows").hasMessageContaining("row 100");
                assertThatThrownBy(() -> kernel.scan(iv, 0, 100, null, new BitVector(100)))
                        .isInstanceOf(NullPointerException.class).hasMessageContaining("predicate");
                // A BitVector longer than the IndexVector is fine: rows past the scan stay untouched.
                BitVector longer = new BitVector(300);
                longer.set(299, true);
                kernel.scan(iv, 0, 100, all, longer);
                assertThat(longer.cardinality()).isEqualTo(101);
            }
        }
    }
}
