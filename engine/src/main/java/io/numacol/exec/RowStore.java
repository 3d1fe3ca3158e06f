package io.numacol.exec;

import io.numacol.scheduler.Affinity;
import io.numacol.storage.types.ColumnType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Rows kept by a pipeline's sink (a hash join's build side, a query's result), as full
 * {@link Chunk}s of {@link Chunk#CAPACITY} rows: row {@code r} is row {@code r % CAPACITY} of page
 * {@code r / CAPACITY}. Each task appends to a store of its own; {@link #addAll} gathers them, so
 * a page may be partly filled and row numbers may skip (at most one partial page per task).
 */
final class RowStore implements ChunkSink {
    static final int PAGE_SHIFT = Integer.numberOfTrailingZeros(Chunk.CAPACITY);
    static final int PAGE_MASK = Chunk.CAPACITY - 1;

    private final List<ColumnType> types;
    private final List<Chunk> pages = new ArrayList<>();
    /** Per page, the NUMA node of the worker that filled it (-1: unknown), where its memory most likely is. */
    private final List<Integer> pageNodes = new ArrayList<>();
    /** The node pages appended from now on are filled on. */
    private int node = -1;
    private Chunk current;
    private long rows;

    private final MemoryReservation reservation;

    RowStore(List<ColumnType> types) {
        this(types, MemoryReservation.NONE);
    }

    /** A store whose pages are reserved in {@code reservation} as they are added. */
    RowStore(List<ColumnType> types, MemoryReservation reservation) {
        this.types = List.copyOf(types);
        this.reservation = reservation;
    }

    /** An empty store of {@code types} reserving where this one does. */
    RowStore sibling(List<ColumnType> types) {
        return new RowStore(types, reservation);
    }

    MemoryReservation reservation() {
        return reservation;
    }

    /** The heap a page of {@code columns} columns takes: a value (long, double or reference) and a NULL flag per row. */
    static long pageBytes(int columns) {
        return (long) columns * Chunk.CAPACITY * (Long.BYTES + 1) + 64;
    }

    List<Chunk> pages() {
        return pages;
    }

    List<ColumnType> types() {
        return types;
    }

    /** The node of the worker that filled page {@code page}, or -1. */
    int pageNode(int page) {
        return pageNodes.get(page);
    }

    /** Pages {@code [from, to)}, all filled on {@code node} (-1: unknown). */
    record PageRun(int from, int to, int node) {
        Affinity affinity() {
            return node < 0 ? Affinity.none() : Affinity.node(node);
        }
    }

    /** The pages cut into runs of at most {@code maxPages} filled on one node: a task's share, with its node's affinity. */
    List<PageRun> runs(int maxPages) {
        List<PageRun> runs = new ArrayList<>();
        for (int from = 0; from < pages.size(); ) {
            int node = pageNodes.get(from);
            int to = from + 1;
            while (to < pages.size() && to - from < maxPages && pageNodes.get(to) == node) {
                to++;
            }
            runs.add(new PageRun(from, to, node));
            from = to;
        }
        return runs;
    }

    /** Says on which node the pages appended from now on are filled (the worker's). */
    void fillOn(int node) {
        this.node = node;
    }

    long rows() {
        return rows;
    }

    /** One past the largest row number. */
    long capacity() {
        return (long) pages.size() << PAGE_SHIFT;
    }

    /** Copies {@code chunk}'s rows. */
    @Override
    public void accept(Chunk chunk) {
        int from = 0;
        while (from < chunk.size) {
            if (current == null || current.size == Chunk.CAPACITY) {
                reservation.reserve(pageBytes(types.size()), "a query's intermediate rows");
                current = new Chunk(types).allocate();
                pages.add(current);
                pageNodes.add(node);
            }
            int n = Math.min(chunk.size - from, Chunk.CAPACITY - current.size);
            for (int c = 0; c < types.size(); c++) {
                copyColumn(chunk, c, from, current, current.size, n);
            }
            current.size += n;
            from += n;
        }
        rows += chunk.size;
    }

    private static void copyColumn(Chunk from, int c, int fromRow, Chunk to, int toRow, int n) {
        switch (to.types[c].storageKind()) {
            case LONG -> System.arraycopy(from.longs[c], fromRow, to.longs[c], toRow, n);
            case DOUBLE -> System.arraycopy(from.doubles[c], fromRow, to.doubles[c], toRow, n);
            case STRING -> System.arraycopy(from.strings[c], fromRow, to.strings[c], toRow, n);
        }
        boolean[] nulls = from.nulls[c];
        if (nulls == null) {
            Arrays.fill(to.nulls[c], toRow, toRow + n, false);
        } else {
            System.arraycopy(nulls, fromRow, to.nulls[c], toRow, n);
        }
    }

    /** Takes over another store's pages (which must not be appended to afterwards). */
    void addAll(RowStore other) {
        pages.addAll(other.pages);
        pageNodes.addAll(other.pageNodes);
        rows += other.rows;
        current = null; // the last page may be another store's partial one: never append to it
    }

    /** A store of rows given as internal Java values (see {@link InternalValues}). */
    static RowStore of(List<ColumnType> types, List<Object[]> rows) {
        RowStore store = new RowStore(types);
        Chunk chunk = new Chunk(types).allocate();
        for (Object[] row : rows) {
            int r = chunk.size++;
            for (int c = 0; c < types.size(); c++) {
                Object v = row[c];
                ColumnType type = types.get(c);
                chunk.nulls[c][r] = v == null;
                if (v != null) {
                    switch (type.storageKind()) {
                        case LONG -> chunk.longs[c][r] = InternalValues.toStored(type, v);
                        case DOUBLE -> chunk.doubles[c][r] = ((Number) v).doubleValue();
                        case STRING -> chunk.strings[c][r] = (String) v;
                    }
                }
            }
            if (chunk.size == Chunk.CAPACITY) {
                store.accept(chunk);
                chunk.size = 0;
            }
        }
        store.accept(chunk);
        return store;
    }

    /** The rows as internal Java values (see {@link InternalValues}), for JDBC. */
    List<Object[]> toRows(BooleanSupplier cancelled) {
        // the result's rows (an array and a boxed value per column each), counted while they are made
        reservation.reserve(rows * (16L + types.size() * 24L), "a query's result rows");
        List<Object[]> out = new ArrayList<>((int) Math.min(Integer.MAX_VALUE - 8, rows));
        for (Chunk page : pages) {
            // millions of rows (a cross join's) take seconds to box: the statement's stop is asked every page
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("statement cancelled");
            }
            for (int r = 0; r < page.size; r++) {
                Object[] row = new Object[types.size()];
                for (int c = 0; c < row.length; c++) {
                    row[c] = page.value(c, r);
                }
                out.add(row);
            }
        }
        return out;
    }
}
