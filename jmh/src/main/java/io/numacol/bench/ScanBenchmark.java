package io.numacol.bench;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scan.VidPredicate;
import io.numacol.storage.IndexVector;
import io.numacol.topology.Topology;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Scan throughput in values (rows) per second: a range predicate of about 50% selectivity over an
 * IndexVector of {@value #ROWS} rows on node 0, into a BitVector.
 *
 * <p>{@code kernel=read} is the memory bandwidth reference of the same run: no scan, a LongVector
 * sum over the IndexVector's own bytes, counted in the same values. So for each bitcase
 * {@code scan score / read score} is the fraction of read bandwidth the scan reaches, and any
 * score converts to bytes/s as {@code score * bitcase / 8}.
 *
 * <p>{@link #oneThread} and {@link #twoThreads} fix the thread count themselves (each of the two
 * threads scans its half of the rows); do not pass {@code -t}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ScanBenchmark {
    /** 64M rows: 8 MiB at bitcase 1 (still cache-sized on big L3s), 256 MiB at bitcase 32. */
    static final int ROWS = 1 << 26;
    /**
     * 256-bit loads: on AMD Zen 4 (where this was written) a 512-bit load loop read 15 GB/s where
     * 256-bit and plain long loops read 22-23 GB/s, and the reference must be the fastest read.
     */
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED.vectorBitSize() > 256
            ? LongVector.SPECIES_256 : LongVector.SPECIES_PREFERRED;

    @Param({"1", "2", "4", "7", "8", "12", "16", "20", "24", "32"})
    int bitcase;

    @Param({"scalar", "vector", "read"})
    String kernel;

    private NodeArena arena;
    private IndexVector iv;
    private VidPredicate predicate;
    private BitVector out;
    /** Null for {@code read}. */
    private ScanKernel scanKernel;

    @Setup(Level.Trial)
    public void setUp() {
        arena = NumaMemory.create(Topology.detect()).newArena();
        MemorySegment segment = arena.allocate(IndexVector.byteSize(ROWS, bitcase), MemoryPlacement.onNode(0),
                Component.INDEX_VECTOR);
        // Random bits are uniformly random vids in every lane and position (ROWS fills whole blocks).
        SplittableRandom random = new SplittableRandom(bitcase);
        for (long offset = 0; offset < segment.byteSize(); offset += Long.BYTES) {
            segment.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, random.nextLong());
        }
        iv = IndexVector.wrap(segment, ROWS, bitcase);
        // The middle half of the vid domain (bitcase 1: vid 0).
        long domain = 1L << bitcase;
        predicate = bitcase == 1 ? VidPredicate.range(0, 0) : VidPredicate.range((int) (domain / 4), (int) (domain / 4 * 3 - 1));
        out = new BitVector(ROWS);
        scanKernel = switch (kernel) {
            case "scalar" -> ScanKernels.scalar();
            case "vector" -> ScanKernels.vector();
            case "read" -> null;
            default -> throw new IllegalArgumentException("kernel must be scalar, vector or read, got '" + kernel + "'");
        };
        if (scanKernel != null) {
            scanKernel.scan(iv, 0, ROWS, predicate, out);
            double selectivity = (double) out.cardinality() / ROWS;
            if (Math.abs(selectivity - 0.5) > 0.01) {
                throw new IllegalStateException("selectivity " + selectivity + " is not about 50%");
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** Which half of the rows a thread of {@link #twoThreads} takes. */
    @State(Scope.Thread)
    public static class Half {
        int from;
        int to;

        @Setup(Level.Trial)
        public void setUp(ThreadParams threads) {
            if (threads.getThreadCount() != 2) {
                throw new IllegalStateException("twoThreads counts ROWS / 2 values per thread: run it without -t");
            }
            // ROWS / 2 is a multiple of 1024, so the halves share no block and no BitVector word.
            from = threads.getThreadIndex() * (ROWS / 2);
            to = from + ROWS / 2;
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long oneThread() {
        return pass(0, ROWS);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(ROWS / 2)
    public long twoThreads(Half half) {
        return pass(half.from, half.to);
    }

    private long pass(int from, int to) {
        if (scanKernel == null) {
            long blockBytes = IndexVector.blockBytes(bitcase);
            return readSum(iv.segment(), (from >>> 10) * blockBytes, (to >>> 10) * blockBytes);
        }
        scanKernel.scan(iv, from, to, predicate, out);
        return out.words()[from >>> 6];
    }

    /** Four independent accumulators so that the add chain does not limit the read rate. */
    private static long readSum(MemorySegment segment, long from, long to) {
        long step = LONGS.vectorByteSize();
        LongVector a0 = LongVector.zero(LONGS);
        LongVector a1 = a0;
        LongVector a2 = a0;
        LongVector a3 = a0;
        long at = from;
        for (; at + 4 * step <= to; at += 4 * step) {
            a0 = a0.add(LongVector.fromMemorySegment(LONGS, segment, at, ByteOrder.LITTLE_ENDIAN));
            a1 = a1.add(LongVector.fromMemorySegment(LONGS, segment, at + step, ByteOrder.LITTLE_ENDIAN));
            a2 = a2.add(LongVector.fromMemorySegment(LONGS, segment, at + 2 * step, ByteOrder.LITTLE_ENDIAN));
            a3 = a3.add(LongVector.fromMemorySegment(LONGS, segment, at + 3 * step, ByteOrder.LITTLE_ENDIAN));
        }
        for (; at + step <= to; at += step) {
            a0 = a0.add(LongVector.fromMemorySegment(LONGS, segment, at, ByteOrder.LITTLE_ENDIAN));
        }
        return a0.add(a1).add(a2).add(a3).reduceLanes(VectorOperators.ADD);
    }
}
