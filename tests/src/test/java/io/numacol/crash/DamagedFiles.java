package io.numacol.crash;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Damage done to a closed (or killed) numacol file database's files, for the tests that check
 * what opening it then does: a torn log tail, a flipped bit in the last log record, a flipped
 * bit in a checkpoint's part file. Plain helpers, no assertions: each says what it did, and the
 * caller asserts on the opening.
 *
 * <p>Where the log lives is a {@link LogLocation}; {@link LogLocation#DEFAULT} is what
 * {@code io.numacol.wal.LogFormat} writes today: files named by their first record's LSN in 20
 * digits, ending in {@code .wal}, so that the newest file is the one whose name sorts last.
 */
final class DamagedFiles {
    private DamagedFiles() {
    }

    /** The log's directory under the database directory and the name ending of its files. */
    record LogLocation(String subdirectory, String suffix) {
        static final LogLocation DEFAULT = new LogLocation("wal", ".wal");
    }

    /** What a helper changed: the file, the byte offset, and the bit flipped there (-1: cut at the offset). */
    record Damage(Path file, long offset, int bit) {
    }

    /**
     * The layout of a log file, from {@code io.numacol.wal.LogFormat}: a 24-byte header, then
     * records each framed by a 4-byte big-endian length and a 4-byte CRC, the length counting
     * the bytes after the CRC.
     */
    static final int LOG_HEADER_BYTES = 8 + 4 + 8 + 4;
    static final int FRAME_PREFIX_BYTES = 8;

    /** The newest log file: the one whose name sorts last (names are zero-padded LSNs). */
    static Path newestLog(Path database, LogLocation where) throws IOException {
        Path dir = database.resolve(where.subdirectory());
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(where.suffix()) && Files.isRegularFile(p))
                    .max(Comparator.comparing(p -> p.getFileName().toString()))
                    .orElseThrow(() -> new IOException("no *" + where.suffix() + " file in " + dir));
        }
    }

    /** (a) Cuts {@code bytes} off the end of the newest log file (all of it if it is shorter): a torn last write. */
    static Damage truncateNewestLog(Path database, long bytes) throws IOException {
        return truncateNewestLog(database, LogLocation.DEFAULT, bytes);
    }

    static Damage truncateNewestLog(Path database, LogLocation where, long bytes) throws IOException {
        Path log = newestLog(database, where);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            long size = Math.max(0, ch.size() - bytes);
            ch.truncate(size);
            ch.force(true);
            return new Damage(log, size, -1);
        }
    }

    /**
     * (b) Flips one bit, at a position drawn from {@code seed}, in the newest log file's last
     * record (its frame included): a corrupted tail whose CRC no longer matches. The last
     * record is found by walking the frames from the header; a file the walk does not end
     * exactly at (a torn tail already) has its last 64 bytes past the header taken instead.
     */
    static Damage flipBitInNewestLogTail(Path database, long seed) throws IOException {
        return flipBitInNewestLogTail(database, LogLocation.DEFAULT, seed);
    }

    static Damage flipBitInNewestLogTail(Path database, LogLocation where, long seed) throws IOException {
        Path log = newestLog(database, where);
        long[] region = lastRecord(log);
        return flipBit(log, region[0], region[1], new Random(seed));
    }

    /** [start, end) of the last whole record of a log file, or its last 64 bytes past the header. */
    static long[] lastRecord(Path log) throws IOException {
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size <= LOG_HEADER_BYTES) {
                throw new IOException(log + " has no record: " + size + " bytes");
            }
            long at = LOG_HEADER_BYTES;
            long last = -1;
            ByteBuffer length = ByteBuffer.allocate(4); // big-endian, as the log writes it
            while (at + FRAME_PREFIX_BYTES <= size) {
                length.clear();
                if (ch.read(length, at) != 4) {
                    break;
                }
                long next = at + FRAME_PREFIX_BYTES + Integer.toUnsignedLong(length.getInt(0));
                if (next > size) {
                    break;
                }
                last = at;
                at = next;
            }
            if (last >= 0 && at == size) {
                return new long[]{last, size};
            }
            return new long[]{Math.max(LOG_HEADER_BYTES, size - 64), size};
        }
    }

    /** (c) Flips one bit, file and position drawn from {@code seed}, in one of the database's {@code .part} files. */
    static Damage flipBitInPart(Path database, long seed) throws IOException {
        List<Path> parts;
        try (Stream<Path> files = Files.walk(database)) {
            parts = files.filter(p -> p.getFileName().toString().endsWith(".part") && Files.isRegularFile(p))
                    .sorted() // a fixed order, so the seed picks the same file each time
                    .toList();
        }
        if (parts.isEmpty()) {
            throw new IOException("no .part file under " + database);
        }
        Random random = new Random(seed);
        Path part = parts.get(random.nextInt(parts.size()));
        return flipBit(part, 0, Files.size(part), random);
    }

    /** Flips the bit the random draws in [start, end) of {@code file}, in place, and forces it out. */
    static Damage flipBit(Path file, long start, long end, Random random) throws IOException {
        if (end <= start) {
            throw new IOException(file + ": nothing to flip in [" + start + ", " + end + ")");
        }
        long offset = start + random.nextLong(end - start);
        int bit = random.nextInt(8);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            if (ch.read(b, offset) != 1) {
                throw new IOException(file + ": cannot read byte " + offset);
            }
            b.put(0, (byte) (b.get(0) ^ (1 << bit)));
            b.rewind();
            ch.write(b, offset);
            ch.force(true);
        }
        return new Damage(file, offset, bit);
    }
}
