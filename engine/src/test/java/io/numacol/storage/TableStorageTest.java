package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.NumaMemory;
import io.numacol.placement.PageSocketMap;
import io.numacol.placement.Placement;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.Utf8;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableStorageTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            new ColumnDef("id", ColumnType.bigint(), false),
            new ColumnDef("qty", ColumnType.integer(), true),
            new ColumnDef("price", ColumnType.decimal(12, 2), true),
            new ColumnDef("ship", ColumnType.date(), true),
            new ColumnDef("flag", ColumnType.charType(1), true),
            new ColumnDef("note", ColumnType.varchar(20), true),
            new ColumnDef("ratio", ColumnType.doubleType(), true),
            new ColumnDef("ok", ColumnType.booleanType(), true));

    private static Object[] row(Random random, long id) {
        boolean nulls = random.nextInt(10) == 0;
        return new Object[] {
            id,
            nulls ? null : 1 + random.nextInt(50),
            nulls ? null : BigDecimal.valueOf(random.nextInt(1_000_000), 2),
            nulls ? null : LocalDate.of(1992, 1, 1).plusDays(random.nextInt(2500)),
            nulls ? null : String.valueOf("AFNOR".charAt(random.nextInt(5))),
            nulls ? null : "note é " + random.nextInt(300),
            nulls ? null : random.nextGaussian(),
            nulls ? null : random.nextBoolean()};
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1023, 1024, 5001})
    void rowsComeBackAsTheyWentIn(int rows) {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Catalog catalog = new Catalog(memory);
        Table t = catalog.create("T", SCHEMA);
        Random random = new Random(rows);
        List<Object[]> expected = new ArrayList<>();
        PartBuilder part = t.newPart();
        for (int i = 0; i < rows; i++) {
            Object[] r = row(random, i);
            expected.add(r);
            part.addRow(r);
        }
        part.commit(c -> ColumnPlacement.onNode(c % 2), true);
        try (TableSnapshot snapshot = t.snapshot()) {
            TablePart p = snapshot.parts().getFirst();
            assertThat(p.rowCount()).isEqualTo(rows);
            for (int i = 0; i < rows; i++) {
                for (int c = 0; c < SCHEMA.size(); c++) {
                    Object want = expected.get(i)[c];
                    Object got = p.column(c).value(i);
                    if (want instanceof Long l && got instanceof Integer) {
                        want = l.intValue();
                    }
                    assertThat(got).as("row %d column %s", i, SCHEMA.column(c).name()).isEqualTo(want);
                }
            }
            Column note = p.column(5);
            long distinctNotes = expected.stream().map(r -> r[5]).filter(Objects::nonNull).distinct().count();
            assertThat(note.dictionary().size()).isEqualTo(distinctNotes);
            for (int vid = 1; vid < distinctNotes; vid++) {
                assertThat(Utf8.compare((String) note.valueOf(vid - 1), (String) note.valueOf(vid))).isNegative();
            }
            Column qty = p.column(1);
            if (rows > 100) {
                assertThat(qty.hasNulls()).isTrue();
                assertThat(qty.dictionary().size()).isEqualTo(50);
                assertThat(qty.bitcase()).as("50 values + NULL fit 6 bits").isEqualTo(6);
                int[] positions = new int[rows];
                int n = qty.index().positions(qty.nullVid(), positions, 0);
                for (int k = 0; k < n; k++) {
                    assertThat(qty.isNull(positions[k])).isTrue();
                }
            }
        }
        catalog.drop("t");
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    @Test
    void placementsPutEachComponentWhereTheyShould() {
        NumaMemory memory = NumaMemory.create(Topology.fake(4));
        Catalog catalog = new Catalog(memory);
        Random random = new Random(4);
        for (String spec : List.of("RR", "IVP", "INTERLEAVED", "NODE(3)")) {
            Table t = catalog.create("t_" + spec.replaceAll("\\W", ""), SCHEMA);
            PartBuilder b = t.newPart();
            for (int i = 0; i < 300_000; i++) {
                b.addRow(row(random, i));
            }
            Placement placement = Placement.parse(spec);
            TablePart part = b.commit(c -> placement.forColumn(c, memory.topology()), false);
            for (int c = 0; c < SCHEMA.size(); c++) {
                Column column = part.column(c);
                PageSocketMap iv = new PageSocketMap(memory);
                iv.add(column.indexVector().segment());
                PageSocketMap dictionary = new PageSocketMap(memory);
                column.dictionary().segments().forEach(dictionary::add);
                long[] ivPages = iv.pagesPerNode();
                switch (spec) {
                    case "RR" -> assertThat(iv.majorityNode()).isEqualTo(c % 4);
                    case "NODE(3)" -> assertThat(dictionary.majorityNode()).isEqualTo(3);
                    case "IVP" -> {
                        long total = ivPages[0] + ivPages[1] + ivPages[2] + ivPages[3];
                        for (int n = 0; n < 4; n++) {
                            assertThat(ivPages[n]).as("IVP pages on node %d of %s", n, column).isBetween(total / 4, total / 4 + 1);
                        }
                    }
                    default -> {
                        if (iv.ranges().stream().mapToLong(PageSocketMap.Range::pageCount).sum() >= 8) {
                            assertThat(iv.ranges()).anyMatch(r -> r.isInterleaved() && r.interleaveMask() == 0b1111);
                        }
                    }
                }
            }
        }
        catalog.tables().stream().map(Table::name).toList().forEach(catalog::drop);
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    /**
     * A view that began before a drop reads the dropped table until it closes, and frees it then;
     * a view that began after does not see it; a table freed under an open view (the database
     * closing) fails that view's reads rather than answering it as empty.
     */
    @Test
    void aDroppedTableStaysReadableToTheViewsThatBeganBeforeIt() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Catalog catalog = new Catalog(memory);
        Table t = catalog.create("t", SCHEMA);
        PartBuilder b = t.newPart();
        b.addRow(row(new Random(1), 1));
        TablePart part = b.commit(c -> ColumnPlacement.onNode(0), false);
        CatalogView before = catalog.beginRead();
        catalog.drop("t");
        assertThat(part.isFreed()).as("held for the view that began before").isFalse();
        assertThat(catalog.retiredTables()).isEqualTo(1);
        try (TableSnapshot s = CatalogView.runIn(before, t::snapshot)) {
            assertThat(s.parts()).containsExactly(part);
        }
        try (CatalogView after = catalog.beginRead()) {
            assertThat(after.tables()).isEmpty();
            assertThatThrownBy(() -> CatalogView.runIn(after, t::snapshot)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("was dropped or altered");
        }
        assertThatThrownBy(t::snapshot).as("no view").isInstanceOf(IllegalStateException.class);
        before.close();
        assertThat(part.isFreed()).isTrue();
        assertThat(catalog.retiredTables()).isZero();
        assertThat(memory.accounting().totalBytes()).isZero();

        Table u = catalog.create("u", SCHEMA);
        PartBuilder c = u.newPart();
        c.addRow(row(new Random(2), 2));
        c.commit(x -> ColumnPlacement.onNode(1), false);
        CatalogView reading = catalog.beginRead();
        catalog.drop("u");
        catalog.releaseRetired(); // the database closing under a running statement
        assertThatThrownBy(() -> CatalogView.runIn(reading, u::snapshot)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the database was closed");
        reading.close();
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    @Test
    void aSnapshotKeepsPartsAliveThroughDropAndReplace() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Catalog catalog = new Catalog(memory);
        Table t = catalog.create("t", SCHEMA);
        PartBuilder b = t.newPart();
        b.addRow(row(new Random(1), 1));
        TablePart first = b.commit(c -> ColumnPlacement.onNode(0), false);
        TableSnapshot reader = t.snapshot();

        PartBuilder again = t.newPart();
        again.addRow(row(new Random(2), 2));
        again.addRow(row(new Random(3), 3));
        TablePart second = again.commit(c -> ColumnPlacement.onNode(1), false);
        t.replaceParts(List.of(first), List.of());
        assertThat(t.parts()).containsExactly(second);
        assertThat(first.isFreed()).as("still read").isFalse();
        assertThat(reader.parts().getFirst().column(0).value(0)).isEqualTo(1L);

        catalog.drop("T");
        assertThat(second.isFreed()).isTrue();
        assertThat(memory.accounting().totalBytes()).isPositive();
        reader.close();
        assertThat(first.isFreed()).isTrue();
        assertThat(memory.accounting().totalBytes()).isZero();
    }

    @Test
    void badRowsAreRefusedWholeAndNamed() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Catalog catalog = new Catalog(memory);
        Table t = catalog.create("t", SCHEMA);
        PartBuilder b = t.newPart();
        b.addRow(row(new Random(1), 1));
        assertThatThrownBy(() -> b.addRow(null, 1, null, null, null, null, null, null))
                .isInstanceOf(NotNullViolationException.class)
                .hasMessageContaining("null value in column \"id\" of relation \"t\" violates not-null constraint (row 2)");
        assertThatThrownBy(() -> b.addRow(2L, 3_000_000_000L, null, null, null, null, null, null))
                .hasMessageContaining("column qty").hasMessageContaining("3000000000");
        assertThatThrownBy(() -> b.addRow(2L, 1, null, null, "too long", null, null, null))
                .hasMessageContaining("column flag").hasMessageContaining("too long");
        assertThatThrownBy(() -> b.addRow(2L, 1))
                .hasMessageContaining("has 8 columns but the row has 2 values");
        assertThat(b.rowCount()).isEqualTo(1);
        TablePart part = b.commit(c -> ColumnPlacement.onNode(1), false);
        assertThat(part.rowCount()).isEqualTo(1);
        assertThat(part.columns()).allMatch(c -> c.rowCount() == 1);

        assertThatThrownBy(() -> catalog.create("T", SCHEMA)).hasMessageContaining("table T already exists");
        assertThatThrownBy(() -> catalog.drop("nope")).hasMessageContaining("table nope does not exist");
        assertThatThrownBy(() -> TableSchema.of(new ColumnDef("a", ColumnType.integer(), true),
                new ColumnDef("A", ColumnType.bigint(), true))).hasMessageContaining("column A is defined twice");
        assertThatThrownBy(() -> t.newPart().commit(c -> ColumnPlacement.onNode(7), false))
                .hasMessageContaining("NUMA node 7 does not exist");
        assertThat(t.parts()).hasSize(1);
        catalog.drop("t");
        assertThat(memory.accounting().totalBytes()).isZero();
        assertThat(memory.liveAllocations()).isZero();
    }

    @Test
    void componentsAreAccountedPerNode() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Table t = new Catalog(memory).create("t", SCHEMA);
        PartBuilder b = t.newPart();
        Random random = new Random(9);
        for (int i = 0; i < 10_000; i++) {
            b.addRow(row(random, i));
        }
        TablePart part = b.commit(c -> ColumnPlacement.onNode(1), true);
        long iv = part.columns().stream().mapToLong(c -> c.byteSize(Component.INDEX_VECTOR)).sum();
        assertThat(memory.accounting().bytes(1, Component.INDEX_VECTOR)).isGreaterThanOrEqualTo(iv);
        assertThat(memory.accounting().bytes(1, Component.INDEX)).isPositive();
        assertThat(memory.accounting().bytes(0)).isZero();
    }
}
