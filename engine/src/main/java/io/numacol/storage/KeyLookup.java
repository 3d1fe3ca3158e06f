package io.numacol.storage;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Rows found by the values of their columns, part by part, without reading whole parts: each
 * part's sorted Dictionary gives a value's vid by binary search (a part lacking the value is
 * passed over), and the column's Index (IX), where the part has one, the ascending positions of
 * the vid; a part without one (fewer than {@link PartBuilder#INDEX_MIN_ROWS} rows, or built
 * before a CREATE INDEX) has its IndexVector decoded instead. Parts are immutable and each
 * version carries its deleted rows, so what a snapshot's parts answer, less their deleted rows,
 * is what that snapshot sees.
 *
 * <p>Values are in their stored form (Long, Double, String; see {@link ColumnBuilder#convert}).
 */
public final class KeyLookup {
    private KeyLookup() {
    }

    /**
     * The vid of {@code stored} in {@code dictionary}, or -1 when the dictionary lacks it (or it is null).
     *
     * @throws IllegalArgumentException when the value is not of the dictionary's stored form
     */
    public static int vidOf(Dictionary dictionary, Object stored) {
        if (stored == null) {
            return -1;
        }
        int vid = switch (dictionary) {
            case LongDictionary d when stored instanceof Long l -> d.find(l);
            case DoubleDictionary d when stored instanceof Double x -> d.find(x);
            case StringDictionary d when stored instanceof String text -> d.find(text);
            default -> throw new IllegalArgumentException("a " + dictionary.storageKind() + " column holds no "
                    + stored.getClass().getSimpleName() + " (" + stored + ")");
        };
        return Math.max(-1, vid);
    }

    /** The distinct vids of {@code values} in {@code dictionary}, ascending; values it lacks are left out. */
    public static int[] vidsOf(Dictionary dictionary, List<?> values) {
        int[] vids = new int[values.size()];
        int n = 0;
        for (Object v : values) {
            int vid = vidOf(dictionary, v);
            if (vid >= 0) {
                vids[n++] = vid;
            }
        }
        int[] sorted = Arrays.copyOf(vids, n);
        Arrays.sort(sorted);
        return Arrays.stream(sorted).distinct().toArray();
    }

    /** How many rows of {@code column} hold one of {@code vids}, by its Index; -1 when it has none. */
    public static long indexedCount(Column column, int[] vids) {
        InvertedIndex index = column.index();
        if (index == null) {
            return -1;
        }
        long n = 0;
        for (int vid : vids) {
            n += index.count(vid);
        }
        return n;
    }

    /**
     * The positions, ascending, of the rows of {@code column} holding one of {@code vids}
     * (distinct, ascending, each a vid of its dictionary), deleted rows included: by the Index
     * when the column has one, else by decoding its IndexVector.
     */
    public static int[] positions(Column column, int[] vids) {
        InvertedIndex index = column.index();
        if (index != null) {
            int[] out = new int[Math.toIntExact(indexedCount(column, vids))];
            int n = 0;
            for (int vid : vids) {
                n += index.positions(vid, out, n);
            }
            if (vids.length > 1) {
                Arrays.sort(out); // each vid's run is ascending; runs of several vids interleave
            }
            return out;
        }
        IndexVector iv = column.indexVector();
        int[] block = new int[IndexVector.BLOCK_ROWS];
        int[] out = new int[16];
        int n = 0;
        for (int from = 0; from < iv.length(); from += block.length) {
            int to = Math.min(iv.length(), from + block.length);
            iv.decode(from, to, block, 0);
            for (int i = 0; i < to - from; i++) {
                if (Arrays.binarySearch(vids, block[i]) >= 0) {
                    if (n == out.length) {
                        out = Arrays.copyOf(out, 2 * n);
                    }
                    out[n++] = from + i;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * The {@link TablePart#rowId}s of the rows of {@code snapshot} whose {@code columns} equal
     * {@code values} (stored form; a null matches nothing, as {@code =} with NULL is never true),
     * in part order then position order: what "the row of this key" is for a check of a key, a
     * foreign key or an INSERT's conflict, under the snapshot's isolation. The first column is
     * probed by value; the others are compared on the rows found.
     *
     * @throws IllegalArgumentException when the columns and values differ in number, or none is given
     */
    public static long[] rowIds(TableSnapshot snapshot, int[] columns, Object[] values) {
        Objects.requireNonNull(snapshot, "snapshot");
        if (columns.length == 0 || columns.length != values.length) {
            throw new IllegalArgumentException("a lookup needs as many values as columns (at least one), got "
                    + values.length + " values for " + columns.length + " columns");
        }
        for (Object v : values) {
            if (v == null) {
                return new long[0];
            }
        }
        long[] out = new long[4];
        int n = 0;
        for (TablePart part : snapshot.parts()) {
            if (part.liveRowCount() == 0) {
                continue;
            }
            int[] wanted = new int[columns.length];
            boolean present = true;
            for (int k = 0; k < columns.length && present; k++) {
                wanted[k] = vidOf(part.column(columns[k]).dictionary(), values[k]);
                present = wanted[k] >= 0;
            }
            if (!present) {
                continue;
            }
            DeletedRows deleted = part.deleted();
            for (int position : positions(part.column(columns[0]), new int[] {wanted[0]})) {
                if (deleted.isDeleted(position) || !matchesRest(part, columns, wanted, position)) {
                    continue;
                }
                if (n == out.length) {
                    out = Arrays.copyOf(out, 2 * n);
                }
                out[n++] = part.rowId(position);
            }
        }
        return Arrays.copyOf(out, n);
    }

    private static boolean matchesRest(TablePart part, int[] columns, int[] vids, int position) {
        for (int k = 1; k < columns.length; k++) {
            if (part.column(columns[k]).indexVector().get(position) != vids[k]) {
                return false;
            }
        }
        return true;
    }
}
