package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * A hash join's build side: the rows of a {@link RowStore}, chained by the hash of their keys
 * from a bucket array sized from the exact row count (a power of two of at least twice as many
 * buckets as rows). A row whose key holds a NULL that must match nothing is left out.
 *
 * <p>As in the morsel paper, the build has two phases: rows are materialized per task, then
 * tasks hash runs of pages and link their rows into the chains lock-free ({@link #insert}).
 * Where numacol departs from it: a row's chain link and numbers are copied out of the pages the
 * build side filled into one array ({@link #rows}), which a large table holds in numacol memory
 * interleaved over the nodes like its buckets ({@link MemoryReservation#longs}), rather than in
 * the node-local memory of the worker that made the row; its strings stay in the pages on the
 * heap. Hashes are computed a key column at a time, for the build and for a probe's chunk.
 */
final class JoinHashTable {
    /** Row numbers fit a chain entry's low half, and twice as many buckets an int. */
    private static final long MAX_ROWS = 1L << 29;
    /** The columns whose NULL flags a row's mask holds; those after it are read in the pages. */
    private static final int MASKED_COLUMNS = Long.SIZE;

    private final Chunk[] pages;
    private final int[] keys;
    private final boolean[] nullsEqual;
    /**
     * Per row number, {@link #stride} longs, copied out of the pages as rows are inserted: the
     * next row of its chain and that row's tag (as in {@link #buckets}), a mask of its NULL
     * columns, then its LONG and DOUBLE (as bits) columns. A chain step, its key comparison, the
     * step to the next row and the gather of a match's columns read the same cache line or two,
     * as DuckDB's and the morsel paper's tuples hold their chain pointer beside their values.
     */
    private final MemorySegment rows;
    private final int stride;
    /** Per build column, where it is within a row's stride (0: a STRING, read in the pages). */
    private final int[] columnAt;
    /** Per STRING key, its values by row number (null for the other keys). */
    private final String[][] stringKeys;
    /**
     * Per bucket, its chain's first row (low half; -1 if none) and that row's hash's low 32 bits
     * (high half, a tag: the bucket is picked by the high bits).
     */
    private final MemorySegment buckets;
    private final int shift;

    JoinHashTable(RowStore store, int[] keys, boolean[] nullsEqual) {
        this.pages = store.pages().toArray(Chunk[]::new);
        this.keys = keys.clone();
        this.nullsEqual = nullsEqual.clone();
        List<ColumnType> types = store.types();
        this.columnAt = new int[types.size()];
        int width = 2;
        for (int c = 0; c < types.size(); c++) {
            if (types.get(c).storageKind() != StorageKind.STRING) {
                columnAt[c] = width++;
            }
        }
        this.stride = width;
        long capacity = store.capacity();
        if (capacity > MAX_ROWS) {
            throw new IllegalStateException("a hash join build side of " + store.rows() + " rows is larger than numacol supports");
        }
        int buckets = Integer.highestOneBit((int) Math.max(2, store.rows() * 2 - 1)) << 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(buckets);
        this.stringKeys = new String[keys.length][];
        int stringKeyCount = 0;
        for (int i = 0; i < keys.length; i++) {
            if (columnAt[keys[i]] == 0) {
                stringKeys[i] = new String[(int) capacity];
                stringKeyCount++;
            }
        }
        String what = "a hash join's table of " + store.rows() + " rows";
        store.reservation().reserve(capacity * stringKeyCount * Long.BYTES, what); // the references of its string keys
        this.buckets = store.reservation().longs(buckets, what);
        this.buckets.fill((byte) -1); // every bucket empty: row -1 (row numbers stay below 2^29, so no entry's low half is -1)
        this.rows = store.reservation().longs(capacity * stride, what);
    }

    int pageCount() {
        return pages.length;
    }

    /**
     * Hashes pages {@code [from, to)}, copies their rows out and links them into the chains.
     * Tasks insert disjoint ranges at once: a chain's head moves by compare-and-set; the probe
     * reads the table after all inserting tasks finished.
     */
    void insert(int from, int to) {
        long[] h = new long[Chunk.CAPACITY];
        long[] heads = new long[Chunk.CAPACITY];
        boolean[] skip = new boolean[Chunk.CAPACITY];
        for (int p = from; p < to; p++) {
            Chunk page = pages[p];
            hashes(page, keys, h);
            unmatchable(page, keys, nullsEqual, skip);
            int base = p << RowStore.PAGE_SHIFT;
            copy(page, base);
            // the buckets are read in a loop of their own, so that their cache misses overlap; a
            // head another row changed since fails its compare-and-set and is read again
            for (int r = 0; r < page.size; r++) {
                heads[r] = buckets.getAtIndex(LONG, h[r] >>> shift);
            }
            for (int r = 0; r < page.size; r++) {
                if (skip[r]) {
                    continue;
                }
                int id = base | r;
                long bucket = h[r] >>> shift;
                long entry = (h[r] << 32) | id;
                long head = heads[r];
                long link = (long) id * stride;
                rows.setAtIndex(LONG, link, head);
                while (!LONGS.compareAndSet(buckets, 0L, bucket, head, entry)) {
                    head = (long) LONGS.getVolatile(buckets, 0L, bucket);
                    rows.setAtIndex(LONG, link, head);
                }
            }
        }
    }

    /** Copies the NULL masks, LONG and DOUBLE columns and STRING keys of page rows numbered from {@code base}. */
    private void copy(Chunk page, int base) {
        int n = page.size;
        long start = (long) base * stride;
        for (int c = 0; c < columnAt.length; c++) {
            boolean[] nulls = page.nulls[c];
            if (nulls != null && c < MASKED_COLUMNS) {
                long at = start + 1;
                for (int r = 0; r < n; r++, at += stride) {
                    if (nulls[r]) {
                        rows.setAtIndex(LONG, at, rows.getAtIndex(LONG, at) | 1L << c);
                    }
                }
            }
            switch (page.types[c].storageKind()) {
                case LONG -> {
                    long[] values = page.longs[c];
                    long at = start + columnAt[c];
                    for (int r = 0; r < n; r++, at += stride) {
                        rows.setAtIndex(LONG, at, values[r]);
                    }
                }
                case DOUBLE -> {
                    double[] values = page.doubles[c];
                    long at = start + columnAt[c];
                    for (int r = 0; r < n; r++, at += stride) {
                        rows.setAtIndex(LONG, at, Double.doubleToRawLongBits(values[r]));
                    }
                }
                case STRING -> { }
            }
        }
        for (int i = 0; i < keys.length; i++) {
            if (stringKeys[i] != null) {
                System.arraycopy(page.strings[keys[i]], 0, stringKeys[i], base, n);
            }
        }
    }

    /** Longs of a segment by index, for the buckets' compare-and-set. */
    private static final VarHandle LONGS = JAVA_LONG.arrayElementVarHandle();
    /**
     * The layout of plain reads and writes: every long is aligned, and without the alignment
     * check that an aligned layout makes on each access the probe's loops run as on a long[].
     */
    private static final ValueLayout.OfLong LONG = JAVA_LONG_UNALIGNED;

    private boolean isNull(int row, int column) {
        if (column < MASKED_COLUMNS) {
            return (at(row, 1) & (1L << column)) != 0;
        }
        return pages[row >>> RowStore.PAGE_SHIFT].isNull(column, row & RowStore.PAGE_MASK);
    }

    /** Column {@code column} of build rows {@code ids[0..n)} into rows {@code 0..n} of column {@code into} of {@code out} (arrays allocated). */
    void gather(int column, int[] ids, int n, Chunk out, int into) {
        boolean[] outNulls = out.nulls[into];
        for (int i = 0; i < n; i++) {
            outNulls[i] = isNull(ids[i], column);
        }
        int at = columnAt[column];
        switch (out.types[into].storageKind()) {
            case LONG -> {
                long[] to = out.longs[into];
                for (int i = 0; i < n; i++) {
                    to[i] = at(ids[i], at);
                }
            }
            case DOUBLE -> {
                double[] to = out.doubles[into];
                for (int i = 0; i < n; i++) {
                    to[i] = Double.longBitsToDouble(at(ids[i], at));
                }
            }
            case STRING -> {
                String[] to = out.strings[into];
                for (int i = 0; i < n; i++) {
                    to[i] = pages[ids[i] >>> RowStore.PAGE_SHIFT].strings[column][ids[i] & RowStore.PAGE_MASK];
                }
            }
        }
    }

    /** Reads build row {@code row}'s cache line (its chain link): a probe touches its candidates in a loop of their own, so that their misses overlap. */
    long touch(int row) {
        return at(row, 0);
    }

    /** Long {@code offset} of build row {@code row}'s stride. */
    private long at(int row, int offset) {
        return rows.getAtIndex(LONG, (long) row * stride + offset);
    }

    /** The first build row that may match a probe row with this hash (its keys still to compare), or -1. */
    int first(long hash) {
        return walk(buckets.getAtIndex(LONG, hash >>> shift), (int) hash);
    }

    /** The build row after {@code row} in its chain that may match a probe row with this hash, or -1. */
    int next(int row, long hash) {
        return walk(at(row, 0), (int) hash);
    }

    /** From the chain entry {@code entry} on, the first row with tag {@code tag}, or -1: a matching tag may still be another hash. */
    private int walk(long entry, int tag) {
        int row = (int) entry;
        while (row >= 0 && (int) (entry >>> 32) != tag) {
            entry = at(row, 0);
            row = (int) entry;
        }
        return row;
    }

    /** Whether build row {@code row}'s keys equal probe row {@code p}'s keys {@code probeKeys} of {@code probe}. */
    boolean matches(int row, Chunk probe, int[] probeKeys, int p) {
        for (int i = 0; i < keys.length; i++) {
            int k = probeKeys[i];
            if (nullsEqual[i]) { // IS NOT DISTINCT FROM: NULL matches NULL; the other keys' NULL rows are in no chain
                boolean bn = isNull(row, keys[i]);
                if (bn || probe.isNull(k, p)) {
                    if (bn != probe.isNull(k, p)) {
                        return false;
                    }
                    continue;
                }
            }
            int at = columnAt[keys[i]];
            boolean equal = switch (probe.types[k].storageKind()) {
                case LONG -> at(row, at) == probe.longs[k][p];
                case DOUBLE -> Double.longBitsToDouble(at(row, at)) == probe.doubles[k][p]; // 0.0 = -0.0 as in SQL
                case STRING -> stringKeys[i][row].equals(probe.strings[k][p]);
            };
            if (!equal) {
                return false;
            }
        }
        return true;
    }

    /** Flags the rows of {@code chunk} whose keys can match nothing: a key is NULL, but for IS NOT DISTINCT FROM keys. */
    static void unmatchable(Chunk chunk, int[] keys, boolean[] nullsEqual, boolean[] out) {
        Arrays.fill(out, 0, chunk.size, false);
        for (int i = 0; i < keys.length; i++) {
            boolean[] nulls = chunk.nulls[keys[i]];
            if (!nullsEqual[i] && nulls != null) {
                for (int r = 0; r < chunk.size; r++) {
                    out[r] |= nulls[r];
                }
            }
        }
    }

    /**
     * The hash of each row's keys of {@code chunk} into {@code out}, a key column at a time; equal
     * keys (0.0 and -0.0, NULL and NULL) hash alike.
     */
    static void hashes(Chunk chunk, int[] keys, long[] out) {
        int n = chunk.size;
        Arrays.fill(out, 0, n, 0x9E3779B97F4A7C15L);
        for (int k : keys) {
            boolean[] nulls = chunk.nulls[k];
            switch (chunk.types[k].storageKind()) {
                case LONG -> {
                    long[] v = chunk.longs[k];
                    for (int r = 0; r < n; r++) {
                        out[r] = mix(out[r] ^ (nulls != null && nulls[r] ? NULL_HASH : v[r]));
                    }
                }
                case DOUBLE -> {
                    double[] v = chunk.doubles[k];
                    for (int r = 0; r < n; r++) {
                        double d = v[r];
                        out[r] = mix(out[r] ^ (nulls != null && nulls[r] ? NULL_HASH : Double.doubleToLongBits(d == 0 ? 0.0 : d)));
                    }
                }
                case STRING -> {
                    String[] v = chunk.strings[k];
                    for (int r = 0; r < n; r++) {
                        out[r] = mix(out[r] ^ (nulls != null && nulls[r] ? NULL_HASH : v[r].hashCode()));
                    }
                }
            }
        }
    }

    private static final long NULL_HASH = 0x5bd1e995L;

    /** Murmur3's 64-bit finalizer: the high bits, which pick the bucket, depend on every input bit. */
    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }
}
