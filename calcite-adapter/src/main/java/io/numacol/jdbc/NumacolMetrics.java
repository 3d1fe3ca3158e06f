package io.numacol.jdbc;

import io.numacol.database.DatabaseMeterRegistry;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the {@code metrics} connection property sends a database's meters: {@code metrics=global}
 * to Micrometer's global registry ({@link Metrics#globalRegistry}, which Spring Boot and most
 * frameworks fill), {@code metrics=NAME} to a registry the application registered here under that
 * name, {@code metrics=none} (the default) nowhere. Each database's meters carry the tag {@code
 * database} ({@code mem:NAME}, {@code file:PATH}, or {@code private:N} for a {@code jdbc:numacol:}
 * connection's own), and leave the registry when the database closes. The meters: see {@code
 * io.numacol.database.DatabaseMetrics} and the scheduler's {@code numacol.scheduler.*}.
 *
 * <pre>{@code
 * NumacolMetrics.register("app", prometheusRegistry);
 * DriverManager.getConnection("jdbc:numacol:mem:orders;metrics=app");
 * }</pre>
 */
public final class NumacolMetrics {
    /** The connection property. */
    public static final String PROPERTY = "metrics";
    /** Its value for Micrometer's global registry. */
    public static final String GLOBAL = "global";
    /** Its value for no registry, the default. */
    public static final String NONE = "none";

    private static final Map<String, MeterRegistry> NAMED = new ConcurrentHashMap<>();

    private NumacolMetrics() {
    }

    /**
     * Makes {@code registry} the one {@code metrics=NAME} names, in place of any registered under
     * that name before (databases open already keep theirs). {@code global} and {@code none} are
     * taken.
     */
    public static void register(String name, MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        String key = key(name);
        if (key.equals(GLOBAL) || key.equals(NONE)) {
            throw new IllegalArgumentException("'" + name + "' names Micrometer's global registry or none: register under another name");
        }
        NAMED.put(key, registry);
    }

    /** Forgets the registry registered under {@code name}; returns it, or null. */
    public static MeterRegistry unregister(String name) {
        return NAMED.remove(key(name));
    }

    private static String key(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a registry's name must not be empty");
        }
        return name.strip().toLowerCase(Locale.ROOT);
    }

    /**
     * The registry the property's {@code value} names, its meters tagged {@code database=database};
     * null for none. Throws IllegalArgumentException for a name nothing was registered under.
     */
    static MeterRegistry forDatabase(String value, String database) {
        if (value == null || key(value).equals(NONE)) {
            return null;
        }
        String key = key(value);
        MeterRegistry target = key.equals(GLOBAL) ? Metrics.globalRegistry : NAMED.get(key);
        if (target == null) {
            throw new IllegalArgumentException("metrics=" + value + ": no meter registry is registered under that name; call "
                    + "io.numacol.jdbc.NumacolMetrics.register(\"" + value.strip() + "\", registry) before connecting, or use "
                    + "metrics=global for Micrometer's global registry");
        }
        // a composite of one, whose common tag goes on every meter registered through it (and a meter
        // removed from it leaves the target too): many databases share one registry, told apart by the
        // tag; the database detaches it from the target as it closes
        return DatabaseMeterRegistry.tagging(target, "database", database);
    }
}
