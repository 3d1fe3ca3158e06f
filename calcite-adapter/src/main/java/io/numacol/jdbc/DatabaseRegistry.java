package io.numacol.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.numacol.calcite.cache.PlanCache;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.durability.StorageOptions;
import io.numacol.wal.Durability;

import java.nio.file.Path;

import java.util.HashMap;
import java.util.Map;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Named in-memory databases of this JVM, kept while any connection holds them, and after the last
 * one closes for the database's close delay (H2's DB_CLOSE_DELAY): 0, the default, drops it at
 * once; N seconds keeps it that long for a connection to come back; -1 keeps it until the JVM
 * ends or SHUTDOWN closes it.
 */
final class DatabaseRegistry {
    /** Keep the database until SHUTDOWN or the JVM's end. */
    static final int KEEP = -1;

    /** A named database, the properties it was opened with, how many connections hold it, and its close delay. */
    private static final class Entry {
        final Database database;
        final Properties opened;
        int connections;
        int closeDelaySeconds;
        /** Counts the times the database was left without connections: a delayed drop drops only the one it was scheduled for. */
        long idle;

        Entry(Database database, Properties opened, int closeDelaySeconds) {
            this.database = database;
            this.opened = opened;
            this.closeDelaySeconds = closeDelaySeconds;
        }
    }

    private final Map<String, Entry> named = new HashMap<>();

    /**
     * The named database (opened with {@code properties} if new), or a private one when {@code
     * name} is null. A connection to an open database that asks for other settings than it was
     * opened with is refused: they would be silently ignored. {@code closeDelaySeconds} (null: as
     * it is, 0 for a new database) sets the named database's close delay; the last connection that
     * gives one sets it.
     */
    synchronized Database acquire(String name, Properties properties, Integer closeDelaySeconds) {
        if (name == null) {
            return Database.open(config(properties, "private:" + PRIVATE.incrementAndGet()));
        }
        Entry e = named.get(name);
        if (e != null) {
            for (String key : properties.stringPropertyNames()) {
                String asked = properties.getProperty(key);
                String had = e.opened.getProperty(key);
                if (!asked.equals(had)) {
                    throw new IllegalArgumentException("database " + name + " is open with " + (had == null ? "no " + key : key + "=" + had)
                            + " and this connection asks for " + key + "=" + asked
                            + ": leave the property out, or close the database's other connections first");
                }
            }
        } else {
            e = new Entry(open(name, properties), properties, 0);
            named.put(name, e);
        }
        if (closeDelaySeconds != null) {
            e.closeDelaySeconds = closeDelaySeconds;
        }
        e.connections++;
        return e.database;
    }

    /** Prefix of the registry's name of a file database: its absolute directory follows. */
    static final String FILE = "file:";

    /** Private databases opened so far: each one's meters are tagged with its number. */
    private static final AtomicLong PRIVATE = new AtomicLong();

    /**
     * The configuration {@code properties} ask for, with the meter registry of {@code metrics}
     * ({@link NumacolMetrics}), whose meters it tags {@code database=tag}.
     */
    private static DatabaseConfig config(Properties properties, String tag) {
        DatabaseConfig config = DatabaseConfig.fromProperties(properties);
        MeterRegistry registry = NumacolMetrics.forDatabase(properties.getProperty(NumacolMetrics.PROPERTY), tag);
        return registry == null ? config : config.withMeterRegistry(registry);
    }

    /** Opens a new database for the registry's name {@code name}: a file database's directory, or a named one in memory. */
    private static Database open(String name, Properties properties) {
        DatabaseConfig config = config(properties, name.startsWith(FILE) ? name : "mem:" + name);
        if (!name.startsWith(FILE)) {
            return Database.open(config);
        }
        Path directory = Path.of(name.substring(FILE.length()));
        return Database.open(config, new StorageOptions(directory, durability(properties.getProperty("durability")),
                StorageOptions.DEFAULT_CHECKPOINT_BYTES, readOnly(properties.getProperty(ACCESS_MODE))));
    }

    /** The property that opens a file database to read only, as DuckDB names it. */
    static final String ACCESS_MODE = "access_mode";

    /** The {@code access_mode} property: read_write (the default) or read_only. */
    static boolean readOnly(String value) {
        if (value == null) {
            return false;
        }
        return switch (value.strip().toUpperCase(Locale.ROOT)) {
            case "READ_ONLY" -> true;
            case "READ_WRITE", "AUTOMATIC" -> false;
            default -> throw new IllegalArgumentException("access_mode=" + value + ": use read_only (several processes may read the "
                    + "database at once, none may change it) or read_write (one process, the default)");
        };
    }

    /** The {@code durability} property: fsync (the default), flush or none. */
    static Durability durability(String value) {
        if (value == null) {
            return Durability.FSYNC;
        }
        try {
            return Durability.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("durability=" + value + ": use fsync (each commit forced to disk, the default), "
                    + "flush (written to the operating system: a crash of the process loses nothing, one of the machine may) "
                    + "or none (buffered: a crash may lose the last commits)");
        }
    }

    /**
     * Drops a connection's hold; the last one closes a named database (now, after its close
     * delay, or never with {@link #KEEP}); a private one closes at once.
     */
    synchronized void release(String name, Database database) {
        if (name == null) {
            close(database);
            return;
        }
        Entry e = named.get(name);
        if (e == null || e.database != database) {
            return; // shut down, and perhaps opened again since
        }
        if (--e.connections > 0) {
            return;
        }
        long idle = ++e.idle;
        if (e.closeDelaySeconds == 0) {
            named.remove(name);
            close(database);
        } else if (e.closeDelaySeconds > 0) {
            CompletableFuture.delayedExecutor(e.closeDelaySeconds, TimeUnit.SECONDS).execute(() -> expire(name, e, idle));
        }
    }

    /** Drops a named database whose close delay ran out, unless a connection came back meanwhile. */
    private synchronized void expire(String name, Entry e, long idle) {
        if (named.get(name) == e && e.connections == 0 && e.idle == idle) {
            named.remove(name);
            close(e.database);
        }
    }

    /** Closes {@code database} now, whatever connections it has (SQL's SHUTDOWN): a new connection to its name opens a new one. */
    synchronized void shutdown(Database database) {
        named.values().removeIf(e -> e.database == database);
        close(database);
    }

    /** Whether a named database is open in this JVM (held, or kept after its last connection). */
    synchronized boolean isOpen(String name) {
        return named.containsKey(name);
    }

    /** Closes the database, and drops its plans: they hold its tables. */
    private static void close(Database database) {
        try {
            database.close();
        } finally {
            PlanCache.close(database);
        }
    }
}
