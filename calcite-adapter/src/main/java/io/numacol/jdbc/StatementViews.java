package io.numacol.jdbc;

import io.numacol.database.Database;
import io.numacol.storage.CatalogView;
import org.apache.calcite.avatica.Meta.StatementHandle;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link CatalogView} each statement of one connection reads through, from the start of an
 * execution (planning included) until its rows are read to the end or closed, the statement runs
 * again, or it closes: a statement plans against one catalog version, and a table that another
 * connection alters or drops meanwhile stays readable to it.
 */
final class StatementViews {
    private final Map<Integer, CatalogView> open = new ConcurrentHashMap<>();
    /**
     * When each execution under way began, for a database with a meter registry: its view's end
     * is the statement's end in the {@code numacol.statement} timer (a query's rows read or closed).
     */
    private final Map<Integer, Timing> timings = new ConcurrentHashMap<>();

    /** An execution's start, and the view that ends it. */
    private record Timing(CatalogView view, Database database, long start) {
        void record() {
            database.recordStatement(System.nanoTime() - start);
        }
    }
    /** The connection's transaction, whose views its statements run in while one is open; the transaction closes them. */
    private final ConnectionTransaction transaction;

    StatementViews(ConnectionTransaction transaction) {
        this.transaction = transaction;
    }

    /** Set once the connection closed: a view begun after that (a statement still running on another thread) ends at once. */
    private volatile boolean closed;

    /** A new view for an execution of {@code h} (the one before, if open, ends), or null without a database. */
    CatalogView begin(StatementHandle h, Database database) {
        return begin(h, database, true);
    }

    /**
     * {@link #begin(StatementHandle, Database)}; {@code inTransaction} false for DDL, which runs on
     * its own (the open transaction committed first): the rows an ALTER TABLE or CREATE TABLE AS
     * copies are published with it, not handed to a transaction.
     */
    CatalogView begin(StatementHandle h, Database database, boolean inTransaction) {
        CatalogView view = null;
        if (database != null) {
            view = inTransaction ? transaction.statementView(database) : null;
            if (view == null) {
                view = database.catalog().beginRead();
            }
        }
        CatalogView before = view == null ? open.remove(h.id) : open.put(h.id, view);
        close(before);
        Timing ended = view == null || !database.hasMetrics() ? timings.remove(h.id)
                : timings.put(h.id, new Timing(view, database, System.nanoTime()));
        if (ended != null) {
            ended.record();
        }
        if (closed && view != null) {
            // the connection closed meanwhile (endAll ran, or runs now): no one would end this view,
            // and the tables dropped after it began would never be freed
            end(h, view);
            return null;
        }
        return view;
    }

    /** The view of the execution of {@code h} under way, or null. */
    CatalogView of(StatementHandle h) {
        return open.get(h.id);
    }

    /** Ends {@code view}, the execution of {@code h}'s, unless a later execution replaced it already. */
    void end(StatementHandle h, CatalogView view) {
        if (view != null && open.remove(h.id, view)) {
            close(view);
            Timing t = timings.get(h.id);
            if (t != null && t.view() == view && timings.remove(h.id, t)) {
                t.record();
            }
        }
    }

    /** Ends the view of {@code h}, if any (the statement closed). */
    void end(StatementHandle h) {
        close(open.remove(h.id));
        Timing t = timings.remove(h.id);
        if (t != null) {
            t.record();
        }
    }

    /** Closes a statement's own view; a transaction's stays open until the transaction ends. */
    private static void close(CatalogView view) {
        if (view != null && view.transaction() == null) {
            view.close();
        }
    }

    /** Ends every view (the connection closed). */
    void endAll() {
        closed = true; // first: a begin() after this sees it, one before it has put its view where this finds it
        open.values().removeIf(view -> {
            close(view);
            return true;
        });
        timings.values().removeIf(t -> {
            t.record();
            return true;
        });
    }

    /**
     * {@code rows} read through {@code view} (each step runs with it bound, since a query's scans
     * start at its first row); the view ends when the rows end or are closed.
     */
    Iterable<Object> reading(StatementHandle h, CatalogView view, Iterable<Object> rows) {
        if (view == null) {
            return rows;
        }
        return () -> new Rows(CatalogView.runIn(view, rows::iterator), h, view);
    }

    /**
     * A result's rows, each step with the view bound (through the thread's binding, set and
     * restored: no lookup per row on the thread that made them); AutoCloseable as Calcite's
     * enumerator is, which Avatica closes with the result set.
     */
    private final class Rows implements Iterator<Object>, AutoCloseable {
        private final Iterator<Object> rows;
        private final StatementHandle h;
        private final CatalogView view;
        private final Thread owner = Thread.currentThread();
        private final CatalogView.Binding ownerBinding = CatalogView.binding();

        Rows(Iterator<Object> rows, StatementHandle h, CatalogView view) {
            this.rows = rows;
            this.h = h;
            this.view = view;
        }

        private CatalogView.Binding binding() {
            return Thread.currentThread() == owner ? ownerBinding : CatalogView.binding();
        }

        @Override
        public boolean hasNext() {
            CatalogView.Binding binding = binding();
            CatalogView before = binding.enter(view);
            boolean more;
            try {
                more = rows.hasNext();
            } finally {
                binding.exit(before);
            }
            if (!more) {
                end(h, view);
            }
            return more;
        }

        @Override
        public Object next() {
            CatalogView.Binding binding = binding();
            CatalogView before = binding.enter(view);
            try {
                return rows.next();
            } finally {
                binding.exit(before);
            }
        }

        @Override
        public void close() {
            try {
                if (rows instanceof AutoCloseable closeable) {
                    closeable.close();
                }
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw QueryFailures.<RuntimeException>sneaky(e);
            } finally {
                end(h, view);
            }
        }
    }
}
