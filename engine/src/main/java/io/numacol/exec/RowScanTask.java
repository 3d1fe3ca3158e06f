package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scheduler.TaskContext;
import io.numacol.storage.IndexVector;
import io.numacol.storage.TablePart;

import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A range read a row at a time on boxed values: the filter into the part's BitVector, then per
 * block the vids of the columns read decoded into arrays (or, for a block with few selected rows,
 * read row by row), and each selected row handed to
 * {@link #accept} as its offset in the block, where {@link #value} evaluates projections (small
 * dictionaries' values looked up once per task).
 */
abstract class RowScanTask<R> extends RangeTask<R> {
    /** Dictionaries up to this size have their values cached per task (flags, quantities, discounts). */
    private static final int VALUE_CACHE_LIMIT = 4096;
    /**
     * Blocks with at most this many selected rows read each row's vids alone (a word or two per
     * column) instead of decoding all 1024 rows.
     */
    private static final int SPARSE_ROWS = 64;

    private final ScanKernel kernel;
    private final PartFilter filter;
    private final BitVector bits;
    /** The columns read, and each one's vids for the current block. */
    private final int[] columns;
    private final int[] slot;
    private final int[][] vids;
    /** The IndexVectors of {@code columns}. */
    private final IndexVector[] indexVectors;
    private final Object[] row;
    /** Per column, the values of its vids once looked up (null for large dictionaries). */
    private final Object[][] values;

    /** {@code read}: the projections the task evaluates. */
    RowScanTask(ScanKernel kernel, List<Projection> read, TablePart part, PartFilter filter, BitVector bits,
                int from, int to, BooleanSupplier cancelled) {
        super(part, from, to, cancelled);
        this.kernel = kernel;
        this.filter = filter;
        this.bits = bits;
        this.columns = read.stream().flatMapToInt(p -> Arrays.stream(p.columns())).distinct().toArray();
        this.slot = new int[part.columns().size()];
        Arrays.fill(slot, -1);
        for (int i = 0; i < columns.length; i++) {
            slot[columns[i]] = i;
        }
        this.vids = new int[columns.length][BLOCK];
        this.indexVectors = Arrays.stream(columns).mapToObj(c -> part.column(c).indexVector()).toArray(IndexVector[]::new);
        this.row = new Object[part.columns().size()];
        this.values = new Object[part.columns().size()][];
        for (int c : columns) {
            int size = part.column(c).dictionary().size() + 1; // + the null vid
            if (size <= VALUE_CACHE_LIMIT) {
                values[c] = new Object[size];
            }
        }
    }

    /** Takes the selected row at {@code offset} in the current block. */
    abstract void accept(int offset);

    /** Whether the task wants no more rows. */
    boolean full() {
        return false;
    }

    /** After the range's last row, unless the statement stopped. */
    void finish() {
    }

    @Override
    final void runRange(TaskContext context) {
        if (filter != null) {
            filter.eval(kernel, from, to, bits);
        }
        for (int block = from; block < to; block += BLOCK) {
            if (stopped(context)) {
                return;
            }
            if (full()) {
                break; // an unordered LIMIT has its rows
            }
            int end = Math.min(to, block + BLOCK);
            if (bits == null) {
                decode(block, end);
                for (int r = block; r < end; r++) {
                    accept(r - block);
                }
                continue;
            }
            int selected = bits.cardinality(block, end);
            if (selected == 0) {
                continue;
            }
            // A few rows of a block cost less read one by one than the whole block decoded.
            boolean sparse = selected <= SPARSE_ROWS;
            if (!sparse) {
                decode(block, end);
            }
            long[] words = bits.words();
            for (int w = block >>> 6, last = (end - 1) >>> 6; w <= last; w++) {
                long word = words[w];
                while (word != 0) {
                    int r = (w << 6) + Long.numberOfTrailingZeros(word);
                    word &= word - 1;
                    if (r >= end) {
                        break;
                    }
                    if (sparse) {
                        for (int i = 0; i < columns.length; i++) {
                            vids[i][r - block] = indexVectors[i].get(r);
                        }
                    }
                    accept(r - block);
                }
            }
        }
        finish();
    }

    /** Decodes the vids of {@code [block, end)} of every column read. */
    private void decode(int block, int end) {
        for (int i = 0; i < columns.length; i++) {
            indexVectors[i].decode(block, end, vids[i], 0);
        }
    }

    final int vid(int column, int offset) {
        return vids[slot[column]][offset];
    }

    /** A column's value of a vid; small dictionaries' values are looked up once per task. */
    private Object valueOf(int column, int vid) {
        Object[] cache = values[column];
        if (cache == null) {
            return InternalValues.of(part.column(column), vid);
        }
        Object v = cache[vid];
        if (v == null && vid != part.column(column).nullVid()) {
            v = InternalValues.of(part.column(column), vid);
            cache[vid] = v;
        }
        return v;
    }

    final Object value(Projection p, int offset) {
        return switch (p) {
            case Projection.ColumnRef ref -> valueOf(ref.column(), vid(ref.column(), offset));
            case Projection.Computed c -> {
                for (int column : c.columns()) {
                    row[column] = valueOf(column, vid(column, offset));
                }
                yield c.function().apply(row);
            }
        };
    }

    /** The row at {@code offset} as the plan's output: every projection's value. */
    final Object[] project(List<Projection> projections, int offset) {
        Object[] out = new Object[projections.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = value(projections.get(i), offset);
        }
        return out;
    }
}
