package io.numacol.database;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.numacol.memory.Component;
import io.numacol.memory.MemoryAccounting;
import io.numacol.placement.Utilization;
import io.numacol.scheduler.DataUsage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A database's meters, beside the scheduler's ({@code numacol.scheduler.*}: tasks run and stolen,
 * busy time, queues): per node its memory by component, the bytes its scans read (a counter, whose
 * rate is bytes per second) and the last second's busy cores and read rate (as {@code
 * sys.utilization} shows them); the DataPlacer's actions by kind; and the statements' run time,
 * with percentiles and a histogram. Every meter reads what numacol counts anyway, so the hot path
 * pays no Micrometer call but a statement's one timer record. Removed at close, so that a registry
 * shared by many databases (Micrometer's global one) keeps only the open ones'.
 */
final class DatabaseMetrics implements AutoCloseable {
    /** The placer's kinds of action, as {@code sys.placer_actions} names them. */
    private static final List<String> PLACER_ACTIONS = List.of("move", "partition", "merge");

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Timer statements;

    DatabaseMetrics(Database db, MeterRegistry registry, Utilization utilization, DataUsage usage) {
        this.registry = registry;
        MemoryAccounting memory = db.memory().accounting();
        for (int n = 0; n < db.topology().nodeCount(); n++) {
            int node = n;
            String tag = Integer.toString(node);
            meters.add(Gauge.builder("numacol.node.busy.cores", utilization, u -> u.node(node, Duration.ofSeconds(1)).busyCores())
                    .tag("node", tag)
                    .description("worker time on this node's data per second (numacol's accounting of its scans)")
                    .register(registry));
            meters.add(Gauge.builder("numacol.node.read.bytes.per.second", utilization,
                            u -> u.node(node, Duration.ofSeconds(1)).bytesPerSecond())
                    .tag("node", tag).baseUnit("bytes")
                    .description("IndexVector bytes scanned from this node per second, over the last second (numacol's accounting)")
                    .register(registry));
            meters.add(FunctionCounter.builder("numacol.node.scan.bytes", usage, u -> u.bytes(node))
                    .tag("node", tag).baseUnit("bytes")
                    .description("IndexVector bytes scanned from this node since the database opened (its rate is the scan bytes per second)")
                    .register(registry));
            for (Component c : Component.values()) {
                meters.add(Gauge.builder("numacol.node.memory", memory, m -> m.bytes(node, c))
                        .tags("node", tag, "component", c.name().toLowerCase(Locale.ROOT)).baseUnit("bytes")
                        .description("bytes numacol holds on this node for the component (table data by kind, hash tables of running joins)")
                        .register(registry));
            }
        }
        for (String action : PLACER_ACTIONS) {
            meters.add(FunctionCounter.builder("numacol.placer.actions", db, d -> d.placerActions(action))
                    .tag("action", action)
                    .description("parts the DataPlacer moved, partitioned or merged (sys.placer_actions); 0 while it does not run")
                    .register(registry));
        }
        this.statements = Timer.builder("numacol.statement")
                .description("statements' run time, from execute (planning included) until their rows are read or closed")
                .publishPercentiles(0.5, 0.95, 0.99).publishPercentileHistogram()
                .register(registry);
        meters.add(statements);
    }

    /** A statement ran {@code nanos}. */
    void statement(long nanos) {
        statements.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
        meters.clear();
    }
}
