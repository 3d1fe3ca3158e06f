package io.numacol.jdbc;

import io.numacol.calcite.cache.PlanCache;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;

import java.util.HashMap;
import java.util.Map;

/** Named in-memory databases of this JVM, kept while any connection holds them. */
final class DatabaseRegistry {
    private record Entry(Database database, int connections) {
    }

    private final Map<String, Entry> named = new HashMap<>();

    /** The named database (opened with {@code config} if new), or a private one when {@code name} is null. */
    synchronized Database acquire(String name, DatabaseConfig config) {
        if (name == null) {
            return Database.open(config);
        }
        Entry e = named.get(name);
        Database db = e == null ? Database.open(config) : e.database();
        named.put(name, new Entry(db, e == null ? 1 : e.connections() + 1));
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
            named.put(name, new Entry(database, e.connections() - 1));
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
