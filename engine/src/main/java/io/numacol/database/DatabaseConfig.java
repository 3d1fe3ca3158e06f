package io.numacol.database;

import io.micrometer.core.instrument.MeterRegistry;
import io.numacol.scheduler.BandwidthModel;
import io.numacol.scheduler.StealPolicy;

import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * How a database is opened. Also read from JDBC connection properties: {@code topology}
 * ({@code real} or {@code fake:N}), {@code stealPolicy} (OS, TARGET, BOUND, ADAPTIVE),
 * {@code groupsPerNode}, {@code rowsPerPart}, {@code memoryLimit}, {@code nodeBandwidth}.
 *
 * @param rowsPerPart the appender cuts a table into parts of at most this many rows, placed on
 *                    the nodes round-robin (physical partitioning by arrival order)
 * @param meterRegistry where metrics go, or null for a private simple registry
 * @param memoryLimit   what numacol may hold, as {@link io.numacol.memory.MemoryLimit#parse} reads it
 *                      (bytes, 4GB, 50%); null for 80% of the machine's memory
 * @param nodeBandwidth bytes per second each node of a fake topology serves to scans, under the
 *                      {@link io.numacol.scheduler.BandwidthModel} (remote reads cost twice); 0
 *                      for no model. Refused on a real topology, whose memory is real
 */
public record DatabaseConfig(String topology, StealPolicy stealPolicy, int groupsPerNode, int rowsPerPart,
                             MeterRegistry meterRegistry, String memoryLimit, long nodeBandwidth) {

    public static final int DEFAULT_ROWS_PER_PART = 1 << 20;

    public DatabaseConfig {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(stealPolicy, "stealPolicy");
        if (groupsPerNode < 1) {
            throw new IllegalArgumentException("groupsPerNode must be >= 1, got " + groupsPerNode);
        }
        if (rowsPerPart < 1) {
            throw new IllegalArgumentException("rowsPerPart must be >= 1, got " + rowsPerPart);
        }
        if (nodeBandwidth < 0) {
            throw new IllegalArgumentException("nodeBandwidth must be positive, or 0 for none, got " + nodeBandwidth);
        }
        if (nodeBandwidth > 0 && !topology.trim().startsWith("fake")) {
            throw new IllegalArgumentException("nodeBandwidth models the memory of a fake topology (topology=fake:N);"
                    + " topology '" + topology + "' has real memory");
        }
    }

    public static DatabaseConfig defaults() {
        return new DatabaseConfig("real", StealPolicy.TARGET, 1, DEFAULT_ROWS_PER_PART, null, null, 0);
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
                properties.getProperty("nodeBandwidth") == null ? 0 : BandwidthModel.parse(properties.getProperty("nodeBandwidth")));
    }

    public DatabaseConfig withTopology(String spec) {
        return new DatabaseConfig(spec, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit, nodeBandwidth);
    }

    public DatabaseConfig withStealPolicy(StealPolicy policy) {
        return new DatabaseConfig(topology, policy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit, nodeBandwidth);
    }

    public DatabaseConfig withRowsPerPart(int rows) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rows, meterRegistry, memoryLimit, nodeBandwidth);
    }

    public DatabaseConfig withMemoryLimit(String limit) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, limit, nodeBandwidth);
    }

    public DatabaseConfig withMeterRegistry(MeterRegistry registry) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, registry, memoryLimit, nodeBandwidth);
    }

    private static int intProperty(Properties properties, String name, int fallback) {
        String v = properties.getProperty(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, got '" + v + "'");
        }
    }

    public DatabaseConfig withNodeBandwidth(long bytesPerSecond) {
        return new DatabaseConfig(topology, stealPolicy, groupsPerNode, rowsPerPart, meterRegistry, memoryLimit, bytesPerSecond);
    }
}
