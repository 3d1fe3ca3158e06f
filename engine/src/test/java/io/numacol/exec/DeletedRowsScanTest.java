package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A part's deleted rows leave a scan's BitVector word by word, with and without a filter, over
 * ranges of every shape a scan task takes (whole blocks, a short last range), on both kernels.
 */
class DeletedRowsScanTest {
    private static final int ROWS = 5_000; // four full blocks and a short one
    private static Database db;
    private static TableSnapshot snapshot;
    private static TablePart part;
    private static boolean[] deleted;

    @BeforeAll
    static void load() {
        db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"));
        db.catalog().create("d", TableSchema.of(new TableSchema.ColumnDef("x", ColumnType.integer(), true)));
        try (Appender a = db.appender("d")) {
            for (int i = 0; i < ROWS; i++) {
                a.append(new Object[]{i % 97 == 0 ? null : i % 100});
            }
        }
        SplittableRandom random = new SplittableRandom(7);
        deleted = new boolean[ROWS];
        long[] words = new long[(ROWS + 63) >>> 6];
        for (int r = 0; r < ROWS; r++) {
            // runs of deleted rows and single ones, the first and last rows too
            deleted[r] = r == 0 || r == ROWS - 1 || (r >= 1000 && r < 1100) || random.nextInt(10) == 0;
            if (deleted[r]) {
                words[r >>> 6] |= 1L << r;
            }
        }
        Table table = db.catalog().get("d");
        TablePart old = table.parts().getFirst();
        table.replaceParts(List.of(old), List.of(old.withDeleted(words)));
        snapshot = table.snapshot();
        part = snapshot.parts().getFirst();
    }

    @AfterAll
    static void close() {
        snapshot.close();
        db.close();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void deletedRowsNeverQualify(boolean vectors) {
        ScanKernel kernel = vectors ? ScanKernels.get() : ScanKernels.scalar();
        ColumnFilter under50 = new ColumnFilter.Range(0, null, false, 49L, true);
        for (ColumnFilter filter : new ColumnFilter[] {null, under50}) {
            PartFilter prepared = PartFilter.of(filter, part, Fork.SERIAL);
            assertThat(prepared).isInstanceOf(PartFilter.Live.class);
            for (int rangeRows : new int[] {1024, 2048, ROWS}) {
                BitVector bits = new BitVector(ROWS);
                for (int from = 0; from < ROWS; from += rangeRows) {
                    prepared.eval(kernel, from, Math.min(ROWS, from + rangeRows), bits);
                }
                int expected = 0;
                for (int r = 0; r < ROWS; r++) {
                    Integer x = r % 97 == 0 ? null : r % 100;
                    boolean qualifies = !deleted[r] && (filter == null || (x != null && x <= 49));
                    assertThat(bits.get(r)).as("row %d, filter %s, ranges of %d", r, filter, rangeRows).isEqualTo(qualifies);
                    expected += qualifies ? 1 : 0;
                }
                assertThat(bits.cardinality()).isEqualTo(expected);
            }
        }
    }
}
