package io.numacol.database;

import io.micrometer.core.instrument.MeterRegistry;
import io.numacol.scheduler.BandwidthModel;
import io.numacol.scheduler.StealPolicy;
import io.numacol.topology.Topology;

import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * How a database is opened. Also read from JDBC connection properties: {@code topology}
 * ({@code real} or {@code fake:N}), {@code stealPolicy} (OS, TARGET, BOUND, ADAPTIVE),
 * {@code groupsPerNode}, {@code rowsPerPart}, {@code memoryLimit}, {@code nodeBandwidth},
 * {@code placer}, {@code placerPeriod}, {@code stealThreshold}, {@code scheduler}, {@code externalAccess},
 * {@code allowedDirectories}.
 *
 * @param rowsPerPart the appender cuts a table into parts of at most this many rows, placed on
 *                    the nodes round-robin (physical partitioning by arrival order)
 * @param meterRegistry where metrics go, or null for a private simple registry
 * @param memoryLimit   what numacol may hold, as {@link io.numacol.memory.MemoryLimit#parse} reads it
 *                      (bytes, 4GB, 50%); null for 80% of the machine's memory
 * @param nodeBandwidth bytes per second each node of a fake topology serves to scans, under the
 *                      {@link io.numacol.scheduler.BandwidthModel} (remote reads cost twice); 0
 *                      for no model. Refused on a real topology, whose memory is real
 * @param placer        {@code on}, {@code off}, or {@code auto} (null): the DataPlacer runs on a
 *                      real topology of more than one node, and on a fake one only when asked, so
 *                      that tests of fake topologies see no part move by itself
 * @param placerPeriod  how often the DataPlacer decides, in milliseconds (thesis: 1 s)
 * @param stealThreshold under the ADAPTIVE steal policy, the memory throughput (bytes per second
 *                      per task, as {@code sys.task_classes} shows it) above which a task class is
 *                      bound to its node; 0 to find it by the thesis's §6.4 experiment when the
 *                      database opens ({@code sys.stealing} shows the outcome, to pass here next time)
 * @param scheduler     {@code pool} (null): the NUMA-aware {@link io.numacol.scheduler.WorkerPoolScheduler};
 *                      {@code inline}: the {@link io.numacol.scheduler.InlineScheduler}, which runs every
 *                      task on the thread that submits it, for deterministic tests and debugging
 * @param fileAccess    which files the database's SQL may read (COPY): {@link FileAccess}
 */
public record DatabaseConfig(String topology, StealPolicy stealPolicy, int groupsPerNode, int rowsPerPart,
                             MeterRegistry meterRegistry, String memoryLimit, long nodeBandwidth, String placer,
                             long placerPeriod, long stealThreshold, String scheduler, FileAccess fileAccess) {

    public static final int DEFAULT_ROWS_PER_PART = 1 << 20;
    public static final long DEFAULT_PLACER_PERIOD = 1_000;
    /** The most WorkerGroups per node: a group has a worker at least, and the thesis uses one group per a few cores. */
    public static final int MAX_GROUPS_PER_NODE = 64;

    public DatabaseConfig {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(stealPolicy, "stealPolicy");
        Objects.requireNonNull(fileAccess, "fileAccess");
        if (groupsPerNode < 1 || groupsPerNode > MAX_GROUPS_PER_NODE) {
            // each group starts a worker at least: 100,000 groups ran the JVM out of threads
            throw new IllegalArgumentException("groupsPerNode must be between 1 and " + MAX_GROUPS_PER_NODE + ", got " + groupsPerNode);
        }
        if (rowsPerPart < 1) {
            throw new IllegalArgumentException("rowsPerPart must be >= 1, got " + rowsPerPart);
        }
        if (nodeBandwidth < 0) {
            throw new IllegalArgumentException("nodeBandwidth must be positive, or 0 for none, got " + nodeBandwidth);
        }
        placer = placer == null ? "auto" : placer.trim().toLowerCase(Locale.ROOT);
        if (!placer.equals("on") && !placer.equals("off") && !placer.equals("auto")) {
            throw new IllegalArgumentException("placer must be on, off or auto, got '" + placer + "'");
        }
        if (placerPeriod < 10) {
            throw new IllegalArgumentException("placerPeriod must be at least 10 ms, got " + placerPeriod);
        }
        if (stealThreshold < 0) {
            throw new IllegalArgumentException("stealThreshold must be a positive number of bytes per second, or 0 to calibrate, got "
                    + stealThreshold);
        }
        scheduler = scheduler == null ? "pool" : scheduler.trim().toLowerCase(Locale.ROOT);
        if (!scheduler.equals("pool") && !scheduler.equals("inline")) {
            throw new IllegalArgumentException("scheduler must be pool or inline, got '" + scheduler + "'");
        }
        if (nodeBandwidth > 0 && !topology.trim().startsWith("fake")) {
            throw new IllegalArgumentException("nodeBandwidth models the memory of a fake topology (topology=fake:N);"
                    + " topology '" + topology + "' has real memory");
        }
    }

    public static DatabaseConfig defaults() {
        return new DatabaseConfig("real", StealPolicy.TARGET, 1, DEFAULT_ROWS_PER_PART, null, null, 0, null,
                DEFAULT_PLACER_PERIOD, 0, null, FileAccess.ALL);
    }

    /** The defaults overridden by any of the properties named in the class comment. */
    public static DatabaseConfig fromProperties(Properties properties) {
        DatabaseConfig c = defaults();
        String topology = properties.getProperty("topology", c.topology);
        String policy = properties.getProperty("stealPolicy", c.stealPolicy.name());
        StealPolicy stealPolicy;
        try {
            stealPolicy = StealPolicy.valueOf(policy.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("stealPolicy '" + policy + "' is not one of OS, TARGET, BOUND, ADAPTIVE");
        }
        return new DatabaseConfig(topology, stealPolicy, intProperty(properties, "groupsPerNode", c.groupsPerNode),
                intProperty(properties, "rowsPerPart", c.rowsPerPart), null, properties.getProperty("memoryLimit"),
                properties.getProperty("nodeBandwidth") == null ? 0 : BandwidthModel.parse(properties.getProperty("nodeBandwidth")),
                properties.getProperty("placer"), longProperty(properties, "placerPeriod", c.placerPeriod),
                properties.getProperty("stealThreshold") == null ? 0
                        : BandwidthModel.parse(properties.getProperty("stealThreshold"), "stealThreshold"),
                properties.getProperty("scheduler"),
                FileAccess.of(properties.getProperty("externalAccess"), properties.getProperty("allowedDirectories")));
    }

    public DatabaseConfig withTopology(String spec) {
        return new DatabaseConfig(spec, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit,
                nodeBandwidth, placer, placerPeriod, stealThreshold, scheduler, fileAccess);
    }

    public DatabaseConfig withStealPolicy(StealPolicy policy) {
        return new DatabaseConfig(topology, policy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit,
                nodeBandwidth, placer, placerPeriod, stealThreshold, scheduler, fileAccess);
    }

    public DatabaseConfig withRowsPerPart(int rows) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rows, meterRegistry, memoryLimit,
                nodeBandwidth, placer, placerPeriod, stealThreshold, scheduler, fileAccess);
    }

    public DatabaseConfig withMemoryLimit(String limit) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, limit,
                nodeBandwidth, placer, placerPeriod, stealThreshold, scheduler, fileAccess);
    }

    public DatabaseConfig withMeterRegistry(MeterRegistry registry) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, registry, memoryLimit,
                nodeBandwidth, placer, placerPeriod, stealThreshold, scheduler, fileAccess);
    }

    public DatabaseConfig withNodeBandwidth(long bytesPerSecond) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit,
                bytesPerSecond, placer, placerPeriod, stealThreshold, scheduler, fileAccess);
    }

    public DatabaseConfig withPlacer(String onOffAuto, long periodMillis) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit, nodeBandwidth,
                onOffAuto, periodMillis, stealThreshold, scheduler, fileAccess);
    }

    /** The ADAPTIVE policy's threshold given (bytes per second), skipping the start-up calibration. */
    public DatabaseConfig withStealThreshold(long bytesPerSecond) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit, nodeBandwidth,
                placer, placerPeriod, bytesPerSecond, scheduler, fileAccess);
    }

    /** {@code pool} or {@code inline}: see {@code scheduler}. */
    public DatabaseConfig withScheduler(String poolOrInline) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit, nodeBandwidth,
                placer, placerPeriod, stealThreshold, poolOrInline, fileAccess);
    }

    /** Which files the database's SQL may read: see {@link FileAccess}. */
    public DatabaseConfig withFileAccess(FileAccess access) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit, nodeBandwidth,
                placer, placerPeriod, stealThreshold, scheduler, access);
    }

    /** Whether the database runs its tasks on the {@link io.numacol.scheduler.InlineScheduler}. */
    public boolean inlineScheduler() {
        return scheduler.equals("inline");
    }

    /** Whether the DataPlacer runs on {@code topology}: see {@code placer}. */
    public boolean placerOn(Topology topology) {
        return placer.equals("on") || (placer.equals("auto") && !topology.isFake() && topology.nodeCount() > 1);
    }

    private static long longProperty(Properties properties, String name, long fallback) {
        String v = properties.getProperty(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, got '" + v + "'");
        }
    }

    private static int intProperty(Properties properties, String name, int fallback) {
        long v = longProperty(properties, name, fallback);
        if (v != (int) v) {
            throw new IllegalArgumentException(name + " must be a whole number, got '" + properties.getProperty(name) + "'");
        }
        return (int) v;
    }
}
