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
 * <p>A view is bound to the thread that runs the statement with {@link #runIn}, so that {@link
 * Table#snapshot()} knows whom it serves without every caller passing it along.
 */
public final class CatalogView implements AutoCloseable {
    private static final ScopedValue<CatalogView> CURRENT = ScopedValue.newInstance();

    private final Catalog catalog;
    private final long version;
    private final List<Table> tables;
    private final List<ViewDef> views;
    private volatile boolean closed;
    /** This view bound, made once: a result's rows bind it at every step. */
    private final ScopedValue.Carrier bound;

    CatalogView(Catalog catalog, long version, List<Table> tables, List<ViewDef> views) {
        this.catalog = catalog;
        this.version = version;
        this.tables = tables;
        this.views = views;
        this.bound = ScopedValue.where(CURRENT, this);
    }

    /** The view bound to this thread by {@link #runIn}, or null. */
    public static CatalogView current() {
        return CURRENT.isBound() ? CURRENT.get() : null;
    }

    /** The view bound to this thread if it is one of {@code catalog}, else null. */
    public static CatalogView current(Catalog catalog) {
        CatalogView view = current();
        return view != null && view.catalog == catalog ? view : null;
    }

    /** Runs {@code body} with {@code view} as this thread's {@link #current()} (a null view: as it is). */
    public static <T, X extends Throwable> T runIn(CatalogView view, ScopedValue.CallableOp<T, X> body) throws X {
        return view == null ? body.call() : view.call(body);
    }

    /** Runs {@code body} with this view as this thread's {@link #current()}. */
    public <T, X extends Throwable> T call(ScopedValue.CallableOp<T, X> body) throws X {
        return bound.call(body);
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
