package io.numacol.exec;

import io.numacol.storage.Column;
import io.numacol.storage.DoubleDictionary;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.StringDictionary;

import java.util.Arrays;

/**
 * MIN ({@code sign} 1) or MAX (-1) of one part's column on its vids (the chunk's column holds
 * them as longs): a part's dictionary is sorted, so the extreme vid holds the extreme value
 * (strings in code point order, as {@link ExtremeFunction} and the merge across parts compare
 * them). Vids of two parts' dictionaries do not compare, so groups of this function combine only
 * with the same part's, and leave it by value ({@link #partial}, {@link #finalizeGroup}).
 */
final class VidExtremeFunction extends AggregateFunction {
    private final Column part;
    private final int sign;
    /** Per group the extreme vid so far, -1 before any. */
    private int[] best = new int[0];

    VidExtremeFunction(int column, Column part, int sign) {
        super(column);
        this.part = part;
        this.sign = sign;
    }

    @Override
    void initialize(int capacity) {
        int old = best.length;
        best = Arrays.copyOf(best, capacity);
        Arrays.fill(best, old, capacity, -1);
    }

    @Override
    void update(Chunk in, int[] groupOf, int n) {
        long[] vids = in.longs[column];
        boolean[] nulls = in.nulls[column];
        for (int r = 0; r < n; r++) {
            int g = groupOf[r];
            if (g >= 0 && (nulls == null || !nulls[r])) {
                offer(g, (int) vids[r]);
            }
        }
    }

    @Override
    void updateSingle(Chunk in, int n, int g) {
        long[] vids = in.longs[column];
        boolean[] nulls = in.nulls[column];
        for (int r = 0; r < n; r++) {
            if (nulls == null || !nulls[r]) {
                offer(g, (int) vids[r]);
            }
        }
    }

    private void offer(int g, int vid) {
        int b = best[g];
        if (b < 0 || (sign > 0 ? vid < b : vid > b)) {
            best[g] = vid;
        }
    }

    @Override
    void combine(int g, AggregateFunction other, int og) {
        VidExtremeFunction o = (VidExtremeFunction) other;
        if (o.part != part) {
            throw new IllegalArgumentException("vids of two parts' dictionaries do not compare: combine their partials");
        }
        if (o.best[og] >= 0) {
            offer(g, o.best[og]);
        }
    }

    @Override
    void finalizeGroup(Chunk out, int c, int r, int g) {
        int vid = best[g];
        out.nulls[c][r] = vid < 0;
        switch (part.dictionary()) {
            case LongDictionary d -> out.longs[c][r] = vid < 0 ? 0 : d.getLong(vid);
            case DoubleDictionary d -> out.doubles[c][r] = vid < 0 ? 0 : d.getDouble(vid);
            case StringDictionary d -> out.strings[c][r] = vid < 0 ? null : d.getString(vid);
        }
    }

    @Override
    Accumulator partial(int g) {
        return Accumulator.extreme(sign, best[g] < 0 ? null : InternalValues.of(part, best[g]));
    }
}
