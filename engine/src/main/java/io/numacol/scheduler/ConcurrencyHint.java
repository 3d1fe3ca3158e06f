package io.numacol.scheduler;

/**
 * The thesis's concurrency hint (§4.1.4): an exponential average of free worker threads that
 * partitionable operators use as the most tasks to create.
 * {@code hint = 0.5 * free + 0.5 * previous}, reset to the hardware threads once it passes 90%
 * of them (so an idle machine reports all of it rather than creeping towards it).
 */
final class ConcurrencyHint {
    static final double WEIGHT = 0.5;
    static final double RESET_FRACTION = 0.9;

    private final int hardwareThreads;
    private volatile double value;

    ConcurrencyHint(int hardwareThreads) {
        this.hardwareThreads = hardwareThreads;
        this.value = hardwareThreads;
    }

    /** The next hint from the previous one and the free worker threads now. */
    static double next(double previous, int free, int hardwareThreads) {
        double hint = WEIGHT * free + (1.0 - WEIGHT) * previous;
        return hint > RESET_FRACTION * hardwareThreads ? hardwareThreads : hint;
    }

    /** Free threads of a group: its hardware threads not taken by working workers. */
    static int free(int hardwareThreads, int working) {
        return Math.max(0, hardwareThreads - working);
    }

    void sample(int free) {
        value = next(value, free, hardwareThreads);
    }

    double value() {
        return value;
    }

    /** Rounded, and at least 1 so that an operator always makes progress. */
    int tasks() {
        return Math.max(1, (int) Math.round(value));
    }
}
