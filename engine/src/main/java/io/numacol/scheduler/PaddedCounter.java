package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter alone on its cache line, for one written by workers and read by others: its
 * neighbours' writes would otherwise drag the line between cores on every task. Superclass
 * fields are laid out first, so the padding classes put 56 bytes on either side of the value.
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
    private long q1, q2, q3, q4, q5, q6, q7;

    /** Adds one and returns the new value. */
    long increment() {
        return (long) VALUE.getAndAdd(this, 1L) + 1L;
    }

    long get() {
        return value;
    }
}

abstract class PaddedCounterBefore {
    @SuppressWarnings("unused")
    private long p1, p2, p3, p4, p5, p6, p7;
}

abstract class PaddedCounterValue extends PaddedCounterBefore {
    volatile long value;
}
