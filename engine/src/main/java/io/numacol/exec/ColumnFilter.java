package io.numacol.exec;

import io.numacol.scan.VidPredicate;
import io.numacol.storage.Column;
import io.numacol.storage.Dictionary;
import io.numacol.storage.DoubleDictionary;
import io.numacol.storage.IndexVector;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.TablePart;
import io.numacol.storage.VidRange;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A predicate on a table's columns, given with stored values (Long for integers, decimals as
 * unscaled longs, dates as epoch days; Double; String). Each part turns it into vid predicates on
 * its own dictionaries ({@link #prepare}), so the scan never looks at a value. A NULL never
 * satisfies a value predicate: the null vid lies outside every dictionary range.
 */
public sealed interface ColumnFilter {

    /** {@code low <(=) value <(=) high}; a null bound is open. */
    record Range(int column, Object low, boolean lowInclusive, Object high, boolean highInclusive) implements ColumnFilter {
    }

    /** {@code value IN (values)}. */
    record In(int column, List<Object> values) implements ColumnFilter {
        public In {
            values = List.copyOf(values);
        }
    }

    /**
     * Values for which {@code test} holds, tested once per dictionary entry (LIKE); {@code utf8},
     * if not null, is the same test on a value's UTF-8 bytes, which a string dictionary runs.
     */
    record Matching(int column, Predicate<Object> test, String description, LikePattern.Utf8Like utf8) implements ColumnFilter {
        public Matching(int column, Predicate<Object> test, String description) {
            this(column, test, description, null);
        }

        @Override
        public String toString() {
            return "Matching[" + column + " " + description + "]";
        }
    }

    /** Strings that start with {@code prefix} ({@code LIKE 'abc%'}): one vid range of a part's sorted dictionary. */
    record Prefix(int column, String prefix) implements ColumnFilter {
        public Prefix {
            Objects.requireNonNull(prefix, "prefix");
        }
    }

    /** {@code IS NULL}, or {@code IS NOT NULL} when negated. */
    record IsNull(int column, boolean negated) implements ColumnFilter {
    }

    /** SQL NOT of a one-column predicate: false for NULL, like the predicate itself. */
    record Not(ColumnFilter leaf) implements ColumnFilter {
        public Not {
            if (leaf instanceof And || leaf instanceof Or || leaf instanceof Not || leaf instanceof IsNull) {
                throw new IllegalArgumentException("NOT only of a value predicate, got " + leaf);
            }
        }
    }

    record And(List<ColumnFilter> filters) implements ColumnFilter {
        public And {
            filters = List.copyOf(filters);
        }
    }

    record Or(List<ColumnFilter> filters) implements ColumnFilter {
        public Or {
            filters = List.copyOf(filters);
        }
    }

    /** The columns the filter reads, each once, its leftmost leaf's first (the one evaluated first). */
    default int[] columns() {
        return switch (this) {
            case Range r -> new int[] {r.column()};
            case In in -> new int[] {in.column()};
            case Matching m -> new int[] {m.column()};
            case Prefix p -> new int[] {p.column()};
            case IsNull n -> new int[] {n.column()};
            case Not n -> n.leaf().columns();
            case And a -> columnsOf(a.filters());
            case Or o -> columnsOf(o.filters());
        };
    }

    private static int[] columnsOf(List<ColumnFilter> filters) {
        return filters.stream().flatMapToInt(f -> Arrays.stream(f.columns())).distinct().toArray();
    }

    /** This predicate as vid predicates on {@code part}'s dictionaries, tested on the calling thread. */
    default PartFilter prepare(TablePart part) {
        return prepare(part, Fork.SERIAL);
    }

    /** This predicate as vid predicates on {@code part}'s dictionaries; large dictionaries are tested in pieces by {@code fork}. */
    default PartFilter prepare(TablePart part, Fork fork) {
        return switch (this) {
            case And a -> intersectRanges(a.filters().stream().map(f -> f.prepare(part, fork)).toList());
            case Or o -> new PartFilter.Or(o.filters().stream().map(f -> f.prepare(part, fork)).toList());
            case Not n -> {
                Column c = part.column(column(n.leaf()));
                yield new PartFilter.AndNot(new PartFilter.Leaf(c.indexVector(), notNull(c)), n.leaf().prepare(part, fork));
            }
            case IsNull n -> {
                Column c = part.column(n.column());
                VidPredicate p = n.negated() ? notNull(c)
                        : c.hasNulls() ? VidPredicate.in(c.nullVid()) : VidPredicate.of(VidRange.EMPTY);
                yield new PartFilter.Leaf(c.indexVector(), p);
            }
            case Range r -> leaf(part, r.column(), d -> VidPredicate.of(vids(d, r)));
            case In in -> leaf(part, in.column(), d -> {
                List<Integer> found = new ArrayList<>();
                for (Object v : in.values()) {
                    int vid = find(d, v);
                    if (vid >= 0) {
                        found.add(vid);
                    }
                }
                return found.isEmpty() ? VidPredicate.of(VidRange.EMPTY)
                        : VidPredicate.in(found.stream().mapToInt(Integer::intValue).toArray());
            });
            case Prefix p -> leaf(part, p.column(), d -> VidPredicate.of(((StringDictionary) d).withPrefix(p.prefix())));
            case Matching m -> leaf(part, m.column(), d -> m.utf8() != null && d instanceof StringDictionary text
                    ? matchingUtf8(text, m.utf8(), fork) : matching(d, m.test(), fork));
        };
    }

    /**
     * The share of {@code parts}' rows this predicate is estimated to keep, for join ordering:
     * per part, the share of its dictionary's values that pass (each value taken to be as
     * frequent as any other, NULL counted as one more value), weighted by the part's rows; AND
     * and OR as of independent predicates. A LIKE is tested on at most {@link #SAMPLED_VALUES}
     * values of a dictionary, spread over it: planning must not test all of them.
     */
    default double selectivity(List<TablePart> parts) {
        double rows = 0;
        double kept = 0;
        for (TablePart part : parts) {
            rows += part.rowCount();
            kept += part.rowCount() * selectivity(part);
        }
        return rows == 0 ? 1 : Math.clamp(kept / rows, 0, 1);
    }

    /** Values of a dictionary tested to estimate a LIKE's share. */
    int SAMPLED_VALUES = 256;

    private double selectivity(TablePart part) {
        return switch (this) {
            case And a -> {
                // ranges of one column intersect (x >= 5 AND x < 9), they are not independent
                Map<Integer, VidRange> ranges = new TreeMap<>();
                double share = 1;
                for (ColumnFilter f : a.filters()) {
                    if (f instanceof Range r) {
                        VidRange vids = vids(part.column(r.column()).dictionary(), r);
                        ranges.merge(r.column(), vids, (x, y) -> VidRange.of(Math.max(x.from(), y.from()), Math.min(x.to(), y.to())));
                    } else {
                        share *= f.selectivity(part);
                    }
                }
                for (Map.Entry<Integer, VidRange> e : ranges.entrySet()) {
                    share *= share(part.column(e.getKey()), e.getValue().size());
                }
                yield share;
            }
            case Or o -> 1 - o.filters().stream().mapToDouble(f -> 1 - f.selectivity(part)).reduce(1, (x, y) -> x * y);
            case Not n -> Math.max(0, share(part.column(column(n.leaf())), part.column(column(n.leaf())).dictionary().size())
                    - n.leaf().selectivity(part));
            case IsNull n -> {
                Column c = part.column(n.column());
                double nulls = c.hasNulls() ? share(c, 1) : 0;
                yield n.negated() ? 1 - nulls : nulls;
            }
            case Range r -> share(part.column(r.column()), vids(part.column(r.column()).dictionary(), r).size());
            case In in -> {
                Column c = part.column(in.column());
                yield share(c, (int) in.values().stream().filter(v -> find(c.dictionary(), v) >= 0).count());
            }
            case Prefix p -> share(part.column(p.column()), ((StringDictionary) part.column(p.column()).dictionary())
                    .withPrefix(p.prefix()).size());
            case Matching m -> {
                Dictionary d = part.column(m.column()).dictionary();
                int size = d.size();
                if (size == 0) {
                    yield 0;
                }
                int step = Math.max(1, size / SAMPLED_VALUES);
                int tested = 0;
                int passed = 0;
                for (int vid = step / 2; vid < size; vid += step, tested++) {
                    passed += m.test().test(d.stored(vid)) ? 1 : 0;
                }
                yield share(part.column(m.column()), (double) passed / tested * size);
            }
        };
    }

    /** The share of a column's rows that hold one of {@code values} of its distinct values. */
    private static double share(Column c, double values) {
        int distinct = c.dictionary().size() + (c.hasNulls() ? 1 : 0);
        return distinct == 0 ? 0 : values / distinct;
    }

    /**
     * {@code x >= ? AND x <= ?} arrives as two ranges of one column: as one vid range it is one
     * scan instead of two and an AND, and aggregates can run on the IndexVector alone.
     */
    private static PartFilter intersectRanges(List<PartFilter> filters) {
        List<PartFilter> out = new ArrayList<>();
        IdentityHashMap<IndexVector, Integer> rangeAt = new IdentityHashMap<>();
        for (PartFilter f : filters) {
            if (f instanceof PartFilter.Leaf leaf && leaf.predicate() instanceof VidPredicate.Between b) {
                Integer at = rangeAt.get(leaf.iv());
                if (at != null) {
                    VidPredicate.Between other = (VidPredicate.Between) ((PartFilter.Leaf) out.get(at)).predicate();
                    out.set(at, new PartFilter.Leaf(leaf.iv(), intersect(b, other)));
                    continue;
                }
                rangeAt.put(leaf.iv(), out.size());
            }
            out.add(f);
        }
        return out.size() == 1 ? out.getFirst() : new PartFilter.And(out);
    }

    private static VidPredicate.Between intersect(VidPredicate.Between a, VidPredicate.Between b) {
        if (a.isEmpty() || b.isEmpty()) {
            return a.isEmpty() ? a : b;
        }
        // vids compare unsigned, as the kernels read them
        int lo = Integer.compareUnsigned(a.lo(), b.lo()) >= 0 ? a.lo() : b.lo();
        int hi = Integer.compareUnsigned(a.hi(), b.hi()) <= 0 ? a.hi() : b.hi();
        return new VidPredicate.Between(lo, hi); // empty when lo > hi
    }

    private static int column(ColumnFilter leaf) {
        return switch (leaf) {
            case Range r -> r.column();
            case In in -> in.column();
            case Matching m -> m.column();
            case Prefix p -> p.column();
            default -> throw new IllegalArgumentException("not a value predicate: " + leaf);
        };
    }

    private static PartFilter leaf(TablePart part, int column, Function<Dictionary, VidPredicate> f) {
        Column c = part.column(column);
        return new PartFilter.Leaf(c.indexVector(), f.apply(c.dictionary()));
    }

    /** The vids of {@code d} whose value passes {@code test} (thread-safe). */
    private static VidPredicate matching(Dictionary d, Predicate<Object> test, Fork fork) {
        return vidsWhere(d.size(), fork, () -> (from, to, bitmap) -> {
            for (int w = from >>> 5, wordEnd = (to + 31) >>> 5; w < wordEnd; w++) {
                int bits = 0;
                for (int b = 0, vid = w << 5; b < 32 && vid < to; b++, vid++) {
                    bits |= test.test(d.stored(vid)) ? 1 << b : 0;
                }
                bitmap[w] = bits;
            }
        });
    }

    /**
     * {@link #matching} of a LIKE on the values' UTF-8 bytes, none decoded to a String: a piece's
     * values are tested {@link #LIKE_BATCH} at a time, copied out of the dictionary together.
     */
    private static VidPredicate matchingUtf8(StringDictionary d, LikePattern.Utf8Like like, Fork fork) {
        return vidsWhere(d.size(), fork, () -> {
            int[] starts = new int[LIKE_BATCH + 1];
            boolean[] matches = new boolean[LIKE_BATCH];
            byte[][] bytes = {new byte[1 << 16]}; // the piece's buffer, grown for longer values
            return (first, end, bitmap) -> {
                for (int from = first; from < end; from += LIKE_BATCH) {
                    int to = Math.min(end, from + LIKE_BATCH);
                    long needed = d.utf8Bytes(from, to);
                    if (needed > bytes[0].length) {
                        bytes[0] = new byte[Math.toIntExact(Math.max(needed, 2L * bytes[0].length))];
                    }
                    int length = d.copyUtf8(from, to, bytes[0], starts);
                    like.test(bytes[0], new String(bytes[0], 0, length, StandardCharsets.ISO_8859_1), starts, to - from, matches);
                    for (int vid = from; vid < to; vid++) {
                        if (matches[vid - from]) {
                            bitmap[vid >>> 5] |= 1 << (vid & 31);
                        }
                    }
                }
            };
        });
    }

    /** Values a LIKE tests together: their bytes (tens of KB) stay in the core's cache. */
    int LIKE_BATCH = 1024;

    /** A piece's test: sets the bits of the vids in {@code [from, to)} that pass, in words no other piece writes. */
    interface VidsTest {
        void test(int from, int to, int[] bitmap);
    }

    /**
     * The vids below {@code size} that pass a test, tested a piece at a time by {@code fork},
     * each piece with a test of its own from {@code tests}.
     */
    private static VidPredicate vidsWhere(int size, Fork fork, Supplier<VidsTest> tests) {
        int[] bitmap = new int[(size + 31) >>> 5];
        int pieceVids = 1 << 16; // a few milliseconds of LIKE; a multiple of 32: pieces own whole words, no two write one
        fork.run((size + pieceVids - 1) / pieceVids, piece ->
                tests.get().test(piece * pieceVids, Math.min(size, (piece + 1) * pieceVids), bitmap));
        VidPredicate.VidSet set = VidPredicate.VidSet.ofBitmap(bitmap);
        return set.isEmpty() ? VidPredicate.of(VidRange.EMPTY) : set;
    }

    private static VidPredicate notNull(Column c) {
        return VidPredicate.of(c.dictionary().all());
    }

    private static VidRange vids(Dictionary d, Range r) {
        int lo = r.low() == null ? 0 : r.lowInclusive() ? lowerBound(d, r.low()) : upperBound(d, r.low());
        int hi = r.high() == null ? d.size() : r.highInclusive() ? upperBound(d, r.high()) : lowerBound(d, r.high());
        return VidRange.of(lo, hi);
    }

    private static int lowerBound(Dictionary d, Object v) {
        return switch (d) {
            case LongDictionary l -> l.lowerBound((Long) v);
            case DoubleDictionary x -> x.lowerBound((Double) v);
            case StringDictionary s -> s.lowerBound((String) v);
        };
    }

    private static int upperBound(Dictionary d, Object v) {
        return switch (d) {
            case LongDictionary l -> l.upperBound((Long) v);
            case DoubleDictionary x -> x.upperBound((Double) v);
            case StringDictionary s -> s.upperBound((String) v);
        };
    }

    private static int find(Dictionary d, Object v) {
        return switch (d) {
            case LongDictionary l -> l.find((Long) Objects.requireNonNull(v));
            case DoubleDictionary x -> x.find((Double) Objects.requireNonNull(v));
            case StringDictionary s -> s.find((String) Objects.requireNonNull(v));
        };
    }
}
