package io.numacol.exec;

import io.numacol.memory.Component;
import io.numacol.memory.NumaMemory;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hash table of a join's build side against a nested loop over the same rows: every key
 * kind, NULL keys that match nothing or (IS NOT DISTINCT FROM) each other, -0.0 and NaN, rows of
 * more columns than a row's NULL mask holds, and the columns a match gathers.
 */
class JoinHashTableTest {

    @ParameterizedTest
    @CsvSource({"3, 2000, false", "3, 2000, true", "70, 700, false", "70, 700, true", "2, 1, true", "5, 0, false"})
    void findsWhatANestedLoopFinds(int width, int rowCount, boolean nullsEqual) {
        SplittableRandom random = new SplittableRandom(width * 1000L + rowCount);
        List<ColumnType> types = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            types.add(switch (c % 3) {
                case 0 -> ColumnType.bigint();
                case 1 -> ColumnType.doubleType();
                default -> ColumnType.varchar(8);
            });
        }
        // keys: a LONG, a DOUBLE and, where there is one, a STRING column; the last columns past the mask
        int[] keys = width > 64 ? new int[]{0, 1, 2, width - 1} : width >= 3 ? new int[]{0, 1, 2} : new int[]{0, 1};
        boolean[] equalNulls = new boolean[keys.length];
        Arrays.fill(equalNulls, nullsEqual);
        RowStore store = new RowStore(types);
        List<Object[]> build = rows(types, rowCount, random);
        load(store, types, build);
        JoinHashTable table = new JoinHashTable(store, keys, equalNulls);
        table.insert(0, table.pageCount());

        List<Object[]> probes = rows(types, 1500, random);
        probes.addAll(build.subList(0, Math.min(300, build.size()))); // rows that surely have partners
        RowStore probeStore = new RowStore(types);
        load(probeStore, types, probes);
        long[] hashes = new long[Chunk.CAPACITY];
        boolean[] skip = new boolean[Chunk.CAPACITY];
        int[] one = new int[1];
        Chunk gathered = new Chunk(types).allocate();
        int matches = 0;
        for (Chunk probe : probeStore.pages()) {
            JoinHashTable.hashes(probe, keys, hashes);
            JoinHashTable.unmatchable(probe, keys, equalNulls, skip);
            for (int p = 0; p < probe.size; p++) {
                List<Integer> found = new ArrayList<>();
                for (int row = skip[p] ? -1 : table.first(hashes[p]); row >= 0; row = table.next(row, hashes[p])) {
                    if (table.matches(row, probe, keys, p)) {
                        found.add(row);
                    }
                }
                Object[] probeRow = row(probe, p);
                List<Object[]> expected = build.stream().filter(b -> joins(b, probeRow, keys, nullsEqual)).toList();
                assertThat(found).hasSize(expected.size());
                for (int row : found) {
                    one[0] = row;
                    for (int c = 0; c < width; c++) {
                        table.gather(c, one, 1, gathered, c);
                    }
                    gathered.size = 1;
                    assertThat(expected).anySatisfy(e -> assertThat(row(gathered, 0)).containsExactly(e));
                }
                matches += found.size();
            }
        }
        assertThat(matches > 0).as("some probe rows matched").isEqualTo(rowCount > 0);
    }

    /**
     * A build side past {@link MemoryReservation#OFF_HEAP_BYTES} holds its buckets and rows in
     * numacol memory, interleaved over the nodes of a fake 4-node topology and counted there,
     * until its execution's reservation closes; a small one stays on the heap.
     */
    @Test
    void aLargeTableLivesInNumacolMemoryUntilItsExecutionEnds() {
        Topology topology = Topology.fake(4);
        NumaMemory memory = NumaMemory.create(topology);
        List<ColumnType> types = List.of(ColumnType.bigint(), ColumnType.doubleType());
        int rowCount = 100_000;
        List<Object[]> build = new ArrayList<>();
        for (long k = 0; k < rowCount; k++) {
            build.add(new Object[]{k * 7, k / 2.0});
        }
        MemoryReservation reservation = MemoryReservation.of(memory);
        RowStore store = new RowStore(types, reservation);
        load(store, types, build);
        JoinHashTable table = new JoinHashTable(store, new int[]{0}, new boolean[]{false});
        table.insert(0, table.pageCount());
        for (int node = 0; node < topology.nodeCount(); node++) {
            assertThat(memory.accounting().bytes(node, Component.HASH_TABLE)).as("node %d", node).isPositive();
        }
        assertThat(memory.limit().usedBytes()).isGreaterThanOrEqualTo(memory.accounting().totalBytes());

        RowStore probeStore = new RowStore(types);
        List<Object[]> probes = List.of(new Object[]{7L * 4321, 0.0}, new Object[]{7L * 4321 + 1, 0.0}, new Object[]{7L * 99_999, 0.0});
        load(probeStore, types, probes);
        Chunk probe = probeStore.pages().getFirst();
        long[] hashes = new long[Chunk.CAPACITY];
        JoinHashTable.hashes(probe, new int[]{0}, hashes);
        Chunk gathered = new Chunk(types).allocate();
        List<Object> found = new ArrayList<>();
        for (int p = 0; p < probe.size; p++) {
            for (int row = table.first(hashes[p]); row >= 0; row = table.next(row, hashes[p])) {
                if (table.matches(row, probe, new int[]{0}, p)) {
                    table.gather(1, new int[]{row}, 1, gathered, 1);
                    found.add(gathered.doubles[1][0]);
                }
            }
        }
        assertThat(found).containsExactly(4321 / 2.0, 99_999 / 2.0);

        reservation.close();
        assertThat(memory.accounting().totalBytes()).isZero();
        assertThat(memory.limit().usedBytes()).isZero();
        assertThat(memory.liveAllocations()).isZero();

        MemoryReservation small = MemoryReservation.of(memory);
        assertThat(small.longs(1000, "a small table").byteSize()).isEqualTo(8000);
        assertThat(small.held()).isEqualTo(8000);
        assertThat(memory.accounting().totalBytes()).isZero();
        small.close();
    }

    /** Random rows with few distinct values per column, NULLs, -0.0 beside 0.0, and NaN. */
    private static List<Object[]> rows(List<ColumnType> types, int count, SplittableRandom random) {
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            Object[] row = new Object[types.size()];
            for (int c = 0; c < row.length; c++) {
                if (random.nextInt(12) == 0) {
                    continue;
                }
                row[c] = switch (c % 3) {
                    case 0 -> (long) random.nextInt(4) - 1;
                    case 1 -> new double[]{0.0, -0.0, 1.5, Double.NaN}[random.nextInt(4)];
                    default -> "s" + random.nextInt(3);
                };
            }
            rows.add(row);
        }
        return rows;
    }

    private static void load(RowStore store, List<ColumnType> types, List<Object[]> rows) {
        Chunk chunk = new Chunk(types).allocate();
        for (Object[] row : rows) {
            int r = chunk.size++;
            for (int c = 0; c < row.length; c++) {
                if (row[c] == null) {
                    chunk.setNull(c, r);
                    continue;
                }
                chunk.nulls[c][r] = false;
                switch (row[c]) {
                    case Long l -> chunk.longs[c][r] = l;
                    case Double d -> chunk.doubles[c][r] = d;
                    default -> chunk.strings[c][r] = (String) row[c];
                }
            }
            if (chunk.size == Chunk.CAPACITY) {
                store.accept(chunk);
                chunk.size = 0;
            }
        }
        if (chunk.size > 0) {
            store.accept(chunk);
        }
    }

    private static Object[] row(Chunk chunk, int r) {
        Object[] row = new Object[chunk.width()];
        for (int c = 0; c < row.length; c++) {
            if (chunk.isNull(c, r)) {
                continue;
            }
            row[c] = switch (chunk.types[c].storageKind()) {
                case LONG -> chunk.longs[c][r];
                case DOUBLE -> chunk.doubles[c][r];
                case STRING -> chunk.strings[c][r];
            };
        }
        return row;
    }

    /** SQL's = (NULL matches nothing, NaN nothing, 0.0 = -0.0), or IS NOT DISTINCT FROM on NULLs. */
    private static boolean joins(Object[] build, Object[] probe, int[] keys, boolean nullsEqual) {
        for (int k : keys) {
            Object b = build[k];
            Object p = probe[k];
            if (b == null || p == null) {
                if (!(nullsEqual && b == null && p == null)) {
                    return false;
                }
            } else if (b instanceof Double x ? x.doubleValue() != (Double) p : !Objects.equals(b, p)) {
                return false;
            }
        }
        return true;
    }
}
