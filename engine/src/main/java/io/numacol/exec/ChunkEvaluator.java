package io.numacol.exec;

import io.numacol.storage.types.ColumnType;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A projection's {@link ChunkExpr}s compiled for one task: input columns are shared, constants
 * filled once, arithmetic computed by {@link NumericKernel}s a chunk at a time (a subexpression
 * two columns share computes once), dates and CASEs into arrays of their own.
 */
final class ChunkEvaluator implements ColumnVectors {
    private final Chunk out;
    private final Eval[] evals;
    private final Map<NumericExpr, NumericKernel> shared = new HashMap<>();
    private Chunk in;
    private int generation;

    ChunkEvaluator(List<ChunkExpr> exprs) {
        this.out = new Chunk(exprs.stream().map(ChunkExpr::type).toList());
        this.evals = exprs.stream().map(this::compile).toArray(Eval[]::new);
    }

    /** The projection of {@code chunk}'s rows, valid until the next call. */
    Chunk evaluate(Chunk chunk) {
        in = chunk;
        generation++;
        for (int i = 0; i < evals.length; i++) {
            evals[i].eval(chunk, out, i);
        }
        out.size = chunk.size;
        return out;
    }

    /** Computes one expression into column {@code c} of {@code into} (its arrays may be shared or the evaluator's own). */
    private interface Eval {
        void eval(Chunk in, Chunk into, int c);
    }

    private Eval compile(ChunkExpr e) {
        return switch (e) {
            case ChunkExpr.Column col -> {
                int s = col.column();
                yield (in, into, c) -> {
                    into.longs[c] = in.longs[s];
                    into.doubles[c] = in.doubles[s];
                    into.strings[c] = in.strings[s];
                    into.nulls[c] = in.nulls[s];
                };
            }
            case ChunkExpr.Constant k -> {
                Chunk filled = new Chunk(List.of(k.type())).allocate();
                for (int r = 0; r < Chunk.CAPACITY; r++) {
                    switch (k.type().storageKind()) {
                        case LONG -> filled.longs[0][r] = k.stored() == null ? 0 : (Long) k.stored();
                        case DOUBLE -> filled.doubles[0][r] = k.stored() == null ? 0 : (Double) k.stored();
                        case STRING -> filled.strings[0][r] = (String) k.stored();
                    }
                }
                Arrays.fill(filled.nulls[0], k.stored() == null);
                yield (in, into, c) -> {
                    into.longs[c] = filled.longs[0];
                    into.doubles[c] = filled.doubles[0];
                    into.strings[c] = filled.strings[0];
                    into.nulls[c] = k.stored() == null ? filled.nulls[0] : null;
                };
            }
            case ChunkExpr.Numeric n -> {
                NumericKernel k = NumericKernel.compile(n.expr(), shared);
                yield (in, into, c) -> {
                    if (k.type.approximate()) {
                        into.doubles[c] = k.doubles(this);
                    } else {
                        into.longs[c] = k.longs(this);
                    }
                    into.nulls[c] = k.nulls(this);
                };
            }
            case ChunkExpr.Extract x -> {
                long[] values = new long[Chunk.CAPACITY];
                int s = x.column();
                yield (in, into, c) -> {
                    long[] days = in.longs[s];
                    for (int r = 0; r < in.size; r++) {
                        values[r] = field(x.field(), days[r]);
                    }
                    into.longs[c] = values;
                    into.nulls[c] = in.nulls[s];
                };
            }
            case ChunkExpr.DateShift x -> {
                long[] values = new long[Chunk.CAPACITY];
                int s = x.column();
                long shift = x.days();
                yield (in, into, c) -> {
                    long[] days = in.longs[s];
                    boolean[] nulls = in.nulls[s];
                    if (x.months() == 0) {
                        for (int r = 0; r < in.size; r++) {
                            long day = days[r] + shift;
                            values[r] = day;
                            if (!ColumnType.isEpochDay(day) && (nulls == null || !nulls[r])) {
                                ColumnType.dateInRange(day); // fails: past the years 1 to 9999
                            }
                        }
                    } else {
                        for (int r = 0; r < in.size; r++) { // a NULL row's day may be any number: not a date
                            values[r] = nulls != null && nulls[r] ? 0 : x.of(days[r]);
                        }
                    }
                    into.longs[c] = values;
                    into.nulls[c] = nulls;
                };
            }
            case ChunkExpr.Case k -> caseOf(k);
            case ChunkExpr.Substring x -> {
                String[] values = new String[Chunk.CAPACITY];
                int s = x.column();
                yield (in, into, c) -> {
                    String[] strings = in.strings[s];
                    boolean[] nulls = in.nulls[s];
                    for (int r = 0; r < in.size; r++) {
                        values[r] = nulls != null && nulls[r] ? null : ChunkExpr.Substring.of(strings[r], x.start(), x.length());
                    }
                    into.strings[c] = values;
                    into.nulls[c] = nulls;
                };
            }
            case ChunkExpr.Condition k -> {
                long[] values = new long[Chunk.CAPACITY];
                boolean[] nulls = new boolean[Chunk.CAPACITY];
                RowPredicate p = k.predicate();
                yield (in, into, c) -> {
                    for (int r = 0; r < in.size; r++) {
                        byte v = p.eval(in, r);
                        values[r] = v == RowPredicate.TRUE ? 1 : 0;
                        nulls[r] = v == RowPredicate.UNKNOWN;
                    }
                    into.longs[c] = values;
                    into.nulls[c] = nulls;
                };
            }
        };
    }

    /**
     * Each row's branch picked first, then each branch computed only over the rows that take
     * it (gathered into a chunk of their own unless all rows do): a branch may fail where it
     * is not taken, as {@code CASE WHEN n = 0 THEN NULL ELSE s / n END} divides by zero.
     */
    private Eval caseOf(ChunkExpr.Case k) {
        int branches = k.values().size();
        ChunkEvaluator[] values = new ChunkEvaluator[branches + 1];
        for (int b = 0; b < branches; b++) {
            values[b] = new ChunkEvaluator(List.of(k.values().get(b)));
        }
        values[branches] = new ChunkEvaluator(List.of(k.otherwise()));
        Chunk result = new Chunk(List.of(k.type())).allocate();
        RowPredicate[] conditions = k.conditions().toArray(RowPredicate[]::new);
        int[] choice = new int[Chunk.CAPACITY];
        int[] rows = new int[Chunk.CAPACITY];
        Chunk[] taken = new Chunk[1];
        return (in, into, c) -> {
            int[] counts = new int[branches + 1];
            for (int r = 0; r < in.size; r++) {
                int b = 0;
                while (b < branches && conditions[b].eval(in, r) != RowPredicate.TRUE) {
                    b++;
                }
                choice[r] = b;
                counts[b]++;
            }
            for (int b = 0; b <= branches; b++) {
                if (counts[b] == in.size) {
                    Chunk value = values[b].evaluate(in);
                    for (int r = 0; r < in.size; r++) {
                        result.copy(0, r, value, 0, r);
                    }
                } else if (counts[b] > 0) {
                    int n = 0;
                    for (int r = 0; r < in.size; r++) {
                        if (choice[r] == b) {
                            rows[n++] = r;
                        }
                    }
                    if (taken[0] == null) {
                        taken[0] = new Chunk(Arrays.asList(in.types)).allocate();
                    }
                    Chunk rowsOfB = taken[0];
                    for (int col = 0; col < in.width(); col++) {
                        rowsOfB.gather(col, in, col, rows, n);
                    }
                    rowsOfB.size = n;
                    Chunk value = values[b].evaluate(rowsOfB);
                    for (int i = 0; i < n; i++) {
                        result.copy(0, rows[i], value, 0, i);
                    }
                }
            }
            into.longs[c] = result.longs[0];
            into.doubles[c] = result.doubles[0];
            into.strings[c] = result.strings[0];
            into.nulls[c] = result.nulls[0];
        };
    }

    /** A field of the proleptic Gregorian date {@code epochDay} days after 1970-01-01 (Hinnant's civil_from_days). */
    static long field(ChunkExpr.DateField field, long epochDay) {
        long z = epochDay + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long month = mp < 10 ? mp + 3 : mp - 9;
        return switch (field) {
            case YEAR -> yoe + era * 400 + (month <= 2 ? 1 : 0);
            case MONTH -> month;
            case DAY -> doy - (153 * mp + 2) / 5 + 1;
        };
    }

    @Override
    public int size() {
        return in.size;
    }

    @Override
    public int generation() {
        return generation;
    }

    @Override
    public long[] longs(int column) {
        return in.longs[column];
    }

    @Override
    public double[] doubles(int column) {
        return in.doubles[column];
    }

    @Override
    public boolean[] nulls(int column) {
        return in.nulls[column];
    }
}
