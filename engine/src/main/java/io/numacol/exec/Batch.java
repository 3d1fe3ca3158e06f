package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.storage.Column;
import io.numacol.storage.Dictionary;
import io.numacol.storage.DoubleDictionary;
import io.numacol.storage.IndexVector;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.TablePart;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The selected rows of one 1024-row block of a part, and, column by column, what operators read
 * of them: vids, NULL flags, and the values behind the vids gathered from the dictionary. Entry
 * {@code i} of every array is the {@code i}-th selected row. Filled lazily, once per block and
 * column; the arrays belong to one task and are reused block after block.
 */
final class Batch implements ColumnVectors {
    private static final int BLOCK = IndexVector.BLOCK_ROWS;
    /** Fewer selected rows than this are read one by one rather than decoding the whole block (a selective range filter keeps a few percent). */
    private static final int SPARSE = 64;
    /** Dictionaries up to this many values are copied to the heap once per task: flags, quantities, discounts. */
    private static final int HEAP_DICTIONARY = 1 << 14;

    /** Decodes and packs blocks: SIMD where the CPU has it. */
    private static final ScanKernel KERNEL = ScanKernels.get();

    private final TablePart part;
    private final int[] selected = new int[BLOCK];
    /** {@link #selected} as a bitmap of the block's rows, for {@link ScanKernel#compact}. */
    private final long[] selection = new long[BLOCK / Long.SIZE];
    private int rows;
    private int size;
    private int block;
    private boolean dense;
    /** Bumped per block: a column's arrays are current when their stamp equals it. */
    private int generation;

    private final int[][] vids;
    private final long[][] longs;
    private final double[][] doubles;
    private final boolean[][] nulls;
    private final int[] vidsStamp;
    private final int[] longsStamp;
    private final int[] doublesStamp;
    private final int[] nullsStamp;
    /** Small dictionaries on the heap, one slot longer: the null vid reads 0. */
    private final long[][] heapLongs;
    private final double[][] heapDoubles;
    private final int[] words = new int[IndexVector.LANES * IndexVector.MAX_BITCASE];
    private long[] rowIds;

    Batch(TablePart part) {
        this.part = part;
        int width = part.columns().size();
        vids = new int[width][];
        longs = new long[width][];
        doubles = new double[width][];
        nulls = new boolean[width][];
        vidsStamp = new int[width];
        longsStamp = new int[width];
        doublesStamp = new int[width];
        nullsStamp = new int[width];
        heapLongs = new long[width][];
        heapDoubles = new double[width][];
    }

    TablePart part() {
        return part;
    }

    /** Selects the rows of {@code [blockStart, end)} set in {@code bits} (all of them when null). */
    void select(int blockStart, int end, BitVector bits) {
        generation++;
        block = blockStart / BLOCK;
        rows = end - blockStart;
        if (bits == null) {
            for (int i = 0; i < rows; i++) {
                selected[i] = i;
            }
            size = rows;
            dense = true;
            return;
        }
        long[] w = bits.words();
        int n = 0;
        for (int wi = blockStart >>> 6, last = (end - 1) >>> 6; wi <= last; wi++) {
            long x = w[wi];
            int base = (wi << 6) - blockStart;
            if (wi == last && (end & 63) != 0) {
                x &= -1L >>> (64 - (end & 63)); // bits past the range belong to no one here
            }
            selection[base >>> 6] = x;
            while (x != 0) {
                selected[n++] = base + Long.numberOfTrailingZeros(x);
                x &= x - 1;
            }
        }
        size = n;
        dense = n == rows;
    }

    @Override
    public int size() {
        return size;
    }

    /** Changes with every {@link #select}: what was computed for another generation is stale. */
    @Override
    public int generation() {
        return generation;
    }

    /**
     * Keeps the selected rows whose value of {@code column} is one of a join's keys, tested on
     * vids ({@code test}: {@link KeyFilter#vidTest} of this part's column) before any value of the
     * block is decoded.
     */
    void retain(int column, KeyFilter.VidTest test) {
        int[] v = vids(column);
        int n = test.retain(part.column(column).dictionary(), v, selected, size);
        if (n == size) {
            return;
        }
        size = n;
        dense = false;
        generation++; // every other column's arrays are for the rows before
        vidsStamp[column] = generation;
        Arrays.fill(selection, 0);
        for (int i = 0; i < n; i++) {
            selection[selected[i] >>> 6] |= 1L << selected[i];
        }
    }

    /** The selected rows' {@link TablePart#rowId}s, in an array reused block after block. */
    long[] rowIds() {
        if (rowIds == null) {
            rowIds = new long[BLOCK];
        }
        long first = part.rowId(block * BLOCK); // the ids of one part's rows are its positions over a base
        for (int i = 0; i < size; i++) {
            rowIds[i] = first + selected[i];
        }
        return rowIds;
    }

    /** The selected rows' vids of {@code column}. */
    int[] vids(int column) {
        int[] out = vids[column];
        if (out == null) {
            out = vids[column] = new int[BLOCK];
        }
        if (vidsStamp[column] == generation) {
            return out;
        }
        vidsStamp[column] = generation;
        IndexVector iv = part.column(column).indexVector();
        if (dense) {
            KERNEL.decodeBlock(iv, block, words, out);
        } else if (size < SPARSE) {
            int first = block * BLOCK;
            for (int i = 0; i < size; i++) {
                out[i] = iv.get(first + selected[i]);
            }
        } else {
            KERNEL.decodeBlock(iv, block, words, out);
            KERNEL.compact(out, selection, rows);
        }
        return out;
    }

    /** The selected rows' NULL flags of {@code column}, or null when the column holds no NULL in this part. */
    @Override
    public boolean[] nulls(int column) {
        Column c = part.column(column);
        if (!c.hasNulls()) {
            return null;
        }
        boolean[] out = nulls[column];
        if (out == null) {
            out = nulls[column] = new boolean[BLOCK];
        }
        if (nullsStamp[column] != generation) {
            nullsStamp[column] = generation;
            int[] v = vids(column);
            int nullVid = c.nullVid();
            for (int i = 0; i < size; i++) {
                out[i] = v[i] == nullVid;
            }
        }
        return out;
    }

    /** The selected rows' stored longs of a LONG-stored column, 0 where NULL. */
    @Override
    public long[] longs(int column) {
        long[] out = longs[column];
        if (out == null) {
            out = longs[column] = new long[BLOCK];
        }
        if (longsStamp[column] == generation) {
            return out;
        }
        longsStamp[column] = generation;
        int[] v = vids(column);
        Column c = part.column(column);
        LongDictionary d = (LongDictionary) c.dictionary();
        if (d.isDense()) {
            long base = d.getLong(0);
            for (int i = 0; i < size; i++) {
                out[i] = base + v[i];
            }
            if (c.hasNulls()) {
                int nullVid = c.nullVid();
                for (int i = 0; i < size; i++) {
                    out[i] = v[i] == nullVid ? 0 : out[i];
                }
            }
        } else if (d.size() <= HEAP_DICTIONARY) {
            long[] heap = heapLongs[column];
            if (heap == null) {
                heap = heapLongs[column] = new long[d.size() + 1];
                MemorySegment.copy(d.values(), JAVA_LONG, 0, heap, 0, d.size());
            }
            for (int i = 0; i < size; i++) {
                out[i] = heap[v[i]];
            }
        } else {
            MemorySegment values = d.values();
            if (c.hasNulls()) {
                int nullVid = c.nullVid();
                for (int i = 0; i < size; i++) {
                    out[i] = v[i] == nullVid ? 0 : values.getAtIndex(JAVA_LONG, v[i]);
                }
            } else {
                for (int i = 0; i < size; i++) {
                    out[i] = values.getAtIndex(JAVA_LONG, v[i]);
                }
            }
        }
        return out;
    }

    /** The selected rows' doubles of a DOUBLE column, 0 where NULL. */
    @Override
    public double[] doubles(int column) {
        double[] out = doubles[column];
        if (out == null) {
            out = doubles[column] = new double[BLOCK];
        }
        if (doublesStamp[column] == generation) {
            return out;
        }
        doublesStamp[column] = generation;
        int[] v = vids(column);
        Column c = part.column(column);
        DoubleDictionary d = (DoubleDictionary) c.dictionary();
        if (d.size() <= HEAP_DICTIONARY) {
            double[] heap = heapDoubles[column];
            if (heap == null) {
                heap = heapDoubles[column] = new double[d.size() + 1];
                MemorySegment.copy(d.values(), JAVA_DOUBLE, 0, heap, 0, d.size());
            }
            for (int i = 0; i < size; i++) {
                out[i] = heap[v[i]];
            }
        } else {
            MemorySegment values = d.values();
            int nullVid = c.nullVid();
            for (int i = 0; i < size; i++) {
                out[i] = v[i] == nullVid ? 0 : values.getAtIndex(JAVA_DOUBLE, v[i]);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "Batch[block " + block + ", " + size + " rows selected" + (dense ? ", all" : "") + ", first "
                + Arrays.toString(Arrays.copyOf(selected, Math.min(size, 8))) + "]";
    }
}
