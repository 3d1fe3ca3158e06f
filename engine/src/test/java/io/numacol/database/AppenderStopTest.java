package io.numacol.database;

import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A load stopped while its parts are being built (a COPY's timeout or cancel()) stores nothing
 * and leaves no memory behind, wherever the stop lands: in the reading, in a wait for a build, or
 * while a build runs, which then gives up part way ({@link PartBuildStopTest}).
 */
class AppenderStopTest {
    private static final int ROWS_PER_PART = 4_096;

    private final Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2")
            .withRowsPerPart(ROWS_PER_PART).withPlacer("off", DatabaseConfig.DEFAULT_PLACER_PERIOD));

    @AfterEach
    void close() {
        db.close();
        assertThat(db.memory().liveAllocations()).isZero();
    }

    /**
     * Stops a load of 25 parts at its first ask of the stop, then at its second, and so on until a
     * load asks fewer times than the stop waits for and ends: the asks come every 65,536
     * characters and every few milliseconds of a wait for a build, so the stops land before,
     * between and during the builds. After each the table holds its old rows only and the memory
     * is what it was; the load that ends stores every row.
     */
    @Test
    void aStoppedLoadStoresNothingWhereverItStops() {
        Table t = db.catalog().create("t", TableSchema.of(
                new ColumnDef("a", ColumnType.varchar(30), false),
                new ColumnDef("b", ColumnType.bigint(), false)));
        try (Appender old = db.appender(t)) {
            old.append("old", -1L).append("older", -2L);
        }
        int lines = 25 * ROWS_PER_PART;
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            csv.append("row number ").append(i).append(',').append(i).append('\n');
        }
        int allocations = db.memory().liveAllocations();
        int stops = 0;
        for (int stopAt = 1; ; stopAt++) {
            int[] asks = {0};
            int at = stopAt;
            Runnable check = () -> {
                if (++asks[0] == at) {
                    throw new CancellationException("stopped at ask " + at);
                }
            };
            try {
                assertThat(db.appender(t).appendCsv(new StringReader(csv.toString()), CsvFormat.defaults(), check))
                        .isEqualTo(lines);
                break;
            } catch (CancellationException e) {
                stops++;
                assertThat(e).hasMessage("stopped at ask " + at);
                assertThat(t.rowCount()).as("rows after a stop at ask %d", at).isEqualTo(2);
                assertThat(db.memory().liveAllocations()).as("allocations after a stop at ask %d", at).isEqualTo(allocations);
            }
        }
        assertThat(stops).as("loads stopped").isGreaterThanOrEqualTo(lines * 16 / 65_536);
        assertThat(t.rowCount()).isEqualTo(lines + 2L);
        db.appender(t).appendAll(List.<Object[]>of(new Object[] {"after", 7L}));
        assertThat(t.rowCount()).isEqualTo(lines + 3L);
    }

    /**
     * A load whose parts take a while to build (100,000 strings each), stopped at the first ask
     * of the stop that finds a worker building one of its parts: the build gives up, and the table
     * and the memory are as they were. Builds run beside the reading most of the time, so an ask
     * that finds none only delays the stop to the next ask (every 65,536 characters).
     */
    @Test
    void aLoadStoppedWhileItsPartsAreBuiltStoresNothing() {
        try (Database big = Database.open(DatabaseConfig.defaults().withTopology("fake:2").withRowsPerPart(100_000)
                .withPlacer("off", DatabaseConfig.DEFAULT_PLACER_PERIOD))) {
            Table t = big.catalog().create("t", TableSchema.of(
                    new ColumnDef("a", ColumnType.varchar(30), false),
                    new ColumnDef("b", ColumnType.bigint(), false)));
            try (Appender old = big.appender(t)) {
                old.append("old", -1L);
            }
            StringBuilder csv = new StringBuilder();
            for (int i = 0; i < 1_000_000; i++) {
                csv.append("row number ").append(i).append(',').append(i).append('\n');
            }
            int allocations = big.memory().liveAllocations();
            boolean[] stopped = {false};
            Runnable check = () -> {
                if (!stopped[0] && aPartIsBeingBuilt()) {
                    stopped[0] = true;
                    throw new CancellationException("stopped while a part was built");
                }
            };
            assertThatThrownBy(() -> big.appender(t).appendCsv(new StringReader(csv.toString()), CsvFormat.defaults(), check))
                    .isInstanceOf(CancellationException.class).hasMessage("stopped while a part was built");
            assertThat(t.rowCount()).isEqualTo(1);
            assertThat(big.memory().liveAllocations()).isEqualTo(allocations);
            assertThat(big.appender(t).appendCsv(new StringReader("again,1\n"), CsvFormat.defaults())).isEqualTo(1);
            assertThat(t.rowCount()).isEqualTo(2);
        }
    }

    /** Whether a worker runs {@link PartBuilder}'s build now (nothing else builds parts in these tests). */
    private static boolean aPartIsBeingBuilt() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("numacol-worker"))
                .anyMatch(e -> Arrays.stream(e.getValue())
                        .anyMatch(f -> f.getClassName().equals(PartBuilder.class.getName()) && f.getMethodName().equals("build")));
    }
}
