package io.numacol.database;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Databases sharing one registry through {@link DatabaseMeterRegistry}: their meters carry their
 * tag, and a database closed leaves neither meters nor itself in the shared registry, which is
 * not closed.
 */
class DatabaseMeterRegistryTest {
    @Test
    void aClosedDatabaseLeavesNothingInTheSharedRegistry() {
        SimpleMeterRegistry leaf = new SimpleMeterRegistry();
        CompositeMeterRegistry shared = new CompositeMeterRegistry(); // as Micrometer's global registry is
        shared.add(leaf);
        for (int i = 0; i < 3; i++) {
            DatabaseMeterRegistry tagged = DatabaseMeterRegistry.tagging(shared, "database", "db" + i);
            try (Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2").withMeterRegistry(tagged))) {
                assertThat(db.catalog().tables()).isEmpty();
                assertThat(leaf.getMeters()).isNotEmpty();
                assertThat(leaf.getMeters().stream().map(Meter::getId).map(id -> id.getTag("database")).distinct())
                        .containsExactly("db" + i);
            }
            assertThat(leaf.getMeters()).as("the closed database's meters are gone").isEmpty();
            assertThat(tagged.getRegistries()).as("and it let go of the shared registry").isEmpty();
        }
        assertThat(leaf.isClosed()).isFalse();
        assertThat(shared.isClosed()).isFalse();
    }
}
