package io.numacol.exec;

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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A task's GROUP BY over one part, a {@link Batch} at a time and without boxing: group keys are
 * the key columns' vids packed in a long, mapped to dense group numbers by a
 * {@link GroupNumbering} (through an array when the keys span at most 2^16 values, as a few flag
 * columns do, else an open-addressing table), and each aggregate call is an
 * {@link AggregateFunction} over a chunk of the calls' inputs (column i is call i's: a
 * {@link NumericKernel}'s output, or a column's vids for MIN/MAX and COUNT of a column). A block
 * goes to the functions by how its rows fall: all in one group ({@link
 * AggregateFunction#updateSingle}), in a few ({@link FewGroups}), or in many. Only {@link #finish}
 * translates vids to values, since every part has its own dictionaries, and hands over the
 * functions' {@link AggregateFunction#partial}s to merge.
 */
final class VectorAggregator {
    private static final int BLOCK = IndexVector.BLOCK_ROWS;
    private static final int DIRECT_KEY_BITS = 16;

    private final Batch batch;
    private final int[] keyColumns;
    private final int[] keyBits;
    private final AggregateFunction[] functions;
    /** Per call, how its input column of {@link #inputs} is filled from the batch. */
    private final Input[] sources;
    private final Chunk inputs;
    private final int[] groupOf = new int[BLOCK];
    private FewGroups few;
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
        int calls = agg.calls().size();
        functions = new AggregateFunction[calls];
        sources = new Input[calls];
        List<ColumnType> types = new ArrayList<>(calls);
        for (int i = 0; i < calls; i++) {
            types.add(bind(plan, agg.calls().get(i), i, shared));
        }
        inputs = new Chunk(types);
        for (AggregateFunction f : functions) {
            f.initialize(groupKeys.length);
        }
    }

    /** Makes call {@code i}'s function and input source; answers the type of its input column. */
    private ColumnType bind(PlanNode.VidScan plan, AggregateCall call, int i, Map<NumericExpr, NumericKernel> shared) {
        if (call.input() < 0) {
            functions[i] = new CountFunction(-1);
            sources[i] = (chunk, n) -> { };
            return ColumnType.bigint();
        }
        Projection input = plan.projections().get(call.input());
        int sign = call.kind() == AggregateKind.MIN ? 1 : -1;
        if (input instanceof Projection.ColumnRef ref && !call.kind().sums()) {
            int c = ref.column();
            if (call.kind() == AggregateKind.COUNT) {
                functions[i] = new CountFunction(i);
                sources[i] = (chunk, n) -> chunk.nulls[i] = batch.nulls(c);
            } else {
                functions[i] = new VidExtremeFunction(i, batch.part().column(c), sign);
                long[] vids = new long[BLOCK];
                sources[i] = (chunk, n) -> {
                    int[] v = batch.vids(c);
                    for (int r = 0; r < n; r++) {
                        vids[r] = v[r];
                    }
                    chunk.longs[i] = vids;
                    chunk.nulls[i] = batch.nulls(c);
                };
            }
            return ColumnType.bigint();
        }
        NumericExpr expr = switch (input) {
            case Projection.ColumnRef ref ->
                    new NumericExpr.Column(ref.column(), numericType(plan.table().schema().columns().get(ref.column()).type()));
            case Projection.Computed c -> c.numeric();
        };
        NumericKernel kernel = NumericKernel.compile(expr, shared);
        ColumnType type = expr.type().approximate() ? ColumnType.doubleType()
                : expr.type().fractional() ? ColumnType.decimal(ColumnType.MAX_DECIMAL_PRECISION, expr.type().scale())
                : ColumnType.bigint();
        boolean zero = call.kind() == AggregateKind.SUM0;
        functions[i] = switch (call.kind()) {
            case COUNT_STAR, COUNT -> new CountFunction(i);
            case SUM, SUM0 -> expr.type().approximate() ? new DoubleSumFunction(i, zero) : new LongSumFunction(i, zero, type);
            case MIN, MAX -> new ExtremeFunction(i, type, sign);
        };
        if (call.kind() == AggregateKind.COUNT || call.kind() == AggregateKind.COUNT_STAR) {
            sources[i] = (chunk, n) -> chunk.nulls[i] = kernel.nulls(batch);
        } else if (expr.type().approximate()) {
            sources[i] = (chunk, n) -> {
                chunk.doubles[i] = kernel.doubles(batch);
                chunk.nulls[i] = kernel.nulls(batch);
            };
        } else {
            sources[i] = (chunk, n) -> {
                chunk.longs[i] = kernel.longs(batch);
                chunk.nulls[i] = kernel.nulls(batch);
            };
        }
        return type;
    }

    /** Aggregates the batch's selected rows. */
    void add() {
        int n = batch.size();
        if (n == 0) {
            return;
        }
        inputs.size = n;
        for (Input source : sources) {
            source.fill(inputs, n);
        }
        if (keyColumns.length == 0) {
            if (groups == 0) {
                newGroup(0);
            }
            for (AggregateFunction f : functions) {
                f.updateSingle(inputs, n, 0);
            }
            return;
        }
        assignGroups(n);
        if (groups <= FewGroups.MAX) {
            if (few == null) {
                few = new FewGroups();
            }
            few.assign(packed, n, groupKeys, groups);
            for (AggregateFunction f : functions) {
                f.updateFew(inputs, n, groupOf, few);
            }
        } else {
            for (AggregateFunction f : functions) {
                f.update(inputs, groupOf, n);
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
            for (AggregateFunction f : functions) {
                f.initialize(groups * 2);
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
            Accumulator[] results = new Accumulator[functions.length];
            for (int a = 0; a < functions.length; a++) {
                results[a] = functions[a].partial(g);
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

    /** Fills a call's column of the input chunk with the batch's block (a kernel's output or a column's vids and NULL flags). */
    private interface Input {
        void fill(Chunk chunk, int n);
    }
}
