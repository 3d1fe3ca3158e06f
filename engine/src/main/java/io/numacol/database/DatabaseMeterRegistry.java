package io.numacol.database;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.util.List;

/**
 * A database's view of a registry it shares with others (Micrometer's global one, an
 * application's): a composite of that one registry whose common tag tells the databases' meters
 * apart. Made by whoever opens the database for it ({@link #tagging}); the database detaches it
 * from the shared registry as it closes ({@link #detach}), since a composite added to another
 * composite is kept by it for good, one per database ever opened, and every later change of the
 * shared registry's children walks them all. Closing it would close the shared registry too.
 */
public final class DatabaseMeterRegistry extends CompositeMeterRegistry {
    private DatabaseMeterRegistry() {
    }

    /** A registry whose meters go to {@code target}, each tagged {@code key=value}. */
    public static DatabaseMeterRegistry tagging(MeterRegistry target, String key, String value) {
        DatabaseMeterRegistry tagged = new DatabaseMeterRegistry();
        tagged.config().commonTags(key, value);
        tagged.add(target);
        return tagged;
    }

    /** Lets go of the shared registry; the database's meters were removed before. */
    void detach() {
        for (MeterRegistry target : List.copyOf(getRegistries())) {
            remove(target);
        }
    }
}
