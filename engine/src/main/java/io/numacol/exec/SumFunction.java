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
}
