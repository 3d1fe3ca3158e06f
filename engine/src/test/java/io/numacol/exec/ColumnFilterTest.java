package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.scan.VidPredicate;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.StatementFailedException;
import io.numacol.storage.ColumnType;
import io.numacol.storage.Dictionary;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A LIKE-style test over a dictionary too large for one thread, in pieces on the workers. */
class ColumnFilterTest {
    private static final int ROWS = 150_001; // three pieces of 65,536 vids, the last one short
    private static Database db;
    private static io.numacol.storage.TableSnapshot snapshot;
    private static TablePart part;

    @BeforeAll
    static void load() {
        db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"));
        db.catalog().create("c", TableSchema.of(new TableSchema.ColumnDef("s", ColumnType.varchar(12), true)));
        try (Appender a = db.appender("c")) {
            for (int i = 0; i < ROWS; i++) {
                a.append(new Object[]{i % 1000 == 0 ? null : "v" + i});
            }
        }
        snapshot = db.catalog().get("c").snapshot();
        part = snapshot.parts().getFirst();
    }

    @AfterAll
    static void close() {
        snapshot.close();
        db.close();
    }

    @Test
    void piecesOnTheWorkersFindWhatOneThreadFinds() {
        ColumnFilter sevens = new ColumnFilter.Matching(0, v -> ((String) v).endsWith("7"), "ends with 7");
        Fork workers = Fork.tasks(db.scheduler().newStatement(), Affinity.none());
        PartFilter.Leaf parallel = (PartFilter.Leaf) sevens.prepare(part, workers);
        PartFilter.Leaf serial = (PartFilter.Leaf) sevens.prepare(part, Fork.SERIAL);
        assertThat(parallel.predicate()).isEqualTo(serial.predicate());
        Dictionary d = part.column(0).dictionary();
        int[] expected = IntStream.range(0, d.size()).filter(vid -> ((String) d.stored(vid)).endsWith("7")).toArray();
        assertThat(((VidPredicate.VidSet) parallel.predicate()).vids()).containsExactly(expected);
        assertThat(expected).hasSizeGreaterThan(14_000);

        ColumnFilter none = new ColumnFilter.Matching(0, v -> false, "nothing");
        assertThat(((PartFilter.Leaf) none.prepare(part, workers)).predicate()).isEqualTo(VidPredicate.of(io.numacol.storage.VidRange.EMPTY));
    }

    @Test
    void aPieceThatFailsFailsThePreparation() {
        ColumnFilter failing = new ColumnFilter.Matching(0, v -> {
            if (v.equals("v149999")) {
                throw new IllegalStateException("a test that fails on v149999");
            }
            return true;
        }, "fails");
        assertThatThrownBy(() -> failing.prepare(part, Fork.tasks(db.scheduler().newStatement(), Affinity.none())))
                .isInstanceOf(StatementFailedException.class).hasRootCauseMessage("a test that fails on v149999");
    }
}
