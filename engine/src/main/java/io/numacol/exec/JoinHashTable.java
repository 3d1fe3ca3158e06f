package io.numacol.exec;

import java.util.Arrays;
import java.util.List;

/**
 * A hash join's build side: the rows of a {@link RowStore}, chained by the hash of their keys
 * from a bucket array sized from the exact row count (a power of two of at least twice as many
 * buckets as rows). A row whose key holds a NULL that must match nothing is left out.
 *
 * <p>As in the morsel paper, the build has two phases: rows are materialized per task, then
 * tasks hash runs of pages and link their rows into the chains lock-free ({@link #insert}).
 * Where numacol departs from it: the table lives on the heap rather than in node-local memory.
 * Hashes are computed a key column at a time, for the build and for a probe's chunk.
 */
final class JoinHashTable {
    /** Row numbers and twice as many buckets stay within an int array. */
    private static final long MAX_ROWS = 1L << 29;

    private final Chunk[] pages;
    private final int[] keys;
    private final boolean[] nullsEqual;
    /** Per row number, the hash of its keys: a chain step compares it before any key. */
    private final long[] hashes;
    /**
     * Per bucket, its chain's first row (low half; -1 if none) and that row's hash's low 32 bits
     * (high half, a tag: the bucket is picked by the high bits): a probe whose first candidate
     * matches reads one bucket and the row's keys, not also {@link #hashes}.
     */
    private final long[] buckets;
    private final int[] next;
    private final int shift;

    JoinHashTable(RowStore rows, int[] keys, boolean[] nullsEqual) {
        this.pages = rows.pages().toArray(Chunk[]::new);
        this.keys = keys.clone();
        this.nullsEqual = nullsEqual.clone();
        long capacity = rows.capacity();
        if (capacity > MAX_ROWS) {
            throw new IllegalStateException("a hash join build side of " + rows.rows() + " rows is larger than numacol supports");
        }
        int buckets = Integer.highestOneBit((int) Math.max(2, rows.rows() * 2 - 1)) << 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(buckets);
        rows.reservation().reserve((long) buckets * Long.BYTES + capacity * (Integer.BYTES + Long.BYTES),
                "a hash join's table of " + rows.rows() + " rows");
        this.buckets = new long[buckets];
        Arrays.fill(this.buckets, EMPTY);
        this.next = new int[(int) capacity];
        this.hashes = new long[(int) capacity];
    }

    int pageCount() {
        return pages.length;
    }

    /**
     * Hashes pages {@code [from, to)} and links their rows into the chains. Tasks insert disjoint
     * ranges at once: a chain's head moves by compare-and-set; the probe reads the table after
     * all inserting tasks finished.
     */
    void insert(int from, int to) {
        long[] h = new long[Chunk.CAPACITY];
        boolean[] skip = new boolean[Chunk.CAPACITY];
        for (int p = from; p < to; p++) {
            Chunk page = pages[p];
            hashes(page, keys, h);
            unmatchable(page, keys, nullsEqual, skip);
            int base = p << RowStore.PAGE_SHIFT;
            System.arraycopy(h, 0, hashes, base, page.size);
            for (int r = 0; r < page.size; r++) {
                if (skip[r]) {
                    continue;
                }
                int id = base | r;
                int bucket = (int) (h[r] >>> shift);
                long entry = (h[r] << 32) | id;
                long head;
                do {
                    head = (long) BUCKETS.getVolatile(buckets, bucket);
                    next[id] = (int) head;
                } while (!BUCKETS.compareAndSet(buckets, bucket, head, entry));
            }
        }
    }

    private static final java.lang.invoke.VarHandle BUCKETS = java.lang.invoke.MethodHandles.arrayElementVarHandle(long[].class);
    /** A bucket without rows: row -1 (row numbers stay below 2^29, so no entry's low half is -1). */
    private static final long EMPTY = -1L;

    /** Column {@code column} of build rows {@code rows[0..n)} into rows {@code 0..n} of column {@code into} of {@code out} (arrays allocated). */
    void gather(int column, int[] rows, int n, Chunk out, int into) {
        boolean[] outNulls = out.nulls[into];
        for (int i = 0; i < n; i++) {
            boolean[] nulls = pages[rows[i] >>> RowStore.PAGE_SHIFT].nulls[column];
            outNulls[i] = nulls != null && nulls[rows[i] & RowStore.PAGE_MASK];
        }
        switch (out.types[into].storageKind()) {
            case LONG -> {
                long[] to = out.longs[into];
                for (int i = 0; i < n; i++) {
                    to[i] = pages[rows[i] >>> RowStore.PAGE_SHIFT].longs[column][rows[i] & RowStore.PAGE_MASK];
                }
            }
            case DOUBLE -> {
                double[] to = out.doubles[into];
                for (int i = 0; i < n; i++) {
                    to[i] = pages[rows[i] >>> RowStore.PAGE_SHIFT].doubles[column][rows[i] & RowStore.PAGE_MASK];
                }
            }
            case STRING -> {
                String[] to = out.strings[into];
                for (int i = 0; i < n; i++) {
                    to[i] = pages[rows[i] >>> RowStore.PAGE_SHIFT].strings[column][rows[i] & RowStore.PAGE_MASK];
                }
            }
        }
    }

    /** The first build row that may match a probe row with this hash (its keys still to compare), or -1. */
    int first(long hash) {
        long entry = buckets[(int) (hash >>> shift)];
        int row = (int) entry;
        if (row < 0 || (int) (entry >>> 32) == (int) hash) {
            return row; // a tag that matches may still be another hash: the caller compares the keys
        }
        return next(row, hash);
    }

    /** The build row after {@code row} in its chain that may match a probe row with this hash, or -1. */
    int next(int row, long hash) {
        row = next[row];
        while (row >= 0 && hashes[row] != hash) {
            row = next[row];
        }
        return row;
    }

    /** Whether build row {@code row}'s keys equal probe row {@code p}'s keys {@code probeKeys} of {@code probe}. */
    boolean matches(int row, Chunk probe, int[] probeKeys, int p) {
        Chunk page = pages[row >>> RowStore.PAGE_SHIFT];
        int r = row & RowStore.PAGE_MASK;
        for (int i = 0; i < keys.length; i++) {
            int b = keys[i];
            int k = probeKeys[i];
            boolean bn = page.isNull(b, r);
            if (bn || probe.isNull(k, p)) {
                if (bn != probe.isNull(k, p)) {
                    return false;
                }
                continue; // both NULL: only reached for IS NOT DISTINCT FROM keys
            }
            boolean equal = switch (page.types[b].storageKind()) {
                case LONG -> page.longs[b][r] == probe.longs[k][p];
                case DOUBLE -> page.doubles[b][r] == probe.doubles[k][p]; // 0.0 = -0.0 as in SQL
                case STRING -> page.strings[b][r].equals(probe.strings[k][p]);
            };
            if (!equal) {
                return false;
            }
        }
        return true;
    }

    /** Flags the rows of {@code chunk} whose keys can match nothing: a key is NULL, but for IS NOT DISTINCT FROM keys. */
    static void unmatchable(Chunk chunk, int[] keys, boolean[] nullsEqual, boolean[] out) {
        java.util.Arrays.fill(out, 0, chunk.size, false);
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
        java.util.Arrays.fill(out, 0, n, 0x9E3779B97F4A7C15L);
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
