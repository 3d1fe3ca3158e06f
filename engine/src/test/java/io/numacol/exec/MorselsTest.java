package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.placement.PageSocketMap;
import io.numacol.placement.Placement;
import io.numacol.storage.IndexVector;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scan morsels on a fake topology of four nodes: a part's rows are cut where the pages of the
 * driving column's IndexVector change node, each morsel takes that node, and a move is followed.
 */
class MorselsTest {
    private static final int ROWS = 300_000;
    private static final int RANGE_ROWS = 32 * IndexVector.BLOCK_ROWS;
    private static Database db;
    private static Table table;

    @BeforeAll
    static void load() {
        db = Database.open(DatabaseConfig.defaults().withTopology("fake:4").withRowsPerPart(ROWS));
        table = db.catalog().create("m", TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("small", ColumnType.integer(), false)));
        try (Appender a = db.appender("m")) {
            for (long i = 0; i < ROWS; i++) {
                a.append(i * 7, (int) (i % 5)); // k: bitcase 19 (300k distinct), small: bitcase 3
            }
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<Morsels.Morsel> morsels(int column) {
        try (TableSnapshot snapshot = table.snapshot()) {
            TablePart part = snapshot.parts().getFirst();
            assertThat(part.rowCount()).isEqualTo(ROWS);
            List<Morsels.Morsel> morsels = Morsels.of(table, part, column, RANGE_ROWS);
            int expectedFrom = 0;
            for (Morsels.Morsel m : morsels) {
                assertThat(m.from()).as("morsels cover the part in order").isEqualTo(expectedFrom);
                assertThat(m.from() % IndexVector.BLOCK_ROWS).isZero();
                assertThat(m.to() - m.from()).isPositive().isLessThanOrEqualTo(RANGE_ROWS);
                expectedFrom = m.to();
            }
            assertThat(expectedFrom).isEqualTo(ROWS);
            return morsels;
        }
    }

    /** The node of the page where each block of the morsel starts, as the kernel (here: the fake) reports. */
    private static void assertOnItsNode(Morsels.Morsel m, int column) {
        try (TableSnapshot snapshot = table.snapshot()) {
            IndexVector iv = snapshot.parts().getFirst().column(column).indexVector();
            PageSocketMap psm = new PageSocketMap(table.memory());
            psm.add(iv.segment());
            for (int row = m.from(); row < m.to(); row += IndexVector.BLOCK_ROWS) {
                long offset = (long) (row / IndexVector.BLOCK_ROWS) * IndexVector.blockBytes(iv.bitcase());
                assertThat(psm.lookup(iv.segment().address() + offset)).as("block at row %d of %s", row, m)
                        .isEqualTo(m.affinity().node());
            }
        }
    }

    @Test
    void aPartOnOneNodeGivesEveryMorselThatNode() {
        db.setPlacement(table, new Placement.Node(2));
        assertThat(morsels(0)).hasSize((ROWS + RANGE_ROWS - 1) / RANGE_ROWS)
                .allSatisfy(m -> assertThat(m.affinity().node()).isEqualTo(2));
        db.setPlacement(table, new Placement.Node(1));
        assertThat(morsels(0)).as("a move is followed").allSatisfy(m -> assertThat(m.affinity().node()).isEqualTo(1));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void underIvpNoMorselStraddlesTwoNodes(int column) {
        db.setPlacement(table, new Placement.IndexVectorPartitioned());
        List<Morsels.Morsel> morsels = morsels(column);
        morsels.forEach(m -> {
            assertThat(m.affinity().isNone()).isFalse();
            assertOnItsNode(m, column);
        });
        List<Integer> nodes = morsels.stream().map(m -> m.affinity().node()).distinct().toList();
        if (column == 0) {
            assertThat(nodes).as("the IndexVector's page ranges, one per node in order").containsExactly(0, 1, 2, 3);
        }
        assertThat(nodes).isSorted();
    }

    @Test
    void interleavedPagesGiveNoAffinity() {
        db.setPlacement(table, new Placement.Interleaved());
        assertThat(morsels(0)).allSatisfy(m -> assertThat(m.affinity().isNone()).isTrue());
    }

    @Test
    void theDrivingColumnIsTheFiltersFirstElseTheWidestRead() {
        try (TableSnapshot snapshot = table.snapshot()) {
            TablePart part = snapshot.parts().getFirst();
            ColumnFilter filter = new ColumnFilter.And(List.of(new ColumnFilter.IsNull(1, true),
                    new ColumnFilter.Range(0, 1L, true, 9L, true)));
            assertThat(Morsels.drivingColumn(part, filter, new int[]{0})).isEqualTo(1);
            assertThat(Morsels.drivingColumn(part, null, new int[]{1, 0})).isEqualTo(0);
            assertThat(Morsels.drivingColumn(part, null, new int[]{})).isEqualTo(0);
        }
    }
}
