package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.VidPredicate;
import io.numacol.storage.DeletedRows;
import io.numacol.storage.IndexVector;
import io.numacol.storage.TablePart;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link ColumnFilter} bound to one part's dictionaries: vid predicates on its IndexVectors,
 * combined word by word. Evaluation writes only the bits of {@code [from, to)} of the output,
 * so tasks whose ranges start at multiples of 64 can share one BitVector per part. A part with
 * deleted rows always has one ({@link Live}): its rows are skipped word by word as the filter's
 * result is written, not in a second pass over the rows. Where an equality or IN on a column
 * the part has an Index of finds few rows ({@link IndexProbe}), the filter is a {@link Probe}:
 * only those rows are tested, one at a time, and scans read only the blocks holding them.
 */
sealed interface PartFilter {

    record Leaf(IndexVector iv, VidPredicate predicate) implements PartFilter {
    }

    record And(List<PartFilter> filters) implements PartFilter {
    }

    record Or(List<PartFilter> filters) implements PartFilter {
    }

    /** Rows of {@code left} not in {@code right}. */
    record AndNot(PartFilter left, PartFilter right) implements PartFilter {
    }

    /** The rows {@code filter} keeps (every row when null) less {@code deleted}. */
    record Live(PartFilter filter, DeletedRows deleted) implements PartFilter {
    }

    /**
     * The rows at {@code positions} (ascending) that {@code rest} keeps (all of them when null):
     * what an {@link IndexProbe} found, with the whole filter and the deleted rows still to test.
     */
    record Probe(int[] positions, PartFilter rest) implements PartFilter {
        /** Whether no row can qualify: a scan of the part has nothing to read. */
        boolean isEmpty() {
            return positions.length == 0;
        }

        /** The first row of the 1024-row block holding the first position: where a scan's ranges start. */
        int from() {
            return positions[0] & -IndexVector.BLOCK_ROWS;
        }

        /** One past the last position. */
        int to() {
            return positions[positions.length - 1] + 1;
        }

        /** Whether a position lies in {@code [from, to)}. */
        boolean any(int from, int to) {
            int i = Arrays.binarySearch(positions, from);
            i = i < 0 ? -i - 1 : i;
            return i < positions.length && positions[i] < to;
        }

        @Override
        public String toString() {
            return "Probe[" + positions.length + " rows, " + rest + "]";
        }
    }

    /**
     * What a scan of {@code part} tests: {@code filter} on its dictionaries (large ones tested in
     * pieces by {@code fork}) and its deleted rows; null when every row qualifies. A part the
     * filter's equality rules out whole is an empty {@link Probe}, with nothing prepared.
     */
    static PartFilter of(ColumnFilter filter, TablePart part, Fork fork) {
        int[] found = filter == null ? null : IndexProbe.positions(filter, part);
        if (found != null && found.length == 0) {
            return new Probe(found, null);
        }
        PartFilter prepared = filter == null ? null : filter.prepare(part, fork);
        PartFilter live = part.deleted().isEmpty() ? prepared : new Live(prepared, part.deleted());
        return found == null ? live : new Probe(found, live);
    }

    /** Whether {@code filter} (of {@link #of}) rules every row of its part out: no task need read it. */
    static boolean excludesAll(PartFilter filter) {
        return filter instanceof Probe p && p.isEmpty();
    }

    /**
     * The ranges of {@code morsels} that can hold a row {@code filter} keeps: all of them, but
     * for a {@link Probe}, which keeps the ranges its rows lie in, cut to them.
     */
    static List<Morsels.Morsel> within(PartFilter filter, List<Morsels.Morsel> morsels) {
        if (!(filter instanceof Probe p)) {
            return morsels;
        }
        if (p.isEmpty()) {
            return List.of();
        }
        List<Morsels.Morsel> out = new ArrayList<>();
        for (Morsels.Morsel m : morsels) {
            int from = Math.max(m.from(), p.from());
            int to = Math.min(m.to(), p.to());
            if (from < to && p.any(from, to)) {
                out.add(new Morsels.Morsel(from, to, m.affinity()));
            }
        }
        return out;
    }

    /** Whether row {@code row} qualifies, tested alone: a {@link Probe}'s way, for the few rows it found. */
    default boolean test(int row) {
        return switch (this) {
            case Leaf l -> l.predicate().test(l.iv().get(row));
            case And a -> {
                for (PartFilter f : a.filters()) {
                    if (!f.test(row)) {
                        yield false;
                    }
                }
                yield true;
            }
            case Or o -> {
                for (PartFilter f : o.filters()) {
                    if (f.test(row)) {
                        yield true;
                    }
                }
                yield false;
            }
            case AndNot n -> n.left().test(row) && !n.right().test(row);
            case Live l -> !l.deleted().isDeleted(row) && (l.filter() == null || l.filter().test(row));
            case Probe p -> Arrays.binarySearch(p.positions(), row) >= 0 && (p.rest() == null || p.rest().test(row));
        };
    }

    /** Sets the rows of {@code [from, to)} that qualify and clears the others; {@code from} is a multiple of 64. */
    default void eval(ScanKernel kernel, int from, int to, BitVector out) {
        switch (this) {
            case Leaf l -> kernel.scan(l.iv(), from, to, l.predicate(), out);
            case And a -> combine(kernel, a.filters(), from, to, out, Op.AND);
            case Or o -> combine(kernel, o.filters(), from, to, out, Op.OR);
            case AndNot n -> {
                n.left().eval(kernel, from, to, out);
                BitVector scratch = new BitVector(out.size());
                n.right().eval(kernel, from, to, scratch);
                apply(out, scratch, from, to, Op.AND_NOT);
            }
            case Probe p -> {
                long[] w = out.words();
                Arrays.fill(w, from >>> 6, (to + 63) >>> 6, 0L);
                int[] positions = p.positions();
                int i = Arrays.binarySearch(positions, from);
                for (i = i < 0 ? -i - 1 : i; i < positions.length && positions[i] < to; i++) {
                    int row = positions[i];
                    if (p.rest() == null || p.rest().test(row)) {
                        w[row >>> 6] |= 1L << row;
                    }
                }
            }
            case Live l -> {
                long[] w = out.words();
                int end = (to + 63) >>> 6;
                if (l.filter() == null) {
                    for (int i = from >>> 6; i < end; i++) {
                        w[i] = ~l.deleted().word(i);
                    }
                    if ((to & 63) != 0) {
                        w[end - 1] &= -1L >>> -to; // a scan sets no bit past its rows
                    }
                } else {
                    l.filter().eval(kernel, from, to, out);
                    for (int i = from >>> 6; i < end; i++) {
                        w[i] &= ~l.deleted().word(i);
                    }
                }
            }
        }
    }

    enum Op { AND, OR, AND_NOT }

    private static void combine(ScanKernel kernel, List<PartFilter> filters, int from, int to, BitVector out, Op op) {
        filters.getFirst().eval(kernel, from, to, out);
        if (filters.size() > 1) {
            BitVector scratch = new BitVector(out.size());
            for (PartFilter f : filters.subList(1, filters.size())) {
                f.eval(kernel, from, to, scratch);
                apply(out, scratch, from, to, op);
            }
        }
    }

    /** Combines the words of {@code [from, to)}; bits past {@code to} in the last word are never read. */
    private static void apply(BitVector out, BitVector other, int from, int to, Op op) {
        long[] w = out.words();
        long[] o = other.words();
        for (int i = from >>> 6, end = (to + 63) >>> 6; i < end; i++) {
            w[i] = switch (op) {
                case AND -> w[i] & o[i];
                case OR -> w[i] | o[i];
                case AND_NOT -> w[i] & ~o[i];
            };
        }
    }
}
