package io.numacol.checkpoint;

import io.numacol.storage.Partitioning;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * What a checkpoint holds: its tables, each with its part files, and the log sequence number up
 * to which the write-ahead log's records are in those files (opening replays the log from there).
 * A checkpoint directory has one manifest file, {@value #FILE_NAME}; the part files it does not
 * name, and a leftover {@value #TEMP_NAME}, are garbage ({@link #garbage}).
 *
 * <p>A new manifest replaces the old one whole or not at all: it is written to {@value
 * #TEMP_NAME}, forced, and renamed over {@value #FILE_NAME} (an atomic rename), and the directory
 * is forced around the rename. A crash before the rename leaves the old manifest, naming the old
 * parts, which nobody deleted yet; a crash after it leaves the new one.
 *
 * <p>The file, little-endian: magic "NUMACOLM" (8 bytes), format version (u32, {@value
 * #VERSION}), body length (u32), the body, CRC32C (u32) of everything before it. The body: lsn
 * (u64), tables (u32), per table its catalog schema and name, columns (u32; each name, type as SQL
 * spells it, nullable u8), placement, partitioning (u8 0 for none, or 1 then kind name, count
 * u32, key columns u32 with each position u32 and type, bounds u32 with each a tag 'L', 'D' or
 * 'S' and the value), parts (u32; each file name, size u64, checksum u32). Strings are a u32
 * length and UTF-8. It is small beside the parts, so it is written and read in one piece.
 *
 * @param lsn    the write-ahead log position the checkpoint covers: records up to it are in the parts
 * @param tables in catalog order
 */
public record Manifest(long lsn, List<TableEntry> tables) {
    /** The format version this build writes and reads. */
    public static final int VERSION = 1;
    public static final String FILE_NAME = "MANIFEST";
    public static final String TEMP_NAME = "MANIFEST.tmp";
    private static final byte[] MAGIC = "NUMACOLM".getBytes(StandardCharsets.US_ASCII);
    /** Magic, version and body length before the body; its CRC after. */
    private static final int FRAME_BYTES = MAGIC.length + 2 * Integer.BYTES;

    public Manifest {
        if (lsn < 0) {
            throw new IllegalArgumentException("a log sequence number is not negative, got " + lsn);
        }
        tables = List.copyOf(tables);
        Set<String> files = new HashSet<>();
        Set<List<String>> names = new HashSet<>();
        for (TableEntry t : tables) {
            if (!names.add(List.of(t.schemaName(), t.name()))) {
                throw new IllegalArgumentException("table " + t.schemaName() + "." + t.name() + " is in the manifest twice");
            }
            for (PartRef p : t.parts()) {
                if (!files.add(p.fileName())) {
                    throw new IllegalArgumentException("part file " + p.fileName() + " is named by two tables");
                }
            }
        }
    }

    /** The manifest of a database that has no checkpoint yet: no tables, nothing of the log covered. */
    public static Manifest empty() {
        return new Manifest(0, List.of());
    }

    /** The part files this manifest names. */
    public Set<String> partFiles() {
        Set<String> files = new HashSet<>();
        tables.forEach(t -> t.parts().forEach(p -> files.add(p.fileName())));
        return files;
    }

    /**
     * Makes this the manifest of {@code directory}, atomically (see the class comment). The part
     * files it names must already be written and forced ({@link PartFile#write}); forcing the
     * directory makes their names durable as well.
     */
    public void write(Path directory) throws IOException {
        Path temp = directory.resolve(TEMP_NAME);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            SegmentIo.writeFully(channel, ByteBuffer.wrap(encode()));
            channel.force(true);
        }
        forceDirectory(directory); // the part files' names are durable before a manifest names them
        Files.move(temp, directory.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(directory); // and the rename before anyone deletes what the old manifest named
    }

    /**
     * The manifest of {@code directory}, verified; empty when there is none (a new database, or
     * one whose first checkpoint never finished: a {@value #TEMP_NAME} alone is ignored).
     *
     * @throws DamagedFileException        when its checksum or structure is wrong, naming the file
     * @throws UnsupportedVersionException when it is of another format version
     */
    public static Optional<Manifest> read(Path directory) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(decode(bytes, file));
    }

    /**
     * The files of {@code directory} a crash or a finished checkpoint left behind: part files
     * ({@value PartFile#SUFFIX}) this manifest does not name, and {@value #TEMP_NAME}. Only this
     * manifest's own kinds of file are listed (never the log or a lock file), and nothing is
     * deleted: the caller deletes them once this manifest is the directory's, and no reader of
     * an older one is left.
     */
    public List<Path> garbage(Path directory) throws IOException {
        Set<String> named = partFiles();
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> {
                String name = p.getFileName().toString();
                return name.equals(TEMP_NAME) || (name.endsWith(PartFile.SUFFIX) && !named.contains(name));
            }).sorted().toList();
        }
    }

    /** The file's bytes: frame, body, checksum. */
    byte[] encode() {
        FieldWriter body = new FieldWriter();
        body.putLong(lsn).putInt(tables.size());
        for (TableEntry t : tables) {
            body.putString(t.schemaName()).putString(t.name()).putInt(t.columns().size());
            for (ColumnDef c : t.columns()) {
                body.putString(c.name()).putString(c.type().toString()).putBoolean(c.nullable());
            }
            body.putString(t.placement());
            encodePartitioning(t.partitioning(), body);
            body.putInt(t.parts().size());
            for (PartRef p : t.parts()) {
                body.putString(p.fileName()).putLong(p.size()).putInt(p.checksum());
            }
        }
        ByteBuffer out = ByteBuffer.allocate(FRAME_BYTES + body.size() + Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).putInt(VERSION).putInt(body.size()).put(body.toBuffer());
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array();
    }

    private static void encodePartitioning(Partitioning p, FieldWriter out) {
        out.putBoolean(p != null);
        if (p == null) {
            return;
        }
        out.putString(p.kind().name()).putInt(p.count()).putInt(p.keyColumns().length);
        for (int k = 0; k < p.keyColumns().length; k++) {
            out.putInt(p.keyColumns()[k]).putString(p.keyTypes().get(k).toString());
        }
        out.putInt(p.bounds().size());
        for (Object bound : p.bounds()) {
            switch (bound) {
                case Long l -> out.putByte('L').putLong(l);
                case Double d -> out.putByte('D').putLong(Double.doubleToRawLongBits(d));
                case String s -> out.putByte('S').putString(s);
                default -> throw new IllegalArgumentException("a range bound is a stored value, not a " + bound.getClass().getName());
            }
        }
    }

    static Manifest decode(byte[] bytes, Path file) throws CheckpointException {
        if (bytes.length < FRAME_BYTES + Integer.BYTES) {
            throw new DamagedFileException(file, "header", "the file has " + bytes.length + " bytes, fewer than an empty"
                    + " manifest's (truncated)");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (!Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new DamagedFileException(file, "header", "it does not start as a numacol manifest does");
        }
        int version = in.getInt(MAGIC.length);
        if (version != VERSION) {
            throw new UnsupportedVersionException(file, version, VERSION);
        }
        int bodyBytes = in.getInt(MAGIC.length + Integer.BYTES);
        if (Integer.toUnsignedLong(bodyBytes) != bytes.length - FRAME_BYTES - Integer.BYTES) {
            throw new DamagedFileException(file, "header", "it has " + bytes.length + " bytes, its header says "
                    + (FRAME_BYTES + Integer.toUnsignedLong(bodyBytes) + Integer.BYTES));
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - Integer.BYTES);
        int stored = in.getInt(bytes.length - Integer.BYTES);
        if (stored != (int) crc.getValue()) {
            throw new DamagedFileException(file, "body", "checksum " + PartFile.hex((int) crc.getValue()) + " where "
                    + PartFile.hex(stored) + " was written");
        }
        FieldReader body = new FieldReader(ByteBuffer.wrap(bytes, FRAME_BYTES, bodyBytes), file, "body");
        try {
            Manifest manifest = decodeBody(body);
            body.expectEnd();
            return manifest;
        } catch (IllegalArgumentException e) {
            // the checksum held, so a writer wrote what a reader refuses: still no manifest to trust
            throw body.damaged(e.getMessage());
        }
    }

    private static Manifest decodeBody(FieldReader in) throws DamagedFileException {
        long lsn = in.getLong();
        int tableCount = in.getCount("table count");
        List<TableEntry> tables = new ArrayList<>();
        for (int t = 0; t < tableCount; t++) {
            String schemaName = in.getString();
            String name = in.getString();
            int columnCount = in.getCount("column count");
            List<ColumnDef> columns = new ArrayList<>();
            for (int c = 0; c < columnCount; c++) {
                columns.add(new ColumnDef(in.getString(), ColumnType.parse(in.getString()), in.getBoolean()));
            }
            String placement = in.getString();
            Partitioning partitioning = decodePartitioning(in);
            int partCount = in.getCount("part count");
            List<PartRef> parts = new ArrayList<>();
            for (int p = 0; p < partCount; p++) {
                parts.add(new PartRef(in.getString(), in.getLong(), in.getInt()));
            }
            tables.add(new TableEntry(schemaName, name, columns, placement, partitioning, parts));
        }
        return new Manifest(lsn, tables);
    }

    private static Partitioning decodePartitioning(FieldReader in) throws DamagedFileException {
        if (!in.getBoolean()) {
            return null;
        }
        Partitioning.Kind kind = Partitioning.Kind.valueOf(in.getString());
        int count = in.getInt();
        int keyCount = in.getCount("key count");
        int[] keys = new int[keyCount];
        List<ColumnType> types = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keys[k] = in.getInt();
            types.add(ColumnType.parse(in.getString()));
        }
        int boundCount = in.getCount("bound count");
        List<Object> bounds = new ArrayList<>();
        for (int b = 0; b < boundCount; b++) {
            int tag = in.getByte();
            bounds.add(switch (tag) {
                case 'L' -> in.getLong();
                case 'D' -> Double.longBitsToDouble(in.getLong());
                case 'S' -> in.getString();
                default -> throw in.damaged("a range bound tagged " + tag);
            });
        }
        return new Partitioning(kind, count, keys, types, bounds);
    }

    /** Makes the directory's entries (new files, renames) durable: fsync of the directory itself. */
    static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    @Override
    public String toString() {
        return "Manifest(lsn " + lsn + ", " + tables.size() + " tables, " + partFiles().size() + " part files)";
    }
}
