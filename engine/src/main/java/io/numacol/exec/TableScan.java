package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scheduler.TaskContext;
import io.numacol.storage.Column;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.TablePart;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The table scan at the head of a pipeline, for one task: its morsel of a part (an IndexVector
 * range) read a 1024-row block at a time. The part's vid filter selects rows into the part's
 * BitVector; the build keys of hash joins above are tested on vids; the selected rows' values are
 * decoded into a {@link Chunk} and pushed on. Blocks that keep few rows are gathered into full
 * chunks first.
 */
final class TableScan {
    /** String dictionaries up to this size have their decoded values cached per task. */
    private static final int STRING_CACHE_LIMIT = 1 << 16;
    /**
     * Blocks of a scan that keep at most this many rows are gathered into full chunks before the
     * pipeline's operators see them: an operator's work per chunk (a probe's passes, the gather
     * of every column of its pairs) outweighs its work per row when a block keeps a few dozen
     * rows.
     */
    private static final int SPARSE_ROWS = Chunk.CAPACITY / 4;

    private final ScanKernel kernel;
    private final PlanNode.Scan scan;
    private final Map<Integer, KeyFilter> keys;
    private final TablePart part;
    private final PartFilter filter;
    private final BitVector bits;
    private final Morsels.Morsel morsel;
    /** The bytes the morsel reads, reported when the task ends. */
    private final long bytes;

    TableScan(ScanKernel kernel, PlanNode.Scan scan, Map<Integer, KeyFilter> keys, TablePart part, PartFilter filter,
              BitVector bits, Morsels.Morsel morsel, long bytes) {
        this.kernel = kernel;
        this.scan = scan;
        this.keys = keys;
        this.part = part;
        this.filter = filter;
        this.bits = bits;
        this.morsel = morsel;
        this.bytes = bytes;
    }

    /** The partition of the part scanned (-1: the part has none). */
    int partition() {
        return part.partition();
    }

    /**
     * Pushes the morsel's rows into {@code head} a block at a time, asking {@code stop} between
     * blocks; false when the statement stopped. Reports the bytes read to the scheduler.
     */
    boolean run(ChunkSink head, TaskContext context, Predicate<TaskContext> stop) {
        long start = context.busyClock();
        boolean finished = scan(head, context, stop);
        Morsels.record(context, part, morsel, bytes, start);
        return finished;
    }

    private boolean scan(ChunkSink head, TaskContext context, Predicate<TaskContext> stop) {
        int from = morsel.from();
        int to = morsel.to();
        if (filter != null) {
            filter.eval(kernel, from, to, bits);
        }
        // build keys tested on vids: their columns, and their vid tests for this part, found once per task;
        // the most selective first: the others test only what it keeps
        Map<Integer, Double> shares = new HashMap<>();
        keys.forEach((c, k) -> shares.put(c, k.share(List.of(part.column(c).dictionary()))));
        int[] keyColumns = keys.keySet().stream().sorted(Comparator.comparing(shares::get)).mapToInt(Integer::intValue).toArray();
        KeyFilter.VidTest[] keyTests = new KeyFilter.VidTest[keyColumns.length];
        for (int k = 0; k < keyColumns.length; k++) {
            keyTests[k] = keys.get(keyColumns[k]).vidTest(part.column(keyColumns[k]).dictionary());
        }
        int[] columns = scan.columns();
        Chunk chunk = new Chunk(scan.types());
        Chunk sparse = null;
        Batch batch = new Batch(part);
        String[][] stringCache = new String[columns.length][];
        for (int block = from; block < to; block += Chunk.CAPACITY) {
            if (stop.test(context)) {
                return false;
            }
            batch.select(block, Math.min(to, block + Chunk.CAPACITY), bits);
            for (int k = 0; k < keyColumns.length; k++) {
                batch.retain(keyColumns[k], keyTests[k]);
            }
            if (batch.size() == 0) {
                continue;
            }
            for (int i = 0; i < columns.length; i++) {
                int c = columns[i];
                if (scan.isRowId(c)) {
                    chunk.nulls[i] = null;
                    chunk.longs[i] = batch.rowIds();
                    continue;
                }
                chunk.nulls[i] = batch.nulls(c);
                switch (chunk.types[i].storageKind()) {
                    case LONG -> chunk.longs[i] = batch.longs(c);
                    case DOUBLE -> chunk.doubles[i] = batch.doubles(c);
                    case STRING -> chunk.strings[i] = strings(batch, c, i, stringCache);
                }
            }
            chunk.size = batch.size();
            if (chunk.size > SPARSE_ROWS) {
                if (sparse != null && sparse.size > 0) { // first, to keep the rows in order
                    head.accept(sparse);
                    sparse.size = 0;
                }
                head.accept(chunk);
                continue;
            }
            if (sparse == null) {
                sparse = new Chunk(scan.types()).allocate();
            } else if (sparse.size + chunk.size > Chunk.CAPACITY) {
                head.accept(sparse);
                sparse.size = 0;
            }
            sparse.append(chunk);
        }
        if (sparse != null && sparse.size > 0) {
            head.accept(sparse);
        }
        return true;
    }

    private String[] strings(Batch batch, int column, int slot, String[][] cache) {
        Column c = part.column(column);
        StringDictionary d = (StringDictionary) c.dictionary();
        int[] vids = batch.vids(column);
        String[] out = new String[batch.size()];
        String[] known = cache[slot];
        if (known == null && d.size() <= STRING_CACHE_LIMIT) {
            known = cache[slot] = new String[d.size()];
        }
        int nullVid = c.nullVid();
        for (int i = 0; i < out.length; i++) {
            int vid = vids[i];
            if (vid == nullVid) {
                continue;
            }
            if (known == null) {
                out[i] = d.getString(vid);
            } else {
                String s = known[vid];
                if (s == null) {
                    s = d.getString(vid);
                    known[vid] = s;
                }
                out[i] = s;
            }
        }
        return out;
    }
}
