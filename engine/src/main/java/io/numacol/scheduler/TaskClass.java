package io.numacol.scheduler;

/**
 * What kind of work a task does. The ADAPTIVE {@link StealPolicy} decides per class whether its
 * tasks are bound to their node (the thesis's §6.4 keeps one memory-throughput average per class).
 */
public enum TaskClass {
    SCAN,
    MATERIALIZE,
    AGGREGATE,
    JOIN_BUILD,
    JOIN_PROBE,
    OTHER,
    /** The ADAPTIVE policy's start-up experiment ({@code io.numacol.placement.StealingCalibration}). */
    CALIBRATION
}
