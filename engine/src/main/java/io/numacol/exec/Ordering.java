package io.numacol.exec;

import java.util.Comparator;
import java.util.List;

/** ORDER BY output fields, then OFFSET and FETCH (-1: all rows). */
public record Ordering(List<Key> keys, long offset, long fetch) {

    public record Key(int field, boolean descending, boolean nullsFirst) {
    }

    public Ordering {
        keys = List.copyOf(keys);
    }

    /** Rows to keep before the offset is skipped, or -1 for all. */
    long limit() {
        return fetch < 0 ? -1 : offset + fetch;
    }

    Comparator<Object[]> comparator() {
        return (a, b) -> {
            for (Key k : keys) {
                Object x = a[k.field()];
                Object y = b[k.field()];
                int c;
                if (x == null || y == null) {
                    c = x == y ? 0 : (x == null) == k.nullsFirst() ? -1 : 1;
                } else {
                    c = InternalValues.compare(x, y);
                    if (k.descending()) {
                        c = -c;
                    }
                }
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }
}
