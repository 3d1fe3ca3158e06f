package io.numacol.exec;

import io.numacol.storage.StringDictionary;
import io.numacol.storage.types.ColumnType;

import java.util.Arrays;

/** MIN ({@code sign} 1) or MAX (-1) of stored values; strings in code point order, as dictionaries sort them. */
final class ExtremeFunction extends AggregateFunction {
    private final int sign;
    private final ColumnType type;
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    private String[] strings = new String[0];
    private boolean[] any = new boolean[0];

    ExtremeFunction(int column, ColumnType type, int sign) {
        super(column);
        this.type = type;
        this.sign = sign;
    }

    @Override
    void initialize(int capacity) {
        any = Arrays.copyOf(any, capacity);
        switch (type.storageKind()) {
            case LONG -> longs = Arrays.copyOf(longs, capacity);
            case DOUBLE -> doubles = Arrays.copyOf(doubles, capacity);
            case STRING -> strings = Arrays.copyOf(strings, capacity);
        }
    }

    @Override
    void update(Chunk in, int[] groupOf, int n) {
        boolean[] nulls = in.nulls[column];
        switch (type.storageKind()) { // once per chunk, each kind's loop on its own arrays
            case LONG -> {
                long[] v = in.longs[column];
                for (int r = 0; r < n; r++) {
                    int g = groupOf[r];
                    if (g >= 0 && (nulls == null || !nulls[r]) && (!any[g] || sign * Long.compare(longs[g], v[r]) > 0)) {
                        longs[g] = v[r];
                        any[g] = true;
                    }
                }
            }
            case DOUBLE -> {
                double[] v = in.doubles[column];
                for (int r = 0; r < n; r++) {
                    int g = groupOf[r];
                    if (g >= 0 && (nulls == null || !nulls[r]) && (!any[g] || sign * Double.compare(doubles[g], v[r]) > 0)) {
                        doubles[g] = v[r];
                        any[g] = true;
                    }
                }
            }
            case STRING -> {
                String[] v = in.strings[column];
                for (int r = 0; r < n; r++) {
                    int g = groupOf[r];
                    if (g >= 0 && (nulls == null || !nulls[r])
                            && (!any[g] || sign * StringDictionary.compare(strings[g], v[r]) > 0)) {
                        strings[g] = v[r];
                        any[g] = true;
                    }
                }
            }
        }
    }

    @Override
    void combine(int g, AggregateFunction other, int og) {
        ExtremeFunction o = (ExtremeFunction) other;
        if (!o.any[og]) {
            return;
        }
        boolean better = switch (type.storageKind()) {
            case LONG -> !any[g] || sign * Long.compare(longs[g], o.longs[og]) > 0;
            case DOUBLE -> !any[g] || sign * Double.compare(doubles[g], o.doubles[og]) > 0;
            case STRING -> !any[g] || sign * StringDictionary.compare(strings[g], o.strings[og]) > 0;
        };
        if (better) {
            switch (type.storageKind()) {
                case LONG -> longs[g] = o.longs[og];
                case DOUBLE -> doubles[g] = o.doubles[og];
                case STRING -> strings[g] = o.strings[og];
            }
            any[g] = true;
        }
    }

    @Override
    void finalizeGroup(Chunk out, int c, int r, int g) {
        out.nulls[c][r] = !any[g];
        switch (type.storageKind()) {
            case LONG -> out.longs[c][r] = any[g] ? longs[g] : 0;
            case DOUBLE -> out.doubles[c][r] = any[g] ? doubles[g] : 0;
            case STRING -> out.strings[c][r] = any[g] ? strings[g] : null;
        }
    }

    @Override
    Accumulator partial(int g) {
        if (!any[g]) {
            return Accumulator.extreme(sign, null);
        }
        return Accumulator.extreme(sign, switch (type.storageKind()) {
            case LONG -> InternalValues.ofStored(type, longs[g]);
            case DOUBLE -> InternalValues.ofStored(type, doubles[g]);
            case STRING -> strings[g];
        });
    }
}
