package io.numacol.database;

import io.numacol.storage.ChangeLog;
import io.numacol.storage.Column;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A load whose commit the log refuses after the table took its parts (the commit stays visible
 * in memory, as {@code CommitClock} keeps it) fails, and leaves those parts to the table: the
 * appender freed them, and every reader of the table then looped for ever, retaining a part that
 * could no longer be retained (the utilization sampler too, so close() never returned: hence the
 * timeout).
 */
class AppenderCommitFailureTest {
    @Test
    @Timeout(120)
    void partsTheTableTookAreNotFreedWhenTheLogFailsAfterwards() {
        Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2").withRowsPerPart(4_096)
                .withPlacer("off", DatabaseConfig.DEFAULT_PLACER_PERIOD));
        try {
            Table t = db.catalog().create("t", TableSchema.of(new ColumnDef("a", ColumnType.varchar(20), false),
                    new ColumnDef("b", ColumnType.bigint(), false)));
            db.catalog().attachLog(new ChangeLog() {
                @Override
                public long committed(long timestamp) {
                    throw new UncheckedIOException(new IOException("the log's disk is full"));
                }
            });
            int rows = 10_000;
            assertThatThrownBy(() -> {
                try (Appender a = db.appender(t)) {
                    for (int i = 0; i < rows; i++) {
                        a.append("row " + i, (long) i);
                    }
                }
            }).hasMessageContaining("the log's disk is full");
            assertThat(t.rowCount()).as("visible, as the commit clock keeps a commit the log refused").isEqualTo(rows);
            long sum = 0;
            for (TablePart part : t.parts()) {
                Column b = part.column(1);
                LongDictionary values = (LongDictionary) b.dictionary();
                for (int r = 0; r < part.rowCount(); r++) {
                    sum += values.getLong(b.indexVector().get(r));
                }
            }
            assertThat(sum).as("every value read back from memory still held").isEqualTo((long) rows * (rows - 1) / 2);
        } finally {
            db.close();
        }
        assertThat(db.memory().liveAllocations()).as("the table freed them at close").isZero();
    }
}
