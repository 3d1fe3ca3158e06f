package io.numacol.jdbc;

import io.numacol.calcite.cache.PlanCache;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** Named in-memory databases of this JVM, kept while any connection holds them. */
final class DatabaseRegistry {
    /** A named database, the properties it was opened with, and how many connections hold it. */
    private record Entry(Database database, Properties opened, int connections) {
    }

    private final Map<String, Entry> named = new HashMap<>();

    /**
     * The named database (opened with {@code properties} if new), or a private one when {@code
     * name} is null. A connection to an open database that asks for other settings than it was
     * opened with is refused: they would be silently ignored.
     */
    synchronized Database acquire(String name, Properties properties) {
        if (name == null) {
            return Database.open(DatabaseConfig.fromProperties(properties));
        }
        Entry e = named.get(name);
        if (e != null) {
            for (String key : properties.stringPropertyNames()) {
                String asked = properties.getProperty(key);
                String had = e.opened().getProperty(key);
                if (!asked.equals(had)) {
                    throw new IllegalArgumentException("database " + name + " is open with " + (had == null ? "no " + key : key + "=" + had)
                            + " and this connection asks for " + key + "=" + asked
                            + ": leave the property out, or close the database's other connections first");
                }
            }
        }
        Database db = e == null ? Database.open(DatabaseConfig.fromProperties(properties)) : e.database();
        named.put(name, new Entry(db, e == null ? properties : e.opened(), e == null ? 1 : e.connections() + 1));
        return db;
    }

    /** Drops a connection's hold; the last one closes a named database, a private one closes at once. */
    synchronized void release(String name, Database database) {
        if (name == null) {
            close(database);
            return;
        }
        Entry e = named.get(name);
        if (e == null || e.database() != database) {
            return;
        }
        if (e.connections() == 1) {
            named.remove(name);
            close(database);
        } else {
            named.put(name, new Entry(database, e.opened(), e.connections() - 1));
        }
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
