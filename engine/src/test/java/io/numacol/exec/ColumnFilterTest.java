package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.scan.VidPredicate;
import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.StatementFailedException;
import io.numacol.storage.Dictionary;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.VidRange;
import io.numacol.storage.types.ColumnType;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A LIKE-style test over a dictionary too large for one thread, in pieces on the workers. */
class ColumnFilterTest {
    private static final int ROWS = 150_001; // three pieces of 65,536 vids, the last one short
    private static Database db;
    private static TableSnapshot snapshot;
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
        assertThat(((PartFilter.Leaf) none.prepare(part, workers)).predicate()).isEqualTo(VidPredicate.of(VidRange.EMPTY));
    }

    /**
     * Shares of rows estimated from the dictionary: 150 NULLs among 149,851 distinct strings, each
     * once; a LIKE from a sample of the values, within a few points of the share that passes.
     */
    @Test
    void selectivityIsTheShareOfTheDictionaryThatPasses() {
        List<TablePart> parts = snapshot.parts();
        double distinct = part.column(0).dictionary().size() + 1;
        assertThat(new ColumnFilter.IsNull(0, false).selectivity(parts)).isCloseTo(1 / distinct, Offset.offset(1e-9));
        assertThat(new ColumnFilter.IsNull(0, true).selectivity(parts)).isCloseTo(1 - 1 / distinct, Offset.offset(1e-9));
        assertThat(new ColumnFilter.In(0, List.of("v1", "v2", "nothing")).selectivity(parts))
                .isCloseTo(2 / distinct, Offset.offset(1e-9));
        // v1, v10..v19, .., v100000..v149999: 61,111 values, less the NULLs among them
        ColumnFilter ones = new ColumnFilter.Prefix(0, "v1");
        double share = ones.selectivity(parts);
        assertThat(share).isCloseTo(61_111 / distinct, Offset.offset(0.01));
        assertThat(new ColumnFilter.Range(0, "v1", true, "v2", false).selectivity(parts)).isCloseTo(share, Offset.offset(1e-9));
        assertThat(new ColumnFilter.And(List.of(new ColumnFilter.Range(0, "v1", true, null, false),
                new ColumnFilter.Range(0, null, false, "v2", false))).selectivity(parts)).as("ranges of one column intersect")
                .isCloseTo(share, Offset.offset(1e-9));
        assertThat(new ColumnFilter.And(List.of(new ColumnFilter.Range(0, "v2", true, null, false),
                new ColumnFilter.Range(0, null, false, "v1", false))).selectivity(parts)).isZero();
        assertThat(new ColumnFilter.Not(ones).selectivity(parts)).isCloseTo(1 - 1 / distinct - share, Offset.offset(1e-9));
        ColumnFilter sevens = new ColumnFilter.Matching(0, v -> ((String) v).endsWith("7"), "ends with 7");
        assertThat(sevens.selectivity(parts)).isCloseTo(0.1, Offset.offset(0.03));
        assertThat(new ColumnFilter.And(List.of(ones, sevens)).selectivity(parts))
                .isCloseTo(share * sevens.selectivity(parts), Offset.offset(1e-9));
        assertThat(new ColumnFilter.Or(List.of(ones, sevens)).selectivity(parts))
                .isCloseTo(1 - (1 - share) * (1 - sevens.selectivity(parts)), Offset.offset(1e-9));
        assertThat(sevens.selectivity(List.of())).isEqualTo(1);
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
