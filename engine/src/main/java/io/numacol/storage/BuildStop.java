package io.numacol.storage;

import java.util.concurrent.CancellationException;

/**
 * Whether a part's build should give up: its statement stopped (a COPY's timeout or cancel())
 * and nobody will publish the part. A build of a million rows takes a few hundred milliseconds,
 * so it asks between its phases and every {@value #STEPS} rows or values inside the long ones;
 * a stop then ends it within milliseconds rather than after the whole build. What it allocated
 * goes with its arena, which the build closes as on any failure.
 */
@FunctionalInterface
public interface BuildStop {
    /** Steps between two asks inside a loop, a power of two: some milliseconds of the slowest loop (hashing strings). */
    int STEPS = 1 << 14;

    /** For builds nobody stops: a merge's, a recovery's. */
    BuildStop NEVER = () -> false;

    /** Whether the build should give up now; read from the building thread, so it must be cheap. */
    boolean stopped();

    /** Throws CancellationException if the build should give up. */
    default void check() {
        if (stopped()) {
            throw new CancellationException("the part's build was stopped: its statement ended");
        }
    }

    /** {@link #check()} at every {@value #STEPS}th {@code step} of a loop, nothing in between. */
    default void check(int step) {
        if ((step & (STEPS - 1)) == 0) {
            check();
        }
    }
}
