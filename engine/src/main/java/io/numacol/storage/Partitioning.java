package io.numacol.storage;

import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.IntegralCodec;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a physically partitioned table (the thesis's PP, §5.2) deals its rows to {@code count}
 * partitions: by a hash of key columns, by ranges of one key column, or in turn. Each {@link
 * TablePart} of such a table holds rows of one partition only and knows which ({@link
 * TablePart#partition()}); partition {@code p} lives on node {@code p mod nodes}.
 *
 * <p>The hash is of the stored values (a long for the integer types, DECIMAL's unscaled value
 * and DATE's epoch day, a double's bits, a string's UTF-16 hash), so two tables partitioned by
 * hash on keys of the same types into the same count put equal keys into equal partitions: they
 * form a table group ({@link #sameGroup}), and a join on those keys can run partition by
 * partition.
 *
 * @param kind       how rows are dealt
 * @param count      how many partitions
 * @param keyColumns the key columns' positions in the table (none for ROUND_ROBIN, one for RANGE)
 * @param keyTypes   their types
 * @param bounds     for RANGE, the {@code count - 1} stored values that start partitions 1, 2, ...
 *                   in the key's order (Long, Double or String); empty otherwise
 */
public record Partitioning(Kind kind, int count, int[] keyColumns, List<ColumnType> keyTypes, List<Object> bounds) {

    public enum Kind { HASH, RANGE, ROUND_ROBIN }

    /** At most this many partitions: a part per partition and node, each with its own dictionaries. */
    public static final int MAX_PARTITIONS = 1024;

    public Partitioning {
        Objects.requireNonNull(kind, "kind");
        if (count < 1 || count > MAX_PARTITIONS) {
            throw new IllegalArgumentException("PP(" + count + "): a table has 1 to " + MAX_PARTITIONS + " partitions");
        }
        keyColumns = keyColumns.clone();
        keyTypes = List.copyOf(keyTypes);
        bounds = List.copyOf(bounds);
        if (keyColumns.length != keyTypes.size()) {
            throw new IllegalArgumentException("one type per key column");
        }
        switch (kind) {
            case HASH -> {
                if (keyColumns.length == 0) {
                    throw new IllegalArgumentException("PP BY HASH needs at least one key column");
                }
            }
            case RANGE -> {
                if (keyColumns.length != 1) {
                    throw new IllegalArgumentException("PP BY RANGE takes one key column");
                }
                if (keyTypes.getFirst().kind() == ColumnType.Kind.BOOLEAN) {
                    throw new IllegalArgumentException("PP BY RANGE needs a key with an order; BOOLEAN has two values");
                }
                if (bounds.size() != count - 1) {
                    throw new IllegalArgumentException("PP(" + count + ") BY RANGE needs " + (count - 1) + " bounds, got " + bounds.size());
                }
            }
            case ROUND_ROBIN -> {
                if (keyColumns.length != 0) {
                    throw new IllegalArgumentException("PP ROUND ROBIN takes no key");
                }
            }
        }
    }

    public static Partitioning hash(int count, int[] keyColumns, List<ColumnType> keyTypes) {
        return new Partitioning(Kind.HASH, count, keyColumns, keyTypes, List.of());
    }

    public static Partitioning range(int count, int keyColumn, ColumnType keyType, List<Object> bounds) {
        return new Partitioning(Kind.RANGE, count, new int[] {keyColumn}, List.of(keyType), bounds);
    }

    public static Partitioning roundRobin(int count) {
        return new Partitioning(Kind.ROUND_ROBIN, count, new int[0], List.of(), List.of());
    }

    /**
     * The partition of a row given its stored values ({@code stored[keyColumns[i]]}, null for
     * NULL), and for ROUND_ROBIN the row's number in its load.
     */
    public int partitionOf(Object[] stored, long rowNumber) {
        return switch (kind) {
            case HASH -> {
                long h = 0;
                for (int column : keyColumns) {
                    h = h * 0x9E3779B97F4A7C15L + hash(stored[column]);
                }
                yield (int) Long.remainderUnsigned(mix(h), count);
            }
            case RANGE -> rangeOf(stored[keyColumns[0]]);
            case ROUND_ROBIN -> (int) Long.remainderUnsigned(rowNumber, count);
        };
    }

    /**
     * The partition of each row of {@code part}, its rows numbered from {@code firstRow} (for
     * ROUND_ROBIN), from the stored values of the key columns.
     */
    public int[] partitionsOf(TablePart part, long firstRow) {
        int n = part.rowCount();
        int[] partitions = new int[n];
        Object[][] keys = new Object[keyColumns.length][];
        for (int k = 0; k < keyColumns.length; k++) {
            keys[k] = part.column(keyColumns[k]).storedValues(0, n);
        }
        Object[] row = new Object[keyColumns.length == 0 ? 0 : Arrays.stream(keyColumns).max().getAsInt() + 1];
        for (int r = 0; r < n; r++) {
            for (int k = 0; k < keyColumns.length; k++) {
                row[keyColumns[k]] = keys[k][r];
            }
            partitions[r] = partitionOf(row, firstRow + r);
        }
        return partitions;
    }

    /**
     * Whether every row of a part made of {@code columns} ({@code rows} rows, deleted ones too)
     * belongs to {@code partition} under this partitioning: what a part read back from a file
     * database must show before it counts as that partition's, since its file names the partition
     * by number only and the table may deal its rows otherwise by then (a checkpoint taken while
     * SET PLACEMENT re-dealt it). RANGE reads the dictionary's two ends (it is sorted, and NULL
     * goes to partition 0); HASH hashes each distinct value once and combines them per row from
     * the IndexVectors, without making a value per row; ROUND ROBIN deals by a row's place in
     * its load, which no stored value shows, so any partition of the count holds.
     */
    public boolean holds(List<Column> columns, int rows, int partition) {
        if (partition < 0 || partition >= count) {
            return false;
        }
        if (rows == 0 || kind == Kind.ROUND_ROBIN) {
            return true;
        }
        if (kind == Kind.RANGE) {
            Column key = columns.get(keyColumns[0]);
            Dictionary values = key.dictionary();
            boolean nullsFit = !key.hasNulls() || partition == 0;
            return nullsFit && (values.size() == 0
                    || (rangeOf(values.stored(0)) == partition && rangeOf(values.stored(values.size() - 1)) == partition));
        }
        long[][] hashOfVid = new long[keyColumns.length][];
        for (int k = 0; k < keyColumns.length; k++) {
            Column key = columns.get(keyColumns[k]);
            Dictionary values = key.dictionary();
            long[] h = new long[values.size() + 1];
            for (int vid = 0; vid < values.size(); vid++) {
                h[vid] = hash(values.stored(vid));
            }
            h[values.size()] = hash(null); // the null vid, when the column has one
            hashOfVid[k] = h;
        }
        int[][] vids = new int[keyColumns.length][IndexVector.BLOCK_ROWS];
        for (int start = 0; start < rows; start += IndexVector.BLOCK_ROWS) {
            int end = Math.min(rows, start + IndexVector.BLOCK_ROWS);
            for (int k = 0; k < keyColumns.length; k++) {
                columns.get(keyColumns[k]).indexVector().decode(start, end, vids[k], 0);
            }
            for (int i = 0; i < end - start; i++) {
                long h = 0;
                for (int k = 0; k < keyColumns.length; k++) {
                    h = h * 0x9E3779B97F4A7C15L + hashOfVid[k][vids[k][i]];
                }
                if ((int) Long.remainderUnsigned(mix(h), count) != partition) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The partition of a RANGE key: NULL first, then the first partition whose start is not above it. */
    private int rangeOf(Object key) {
        if (key == null) {
            return 0;
        }
        int lo = 0;
        int hi = bounds.size(); // partitions 1..count-1 start at bounds[0..count-2]
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(bounds.get(mid), key) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Stored values of one key type, in SQL order (doubles by {@link Double#compare}). */
    @SuppressWarnings("unchecked")
    static int compare(Object a, Object b) {
        return ((Comparable<Object>) a).compareTo(b);
    }

    private static long hash(Object stored) {
        return switch (stored) {
            case null -> 0x5BD1E995L;
            case Long l -> l;
            case Double d -> Double.doubleToLongBits(d == 0.0 ? 0.0 : d); // -0.0 equals 0.0
            case String s -> s.hashCode();
            default -> throw new IllegalArgumentException("not a stored value: " + stored.getClass().getSimpleName());
        };
    }

    /** A 64-bit finalizer (MurmurHash3's), so that keys in runs spread over the partitions. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }

    /**
     * Whether rows with equal keys land in equal partitions of both: hash partitionings of the
     * same count on keys of the same types (the integer types count as one: they store the same
     * long). Such tables form a table group (thesis §6.3).
     */
    public boolean sameGroup(Partitioning other) {
        if (kind != Kind.HASH || other.kind != Kind.HASH || count != other.count || keyTypes.size() != other.keyTypes.size()) {
            return false;
        }
        for (int i = 0; i < keyTypes.size(); i++) {
            ColumnType a = keyTypes.get(i);
            ColumnType b = other.keyTypes.get(i);
            if (!a.equals(b) && !(integral(a) && integral(b))) {
                return false;
            }
        }
        return true;
    }

    private static boolean integral(ColumnType t) {
        return t.codec() instanceof IntegralCodec;
    }

    /** The spec as SQL writes it, with the key columns named by {@code columnNames}. */
    public String describe(List<String> columnNames) {
        String keys = String.join(", ", Arrays.stream(keyColumns).mapToObj(columnNames::get).toList());
        return switch (kind) {
            case HASH -> "PP(" + count + ") BY HASH (" + keys + ")";
            case RANGE -> "PP(" + count + ") BY RANGE (" + keys + ")";
            case ROUND_ROBIN -> "PP(" + count + ") ROUND ROBIN";
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Partitioning p && kind == p.kind && count == p.count && Arrays.equals(keyColumns, p.keyColumns)
                && keyTypes.equals(p.keyTypes) && bounds.equals(p.bounds);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, count, Arrays.hashCode(keyColumns), keyTypes, bounds);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + "(" + count + ", keys " + Arrays.toString(keyColumns) + ")";
    }
}
