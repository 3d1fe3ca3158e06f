package io.numacol.exec;

import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.VidPredicate;
import io.numacol.storage.DeletedRows;
import io.numacol.storage.IndexVector;
import io.numacol.storage.TablePart;

import java.util.List;

/**
 * A {@link ColumnFilter} bound to one part's dictionaries: vid predicates on its IndexVectors,
 * combined word by word. Evaluation writes only the bits of {@code [from, to)} of the output,
 * so tasks whose ranges start at multiples of 64 can share one BitVector per part. A part with
 * deleted rows always has one ({@link Live}): its rows are skipped word by word as the filter's
 * result is written, not in a second pass over the rows.
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
     * What a scan of {@code part} tests: {@code filter} on its dictionaries (large ones tested in
     * pieces by {@code fork}) and its deleted rows; null when every row qualifies.
     */
    static PartFilter of(ColumnFilter filter, TablePart part, Fork fork) {
        PartFilter prepared = filter == null ? null : filter.prepare(part, fork);
        return part.deleted().isEmpty() ? prepared : new Live(prepared, part.deleted());
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
