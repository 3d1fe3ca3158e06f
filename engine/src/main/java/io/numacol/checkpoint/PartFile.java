package io.numacol.checkpoint;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.storage.Column;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.DeletedRows;
import io.numacol.storage.Dictionary;
import io.numacol.storage.DoubleDictionary;
import io.numacol.storage.IndexVector;
import io.numacol.storage.InvertedIndex;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.Partitioning;
import io.numacol.storage.StringDictionary;
import io.numacol.storage.TablePart;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.zip.CRC32C;

/**
 * One table part in a checkpoint file, written as it is stored: each column's dictionary,
 * IndexVector and Index byte for byte from their segments, so that writing and reading do no
 * work per value, only copies and checksums.
 *
 * <p>The file, all numbers little-endian:
 * <pre>
 * header, {@value #HEADER_BYTES} bytes
 *   0  magic           8 bytes, "NUMACOLP"
 *   8  format version  u32 ({@value #VERSION})
 *   12 flags           u32: bit 0 set when the data sections are big-endian (the writer's native order)
 *   16 metadata bytes  u32
 *   20 file bytes      u64: the whole file, so that a cut file is known before anything is read
 *   28 CRC32C          u32 of bytes 0..28
 * metadata, then its CRC32C (u32)
 *   part id u64, rows u32, partition count u32 (0: none), partition i32 (-1: none),
 *   deleted-row words u32, columns u32, then per column: name and type (u32 length + UTF-8; the
 *   type as SQL spells it), null vid i32 (-1: no NULL), bitcase u32, dictionary size u32, and
 *   the bytes of dictionary, IndexVector, Index offsets and Index positions (u64 each; -1: no Index)
 * data sections, each its bytes then its CRC32C (u32)
 *   the deleted-rows bitmap (u64 words; empty when no row is deleted), then per column its
 *   dictionary segment, its IndexVector segment, and when it has an Index its two segments
 * </pre>
 * A section's CRC32C starts with its number (u32, 0 for the deleted rows) before its bytes, so
 * two sections of equal size swapped do not pass. The data sections are memory as the JVM keeps
 * it (dictionaries, Index and bitmap in native byte order, IndexVector words little-endian); the
 * flag lets a reader of the other byte order refuse a file it would misread.
 *
 * <p>The Index (IX) is written, not rebuilt: it is bytes like the rest, where rebuilding it would
 * decode every row. The file's checksum, which the manifest keeps ({@link PartRef}), is a CRC32C
 * of the header, the metadata with its CRC and every section's CRC in order: it changes with any
 * byte of the file yet costs no second pass over the data.
 */
public final class PartFile {
    /** The format version this build writes and reads. */
    public static final int VERSION = 1;
    /** How part files are named: the manifest's garbage collection only ever looks at these. */
    public static final String SUFFIX = ".part";
    static final int HEADER_BYTES = 32;
    private static final byte[] MAGIC = "NUMACOLP".getBytes(StandardCharsets.US_ASCII);
    private static final int BIG_ENDIAN_FLAG = 1;
    /** The flags this build writes, and the only ones it reads. */
    private static final int NATIVE_FLAGS = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? BIG_ENDIAN_FLAG : 0;

    private PartFile() {
    }

    /**
     * A name for the part file of part {@code partId} of the table of durable id {@code table}
     * ({@link TableEntry#id}), written by the checkpoint (or the transaction) of log position
     * {@code lsn}: unique as long as each part is written once per position, and free of whatever
     * characters the table's name has.
     */
    public static String fileName(long table, long partId, long lsn) {
        return "t" + table + "-p" + partId + "-" + lsn + SUFFIX;
    }

    /**
     * Writes {@code part} to a new file (never over an existing one: a manifest may name it) and
     * forces it to disk. The caller holds a reference to the part for the duration. The file's
     * name is durable only once the directory is forced, which {@link Manifest#write} does.
     *
     * @return the file as the manifest should name it
     * @throws java.nio.file.FileAlreadyExistsException when the file exists
     */
    public static PartRef write(TablePart part, Path file) throws IOException {
        Objects.requireNonNull(part, "part");
        PartMetadata metadata = PartMetadata.of(part);
        FieldWriter fields = new FieldWriter();
        metadata.encode(fields);
        long fileBytes = HEADER_BYTES + fields.size() + Integer.BYTES + metadata.dataBytes();

        ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES + fields.size() + Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        head.put(MAGIC).putInt(VERSION).putInt(NATIVE_FLAGS).putInt(fields.size()).putLong(fileBytes);
        head.putInt(crc(head.array(), 0, HEADER_BYTES - Integer.BYTES));
        head.put(fields.toBuffer());
        head.putInt(crc(head.array(), HEADER_BYTES, fields.size()));
        CRC32C fingerprint = new CRC32C();
        fingerprint.update(head.array());

        List<MemorySegment> segments = dataSegments(part, metadata);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            SegmentIo.writeFully(channel, head.flip());
            for (int s = 0; s < segments.size(); s++) {
                CRC32C crc = sectionCrc(s);
                SegmentIo.write(channel, segments.get(s), crc);
                ByteBuffer sum = littleEndianInt((int) crc.getValue());
                fingerprint.update(sum.duplicate());
                SegmentIo.writeFully(channel, sum);
            }
            if (channel.position() != fileBytes) {
                throw new IllegalStateException("wrote " + channel.position() + " bytes of part file " + file + ", meant "
                        + fileBytes + ": a segment's size differs from the metadata");
            }
            channel.force(true);
        }
        return new PartRef(file.getFileName().toString(), fileBytes, (int) fingerprint.getValue());
    }

    /** The data sections' memory in {@link PartMetadata#sections()} order. */
    private static List<MemorySegment> dataSegments(TablePart part, PartMetadata metadata) {
        List<MemorySegment> segments = new ArrayList<>();
        ByteBuffer deleted = ByteBuffer.allocate(metadata.deletedWords() * Long.BYTES).order(ByteOrder.nativeOrder());
        for (int i = 0; i < metadata.deletedWords(); i++) {
            deleted.putLong(part.deleted().word(i));
        }
        segments.add(MemorySegment.ofBuffer(deleted.flip()));
        for (Column c : part.columns()) {
            segments.addAll(c.dictionary().segments());
            segments.add(c.indexVector().segment());
            if (c.index() != null) {
                segments.addAll(c.index().segments());
            }
        }
        return segments;
    }

    /**
     * Reads the part file into memory placed all on {@code node}.
     *
     * @see #read(Path, PartRef, NumaMemory, IntFunction, Partitioning)
     */
    public static TablePart read(Path file, NumaMemory memory, int node, Partitioning partitioning) throws IOException {
        return read(file, null, memory, c -> ColumnPlacement.onNode(node), partitioning);
    }

    /**
     * Reads the part file into new memory of {@code memory}, each column placed as {@code
     * placement} says for its position, whatever partition the file names.
     *
     * @see #read(Path, PartRef, NumaMemory, Partitioning, IntFunction)
     */
    public static TablePart read(Path file, PartRef expected, NumaMemory memory, IntFunction<ColumnPlacement> placement,
                                 Partitioning partitioning) throws IOException {
        Objects.requireNonNull(placement, "placement");
        return read(file, expected, memory, partitioning, partition -> placement);
    }

    /**
     * Reads the part file into new memory of {@code memory}, each column placed as {@code
     * placement} gives for the partition the file names (as a {@link io.numacol.storage.PartBuilder}
     * places a built part), straight from the file into the segments, verifying every checksum.
     *
     * @param expected     the file as the manifest names it (size and checksum must match), or null
     * @param partitioning the table's partitioning: a part file of a partition holds only its
     *                     number and count, so the part is that partition's only when the count
     *                     fits and its rows all belong there ({@link Partitioning#holds}); else
     *                     (or for null, a table of none) it is read as a part of no partition
     * @param placement    where the columns go, given the partition the file names when the count
     *                     fits (-1 otherwise): a part of a partition is read straight to its node
     * @return the part, holding one reference for the caller, in an arena of its own
     * @throws DamagedFileException        when any byte is not as written, naming file and section;
     *                                     nothing is returned and all memory taken is freed
     * @throws UnsupportedVersionException for a file of another format version
     * @throws CheckpointException         for a file that does not fit {@code expected}'s size or this
     *                                     machine's byte order
     */
    public static TablePart read(Path file, PartRef expected, NumaMemory memory, Partitioning partitioning,
                                 IntFunction<IntFunction<ColumnPlacement>> placement) throws IOException {
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(placement, "placement");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (expected != null && size != expected.size()) {
                throw new DamagedFileException(file, "file", "it has " + size + " bytes, the manifest says " + expected.size());
            }
            CRC32C fingerprint = new CRC32C();
            PartMetadata metadata = readMetadata(channel, size, file, fingerprint);
            // the partition the file names, placed where that partition lives before a byte is read; it is
            // kept only if the rows show it below
            int named = metadata.partition() >= 0 && partitioning != null && partitioning.count() == metadata.partitionCount()
                    ? metadata.partition() : -1;
            IntFunction<ColumnPlacement> where = Objects.requireNonNull(placement.apply(named), "no placement");
            NodeArena arena = memory.newArena();
            try {
                SectionReader sections = new SectionReader(channel, size - metadata.dataBytes(), metadata.sections(), file,
                        fingerprint);
                DeletedRows deleted = sections.deletedRows(metadata.rowCount());
                List<Column> columns = new ArrayList<>(metadata.columns().size());
                for (int c = 0; c < metadata.columns().size(); c++) {
                    ColumnPlacement column = Objects.requireNonNull(where.apply(c), "no placement for column " + c);
                    columns.add(readColumn(sections, metadata, c, arena, column, file));
                }
                if (expected != null && (int) fingerprint.getValue() != expected.checksum()) {
                    throw new DamagedFileException(file, "file", "its checksum is " + hex((int) fingerprint.getValue())
                            + ", the manifest says " + hex(expected.checksum()) + " (another file of the same name?)");
                }
                // a part keeps its partition only while its table deals its rows the same way: one the table
                // deals otherwise since is read as a part of none, which only costs joins their
                // partition-by-partition run (and leaves it on the node its number named)
                boolean inPartition = named >= 0 && partitioning.holds(columns, metadata.rowCount(), named);
                return TablePart.restored(metadata.partId(), columns, metadata.rowCount(), arena,
                        inPartition ? partitioning : null, inPartition ? named : -1, deleted);
            } catch (IOException | RuntimeException | Error e) {
                arena.close(); // nothing read is returned: every segment taken goes back
                throw e;
            }
        }
    }

    private static PartMetadata readMetadata(FileChannel channel, long size, Path file, CRC32C fingerprint) throws IOException {
        if (size < HEADER_BYTES) {
            throw new DamagedFileException(file, "header", "the file has " + size + " bytes, fewer than a header's "
                    + HEADER_BYTES + " (truncated)");
        }
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        SegmentIo.readFully(channel, 0, header, file, "header");
        byte[] magic = new byte[MAGIC.length];
        header.flip().get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new DamagedFileException(file, "header", "it does not start as a numacol part file does");
        }
        // the version before the header's checksum: a later format may lay out the rest otherwise
        int version = header.getInt();
        if (version != VERSION) {
            throw new UnsupportedVersionException(file, version, VERSION);
        }
        int flags = header.getInt();
        int metadataBytes = header.getInt();
        long fileBytes = header.getLong();
        int stored = header.getInt();
        int computed = crc(header.array(), 0, HEADER_BYTES - Integer.BYTES);
        if (stored != computed) {
            throw mismatch(file, "header", stored, computed);
        }
        if (flags != NATIVE_FLAGS) {
            throw new CheckpointException(file, "written with flags " + flags + " (bit 0: big-endian data), this machine reads "
                    + NATIVE_FLAGS);
        }
        if (fileBytes != size) {
            throw new DamagedFileException(file, "file", "it has " + size + " bytes, its header says " + fileBytes
                    + (size < fileBytes ? " (truncated)" : ""));
        }
        if (metadataBytes < 0 || HEADER_BYTES + (long) metadataBytes + Integer.BYTES > size) {
            throw new DamagedFileException(file, "header", "metadata of " + Integer.toUnsignedString(metadataBytes)
                    + " bytes do not fit in the file's " + size);
        }
        fingerprint.update(header.array());
        ByteBuffer metadata = ByteBuffer.allocate(metadataBytes + Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        SegmentIo.readFully(channel, HEADER_BYTES, metadata, file, "metadata");
        fingerprint.update(metadata.array());
        int storedCrc = metadata.getInt(metadataBytes);
        int metadataCrc = crc(metadata.array(), 0, metadataBytes);
        if (storedCrc != metadataCrc) {
            throw mismatch(file, "metadata", storedCrc, metadataCrc);
        }
        PartMetadata decoded = PartMetadata.decode(new FieldReader(metadata.slice(0, metadataBytes), file, "metadata"));
        long expectedBytes = HEADER_BYTES + metadataBytes + Integer.BYTES + decoded.dataBytes();
        if (expectedBytes != fileBytes) {
            throw new DamagedFileException(file, "metadata", "its sections take " + expectedBytes + " bytes, the header says "
                    + fileBytes);
        }
        return decoded;
    }

    /** Column {@code c}'s sections, read into memory placed as {@code where} says. */
    private static Column readColumn(SectionReader sections, PartMetadata metadata, int c, NodeArena arena, ColumnPlacement where,
                                     Path file) throws IOException {
        PartMetadata.ColumnMetadata m = metadata.columns().get(c);
        MemorySegment values = sections.next(arena, where.dictionary(), Component.DICTIONARY);
        Dictionary dictionary;
        try {
            dictionary = switch (m.type().storageKind()) {
                case LONG -> LongDictionary.wrap(values);
                case DOUBLE -> DoubleDictionary.wrap(values);
                case STRING -> StringDictionary.wrap(values, m.dictionarySize());
            };
        } catch (IllegalArgumentException e) {
            throw new DamagedFileException(file, metadata.columnName(c) + " dictionary", e.getMessage());
        }
        MemorySegment vids = sections.next(arena, where.indexVector(), Component.INDEX_VECTOR);
        IndexVector iv = IndexVector.wrap(vids, metadata.rowCount(), m.bitcase());
        if (where.indexVectorSplit() != null && vids.byteSize() > 0) {
            Column.splitPages(vids, where.indexVectorSplit(), arena.memory()); // as a build does, once the pages are touched
        }
        InvertedIndex index = null;
        if (m.hasIndex()) {
            MemorySegment offsets = sections.next(arena, where.index(), Component.INDEX);
            MemorySegment positions = sections.next(arena, where.index(), Component.INDEX);
            index = InvertedIndex.wrap(offsets, positions, Math.toIntExact(m.vidCount()));
        }
        return Column.restored(m.name(), m.type(), dictionary, iv, index, where, m.nullVid() >= 0);
    }

    /** CRC32C of a section: its number first, then its bytes. */
    private static CRC32C sectionCrc(int section) {
        CRC32C crc = new CRC32C();
        crc.update(littleEndianInt(section));
        return crc;
    }

    private static ByteBuffer littleEndianInt(int value) {
        return ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value);
    }

    private static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    static String hex(int checksum) {
        return String.format("%08x", checksum);
    }

    private static DamagedFileException mismatch(Path file, String section, int stored, int computed) {
        return new DamagedFileException(file, section, "checksum " + hex(computed) + " where " + hex(stored) + " was written");
    }

    /** Reads the data sections one after the other into new segments, checking each one's CRC. */
    private static final class SectionReader {
        private final FileChannel channel;
        private final List<PartMetadata.Section> sections;
        private final Path file;
        private final CRC32C fingerprint;
        private long position;
        private int next;

        SectionReader(FileChannel channel, long position, List<PartMetadata.Section> sections, Path file, CRC32C fingerprint) {
            this.channel = channel;
            this.position = position;
            this.sections = sections;
            this.file = file;
            this.fingerprint = fingerprint;
        }

        /** The first section, to the heap: DeletedRows keeps a long[], and a bit per row is no column's worth. */
        DeletedRows deletedRows(int rows) throws IOException {
            PartMetadata.Section section = sections.get(next);
            MemorySegment words = read(MemorySegment.ofArray(new byte[Math.toIntExact(section.bytes())]));
            try {
                return DeletedRows.NONE.with(words.toArray(ValueLayout.JAVA_LONG_UNALIGNED), rows);
            } catch (IllegalArgumentException e) {
                throw new DamagedFileException(file, section.name(), e.getMessage());
            }
        }

        /** The next section, in new memory of {@code arena} placed as asked. */
        MemorySegment next(NodeArena arena, MemoryPlacement placement, Component component) throws IOException {
            return read(arena.allocate(sections.get(next).bytes(), placement, component));
        }

        private MemorySegment read(MemorySegment into) throws IOException {
            PartMetadata.Section section = sections.get(next);
            CRC32C crc = sectionCrc(next);
            SegmentIo.read(channel, position, into, crc, file, section.name());
            ByteBuffer stored = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            SegmentIo.readFully(channel, position + section.bytes(), stored, file, section.name());
            fingerprint.update(stored.array());
            int written = stored.getInt(0);
            if (written != (int) crc.getValue()) {
                throw mismatch(file, section.name(), written, (int) crc.getValue());
            }
            position += section.bytes() + Integer.BYTES;
            next++;
            return into;
        }
    }
}
