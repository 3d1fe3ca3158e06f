package io.numacol.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a checkpoint holds: the whole catalog (a {@link CatalogImage}: schemas, tables, views,
 * indexes), each table with its part files, and the log sequence number up to which the
 * write-ahead log's records are in those files (opening replays the log from there).
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
 * (u64), then the catalog image's body as {@link CatalogImage} lays it out (without that frame:
 * the manifest's checksum covers it). It is small beside the parts, so it is written and read in
 * one piece.
 *
 * @param lsn     the write-ahead log position the checkpoint covers: records up to it are in the parts
 * @param catalog the catalog as of that position, its tables naming their part files
 */
public record Manifest(long lsn, CatalogImage catalog) {
    /** The format version this build writes and reads. */
    public static final int VERSION = CatalogImage.VERSION; // the catalog image's: its body follows the lsn
    public static final String FILE_NAME = "MANIFEST";
    public static final String TEMP_NAME = "MANIFEST.tmp";
    private static final byte[] MAGIC = "NUMACOLM".getBytes(StandardCharsets.US_ASCII);

    /** The catalog image refuses a table twice (by name or id) and a part file named twice. */
    public Manifest {
        if (lsn < 0) {
            throw new IllegalArgumentException("a log sequence number is not negative, got " + lsn);
        }
        Objects.requireNonNull(catalog, "catalog");
    }

    /** The manifest of a database that has no checkpoint yet: an empty catalog, nothing of the log covered. */
    public static Manifest empty() {
        return new Manifest(0, CatalogImage.empty());
    }

    /** The catalog's tables, in catalog order: {@code catalog().tables()}. */
    public List<TableEntry> tables() {
        return catalog.tables();
    }

    /** The part files this manifest names. */
    public Set<String> partFiles() {
        Set<String> files = new HashSet<>();
        tables().forEach(t -> t.parts().forEach(p -> files.add(p.fileName())));
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
        body.putLong(lsn);
        catalog.encodeBody(body);
        return Frame.wrap(MAGIC, VERSION, body);
    }

    static Manifest decode(byte[] bytes, Path file) throws CheckpointException {
        FieldReader body = Frame.open(bytes, MAGIC, CatalogImage.OLDEST_VERSION, VERSION, "manifest", Origin.of(file));
        return CatalogImage.decodeWhole(body, in -> new Manifest(in.getLong(), CatalogImage.decodeBody(in)));
    }

    /** Makes the directory's entries (new files, renames) durable: fsync of the directory itself. */
    public static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    @Override
    public String toString() {
        return "Manifest(lsn " + lsn + ", " + tables().size() + " tables, " + partFiles().size() + " part files)";
    }
}
