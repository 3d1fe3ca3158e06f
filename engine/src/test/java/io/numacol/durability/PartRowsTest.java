package io.numacol.durability;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import io.numacol.wal.RowBatch;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A small part as the log carries it: read column by column from its vids, the batch holds the
 * same stored values, row for row, as the part's columns give them, NULLs and repeated and
 * non-ASCII strings among them; and the part made again from it holds the same rows.
 */
class PartRowsTest {
    @Test
    void aPartsRowsAreItsStoredValuesRowForRow() {
        try (Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"))) {
            Table t = db.catalog().create("t", new TableSchema(List.of(
                    new ColumnDef("id", ColumnType.bigint(), false),
                    new ColumnDef("name", ColumnType.varchar(20), true),
                    new ColumnDef("price", ColumnType.doubleType(), true),
                    new ColumnDef("amount", ColumnType.decimal(12, 2), true),
                    new ColumnDef("day", ColumnType.date(), true)), List.of()));
            SplittableRandom random = new SplittableRandom(7);
            String[] names = {"a", "\u00e4rger", "\uD83D\uDE00 smile", "", "zz"};
            try (Appender a = db.appender(t)) {
                for (long id = 0; id < 3_000; id++) {
                    a.append(id,
                            random.nextInt(6) == 0 ? null : names[random.nextInt(names.length)] + (id % 3 == 0 ? id : ""),
                            random.nextInt(5) == 0 ? null : random.nextDouble(-1, 1),
                            random.nextInt(4) == 0 ? null : BigDecimal.valueOf(random.nextLong(-99_999, 99_999), 2),
                            random.nextInt(3) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(0, 20_000)));
                }
            }
            try (TableSnapshot s = t.snapshot()) {
                assertThat(s.parts().stream().mapToInt(TablePart::rowCount).sum()).isEqualTo(3_000);
                for (TablePart part : s.parts()) {
                    RowBatch rows = PartRows.of(part);
                    assertThat(rows.rowCount()).isEqualTo(part.rowCount());
                    List<Object[]> expected = new ArrayList<>();
                    Object[][] columns = new Object[part.columns().size()][];
                    for (int c = 0; c < columns.length; c++) {
                        columns[c] = part.column(c).storedValues(0, part.rowCount());
                    }
                    for (int r = 0; r < part.rowCount(); r++) {
                        Object[] row = new Object[columns.length];
                        for (int c = 0; c < columns.length; c++) {
                            row[c] = columns[c][r];
                        }
                        expected.add(row);
                        assertThat(rows.storedRow(r)).as("row %d", r).containsExactly(row);
                    }
                    assertThat(rows).isEqualTo(RowBatch.ofStored(rows.types(), expected));

                    TablePart again = PartRows.build(t, part.id(), rows, -1, null, partition -> column -> ColumnPlacement.onNode(0));
                    try {
                        for (int r = 0; r < part.rowCount(); r++) {
                            for (int c = 0; c < columns.length; c++) {
                                assertThat(again.column(c).value(r)).as("row %d column %d", r, c).isEqualTo(part.column(c).value(r));
                            }
                        }
                    } finally {
                        again.release();
                    }
                }
            }
        }
    }
}
