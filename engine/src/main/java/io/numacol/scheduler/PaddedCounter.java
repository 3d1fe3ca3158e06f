package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter alone on its cache lines, for one written by workers and read by others: its
 * neighbours' writes would otherwise drag the line between cores on every task. Superclass
 * fields are laid out first, so the padding classes put 120 bytes on either side of the value:
 * two lines, as JCTools' PaddedAtomicLong pads, since the adjacent-line prefetcher pulls lines
 * in pairs.
 */
final class PaddedCounter extends PaddedCounterValue {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedCounterValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15;

    /** Adds {@code n} and returns the new value. */
    long add(long n) {
        return (long) VALUE.getAndAdd(this, n) + n;
    }

    long get() {
        return value;
    }
}

abstract class PaddedCounterValue extends LinePadding {
    volatile long value;
}
