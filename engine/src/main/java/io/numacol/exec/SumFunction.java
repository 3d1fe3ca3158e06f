package io.numacol.exec;

import java.util.Arrays;

/** A SUM's groups: which have a value, and whether one without is 0 (SUM0) rather than NULL. */
abstract sealed class SumFunction extends AggregateFunction permits LongSumFunction, DoubleSumFunction {
    final boolean zero;
    boolean[] any = new boolean[0];

    SumFunction(int column, boolean zero) {
        super(column);
        this.zero = zero;
    }

    @Override
    void initialize(int capacity) {
        any = Arrays.copyOf(any, capacity);
    }

    boolean isNull(int g) {
        return !any[g] && !zero;
    }

    /** Notes which groups of {@code few} got a value that is not NULL among the block's rows. */
    @SuppressWarnings("ShortCircuitBoolean") // no branch per row
    void markFew(boolean[] nulls, int n, int[] groupOf, FewGroups few) {
        for (int g = 0; g < few.groups; g++) {
            if (nulls == null) {
                any[g] |= few.rows[g] > 0;
            } else if (!any[g]) {
                boolean some = false;
                for (int r = 0; r < n; r++) {
                    some |= groupOf[r] == g & !nulls[r];
                }
                any[g] = some;
            }
        }
    }

    /** Notes whether group {@code g} got a value that is not NULL among the block's {@code n} rows. */
    void markSingle(boolean[] nulls, int n, int g) {
        if (any[g] || n == 0) {
            return;
        }
        if (nulls == null) {
            any[g] = true;
            return;
        }
        for (int r = 0; r < n; r++) {
            if (!nulls[r]) {
                any[g] = true;
                return;
            }
        }
    }
}
