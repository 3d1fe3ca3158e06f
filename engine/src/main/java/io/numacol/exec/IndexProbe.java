package io.numacol.exec;

import io.numacol.storage.Column;
import io.numacol.storage.KeyLookup;
import io.numacol.storage.TablePart;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a scan of one part reads the rows an equality finds through the part's Index instead
 * of the whole part ({@code WHERE id = ?}, {@code id IN (?, ?)}), and which. The equality must
 * be the filter or one of its ANDed conditions (a {@link ColumnFilter.In}, which is what an
 * equality with a literal or a parameter becomes); the whole filter is still tested on the
 * rows found, so what it keeps is what a scan keeps.
 *
 * <p>The part's dictionary decides first: when none of the values is in it, the part holds no
 * such row and is passed over whole, Index or not (the many small parts of single-row INSERTs).
 * Otherwise the Index's counts, which are exact, decide: the rows found are tested one at a time,
 * an IndexVector read and a vid test each, where the scan kernel tests a whole block of vids in
 * a few cycles a row, so the probe is taken when it finds at most one row in
 * {@link #ROWS_PER_FOUND} of the part.
 */
final class IndexProbe {
    /** A probe pays when it finds at most one row in this many. */
    static final int ROWS_PER_FOUND = 16;

    private IndexProbe() {
    }

    /**
     * The positions (ascending, deleted rows included) of the rows of {@code part} an ANDed
     * equality of {@code filter} finds; an empty array when an equality rules the whole part
     * out; null when the part is best scanned.
     */
    static int[] positions(ColumnFilter filter, TablePart part) {
        List<ColumnFilter.In> equalities = new ArrayList<>();
        collect(filter, equalities);
        Column best = null;
        int[] bestVids = null;
        long bestCount = Long.MAX_VALUE;
        for (ColumnFilter.In in : equalities) {
            Column c = part.column(in.column());
            int[] vids = KeyLookup.vidsOf(c.dictionary(), in.values());
            if (vids.length == 0) {
                return new int[0];
            }
            long count = KeyLookup.indexedCount(c, vids);
            if (count >= 0 && count < bestCount) {
                best = c;
                bestVids = vids;
                bestCount = count;
            }
        }
        if (best == null || bestCount * ROWS_PER_FOUND > part.rowCount()) {
            return null;
        }
        return KeyLookup.positions(best, bestVids);
    }

    /** The equalities ANDed at the top of {@code filter}. */
    private static void collect(ColumnFilter filter, List<ColumnFilter.In> out) {
        switch (filter) {
            case ColumnFilter.In in -> out.add(in);
            case ColumnFilter.And and -> and.filters().forEach(f -> collect(f, out));
            default -> {
            }
        }
    }
}
