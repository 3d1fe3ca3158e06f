package io.numacol.jdbc;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The rows of a {@code TYPE_SCROLL_INSENSITIVE} result set, read to the end when its query runs
 * (so that the rows it shows are the query's snapshot, whatever commits later), and the one
 * iterator over them that Avatica's cursor reads: {@link #seek} sets the row its next step takes,
 * so that the cursor's accessors, and with them every getter's conversions, read the row a
 * {@link ScrollInsensitiveResultSet} moved to.
 */
final class ScrollableRows implements Iterable<Object> {
    private final List<Object> rows;
    /** The index of the row the cursor's next step takes. */
    private int next;
    private final Iterator<Object> cursor = new Iterator<>() {
        @Override
        public boolean hasNext() {
            return next < rows.size();
        }

        @Override
        public Object next() {
            if (next >= rows.size()) {
                throw new NoSuchElementException("past the last of " + rows.size() + " rows");
            }
            return rows.get(next++);
        }
    };

    private ScrollableRows(List<Object> rows) {
        this.rows = rows;
    }

    /**
     * Reads {@code source} to its end (and closes its iterator, which ends the statement's read of
     * the tables): the rows of a scroll-insensitive result set.
     */
    static ScrollableRows of(Iterable<Object> source) throws Exception {
        Iterator<Object> it = source.iterator();
        List<Object> rows = new ArrayList<>();
        try {
            while (it.hasNext()) {
                rows.add(it.next());
            }
        } finally {
            if (it instanceof AutoCloseable closeable) {
                closeable.close();
            }
        }
        return new ScrollableRows(rows);
    }

    /** The one iterator, which the result set's cursor takes; it moves with {@link #seek}. */
    @Override
    public Iterator<Object> iterator() {
        return cursor;
    }

    int size() {
        return rows.size();
    }

    /** Makes row {@code index} (0-based; {@link #size()} for none) the one the cursor's next step takes. */
    void seek(int index) {
        next = index;
    }
}
