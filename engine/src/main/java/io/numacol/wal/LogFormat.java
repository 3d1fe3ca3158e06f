package io.numacol.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The log's bytes on disk, shared by the writer and the reader. All numbers are big-endian.
 *
 * <pre>
 * file   = header record*
 * header = magic "NUMACOLW" (8 bytes) | version int | start LSN long | CRC32C of the 20 bytes before, int
 * record = length int | crc int | type byte | LSN long | payload
 *          length = the bytes after the crc (1 + 8 + payload), crc = CRC32C of those bytes
 * </pre>
 *
 * A file is named by the LSN of its first record, 20 digits and {@code .wal}, so that names sort
 * as LSNs do; the header repeats the LSN, so a renamed file is caught. LSNs run on from file to
 * file without a gap.
 */
final class LogFormat {
    /** The format this code writes and the only one it reads. */
    static final int VERSION = 1;
    static final byte[] MAGIC = "NUMACOLW".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER_SIZE = 8 + 4 + 8 + 4;
    /** Length and CRC, before the bytes the length counts. */
    static final int FRAME_PREFIX = 8;
    /** Type and LSN: the least a record's length can be. */
    static final int MIN_LENGTH = 1 + 8;
    static final String SUFFIX = ".wal";
    /** LSN of the first record of a new log: 0 is left to mean "no record". */
    static final long FIRST_LSN = 1;

    private LogFormat() {
    }

    static String fileName(long startLsn) {
        return String.format("%020d%s", startLsn, SUFFIX);
    }

    /** The start LSN a log file's name gives, or -1 for a file that is not a log file. */
    static long startLsnOf(Path file) {
        String name = file.getFileName().toString();
        if (name.length() != 20 + SUFFIX.length() || !name.endsWith(SUFFIX)) {
            return -1;
        }
        for (int i = 0; i < 20; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
        }
        try {
            return Long.parseLong(name.substring(0, 20));
        } catch (NumberFormatException e) {
            return -1; // 20 digits past Long.MAX_VALUE
        }
    }

    /** The log files of a directory, by start LSN; other files are left alone. */
    static List<Path> list(Path directory) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path p : entries) {
                if (startLsnOf(p) >= 0 && Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        }
        files.sort(Comparator.comparingLong(LogFormat::startLsnOf));
        return files;
    }

    static byte[] header(long startLsn) {
        Bytes b = new Bytes(HEADER_SIZE);
        b.put(MAGIC);
        b.putInt(VERSION);
        b.putLong(startLsn);
        b.putInt(crc(b.array(), 0, b.size()));
        return Arrays.copyOf(b.array(), HEADER_SIZE);
    }

    /**
     * Checks a whole header (HEADER_SIZE bytes) of {@code file} and returns its start LSN. The
     * version is checked before the checksum, so that a later format, whose header may differ
     * past the version, is refused for its version.
     */
    static long checkHeader(Path file, byte[] h) throws LogFormatException {
        if (!Arrays.equals(h, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new LogFormatException(file + " is not a numacol log file: it does not begin with the magic bytes "
                    + new String(MAGIC, StandardCharsets.US_ASCII));
        }
        int version = Bytes.getInt(h, 8);
        if (version != VERSION) {
            throw new LogFormatException(file + " is a numacol log of format version " + version
                    + ", but this numacol reads only version " + VERSION);
        }
        if (crc(h, 0, 20) != Bytes.getInt(h, 20)) {
            throw new LogFormatException(file + ": the log file's header fails its checksum");
        }
        long start = Bytes.getLong(h, 12);
        long named = startLsnOf(file);
        if (start != named) {
            throw new LogFormatException(file + ": the header says the file starts at LSN " + start
                    + " but its name says " + named + " (a renamed or copied file?)");
        }
        return start;
    }

    /** Appends a framed record to {@code out}: the CRC is computed over the bytes as they lie in {@code out}. */
    static void frame(Bytes out, int type, long lsn, Bytes payload) {
        int start = out.size();
        out.putInt(0);
        out.putInt(0);
        out.putByte(type);
        out.putLong(lsn);
        out.put(payload.array(), 0, payload.size());
        int length = out.size() - start - FRAME_PREFIX;
        out.setInt(start, length);
        out.setInt(start + 4, crc(out.array(), start + FRAME_PREFIX, length));
    }

    static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /** Creates a log file with its header, forced, and forces the directory so the new name survives a crash too. */
    static FileChannel create(Path directory, long startLsn) throws IOException {
        Path file = directory.resolve(fileName(startLsn));
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            ByteBuffer h = ByteBuffer.wrap(header(startLsn));
            while (h.hasRemaining()) {
                ch.write(h, h.position());
            }
            ch.force(true);
            forceDirectory(directory);
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Forces a directory's entries (a file created or deleted) to the disk, as POSIX asks; Linux
     * allows opening a directory to force it.
     */
    static void forceDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
