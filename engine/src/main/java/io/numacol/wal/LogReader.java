package io.numacol.wal;

import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Reads the records of a log directory in LSN order, file after file, and stops at the first
 * record that is not whole: a frame shorter than its length says, a checksum mismatch, a length
 * no record has, an LSN out of sequence. That is what a crash leaves at the end of the last file
 * (a write the disk took only part of), and everything before it is intact; {@link #end()} says
 * where the valid log ends and {@link #truncate()} cuts the rest, so that appends continue right
 * after the last valid record and a later reader never meets the damage followed by new records.
 *
 * <p>Damage that no crash leaves is refused with a {@link LogFormatException} instead of being cut:
 * a file of another format or version, a whole record (its checksum right) that does not parse,
 * a torn record in a file that later files follow, an LSN gap between files.
 *
 * <p>Not thread-safe. Read a log while no {@link LogWriter} writes it (at open, before the writer).
 */
public final class LogReader implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LogReader.class.getName());
    private static final int WINDOW = 1 << 16;

    private final List<Path> files;
    private int fileIndex = -1;
    private Path file;
    private FileChannel channel;
    private long fileSize;
    /** Offset of the next record in {@link #file}. */
    private long position;
    /** The LSN the next record must have; -1 before the first file. */
    private long expectedLsn = -1;
    private LogEnd end;

    /** Bytes of the file read ahead, so that a record costs no system call of its own. */
    private final byte[] window = new byte[WINDOW];
    private long windowStart;
    private int windowLength;

    private LogReader(List<Path> files) {
        this.files = files;
    }

    /** A reader of the log files in {@code directory} (no file: an empty log). */
    public static LogReader open(Path directory) throws IOException {
        return new LogReader(LogFormat.list(directory));
    }

    /** The next record, or null at the end of the valid log ({@link #end()} then says where that is). */
    public LogEntry next() throws IOException {
        while (end == null) {
            if (channel == null && !openNextFile()) {
                return null;
            }
            LogEntry e = readRecord();
            if (e != null) {
                return e;
            }
            if (end == null) {
                closeFile(); // the file ended cleanly and another follows
            }
        }
        return null;
    }

    /** Where the valid log ends; reads the rest of the log first if it was not read to the end. */
    public LogEnd end() throws IOException {
        while (next() != null) {
            // skipped: the caller wants only the end
        }
        return end;
    }

    /**
     * Cuts the damage after the last valid record ({@link #end()}), forced to the disk, and logs
     * one line naming the file and offset; nothing when the log ended cleanly. A file whose header
     * is incomplete (a crash while it was created) is deleted, and a writer creates it anew. Returns
     * the end, now clean.
     */
    public LogEnd truncate() throws IOException {
        LogEnd e = end();
        if (!e.torn()) {
            return e;
        }
        closeFile();
        long cut = Files.size(e.file()) - e.offset();
        if (e.offset() < LogFormat.HEADER_SIZE) {
            Files.delete(e.file());
            LogFormat.forceDirectory(e.file().toAbsolutePath().getParent());
        } else {
            try (FileChannel ch = FileChannel.open(e.file(), StandardOpenOption.WRITE)) {
                ch.truncate(e.offset());
                ch.force(true);
            }
        }
        LOG.log(Level.WARNING, "write-ahead log " + e.file() + ": cut the torn tail at offset " + e.offset()
                + " (" + cut + " bytes; " + e.damage() + "); the log continues at LSN " + e.nextLsn());
        end = new LogEnd(e.file(), e.offset(), e.nextLsn(), null);
        return end;
    }

    @Override
    public void close() throws IOException {
        closeFile();
    }

    private boolean openNextFile() throws IOException {
        fileIndex++;
        if (fileIndex == files.size()) {
            // past the last file, which ended cleanly (or no file at all)
            end = file == null ? new LogEnd(null, 0, LogFormat.FIRST_LSN, null) : new LogEnd(file, position, expectedLsn, null);
            return false;
        }
        file = files.get(fileIndex);
        channel = FileChannel.open(file, StandardOpenOption.READ);
        fileSize = channel.size();
        windowStart = 0;
        windowLength = 0;
        long named = LogFormat.startLsnOf(file);
        if (fileSize < LogFormat.HEADER_SIZE) {
            checkContinues(named);
            position = 0;
            expectedLsn = named;
            return torn("the file's header is incomplete (" + fileSize + " of " + LogFormat.HEADER_SIZE + " bytes)");
        }
        byte[] header = new byte[LogFormat.HEADER_SIZE];
        read(0, header, header.length);
        long start = LogFormat.checkHeader(file, header);
        checkContinues(start);
        expectedLsn = start;
        position = LogFormat.HEADER_SIZE;
        return true;
    }

    /** Refuses a file that does not start where the file before it ended: one between them is missing. */
    private void checkContinues(long start) throws LogFormatException {
        if (expectedLsn >= 0 && start != expectedLsn) {
            throw new LogFormatException("write-ahead log files are missing: " + files.get(fileIndex - 1) + " ends before LSN "
                    + expectedLsn + ", but the next file, " + file + ", starts at LSN " + start);
        }
    }

    /** The record at {@link #position}, or null at the clean end of the file or at damage (then {@link #end} is set). */
    private LogEntry readRecord() throws IOException {
        long remaining = fileSize - position;
        if (remaining == 0) {
            if (fileIndex == files.size() - 1) {
                end = new LogEnd(file, position, expectedLsn, null);
            }
            return null;
        }
        if (remaining < LogFormat.FRAME_PREFIX) {
            torn("only " + remaining + " bytes of a record's frame");
            return null;
        }
        byte[] prefix = new byte[LogFormat.FRAME_PREFIX];
        read(position, prefix, prefix.length);
        int length = Bytes.getInt(prefix, 0);
        int crc = Bytes.getInt(prefix, 4);
        if (length < LogFormat.MIN_LENGTH) {
            torn("a record length of " + length + " bytes, less than any record has");
            return null;
        }
        if (length > remaining - LogFormat.FRAME_PREFIX) {
            torn("a record of " + length + " bytes where only " + (remaining - LogFormat.FRAME_PREFIX) + " are left");
            return null;
        }
        byte[] body = new byte[length];
        read(position + LogFormat.FRAME_PREFIX, body, length);
        if (LogFormat.crc(body, 0, length) != crc) {
            torn("a record's checksum does not match");
            return null;
        }
        int type = body[0];
        long lsn = Bytes.getLong(body, 1);
        if (lsn != expectedLsn) {
            torn("a record of LSN " + lsn + " where LSN " + expectedLsn + " was due");
            return null;
        }
        LogRecord record;
        try {
            record = RecordCodec.decode(type, ByteBuffer.wrap(body, 9, length - 9));
        } catch (IllegalArgumentException e) {
            throw new LogFormatException(file + " at offset " + position + ": the record of LSN " + lsn
                    + " is whole (its checksum matches) but cannot be read: " + e.getMessage(), e);
        }
        position += LogFormat.FRAME_PREFIX + length;
        expectedLsn++;
        return new LogEntry(lsn, record);
    }

    /**
     * Stops at damage: the end of the valid log in the last file, a LogFormatException anywhere else,
     * since the files after it hold records a cut would lose, and no crash tears a file that a
     * later one follows (the writer forces a file before it starts the next).
     */
    private boolean torn(String damage) throws LogFormatException {
        if (fileIndex < files.size() - 1) {
            throw new LogFormatException(file + " is damaged at offset " + position + " (" + damage
                    + "), but later log files follow, starting with " + files.get(fileIndex + 1));
        }
        end = new LogEnd(file, position, expectedLsn, damage);
        return false;
    }

    private void read(long at, byte[] dst, int length) throws IOException {
        int off = 0;
        while (off < length) {
            long p = at + off;
            if (p >= windowStart && p < windowStart + windowLength) {
                int n = (int) Math.min(length - off, windowStart + windowLength - p);
                System.arraycopy(window, (int) (p - windowStart), dst, off, n);
                off += n;
            } else if (length - off >= WINDOW) {
                readFully(p, ByteBuffer.wrap(dst, off, length - off));
                off = length;
            } else {
                ByteBuffer w = ByteBuffer.wrap(window, 0, (int) Math.min(WINDOW, fileSize - p));
                readFully(p, w);
                windowStart = p;
                windowLength = w.position();
            }
        }
    }

    private void readFully(long at, ByteBuffer into) throws IOException {
        long p = at;
        while (into.hasRemaining()) {
            int n = channel.read(into, p);
            if (n < 0) {
                throw new EOFException(file + " ended at offset " + p + " while being read (did something else change it?)");
            }
            p += n;
        }
    }

    private void closeFile() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
