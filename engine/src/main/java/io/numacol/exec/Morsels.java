package io.numacol.exec;

import io.numacol.placement.PageSocketMap;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.TaskContext;
import io.numacol.storage.IndexVector;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * A part cut into the row ranges its scan tasks take (morsels), each with the affinity of the
 * node holding its rows (thesis §5.3.1, §6.2: a task goes where the pages it reads are). The
 * node is read from the PageSocketMap of one column's IndexVector: the filter's first column,
 * whose every row the scan reads, else the widest column read. A part placed whole on a node
 * gives every morsel that node; under IVP a morsel never straddles two nodes' page ranges; pages
 * interleaved (or not yet placed) give no affinity.
 */
final class Morsels {
    /** One task's rows {@code [from, to)} of a part, multiples of 1024 but for the part's end. */
    record Morsel(int from, int to, Affinity affinity) {
    }

    private static final int BLOCK = IndexVector.BLOCK_ROWS;
    /** Tasks per unit of the concurrency hint for a scan (morsels, not one range per worker). */
    static final int TASKS_PER_HINT = 4;
    /** Below this a task costs more to schedule than it saves. */
    private static final int MIN_TASK_ROWS = 16 * BLOCK;
    /** Morsels of at most this many rows (morsel paper: ~100k), so that one part never is one long task. */
    private static final int MAX_TASK_ROWS = 256 * BLOCK;

    private Morsels() {
    }

    /**
     * Rows per task, whole blocks: the rows over {@link #TASKS_PER_HINT} times the concurrency
     * hint, between {@link #MIN_TASK_ROWS} and {@link #MAX_TASK_ROWS}. Several tasks per worker
     * let tasks of unequal cost (a part whose dictionary is not dense, a part on a busy node)
     * still end evenly; the hint still shrinks the split when the machine is busy. This departs
     * from the thesis, where an operator makes at most the hint's number of tasks.
     */
    static int rangeRows(long rows, int hint) {
        long tasks = (long) hint * TASKS_PER_HINT;
        long perTask = Math.max(MIN_TASK_ROWS, Math.min(MAX_TASK_ROWS, (rows + tasks - 1) / tasks));
        return (int) Math.min(Integer.MAX_VALUE - BLOCK, (perTask + BLOCK - 1) / BLOCK * BLOCK);
    }

    /**
     * The node holding most of the part's first IndexVector, for work on the part as a whole (a
     * filter's preparation); scan tasks take their morsel's node instead.
     */
    static Affinity affinity(Table table, TablePart part) {
        int node = PageSocketMap.homeNode(table.memory(), part);
        return node < 0 ? Affinity.none() : Affinity.node(node);
    }

    /**
     * The part's morsels of at most {@code rangeRows} rows (a multiple of 1024), in row order,
     * cut also where the node of column {@code column}'s rows changes.
     */
    static List<Morsel> of(Table table, TablePart part, int column, int rangeRows) {
        int[] runs = part.nodeRuns(column, c -> nodeRuns(table, part.column(c).indexVector()));
        List<Morsel> out = new ArrayList<>();
        for (int i = 0; i < runs.length; i += 2) {
            int end = i + 2 < runs.length ? runs[i + 2] : part.rowCount();
            Affinity affinity = runs[i + 1] < 0 ? Affinity.none() : Affinity.node(runs[i + 1]);
            for (int from = runs[i]; from < end; from += rangeRows) {
                out.add(new Morsel(from, Math.min(end, from + rangeRows), affinity));
            }
        }
        return out;
    }

    /** The columns a scan reads: the filter's and {@code projected}, each once. */
    static int[] columnsRead(ColumnFilter filter, int[] projected) {
        BitSet read = new BitSet();
        Arrays.stream(projected).forEach(read::set);
        if (filter != null) {
            Arrays.stream(filter.columns()).forEach(read::set);
        }
        return read.stream().toArray();
    }

    /** The IndexVector bytes of {@code columns} over {@code rows} rows of the part: what a scan of them streams through. */
    static long bytes(TablePart part, int[] columns, int rows) {
        long bits = 0;
        for (int c : columns) {
            bits += part.column(c).bitcase();
        }
        return bits * rows / Byte.SIZE;
    }

    /**
     * Reports a scan task that started at {@code startBusy} (a busy clock reading): its bytes
     * and busy time to the scheduler (per node of the morsel's rows, spread over all nodes when
     * it has none; a bandwidth model makes it wait there) and to the part's usage, unless
     * another node's worker stole it.
     */
    static void record(TaskContext context, TablePart part, Morsel morsel, long bytes, long startBusy) {
        long nanos = context.recordRead(morsel.affinity().isNone() ? -1 : morsel.affinity().node(), bytes, startBusy);
        if (nanos >= 0) {
            part.usage().record(bytes, nanos);
        }
    }

    /** The column whose pages decide a scan's affinities: see the class comment. */
    static int drivingColumn(TablePart part, ColumnFilter filter, int[] columnsRead) {
        if (filter != null) {
            return filter.columns()[0];
        }
        int best = 0;
        long bestBytes = -1;
        for (int c : columnsRead) {
            long bytes = part.column(c).indexVector().segment().byteSize();
            if (bytes > bestBytes) {
                best = c;
                bestBytes = bytes;
            }
        }
        return best;
    }

    /**
     * Runs {@code {from0, node0, from1, node1, ...}} of the IndexVector's rows by the node of the
     * page where each 1024-row block starts; -1 for interleaved or unplaced pages.
     */
    static int[] nodeRuns(Table table, IndexVector iv) {
        MemorySegment segment = iv.segment();
        if (iv.length() == 0 || segment.byteSize() == 0) {
            return new int[]{0, -1};
        }
        PageSocketMap psm = new PageSocketMap(table.memory());
        psm.add(segment);
        List<PageSocketMap.Range> ranges = psm.ranges();
        long[] firstPages = ranges.stream().mapToLong(PageSocketMap.Range::firstPage).toArray();
        long blockBytes = IndexVector.blockBytes(iv.bitcase());
        int[] runs = new int[8];
        int n = 0;
        for (int block = 0; block < iv.blocks(); block++) {
            long page = (segment.address() + block * blockBytes) / psm.pageSize();
            int i = Arrays.binarySearch(firstPages, page);
            i = i < 0 ? -i - 2 : i;
            PageSocketMap.Range r = i < 0 ? null : ranges.get(i);
            int node = r == null || page >= r.firstPage() + r.pageCount() || r.isInterleaved() ? -1 : r.node();
            if (n == 0 || runs[n - 1] != node) {
                if (n == runs.length) {
                    runs = Arrays.copyOf(runs, n * 2);
                }
                runs[n++] = block * IndexVector.BLOCK_ROWS;
                runs[n++] = node;
            }
        }
        return Arrays.copyOf(runs, n);
    }
}
