package io.numacol.placement;

import io.numacol.scheduler.DataUsage;
import io.numacol.scheduler.HardAffinityAdvisor;
import io.numacol.scheduler.TaskClass;

/**
 * The ADAPTIVE steal policy's advisor (thesis §6.4): a task class whose moving average of memory
 * throughput is above the threshold is bound to its node, the others may be stolen. Until a
 * threshold is known (the {@link StealingCalibration} runs in the background) nothing is bound.
 */
public final class ThresholdAdvisor implements HardAffinityAdvisor {
    private volatile DataUsage usage;
    /** Bytes per second; NaN until known. */
    private volatile double threshold = Double.NaN;

    /** The usage whose class averages are compared; set once the scheduler that keeps it exists. */
    public void readFrom(DataUsage usage) {
        this.usage = usage;
    }

    public void setThreshold(double bytesPerSecond) {
        if (!(bytesPerSecond >= 0)) {
            throw new IllegalArgumentException("a stealing threshold must be a number of bytes per second >= 0, got " + bytesPerSecond);
        }
        this.threshold = bytesPerSecond;
    }

    /** The threshold in bytes per second, NaN until known. */
    public double threshold() {
        return threshold;
    }

    @Override
    public boolean hard(TaskClass taskClass) {
        DataUsage u = usage;
        double t = threshold;
        // NaN compares false: no binding before the threshold is known
        return u != null && u.throughput(taskClass) > t;
    }
}
