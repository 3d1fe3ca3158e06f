package io.numacol.exec;

import io.numacol.storage.StringDictionary;
import io.numacol.storage.types.ColumnType;

import java.util.List;

/**
 * A {@link PlanNode.Sort}: the rows of a store in the order of an {@link Ordering}, compared by
 * stored value (strings in code point order, as dictionaries sort them), its offset skipped and
 * at most its fetch kept. Row numbers are sorted, not rows: a stable merge sort on an int array.
 */
final class RowSorter {
    private final List<Chunk> pages;
    private final Ordering ordering;

    private RowSorter(RowStore rows, Ordering ordering) {
        this.pages = rows.pages();
        this.ordering = ordering;
    }

    static RowStore sort(RowStore rows, Ordering ordering) {
        List<ColumnType> types = rows.types();
        RowSorter sorter = new RowSorter(rows, ordering);
        int[] ids = new int[(int) rows.rows()];
        int n = 0;
        for (int p = 0; p < sorter.pages.size(); p++) {
            for (int r = 0; r < sorter.pages.get(p).size; r++) {
                ids[n++] = p << RowStore.PAGE_SHIFT | r;
            }
        }
        if (!ordering.keys().isEmpty()) {
            sorter.mergeSort(ids, new int[n], 0, n);
        }
        long from = Math.min(n, ordering.offset());
        long to = ordering.fetch() < 0 ? n : Math.min(n, from + ordering.fetch());
        RowStore out = rows.sibling(types);
        Chunk chunk = new Chunk(types).allocate();
        for (long i = from; i < to; i++) {
            int id = ids[(int) i];
            Chunk page = sorter.pages.get(id >>> RowStore.PAGE_SHIFT);
            for (int c = 0; c < chunk.width(); c++) {
                chunk.copy(c, chunk.size, page, c, id & RowStore.PAGE_MASK);
            }
            if (++chunk.size == Chunk.CAPACITY) {
                out.accept(chunk);
                chunk.size = 0;
            }
        }
        if (chunk.size > 0) {
            out.accept(chunk);
        }
        return out;
    }

    private void mergeSort(int[] a, int[] scratch, int from, int to) {
        if (to - from < 16) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], x) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, scratch, from, mid);
        mergeSort(a, scratch, mid, to);
        if (compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, scratch, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            a[k] = j >= to || (i < mid && compare(scratch[i], scratch[j]) <= 0) ? scratch[i++] : scratch[j++];
        }
    }

    private int compare(int x, int y) {
        Chunk px = pages.get(x >>> RowStore.PAGE_SHIFT);
        Chunk py = pages.get(y >>> RowStore.PAGE_SHIFT);
        int rx = x & RowStore.PAGE_MASK;
        int ry = y & RowStore.PAGE_MASK;
        for (Ordering.Key k : ordering.keys()) {
            int c = k.field();
            boolean nx = px.isNull(c, rx);
            boolean ny = py.isNull(c, ry);
            int cmp;
            if (nx || ny) {
                cmp = nx == ny ? 0 : nx == k.nullsFirst() ? -1 : 1;
            } else {
                cmp = switch (px.types[c].storageKind()) {
                    case LONG -> Long.compare(px.longs[c][rx], py.longs[c][ry]);
                    case DOUBLE -> {
                        double a = px.doubles[c][rx];
                        double b = py.doubles[c][ry];
                        yield a == b ? 0 : Double.compare(a, b); // 0.0 = -0.0
                    }
                    case STRING -> StringDictionary.compare(px.strings[c][rx], py.strings[c][ry]);
                };
                if (k.descending()) {
                    cmp = -cmp;
                }
            }
            if (cmp != 0) {
                return cmp;
            }
        }
        return 0;
    }
}
