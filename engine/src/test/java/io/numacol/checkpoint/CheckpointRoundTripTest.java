package io.numacol.checkpoint;

import io.numacol.memory.NumaMemory;
import io.numacol.storage.Catalog;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole table through two checkpoints and an opening, the way a database will use this
 * package: parts written, a manifest naming them, then a new catalog filled from the manifest.
 */
class CheckpointRoundTripTest {
    @TempDir
    Path dir;

    /** The file each part version was written to: a version never changes, so its file stays good. */
    private final IdentityHashMap<TablePart, PartRef> written = new IdentityHashMap<>();

    @Test
    void aTableComesBackFromItsCheckpointAndALaterCheckpointReusesUnchangedParts() throws IOException {
        NumaMemory memory = NumaMemory.create(Topology.fake(2));
        Table table = TestParts.table(new Catalog(memory), "LINES");
        for (int p = 0; p < 3; p++) {
            table.addParts(List.of(TestParts.build(table, 2000 + p, p, p == 1)));
        }

        Manifest first = checkpoint(table, 10);
        assertThat(first.garbage(dir)).isEmpty();

        // a DELETE makes a new version of part 1: the next checkpoint writes that part again, and only that one
        TablePart changed = table.parts().get(1);
        changed.tryRetain();
        table.replaceParts(List.of(changed), List.of(changed.withDeleted(TestParts.someRows(changed.rowCount(), 7, 3))));
        Manifest second = checkpoint(table, 20);
        List<PartRef> before = first.tables().getFirst().parts();
        List<PartRef> after = second.tables().getFirst().parts();
        assertThat(after.get(0)).isEqualTo(before.get(0));
        assertThat(after.get(2)).isEqualTo(before.get(2));
        assertThat(after.get(1).fileName()).isNotEqualTo(before.get(1).fileName());
        assertThat(second.garbage(dir)).containsExactly(dir.resolve(before.get(1).fileName()));
        for (Path garbage : second.garbage(dir)) {
            Files.delete(garbage);
        }

        NumaMemory reopened = NumaMemory.create(Topology.fake(2));
        Catalog catalog = new Catalog(reopened);
        Manifest manifest = Manifest.read(dir).orElseThrow();
        assertThat(manifest.lsn()).isEqualTo(20);
        for (TableEntry entry : manifest.tables()) {
            Table restored = catalog.create(entry.name(), entry.schema());
            List<TablePart> parts = new ArrayList<>();
            for (int p = 0; p < entry.parts().size(); p++) {
                int node = p % 2;
                PartRef ref = entry.parts().get(p);
                parts.add(PartFile.read(dir.resolve(ref.fileName()), ref, reopened, c -> ColumnPlacement.onNode(node),
                        entry.partitioning()));
            }
            restored.addParts(parts);
        }
        Table restored = catalog.get("LINES");
        assertThat(restored.rowCount()).isEqualTo(table.rowCount());
        assertThat(restored.deletedRowCount()).isEqualTo(table.deletedRowCount()).isPositive();
        try (TableSnapshot want = table.snapshot(); TableSnapshot got = restored.snapshot()) {
            assertThat(got.parts()).hasSameSizeAs(want.parts());
            for (int p = 0; p < want.parts().size(); p++) {
                TestParts.assertSamePart(got.parts().get(p), want.parts().get(p));
            }
        }
        assertThat(reopened.accounting().bytes(0)).isPositive();
        assertThat(reopened.accounting().bytes(1)).isPositive();
        catalog.drop("LINES");
        catalog.releaseRetired();
        assertThat(reopened.accounting().totalBytes()).as("bytes after the restored table was dropped").isZero();
    }

    /**
     * Writes a checkpoint of {@code table} at {@code lsn}: a part version an earlier checkpoint
     * wrote keeps its file, any other gets a new one.
     */
    private Manifest checkpoint(Table table, long lsn) throws IOException {
        List<PartRef> refs = new ArrayList<>();
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                PartRef ref = written.get(part);
                if (ref == null) {
                    ref = PartFile.write(part, dir.resolve(PartFile.fileName(0, part.id(), lsn)));
                    written.put(part, ref);
                }
                refs.add(ref);
            }
        }
        Manifest manifest = new Manifest(lsn, new CatalogImage(2, List.of("main"), List.of(new TableEntry(1, "main", table.name(),
                table.schema().columns(), table.schema().keys(), List.of(), "RR", null, refs)), List.of(), List.of()));
        manifest.write(dir);
        return manifest;
    }
}
