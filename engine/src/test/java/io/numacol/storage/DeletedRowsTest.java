package io.numacol.storage;

import io.numacol.memory.NumaMemory;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Deletion bitmaps and the versions of a part that carry them. */
class DeletedRowsTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            new TableSchema.ColumnDef("id", ColumnType.bigint(), false),
            new TableSchema.ColumnDef("s", ColumnType.varchar(10), true));

    private static long[] bitmap(int rows, int... set) {
        long[] words = new long[(rows + 63) >>> 6];
        for (int r : set) {
            words[r >>> 6] |= 1L << r;
        }
        return words;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 63, 64, 65, 1000})
    void aSetGrowsByUnionAndCountsItsRows(int rows) {
        SplittableRandom random = new SplittableRandom(rows);
        DeletedRows set = DeletedRows.NONE;
        boolean[] expected = new boolean[rows];
        for (int round = 0; round < 4; round++) {
            long[] more = new long[(rows + 63) >>> 6];
            for (int i = 0; i < rows / 3 + 1; i++) {
                int r = random.nextInt(rows);
                more[r >>> 6] |= 1L << r;
                expected[r] = true;
            }
            set = set.with(more, rows);
            int count = 0;
            for (int r = 0; r < rows; r++) {
                assertThat(set.isDeleted(r)).as("row %d", r).isEqualTo(expected[r]);
                count += expected[r] ? 1 : 0;
            }
            assertThat(set.count()).isEqualTo(count);
        }
        assertThat(set.with(new long[0], rows)).as("nothing new: the same set").isSameAs(set);
        assertThat(set.isDeleted(rows + 64)).isFalse();
    }

    @Test
    void rowsPastThePartAreRefused() {
        assertThatThrownBy(() -> DeletedRows.NONE.with(bitmap(70, 69), 65)).hasMessageContaining("past the part's 65 rows");
        assertThatThrownBy(() -> DeletedRows.NONE.with(new long[3], 64)).hasMessageContaining("3 words for a part of 64 rows");
    }

    @Test
    void versionsShareTheColumnsAndFreeThemWithTheLastOne() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Catalog catalog = new Catalog(memory);
        Table t = catalog.create("t", SCHEMA);
        TablePart first = part(t, 0, 100);
        TablePart other = part(t, 100, 50);
        assertThat(first.id()).isNotEqualTo(other.id());

        TableSnapshot before = t.snapshot();
        TablePart v2 = first.withDeleted(bitmap(100, 0, 7, 99));
        assertThat(v2).isNotSameAs(first);
        assertThat(v2.sameData(first)).isTrue();
        assertThat(v2.id()).isEqualTo(first.id());
        assertThat(v2.rowId(7)).isEqualTo(first.rowId(7));
        assertThat(first.withDeleted(new long[2])).as("nothing deleted: no new version").isSameAs(first);
        t.replaceParts(List.of(first), List.of(v2));

        assertThat(t.parts()).as("the new version takes the old one's place").containsExactly(v2, other);
        assertThat(t.rowCount()).isEqualTo(147);
        assertThat(t.deletedRowCount()).isEqualTo(3);
        assertThat(before.liveRowCount()).as("a reader keeps the version it took").isEqualTo(150);
        assertThat(before.parts().getFirst().deleted().isEmpty()).isTrue();
        before.close();
        assertThat(first.isFreed()).isTrue();
        assertThat(v2.column(0).value(7)).as("the columns live on with the last version").isEqualTo(7L);

        TablePart v3 = v2.withDeleted(bitmap(100, 1));
        t.replaceParts(List.of(v2), List.of(v3));
        assertThat(v3.deleted().count()).isEqualTo(4);
        catalog.drop("t");
        assertThat(memory.accounting().totalBytes()).isZero();
        assertThatThrownBy(() -> v3.withDeleted(bitmap(100, 2))).hasMessageContaining("freed part");
    }

    @Test
    void copiesOfAPartLeaveItsDeletedRowsBehind() {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Table t = new Catalog(memory).create("t", SCHEMA);
        TablePart p = part(t, 0, 3000).withDeleted(bitmap(3000, 0, 1, 64, 1023, 1024, 2999));
        PartBuilder whole = t.newPart();
        whole.appendPart(p);
        PartBuilder range = t.newPart();
        range.appendRows(p, 1000, 1100);
        PartBuilder[] dealt = {t.newPart(), t.newPart()};
        int[] partitionOf = new int[3000];
        for (int r = 0; r < partitionOf.length; r++) {
            partitionOf[r] = r % 2;
        }
        PartBuilder.scatter(p, partitionOf, dealt);
        assertThat(ids(whole.build(c -> ColumnPlacement.onNode(0), false))).hasSize(2994).doesNotContain(0L, 1L, 64L, 1023L, 1024L, 2999L);
        assertThat(ids(range.build(c -> ColumnPlacement.onNode(0), false))).hasSize(98).doesNotContain(1023L, 1024L).contains(1000L, 1099L);
        assertThat(dealt[0].rowCount() + dealt[1].rowCount()).isEqualTo(2994);
        assertThat(ids(dealt[1].build(c -> ColumnPlacement.onNode(1), false))).doesNotContain(1L, 1023L, 2999L).contains(3L);
    }

    private static List<Long> ids(TablePart p) {
        List<Long> ids = new ArrayList<>();
        for (int r = 0; r < p.rowCount(); r++) {
            ids.add((Long) p.column(0).value(r));
        }
        p.release();
        return ids;
    }

    private static TablePart part(Table t, long first, int rows) {
        PartBuilder b = t.newPart();
        for (int i = 0; i < rows; i++) {
            b.addRow(first + i, i % 5 == 0 ? null : "s" + i % 17);
        }
        return b.commit(c -> ColumnPlacement.onNode(0), false);
    }
}
