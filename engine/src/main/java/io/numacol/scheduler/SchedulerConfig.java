package io.numacol.scheduler;

import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Scheduler} is set up. The {@link InlineScheduler} reads the steal policy, the
 * advisor, the meter registry and the node bandwidth, and the groups per node only for the
 * concurrency hint it reports; the rest concerns the worker pool.
 *
 * @param groupsPerNode      WorkerGroups per NUMA node; more than one only spreads queue contention
 * @param stealPolicy        the engine's policy; a {@link Statement} may override it
 * @param watchdogPeriod     how often the watchdog wakes or creates workers (thesis: 20 ms)
 * @param hintPeriod         how often the concurrency hint is sampled (thesis: 50 ms)
 * @param meterRegistry      where the scheduler's meters go; null for a private
 *                           {@link io.micrometer.core.instrument.simple.SimpleMeterRegistry}
 * @param hardAffinityAdvisor which task classes ADAPTIVE binds; null for {@link HardAffinityAdvisor#NEVER}
 * @param maxWorkersPerGroup  the most threads a group creates to replace waiting or blocked
 *                           workers; past it, a worker that waits on a task group helps run tasks
 * @param nodeBandwidth      bytes per second each node serves under the {@link BandwidthModel}
 *                           (fake topologies only), 0 for no model
 */
public record SchedulerConfig(int groupsPerNode, StealPolicy stealPolicy, Duration watchdogPeriod,
                              Duration hintPeriod, MeterRegistry meterRegistry,
                              HardAffinityAdvisor hardAffinityAdvisor, int maxWorkersPerGroup, long nodeBandwidth) {

    public static final Duration WATCHDOG_PERIOD = Duration.ofMillis(20);
    public static final Duration HINT_PERIOD = Duration.ofMillis(50);
    public static final int MAX_WORKERS_PER_GROUP = 256;

    public SchedulerConfig {
        if (groupsPerNode < 1) {
            throw new IllegalArgumentException("groupsPerNode must be at least 1, got " + groupsPerNode);
        }
        Objects.requireNonNull(stealPolicy, "stealPolicy");
        positive("watchdogPeriod", watchdogPeriod);
        positive("hintPeriod", hintPeriod);
        if (maxWorkersPerGroup < 1) {
            throw new IllegalArgumentException("maxWorkersPerGroup must be at least 1, got " + maxWorkersPerGroup);
        }
        hardAffinityAdvisor = hardAffinityAdvisor == null ? HardAffinityAdvisor.NEVER : hardAffinityAdvisor;
        if (nodeBandwidth < 0) {
            throw new IllegalArgumentException("nodeBandwidth must be positive, or 0 for none, got " + nodeBandwidth);
        }
    }

    private static void positive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
    }

    /** One group per node, TARGET, the thesis's periods, a private registry. */
    public static SchedulerConfig defaults() {
        return new SchedulerConfig(1, StealPolicy.TARGET, WATCHDOG_PERIOD, HINT_PERIOD, null,
                HardAffinityAdvisor.NEVER, MAX_WORKERS_PER_GROUP, 0);
    }

    public SchedulerConfig withGroupsPerNode(int groups) {
        return new SchedulerConfig(groups, stealPolicy, watchdogPeriod, hintPeriod, meterRegistry, hardAffinityAdvisor, maxWorkersPerGroup, nodeBandwidth);
    }

    public SchedulerConfig withStealPolicy(StealPolicy policy) {
        return new SchedulerConfig(groupsPerNode, policy, watchdogPeriod, hintPeriod, meterRegistry, hardAffinityAdvisor, maxWorkersPerGroup, nodeBandwidth);
    }

    public SchedulerConfig withWatchdogPeriod(Duration period) {
        return new SchedulerConfig(groupsPerNode, stealPolicy, period, hintPeriod, meterRegistry, hardAffinityAdvisor, maxWorkersPerGroup, nodeBandwidth);
    }

    public SchedulerConfig withHintPeriod(Duration period) {
        return new SchedulerConfig(groupsPerNode, stealPolicy, watchdogPeriod, period, meterRegistry, hardAffinityAdvisor, maxWorkersPerGroup, nodeBandwidth);
    }

    public SchedulerConfig withMeterRegistry(MeterRegistry registry) {
        return new SchedulerConfig(groupsPerNode, stealPolicy, watchdogPeriod, hintPeriod, registry, hardAffinityAdvisor, maxWorkersPerGroup, nodeBandwidth);
    }

    public SchedulerConfig withHardAffinityAdvisor(HardAffinityAdvisor advisor) {
        return new SchedulerConfig(groupsPerNode, stealPolicy, watchdogPeriod, hintPeriod, meterRegistry, advisor, maxWorkersPerGroup, nodeBandwidth);
    }

    public SchedulerConfig withMaxWorkersPerGroup(int max) {
        return new SchedulerConfig(groupsPerNode, stealPolicy, watchdogPeriod, hintPeriod, meterRegistry, hardAffinityAdvisor, max, nodeBandwidth);
    }

    public SchedulerConfig withNodeBandwidth(long bytesPerSecond) {
        return new SchedulerConfig(groupsPerNode, stealPolicy, watchdogPeriod, hintPeriod, meterRegistry, hardAffinityAdvisor,
                maxWorkersPerGroup, bytesPerSecond);
    }
}
