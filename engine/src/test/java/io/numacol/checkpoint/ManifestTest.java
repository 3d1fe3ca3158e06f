package io.numacol.checkpoint;

import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class ManifestTest {
    @TempDir
    Path dir;

    /** The catalog of {@link TestCatalogs#image}, its part files' names prefixed. */
    private static Manifest manifest(long lsn, String partPrefix) {
        return new Manifest(lsn, TestCatalogs.image(partPrefix));
    }

    @Test
    void aManifestReadsBackAsWritten() throws IOException {
        assertThat(Manifest.read(dir)).isEmpty();
        Manifest written = manifest(77, "");
        written.write(dir);
        Manifest read = Manifest.read(dir).orElseThrow();
        assertThat(read).isEqualTo(written);
        assertThat(read.lsn()).isEqualTo(77);
        assertThat(read.tables().get(1).partitioning()).isEqualTo(written.tables().get(1).partitioning());
        assertThat(read.tables().get(3).partitioning().bounds()).containsExactly(-0.5);
        assertThat(read.tables().get(0).schema().columns()).isEqualTo(written.tables().get(0).columns());
        assertThat(read.tables().get(0).schema().keys()).isEqualTo(TestCatalogs.KEYS);
        assertThat(read.tables()).isEqualTo(read.catalog().tables()).extracting(TableEntry::id)
                .containsExactly(1L, 2L, 5L, 4L, 7L, 8L, Long.MAX_VALUE - 1);
        assertThat(read.catalog().views()).isEqualTo(written.catalog().views()).hasSize(3);
        assertThat(read.catalog().indexes()).isEqualTo(written.catalog().indexes()).hasSize(2);
        assertThat(read.catalog().sequences()).isEqualTo(written.catalog().sequences()).hasSize(4);
        assertThat(read.catalog().schemas()).containsExactly("main", "sales", "Ünï");
        assertThat(read.partFiles()).containsExactlyInAnyOrder("a.part", "b.part", "c.part");
        assertThat(Files.exists(dir.resolve(Manifest.TEMP_NAME))).isFalse();
    }

    @Test
    void aManifestKeepsIdentityColumnsAndTheirSequencesNextNumbers() throws IOException {
        TableEntry table = TestCatalogs.identityTable(3, "counted");
        Manifest written = new Manifest(5, new CatalogImage(4, List.of("main"), List.of(table), List.of(), List.of()));
        written.write(dir);
        Manifest read = Manifest.read(dir).orElseThrow();
        TestCatalogs.assertSameCatalog(read.catalog(), written.catalog());
        assertThat(TestCatalogs.identities(read.tables().getFirst()).getFirst()).containsExactly(true, 100L, 5L, 110L);
        assertThat(read.tables().getFirst().columns().get(1).identity().sequence().next()).isEqualTo(-53);
        assertThat(read.tables().getFirst().columns().get(2).defaultText()).isNull();
        assertThat(read.tables().getFirst().columns().get(3).defaultText()).isEmpty();
    }

    @Test
    void anEmptyManifestReadsBackEmpty() throws IOException {
        Manifest.empty().write(dir);
        Manifest read = Manifest.read(dir).orElseThrow();
        assertThat(read).isEqualTo(Manifest.empty());
        assertThat(read.catalog()).isEqualTo(CatalogImage.empty());
        assertThat(read.tables()).isEmpty();
        assertThat(read.partFiles()).isEmpty();
    }

    @Test
    void aNewManifestReplacesTheOldOne() throws IOException {
        manifest(1, "old-").write(dir);
        Manifest next = manifest(2, "new-");
        next.write(dir);
        assertThat(Manifest.read(dir)).contains(next);
        assertThat(Files.exists(dir.resolve(Manifest.TEMP_NAME))).isFalse();
    }

    @Test
    void anUnfinishedWriteLeavesTheOldManifestValid() throws IOException {
        Manifest old = manifest(1, "old-");
        old.write(dir);
        byte[] next = manifest(2, "new-").encode();
        Random random = new Random(1);
        for (int cut : new int[] {0, 7, next.length / 2, next.length - 1, random.nextInt(next.length)}) {
            // what a crash in the middle of writing the temp file leaves: a prefix of it
            Files.write(dir.resolve(Manifest.TEMP_NAME), Arrays.copyOf(next, cut));
            assertThat(Manifest.read(dir)).as("cut at %d", cut).contains(old);
            assertThat(old.garbage(dir)).contains(dir.resolve(Manifest.TEMP_NAME));
        }
        Manifest later = manifest(3, "later-");
        later.write(dir); // writes over the leftover temp file
        assertThat(Manifest.read(dir)).contains(later);
        assertThat(later.garbage(dir)).doesNotContain(dir.resolve(Manifest.TEMP_NAME));
    }

    @Test
    void aTempFileWithoutAManifestIsNoCheckpoint() throws IOException {
        Files.write(dir.resolve(Manifest.TEMP_NAME), manifest(5, "").encode());
        assertThat(Manifest.read(dir)).isEmpty();
        assertThat(Manifest.empty().garbage(dir)).containsExactly(dir.resolve(Manifest.TEMP_NAME));
    }

    @Test
    void garbageIsThePartFilesTheManifestDoesNotNameAndNothingElse() throws IOException {
        Manifest m = manifest(9, "");
        m.write(dir);
        for (String name : List.of("a.part", "b.part", "c.part", "stale.part", "t0-p1-3.part", "wal-000001.log", "LOCK",
                "notes.part.txt")) {
            Files.write(dir.resolve(name), new byte[] {1});
        }
        Files.write(dir.resolve(Manifest.TEMP_NAME), new byte[] {1});
        assertThat(m.garbage(dir)).containsExactly(dir.resolve(Manifest.TEMP_NAME), dir.resolve("stale.part"),
                dir.resolve("t0-p1-3.part"));
        assertThat(Manifest.read(dir)).contains(m); // garbage() lists, it deletes nothing
        assertThat(Files.exists(dir.resolve("stale.part"))).isTrue();
    }

    @Test
    void everyFlippedBitOfAManifestIsFound() throws IOException {
        byte[] good = manifest(4, "").encode();
        Random random = new Random(4);
        Path file = dir.resolve(Manifest.FILE_NAME);
        for (int offset = 0; offset < good.length; offset++) {
            byte[] bad = good.clone();
            bad[offset] ^= (byte) (1 << random.nextInt(8));
            Files.write(file, bad);
            CheckpointException e = catchThrowableOfType(CheckpointException.class, () -> Manifest.read(dir));
            assertThat(e).as("byte %d of %d flipped", offset, good.length).isNotNull();
            assertThat(e.getMessage()).contains(file.toString());
        }
    }

    @Test
    void aTruncatedManifestIsRefused() throws IOException {
        byte[] good = manifest(4, "").encode();
        Path file = dir.resolve(Manifest.FILE_NAME);
        for (int cut : new int[] {0, 5, 19, 20, good.length / 2, good.length - 1}) {
            Files.write(file, Arrays.copyOf(good, cut));
            assertThatThrownBy(() -> Manifest.read(dir)).as("cut at %d", cut).isInstanceOf(DamagedFileException.class)
                    .hasMessageContaining(file.toString());
        }
    }

    @Test
    void anUnknownManifestVersionIsRefusedNamingBothVersions() throws IOException {
        byte[] bytes = manifest(4, "").encode();
        int next = Manifest.VERSION + 1;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(8, next);
        Path file = dir.resolve(Manifest.FILE_NAME);
        Files.write(file, bytes);
        UnsupportedVersionException e = catchThrowableOfType(UnsupportedVersionException.class, () -> Manifest.read(dir));
        assertThat(e.found()).isEqualTo(next);
        assertThat(e.supported()).isEqualTo(Manifest.VERSION);
        assertThat(e.getMessage()).contains(file.toString()).contains("version " + next).contains("version " + Manifest.VERSION);
    }

    @Test
    void aManifestRefusesAPartFileNamedTwiceOrAPath() {
        List<ColumnDef> columns = List.of(new ColumnDef("id", ColumnType.bigint(), false));
        PartRef part = new PartRef("x.part", 1, 1);
        assertThatThrownBy(() -> new Manifest(1, new CatalogImage(3, List.of("main"),
                List.of(new TableEntry(1, "main", "a", columns, List.of(), "RR", null, List.of(part)),
                        new TableEntry(2, "main", "b", columns, List.of(), "RR", null, List.of(part))), List.of(), List.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x.part");
        assertThatThrownBy(() -> new TableEntry(1, "main", "a", columns, List.of(), "RR", null, List.of(part, part)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x.part");
        assertThatThrownBy(() -> new PartRef("../x.part", 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PartRef("sub/x.part", 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
