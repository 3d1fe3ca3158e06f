package io.numacol.storage;

import java.util.Collection;
import java.util.List;

/**
 * One statement's view of a {@link Catalog}: its tables and views as of the version the statement
 * started at, and a claim on every table dropped or replaced (ALTER TABLE) after that version, which
 * stays readable by the statement until the view closes. A statement plans against one catalog
 * version (the planner's lookups all answer from {@link #tables()}), and a reader of a table that
 * another connection alters or drops meanwhile reads the version it started with, as a reader of
 * an MVCC database does; the old version's memory is freed when the last such reader ends.
 *
 * <p>A view is bound to the thread that runs the statement with {@link #runIn} (and by a result's
 * rows at each step, {@link Binding#enter}), so that {@link Table#snapshot()} knows whom it serves
 * without every caller passing it along. The binding is a field of a per-thread holder, set and
 * restored: a ScopedValue bound at every row cost a quarter of the time to read 200,000 rows
 * (its cache is invalidated at each binding).
 */
public final class CatalogView implements AutoCloseable {
    /** The view each thread runs in now, in a holder so that a result's rows set it without a lookup per row. */
    private static final ThreadLocal<Binding> BINDING = ThreadLocal.withInitial(Binding::new);

    private final Catalog catalog;
    private final long version;
    private final List<Table> tables;
    private final List<ViewDef> views;
    /** The commit timestamp whose data the view reads, registered with the catalog's clock until the view closes. */
    private volatile long readTimestamp;
    /** The transaction whose statements read through this view (its changes on top of the data), or null. */
    private final Transaction transaction;
    private volatile boolean closed;

    CatalogView(Catalog catalog, long version, List<Table> tables, List<ViewDef> views, long readTimestamp, Transaction transaction) {
        this.catalog = catalog;
        this.version = version;
        this.tables = tables;
        this.views = views;
        this.readTimestamp = readTimestamp;
        this.transaction = transaction;
    }

    /** The commit timestamp whose data the view's statements read (see {@link Table#snapshot()}). */
    public long readTimestamp() {
        return readTimestamp;
    }

    /** Whether the view closed: its read timestamp no longer holds the versions it read. */
    public boolean isClosed() {
        return closed;
    }

    /** The transaction this view serves, or null for a statement of its own (auto-commit). */
    public Transaction transaction() {
        return transaction;
    }

    /**
     * Reads the newest committed data from now on: an auto-commit UPDATE or DELETE, once it holds
     * its table's write lock, changes the rows as they are then, not as they were when it began.
     */
    public void readLatest() {
        CommitClock clock = catalog.clock();
        long before;
        synchronized (this) { // not beside a close(): it ends the registration it finds
            if (closed) {
                return;
            }
            before = readTimestamp;
            readTimestamp = clock.beginRead();
        }
        clock.endRead(before);
    }

    /** The view bound to this thread by {@link #runIn}, or null. */
    public static CatalogView current() {
        return BINDING.get().view;
    }

    /** The view bound to this thread if it is one of {@code catalog}, else null. */
    public static CatalogView current(Catalog catalog) {
        CatalogView view = current();
        return view != null && view.catalog == catalog ? view : null;
    }

    /** What {@link #runIn} runs. */
    @FunctionalInterface
    public interface Body<T, X extends Throwable> {
        T run() throws X;
    }

    /** Runs {@code body} with {@code view} as this thread's {@link #current()} (a null view: as it is). */
    public static <T, X extends Throwable> T runIn(CatalogView view, Body<T, X> body) throws X {
        if (view == null) {
            return body.run();
        }
        Binding binding = BINDING.get();
        CatalogView before = binding.enter(view);
        try {
            return body.run();
        } finally {
            binding.exit(before);
        }
    }

    /** This thread's binding, for {@link Binding#enter} and {@link Binding#exit} around each step of a result's rows. */
    public static Binding binding() {
        return BINDING.get();
    }

    /** Which view a thread runs in; set and restored by the thread itself only. */
    public static final class Binding {
        private CatalogView view;

        private Binding() {
        }

        /** Binds {@code to} and returns the view bound before, for {@link #exit}. */
        public CatalogView enter(CatalogView to) {
            CatalogView before = view;
            view = to;
            return before;
        }

        public void exit(CatalogView before) {
            view = before;
        }
    }

    public Catalog catalog() {
        return catalog;
    }

    /** The catalog version the view shows. */
    public long version() {
        return version;
    }

    /** Every table of every schema, as of {@link #version()}. */
    public Collection<Table> tables() {
        return tables;
    }

    /** Every view of every schema, as of {@link #version()}. */
    public Collection<ViewDef> views() {
        return views;
    }

    /** Whether the statement may still read {@code table}: it was in the catalog when the view began. */
    boolean sees(Table table) {
        return !closed && table.droppedAt() > version;
    }

    /** Ends the claim: tables dropped after {@link #version()} are freed once no other view needs them. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        catalog.endRead(this);
    }

    @Override
    public String toString() {
        return "CatalogView@" + version;
    }
}
