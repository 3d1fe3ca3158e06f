package io.numacol.wal;

/**
 * Where the valid log ends, as a {@link LogReader} found it: the file and the byte offset just
 * past its last whole record, and the LSN the next record gets. {@code damage} says why reading
 * stopped before the end of the file (a torn or short record, a checksum mismatch), and is null
 * when the file ended cleanly. {@code file} is null only for a directory with no log file.
 * An {@code offset} below the header's size means the file's header itself is incomplete.
 */
public record LogEnd(java.nio.file.Path file, long offset, long nextLsn, String damage) {

    /** Whether bytes after {@link #offset} are damage, which {@link LogReader#truncate} cuts. */
    public boolean torn() {
        return damage != null;
    }
}
