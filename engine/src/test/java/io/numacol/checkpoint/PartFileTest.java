package io.numacol.checkpoint;

import io.numacol.memory.Component;
import io.numacol.memory.NumaMemory;
import io.numacol.storage.Catalog;
import io.numacol.storage.Column;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Part files on a fake two-node topology: parts are built in one {@link NumaMemory} and read
 * back into another, so that the reader's memory accounting shows exactly what reading placed.
 * After each test both must have given every byte back, failed reads included.
 */
class PartFileTest {
    @TempDir
    Path dir;

    private NumaMemory source;
    private NumaMemory target;
    private Table table;
    private final List<TablePart> held = new ArrayList<>();

    @BeforeEach
    void setUp() {
        source = NumaMemory.create(Topology.fake(2));
        target = NumaMemory.create(Topology.fake(2));
        table = TestParts.table(new Catalog(source), "T");
    }

    @AfterEach
    void nothingLeaks() {
        held.forEach(TablePart::release);
        assertThat(source.accounting().totalBytes()).as("bytes left in the source memory").isZero();
        assertThat(target.accounting().totalBytes()).as("bytes left in the target memory").isZero();
        assertThat(target.liveAllocations()).as("allocations left in the target memory").isZero();
    }

    /** Releases {@code part} after the test (before the leak check). */
    private TablePart hold(TablePart part) {
        held.add(part);
        return part;
    }

    @ParameterizedTest(name = "{0} rows, index {1}, deleted {2}")
    @CsvSource({"0, false, false", "1, true, false", "1, false, true", "1024, true, true", "1024, false, false",
        "100000, true, true", "100000, false, false"})
    void partsReadBackAsTheyWereStored(int rows, boolean withIndex, boolean withDeleted) throws IOException {
        TablePart built = hold(TestParts.build(table, rows, rows * 31L + 7, withIndex));
        TablePart written = built;
        if (withDeleted) {
            written = hold(built.withDeleted(TestParts.someRows(rows, 10, rows)));
            assertThat(written.deleted().count()).isPositive();
        }
        Path file = dir.resolve(PartFile.fileName(0, written.id(), 1));
        PartRef ref = PartFile.write(written, file);
        assertThat(ref.size()).isEqualTo(Files.size(file));
        assertThat(ref.fileName()).isEqualTo(file.getFileName().toString());

        TablePart read = hold(PartFile.read(file, ref, target, c -> ColumnPlacement.onNode(1), null));
        TestParts.assertSamePart(read, written);
        assertThat(read.columns().stream().mapToInt(Column::bitcase).distinct().count())
                .as("distinct bitcases among the columns").isGreaterThanOrEqualTo(rows >= 1024 ? 4 : 1);
    }

    @Test
    void aReadPartLivesOnTheRequestedNodeAndIsAccountedThere() throws IOException {
        TablePart written = hold(TestParts.build(table, 5000, 11, true));
        Path file = dir.resolve("p.part");
        PartFile.write(written, file);

        TablePart read = hold(PartFile.read(file, target, 1, null));
        long pageSize = target.pageSize();
        Map<Component, Long> expected = new EnumMap<>(Component.class);
        for (Column c : read.columns()) {
            assertThat(c.placement()).isEqualTo(ColumnPlacement.onNode(1));
            c.segments().forEach((component, segments) -> {
                for (MemorySegment s : segments) {
                    expected.merge(component, (s.byteSize() + pageSize - 1) / pageSize * pageSize, Long::sum);
                    assertThat(nodesOfPages(s)).as("%s %s pages", c.name(), component).containsOnly(1);
                }
            });
        }
        for (Component component : List.of(Component.DICTIONARY, Component.INDEX_VECTOR, Component.INDEX)) {
            assertThat(target.accounting().bytes(1, component)).as("%s bytes on node 1", component)
                    .isEqualTo(expected.get(component)).isPositive();
            assertThat(target.accounting().bytes(0, component)).as("%s bytes on node 0", component).isZero();
        }
    }

    @Test
    void anIndexVectorPartitionedColumnIsSpreadOverTheNodesAsABuildSpreadsIt() throws IOException {
        TablePart written = hold(TestParts.build(table, 20_000, 5, false));
        Path file = dir.resolve("p.part");
        PartFile.write(written, file);

        TablePart read = hold(PartFile.read(file, null, target, c -> ColumnPlacement.indexVectorPartitioned(0, 1), null));
        Column id = read.column(0); // 20k distinct ids: bitcase 15, 10 pages of IndexVector
        int[] nodes = nodesOfPages(id.indexVector().segment());
        assertThat(nodes.length).isGreaterThan(2);
        int half = nodes.length / 2;
        assertThat(Arrays.copyOfRange(nodes, 0, half)).as("first half of the IndexVector's pages").containsOnly(0);
        assertThat(Arrays.copyOfRange(nodes, half, nodes.length)).as("second half").containsOnly(1);
        assertThat(nodesOfPages(id.dictionary().segments().getFirst())).as("interleaved dictionary").contains(0, 1);
        TestParts.assertSamePart(read, written);
    }

    private int[] nodesOfPages(MemorySegment segment) {
        int pages = (int) ((segment.byteSize() + target.pageSize() - 1) / target.pageSize());
        int[] nodes = new int[pages];
        target.bookkeptPages().locate(segment.address(), pages, nodes);
        return nodes;
    }

    /** A part of partition {@code partition} of {@code partitioning} holding those of 600 seeded rows it deals there. */
    private TablePart partOf(Partitioning partitioning, int partition) {
        Random random = new Random(3);
        PartBuilder all = table.newPart();
        for (int r = 0; r < 600; r++) {
            all.addRow(TestParts.row(random, r));
        }
        TablePart every = hold(all.build(c -> ColumnPlacement.onNode(0), false));
        int[] of = partitioning.partitionsOf(every, 0);
        PartBuilder builder = table.newPart().inPartition(partitioning, partition);
        for (int r = 0; r < of.length; r++) {
            if (of[r] == partition) {
                Object[] row = new Object[every.columns().size()];
                for (int c = 0; c < row.length; c++) {
                    row[c] = every.column(c).storedValues(r, r + 1)[0];
                }
                builder.addStored(row);
            }
        }
        return hold(builder.build(c -> ColumnPlacement.onNode(0), false));
    }

    @Test
    void aPartOfAPartitionKeepsItsPartitionWhileItsTableDealsRowsSo() throws IOException {
        Partitioning byId = Partitioning.hash(4, new int[] {0}, List.of(ColumnType.bigint()));
        TablePart written = partOf(byId, 2);
        assertThat(written.rowCount()).isBetween(100, 200);
        Path file = dir.resolve("p.part");
        PartFile.write(written, file);

        int[] asked = {-2};
        TablePart read = hold(PartFile.read(file, null, target, byId, partition -> {
            asked[0] = partition;
            return c -> ColumnPlacement.onNode(partition % 2);
        }));
        assertThat(asked[0]).as("the placement is asked for the partition the file names").isEqualTo(2);
        assertThat(read.partitioning()).isEqualTo(byId);
        assertThat(read.partition()).isEqualTo(2);
        TestParts.assertSamePart(read, written);
        // a table placed otherwise since: the rows are the same, in a part of no partition
        TablePart unpartitioned = hold(PartFile.read(file, target, 0, null));
        assertThat(unpartitioned.partitioning()).isNull();
        assertThat(unpartitioned.partition()).isEqualTo(-1);
        TablePart otherCount = hold(PartFile.read(file, target, 0, Partitioning.roundRobin(3)));
        assertThat(otherCount.partitioning()).isNull();
        assertThat(otherCount.rowCount()).isEqualTo(written.rowCount());
        // the same count by another key (a checkpoint taken while SET PLACEMENT re-dealt the table):
        // the number no longer says where the rows belong, and the rows show it
        Partitioning bySmallint = Partitioning.hash(4, new int[] {3}, List.of(ColumnType.smallint()));
        TablePart otherKey = hold(PartFile.read(file, null, target, bySmallint, partition -> c -> ColumnPlacement.onNode(0)));
        assertThat(otherKey.partitioning()).isNull();
        assertThat(otherKey.partition()).isEqualTo(-1);
        for (int c = 0; c < written.columns().size(); c++) {
            assertThat(otherKey.column(c).storedValues(0, otherKey.rowCount())).isEqualTo(written.column(c).storedValues(0, written.rowCount()));
        }
        // ROUND ROBIN deals by place in the load, which no value shows: any partition of the count holds
        Partitioning inTurn = Partitioning.roundRobin(4);
        TablePart turn = hold(PartFile.read(file, target, 0, inTurn));
        assertThat(turn.partitioning()).isEqualTo(inTurn);
        assertThat(turn.partition()).isEqualTo(2);
    }

    @Test
    void aRangePartIsItsPartitionsWhenItsLowestAndHighestKeysAre() throws IOException {
        Partitioning byRange = Partitioning.range(3, 0, ColumnType.bigint(), List.of(200L, 400L));
        TablePart middle = partOf(byRange, 1);
        assertThat(middle.rowCount()).isEqualTo(200);
        Path file = dir.resolve("r.part");
        PartFile.write(middle, file);
        TablePart read = hold(PartFile.read(file, target, 0, byRange));
        assertThat(read.partition()).isEqualTo(1);
        Partitioning moved = Partitioning.range(3, 0, ColumnType.bigint(), List.of(300L, 400L));
        TablePart across = hold(PartFile.read(file, target, 0, moved));
        assertThat(across.partitioning()).as("rows 200..299 now belong to partition 0").isNull();
    }

    @Test
    void aRestoredPartKeepsItsIdAndTheTableNeverGivesItAgain() throws IOException {
        for (int i = 0; i < 7; i++) {
            hold(table.newPart().build(c -> ColumnPlacement.onNode(0), false)); // ids 0..6
        }
        TablePart written = hold(TestParts.build(table, 10, 1, false));
        assertThat(written.id()).isEqualTo(7);
        Path file = dir.resolve("p.part");
        PartFile.write(written, file);

        Table fresh = TestParts.table(new Catalog(target), "FRESH");
        TablePart read = PartFile.read(file, target, 0, null);
        fresh.addParts(List.of(read)); // the table takes the reader's reference
        assertThat(fresh.parts()).containsExactly(read);
        TablePart next = hold(fresh.newPart().build(c -> ColumnPlacement.onNode(0), false));
        assertThat(next.id()).isEqualTo(8);
        fresh.replaceParts(List.of(read), List.of()); // frees the restored part with the table's reference
        assertThat(read.isFreed()).isTrue();
    }

    @Test
    void aPartFileIsNeverWrittenOverAnother() throws IOException {
        TablePart written = hold(TestParts.build(table, 10, 1, false));
        Path file = dir.resolve("p.part");
        PartFile.write(written, file);
        byte[] before = Files.readAllBytes(file);
        assertThatThrownBy(() -> PartFile.write(written, file)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void everyFlippedBitIsFoundAndNamesTheFile() throws IOException {
        TablePart written = hold(hold(TestParts.build(table, 1024, 99, true)).withDeleted(TestParts.someRows(1024, 20, 1)));
        Path file = dir.resolve("good.part");
        PartRef ref = PartFile.write(written, file);
        byte[] good = Files.readAllBytes(file);

        Random random = new Random(42);
        TreeSet<Integer> offsets = new TreeSet<>();
        for (int i = 0; i < 400 + PartFile.HEADER_BYTES; i++) {
            offsets.add(i < 400 ? random.nextInt(good.length) : i - 400); // random bytes, and every header byte
        }
        offsets.add(good.length - 1);
        for (int offset : offsets) {
            byte[] bad = good.clone();
            int bit = random.nextInt(8);
            bad[offset] ^= (byte) (1 << bit);
            Path damaged = dir.resolve("flipped-" + offset + "-" + bit + ".part");
            Files.write(damaged, bad);
            CheckpointException e = catchThrowableOfType(CheckpointException.class, () -> PartFile.read(damaged, target, 1, null));
            assertThat(e).as("bit %d of byte %d of %d flipped", bit, offset, good.length).isNotNull();
            assertThat(e.getMessage()).contains(damaged.toString());
            assertThat(e.file()).isEqualTo(damaged);
            assertThat(target.accounting().totalBytes()).as("memory held after the failed read").isZero();
            // with the manifest's reference the whole-file checksum catches it as well
            assertThatThrownBy(() -> PartFile.read(damaged, ref, target, c -> ColumnPlacement.onNode(0), null))
                    .isInstanceOf(CheckpointException.class);
            Files.delete(damaged);
        }
    }

    @Test
    void aDamagedSectionIsNamed() throws IOException {
        TablePart written = hold(TestParts.build(table, 1024, 5, false));
        Path file = dir.resolve("p.part");
        PartFile.write(written, file);
        // the last 8 bytes before the final CRC are the end of the last column's IndexVector
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long at = channel.size() - Integer.BYTES - 8;
            ByteBuffer b = ByteBuffer.allocate(1);
            channel.read(b, at);
            channel.write(ByteBuffer.wrap(new byte[] {(byte) (b.get(0) ^ 0x10)}), at);
        }
        DamagedFileException e = catchThrowableOfType(DamagedFileException.class, () -> PartFile.read(file, target, 0, null));
        assertThat(e.section()).isEqualTo("column 17 (key) index vector");
        assertThat(e.getMessage()).contains(file.toString()).contains("column 17 (key) index vector").contains("checksum");
    }

    @Test
    void aTruncatedOrLengthenedFileIsRefused() throws IOException {
        TablePart written = hold(TestParts.build(table, 1024, 8, true));
        Path file = dir.resolve("p.part");
        PartFile.write(written, file);
        byte[] good = Files.readAllBytes(file);
        Random random = new Random(8);
        int[] lengths = {0, 1, PartFile.HEADER_BYTES - 1, PartFile.HEADER_BYTES, PartFile.HEADER_BYTES + 10, good.length - 1,
            random.nextInt(good.length), random.nextInt(good.length)};
        for (int length : lengths) {
            Path cut = dir.resolve("cut-" + length + ".part");
            Files.write(cut, Arrays.copyOf(good, length));
            assertThatThrownBy(() -> PartFile.read(cut, target, 0, null)).as("cut to %d of %d bytes", length, good.length)
                    .isInstanceOf(DamagedFileException.class).hasMessageContaining(cut.toString()).hasMessageContaining("truncated");
        }
        Path longer = dir.resolve("longer.part");
        Files.write(longer, Arrays.copyOf(good, good.length + 1));
        assertThatThrownBy(() -> PartFile.read(longer, target, 0, null)).isInstanceOf(DamagedFileException.class)
                .hasMessageContaining(longer.toString()).hasMessageContaining("its header says " + good.length);
        assertThat(target.accounting().totalBytes()).isZero();
    }

    @Test
    void anUnknownVersionIsRefusedNamingBothVersions() throws IOException {
        TablePart written = hold(TestParts.build(table, 10, 2, false));
        Path file = dir.resolve("p.part");
        PartFile.write(written, file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 7), 8);
        }
        UnsupportedVersionException e = catchThrowableOfType(UnsupportedVersionException.class,
                () -> PartFile.read(file, target, 0, null));
        assertThat(e.found()).isEqualTo(7);
        assertThat(e.supported()).isEqualTo(PartFile.VERSION);
        assertThat(e.getMessage()).contains(file.toString()).contains("version 7").contains("version " + PartFile.VERSION);
    }

    @Test
    void anotherFileUnderTheManifestsNameIsRefused() throws IOException {
        // two parts of the same shape: the same sizes, other values
        Table ids = new Catalog(source).create("IDS", TableSchema.of(new ColumnDef("id", ColumnType.bigint(), false)));
        PartBuilder a = ids.newPart();
        PartBuilder b = ids.newPart();
        for (long r = 0; r < 100; r++) {
            a.addRow(r);
            b.addRow(r + 1);
        }
        TablePart partA = hold(a.build(c -> ColumnPlacement.onNode(0), false));
        TablePart partB = hold(b.build(c -> ColumnPlacement.onNode(0), false));
        PartRef refA = PartFile.write(partA, dir.resolve("a.part"));
        PartRef refB = PartFile.write(partB, dir.resolve("b.part"));
        assertThat(refB.size()).isEqualTo(refA.size());
        assertThat(refB.checksum()).isNotEqualTo(refA.checksum());
        assertThatThrownBy(() -> PartFile.read(dir.resolve("b.part"), refA, target, c -> ColumnPlacement.onNode(0), null))
                .isInstanceOf(DamagedFileException.class).hasMessageContaining("b.part").hasMessageContaining("the manifest says");
        PartRef wrongSize = new PartRef("b.part", refB.size() + 1, refB.checksum());
        assertThatThrownBy(() -> PartFile.read(dir.resolve("b.part"), wrongSize, target, c -> ColumnPlacement.onNode(0), null))
                .isInstanceOf(DamagedFileException.class).hasMessageContaining("the manifest says " + wrongSize.size());
        assertThat(target.accounting().totalBytes()).isZero();
    }
}
