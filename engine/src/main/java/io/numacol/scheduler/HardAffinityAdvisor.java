package io.numacol.scheduler;

/**
 * The seam of the ADAPTIVE {@link StealPolicy}: whether tasks of a class get hard affinity (may
 * not be stolen by other nodes). The thesis (§6.4) answers it per class from a calibrated memory
 * throughput threshold; that belongs to the placement work, which replaces {@link #NEVER}.
 */
@FunctionalInterface
public interface HardAffinityAdvisor {

    /** Until the placement work calibrates a threshold, ADAPTIVE behaves like TARGET. */
    HardAffinityAdvisor NEVER = taskClass -> false;

    /** Called on every submission under ADAPTIVE, so it must be cheap and thread-safe. */
    boolean hard(TaskClass taskClass);
}
