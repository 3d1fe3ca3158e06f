package io.numacol.exec;

import io.numacol.storage.Column;
import io.numacol.storage.IndexVector;
import io.numacol.storage.TablePart;
import io.numacol.storage.types.BigintCodec;
import io.numacol.storage.types.BooleanCodec;
import io.numacol.storage.types.CharCodec;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.DateCodec;
import io.numacol.storage.types.DecimalCodec;
import io.numacol.storage.types.DoubleCodec;
import io.numacol.storage.types.IntegerCodec;
import io.numacol.storage.types.RealCodec;
import io.numacol.storage.types.SmallintCodec;
import io.numacol.storage.types.TimeCodec;
import io.numacol.storage.types.TimestampCodec;
import io.numacol.storage.types.TimestampTzCodec;
import io.numacol.storage.types.TinyintCodec;
import io.numacol.storage.types.UuidCodec;
import io.numacol.storage.types.VarbinaryCodec;
import io.numacol.storage.types.VarcharCodec;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A task's GROUP BY over one part, a {@link Batch} at a time and without boxing: group keys are
 * the key columns' vids packed in a long, mapped to dense group numbers by a
 * {@link GroupNumbering} (through an array when the keys span at most 2^16 values, as a few flag
 * columns do, else an open-addressing table), and each aggregate keeps primitive arrays indexed by group
 * number. Exact sums stay in longs and spill into a BigDecimal only when one overflows. Only
 * {@link #finish} translates vids to values, since every part has its own dictionaries, and hands
 * over {@link Accumulator}s to merge.
 */
final class VectorAggregator {
    private static final int BLOCK = IndexVector.BLOCK_ROWS;
    private static final int DIRECT_KEY_BITS = 16;
    /**
     * Up to this many groups (a few flags' combinations), aggregates run one branch-free pass per group over the
     * block instead of scattering row by row into a few hot slots, which serializes on memory.
     */
    private static final int FEW_GROUPS = 8;

    /** How a block's rows fall into groups. */
    private enum Spread { SINGLE, FEW, MANY }

    private final Batch batch;
    private final int[] keyColumns;
    private final int[] keyBits;
    private final Acc[] accs;
    private final int[] groupOf = new int[BLOCK];
    /** With {@link Spread#FEW} groups: the block's rows per group, and per group a mask of its rows (-1 or 0). */
    private final int[] rowsPerGroup = new int[FEW_GROUPS];
    private long[][] groupMasks;
    private final long[] packed = new long[BLOCK];
    /** Group number -> packed key. */
    private long[] groupKeys = new long[16];
    private int groups;
    /** Packed key -> group number. */
    private final GroupNumbering numbering;

    /**
     * Whether every part can be aggregated so: no DISTINCT, aggregate inputs that are columns or
     * {@link NumericExpr}s, keys that pack into 63 bits. All parts or none, so that the merge
     * never meets MIN/MAX values of two representations.
     */
    static boolean supports(PlanNode.VidScan plan, List<TablePart> parts) {
        Aggregation agg = plan.aggregation();
        for (AggregateCall call : agg.calls()) {
            if (call.distinct()) {
                return false;
            }
            if (call.input() < 0) {
                continue;
            }
            switch (plan.projections().get(call.input())) {
                case Projection.ColumnRef ref -> {
                    if (call.kind().sums() && numericType(plan.table().schema().columns().get(ref.column()).type()) == null) {
                        return false;
                    }
                }
                case Projection.Computed c -> {
                    if (c.numeric() == null) {
                        return false;
                    }
                }
            }
        }
        for (TablePart part : parts) {
            int bits = 0;
            for (int k : agg.groupKeys()) {
                bits += part.column(((Projection.ColumnRef) plan.projections().get(k)).column()).bitcase();
            }
            if (bits > 63) {
                return false;
            }
        }
        return true;
    }

    /** A column's values as a numeric expression's type, or null for non-numbers. */
    static NumericExpr.Type numericType(ColumnType type) {
        // over the sealed codecs without a default: a new type is refused here until it says whether it is a number
        return switch (type.codec()) {
            case TinyintCodec _ -> NumericExpr.Type.TINYINT;
            case SmallintCodec _ -> NumericExpr.Type.SMALLINT;
            case IntegerCodec _ -> NumericExpr.Type.INTEGER;
            case BigintCodec _ -> NumericExpr.Type.BIGINT;
            case DecimalCodec _ -> NumericExpr.Type.decimal(type.precision(), type.scale());
            case RealCodec _, DoubleCodec _ -> NumericExpr.Type.DOUBLE; // a REAL's stored double is its exact value
            case BooleanCodec _, DateCodec _, TimestampCodec _, TimestampTzCodec _, TimeCodec _, CharCodec _, VarcharCodec _,
                 VarbinaryCodec _, UuidCodec _ -> null;
        };
    }

    VectorAggregator(PlanNode.VidScan plan, Batch batch) {
        this.batch = batch;
        TablePart part = batch.part();
        Aggregation agg = plan.aggregation();
        keyColumns = Arrays.stream(agg.groupKeys())
                .map(k -> ((Projection.ColumnRef) plan.projections().get(k)).column()).toArray();
        keyBits = Arrays.stream(keyColumns).map(c -> part.column(c).bitcase()).toArray();
        int totalBits = Arrays.stream(keyBits).sum();
        numbering = totalBits <= DIRECT_KEY_BITS ? new DirectGroupNumbering(totalBits, this::newGroup)
                : new HashGroupNumbering(this::newGroup);
        Map<NumericExpr, NumericKernel> shared = new HashMap<>();
        accs = agg.calls().stream().map(call -> acc(plan, call, shared)).toArray(Acc[]::new);
        for (Acc a : accs) {
            a.grow(groupKeys.length);
        }
    }

    private Acc acc(PlanNode.VidScan plan, AggregateCall call, Map<NumericExpr, NumericKernel> shared) {
        if (call.input() < 0) {
            return new CountAcc(null);
        }
        Projection input = plan.projections().get(call.input());
        int sign = call.kind() == AggregateKind.MIN ? 1 : -1;
        if (input instanceof Projection.ColumnRef ref && !call.kind().sums()) {
            Column column = batch.part().column(ref.column());
            return call.kind() == AggregateKind.COUNT ? new CountAcc(b -> b.nulls(ref.column()))
                    : new VidExtremeAcc(ref.column(), column, sign);
        }
        NumericExpr expr = switch (input) {
            case Projection.ColumnRef ref ->
                    new NumericExpr.Column(ref.column(), numericType(plan.table().schema().columns().get(ref.column()).type()));
            case Projection.Computed c -> c.numeric();
        };
        NumericKernel kernel = NumericKernel.compile(expr, shared);
        return switch (call.kind()) {
            case COUNT_STAR, COUNT -> new CountAcc(kernel::nulls);
            case SUM, SUM0 -> expr.type().approximate() ? new DoubleSumAcc(kernel)
                    : new ExactSumAcc(kernel, expr.type().fractional() ? expr.type().scale() : -1);
            case MIN, MAX -> expr.type().approximate() ? new DoubleExtremeAcc(kernel, sign) : new LongExtremeAcc(kernel, sign);
        };
    }

    /** Aggregates the batch's selected rows. */
    void add() {
        int n = batch.size();
        if (n == 0) {
            return;
        }
        Spread spread;
        if (keyColumns.length == 0) {
            if (groups == 0) {
                newGroup(0);
            }
            spread = Spread.SINGLE;
        } else {
            assignGroups(n);
            spread = groups <= FEW_GROUPS ? Spread.FEW : Spread.MANY;
            if (spread == Spread.FEW) {
                if (groupMasks == null) {
                    groupMasks = new long[FEW_GROUPS][BLOCK];
                }
                for (int g = 0; g < groups; g++) {
                    long[] mask = groupMasks[g];
                    long key = groupKeys[g];
                    long rows = 0;
                    for (int i = 0; i < n; i++) { // on the packed keys, longs like the masks: the JIT vectorizes it
                        long in = packed[i] == key ? -1L : 0L;
                        mask[i] = in;
                        rows -= in;
                    }
                    rowsPerGroup[g] = (int) rows;
                }
            }
        }
        for (Acc a : accs) {
            a.add(n, spread);
        }
    }

    /** Adds each group's rows of the batch that are not NULL to {@code into}. */
    @SuppressWarnings("ShortCircuitBoolean") // no branch per row
    private void countNonNull(int n, Spread spread, boolean[] nulls, long[] into) {
        switch (spread) {
            case SINGLE -> {
                long c = n;
                if (nulls != null) {
                    for (int i = 0; i < n; i++) {
                        c -= nulls[i] ? 1 : 0;
                    }
                }
                into[0] += c;
            }
            case FEW -> {
                if (nulls == null) {
                    for (int g = 0; g < groups; g++) {
                        into[g] += rowsPerGroup[g];
                    }
                } else {
                    for (int g = 0; g < groups; g++) {
                        long c = 0;
                        for (int i = 0; i < n; i++) {
                            c += groupOf[i] == g & !nulls[i] ? 1 : 0;
                        }
                        into[g] += c;
                    }
                }
            }
            case MANY -> {
                if (nulls == null) {
                    for (int i = 0; i < n; i++) {
                        into[groupOf[i]]++;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        into[groupOf[i]] += nulls[i] ? 0 : 1;
                    }
                }
            }
        }
    }

    private void assignGroups(int n) {
        long[] key = packed;
        int[] first = batch.vids(keyColumns[0]);
        for (int i = 0; i < n; i++) {
            key[i] = first[i];
        }
        for (int k = 1; k < keyColumns.length; k++) {
            int[] v = batch.vids(keyColumns[k]);
            int shift = keyBits[k];
            for (int i = 0; i < n; i++) {
                key[i] = key[i] << shift | v[i];
            }
        }
        numbering.assign(key, n, groupOf);
    }

    private int newGroup(long key) {
        if (groups == groupKeys.length) {
            groupKeys = Arrays.copyOf(groupKeys, groups * 2);
            for (Acc a : accs) {
                a.grow(groups * 2);
            }
        }
        groupKeys[groups] = key;
        return groups++;
    }

    /** The task's groups by value, in {@code partitions} hash partitions for the merge. */
    PartitionedGroups finish(int partitions) {
        PartitionedGroups out = new PartitionedGroups(partitions);
        for (int g = 0; g < groups; g++) {
            List<Object> key = keyValues(batch.part(), keyColumns, keyBits, groupKeys[g]);
            Accumulator[] results = new Accumulator[accs.length];
            for (int a = 0; a < accs.length; a++) {
                results[a] = accs[a].result(g);
            }
            out.put(key, results);
        }
        return out;
    }

    /** The values of a packed vid key: the last column in the lowest bits. */
    static List<Object> keyValues(TablePart part, int[] keyColumns, int[] keyBits, long packedKey) {
        Object[] values = new Object[keyColumns.length];
        long k = packedKey;
        for (int i = keyColumns.length - 1; i >= 0; i--) {
            values[i] = InternalValues.of(part.column(keyColumns[i]), (int) (k & ((1L << keyBits[i]) - 1)));
            k >>>= keyBits[i];
        }
        return Arrays.asList(values);
    }

    /** Where an aggregate finds its input's NULL flags in a batch (null: none). */
    private interface NullSource {
        boolean[] nulls(Batch batch);
    }

    /** One aggregate's state, an entry per group. */
    private abstract static sealed class Acc {
        abstract void grow(int capacity);

        abstract void add(int n, Spread spread);

        abstract Accumulator result(int group);
    }

    private final class CountAcc extends Acc {
        private final NullSource nullSource;
        private long[] counts = new long[0];

        CountAcc(NullSource nullSource) {
            this.nullSource = nullSource;
        }

        @Override
        void grow(int capacity) {
            counts = Arrays.copyOf(counts, capacity);
        }

        @Override
        void add(int n, Spread spread) {
            countNonNull(n, spread, nullSource == null ? null : nullSource.nulls(batch), counts);
        }

        @Override
        Accumulator result(int group) {
            return Accumulator.count(counts[group]);
        }
    }

    private final class ExactSumAcc extends Acc {
        /** Sums of a block of values below 2^52 in magnitude cannot overflow. */
        private static final long SMALL = 1L << 52;
        private final NumericKernel input;
        private final int scale;
        private final long[] masked = new long[BLOCK];
        private long[] sums = new long[0];
        private long[] nonNull = new long[0];
        private BigDecimal[] spilled = new BigDecimal[0];

        ExactSumAcc(NumericKernel input, int scale) {
            this.input = input;
            this.scale = scale;
        }

        @Override
        void grow(int capacity) {
            sums = Arrays.copyOf(sums, capacity);
            nonNull = Arrays.copyOf(nonNull, capacity);
            spilled = Arrays.copyOf(spilled, capacity);
        }

        @Override
        void add(int n, Spread spread) {
            long[] v = input.longs(batch);
            boolean[] nulls = input.nulls(batch);
            if (nulls != null) { // a NULL row's value is whatever its zeros computed to: it must add nothing
                for (int i = 0; i < n; i++) {
                    masked[i] = nulls[i] ? 0 : v[i];
                }
                v = masked;
            }
            long magnitude = 0;
            if (spread != Spread.MANY) {
                for (int i = 0; i < n; i++) {
                    magnitude |= v[i] ^ (v[i] >> 63);
                }
            }
            if (spread == Spread.MANY || Long.compareUnsigned(magnitude, SMALL) >= 0) {
                for (int i = 0; i < n; i++) {
                    add(spread == Spread.SINGLE ? 0 : groupOf[i], v[i]);
                }
            } else if (spread == Spread.SINGLE) {
                long sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += v[i];
                }
                add(0, sum);
            } else {
                for (int g = 0; g < groups; g++) {
                    long[] mask = groupMasks[g];
                    long sum = 0;
                    for (int i = 0; i < n; i++) {
                        sum += v[i] & mask[i];
                    }
                    add(g, sum);
                }
            }
            countNonNull(n, spread, nulls, nonNull);
        }

        private void add(int group, long value) {
            long s = sums[group];
            long r = s + value;
            if (((s ^ r) & (value ^ r)) < 0) { // overflow: the running sum moves to the BigDecimal
                BigDecimal base = spilled[group] == null ? BigDecimal.ZERO : spilled[group];
                spilled[group] = base.add(BigDecimal.valueOf(s, Math.max(scale, 0))).add(BigDecimal.valueOf(value, Math.max(scale, 0)));
                sums[group] = 0;
            } else {
                sums[group] = r;
            }
        }

        @Override
        Accumulator result(int group) {
            return Accumulator.exactSum(nonNull[group], sums[group], spilled[group], scale);
        }
    }

    private final class DoubleSumAcc extends Acc {
        private final NumericKernel input;
        private double[] sums = new double[0];
        private long[] nonNull = new long[0];

        DoubleSumAcc(NumericKernel input) {
            this.input = input;
        }

        @Override
        void grow(int capacity) {
            sums = Arrays.copyOf(sums, capacity);
            nonNull = Arrays.copyOf(nonNull, capacity);
        }

        @Override
        void add(int n, Spread spread) {
            double[] v = input.doubles(batch);
            boolean[] nulls = input.nulls(batch);
            for (int i = 0; i < n; i++) {
                sums[spread == Spread.SINGLE ? 0 : groupOf[i]] += nulls != null && nulls[i] ? 0 : v[i];
            }
            countNonNull(n, spread, nulls, nonNull);
        }

        @Override
        Accumulator result(int group) {
            return Accumulator.doubleSum(nonNull[group], sums[group]);
        }
    }

    /**
     * MIN/MAX of a column on its vids: each part's dictionary is sorted, so the extreme vid holds
     * the extreme value (strings in code point order, which the merge across parts uses too).
     */
    private final class VidExtremeAcc extends Acc {
        private final int columnIndex;
        private final Column column;
        private final int sign;
        private final int nullVid;
        private int[] best = new int[0];

        VidExtremeAcc(int columnIndex, Column column, int sign) {
            this.columnIndex = columnIndex;
            this.column = column;
            this.sign = sign;
            this.nullVid = column.nullVid();
        }

        @Override
        void grow(int capacity) {
            int old = best.length;
            best = Arrays.copyOf(best, capacity);
            Arrays.fill(best, old, capacity, -1);
        }

        @Override
        void add(int n, Spread spread) {
            int[] v = batch.vids(columnIndex);
            for (int i = 0; i < n; i++) {
                int vid = v[i];
                if (vid == nullVid) {
                    continue;
                }
                int g = spread == Spread.SINGLE ? 0 : groupOf[i];
                int b = best[g];
                if (b < 0 || (sign > 0 ? vid < b : vid > b)) {
                    best[g] = vid;
                }
            }
        }

        @Override
        Accumulator result(int group) {
            return Accumulator.extreme(sign, best[group] < 0 ? null : InternalValues.of(column, best[group]));
        }
    }

    private final class LongExtremeAcc extends Acc {
        private final NumericKernel input;
        private final int sign;
        private long[] best = new long[0];
        private boolean[] any = new boolean[0];

        LongExtremeAcc(NumericKernel input, int sign) {
            this.input = input;
            this.sign = sign;
        }

        @Override
        void grow(int capacity) {
            best = Arrays.copyOf(best, capacity);
            any = Arrays.copyOf(any, capacity);
        }

        @Override
        void add(int n, Spread spread) {
            long[] v = input.longs(batch);
            boolean[] nulls = input.nulls(batch);
            for (int i = 0; i < n; i++) {
                if (nulls != null && nulls[i]) {
                    continue;
                }
                int g = spread == Spread.SINGLE ? 0 : groupOf[i];
                if (!any[g] || (sign > 0 ? v[i] < best[g] : v[i] > best[g])) {
                    best[g] = v[i];
                    any[g] = true;
                }
            }
        }

        @Override
        Accumulator result(int group) {
            if (!any[group]) {
                return Accumulator.extreme(sign, null);
            }
            NumericExpr.Type type = input.type;
            return Accumulator.extreme(sign, type.fractional() ? BigDecimal.valueOf(best[group], type.scale()) : (Object) best[group]);
        }
    }

    private final class DoubleExtremeAcc extends Acc {
        private final NumericKernel input;
        private final int sign;
        private double[] best = new double[0];
        private boolean[] any = new boolean[0];

        DoubleExtremeAcc(NumericKernel input, int sign) {
            this.input = input;
            this.sign = sign;
        }

        @Override
        void grow(int capacity) {
            best = Arrays.copyOf(best, capacity);
            any = Arrays.copyOf(any, capacity);
        }

        @Override
        void add(int n, Spread spread) {
            double[] v = input.doubles(batch);
            boolean[] nulls = input.nulls(batch);
            for (int i = 0; i < n; i++) {
                if (nulls != null && nulls[i]) {
                    continue;
                }
                int g = spread == Spread.SINGLE ? 0 : groupOf[i];
                if (!any[g] || (sign > 0 ? Double.compare(v[i], best[g]) < 0 : Double.compare(v[i], best[g]) > 0)) {
                    best[g] = v[i];
                    any[g] = true;
                }
            }
        }

        @Override
        Accumulator result(int group) {
            return Accumulator.extreme(sign, any[group] ? (Object) best[group] : null);
        }
    }
}
