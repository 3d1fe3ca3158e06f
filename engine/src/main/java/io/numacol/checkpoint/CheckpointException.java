package io.numacol.checkpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A checkpoint file that cannot be used: damaged ({@link DamagedFileException}), of a format this
 * build does not read ({@link UnsupportedVersionException}), or not matching what the manifest
 * or the table expects of it. The message names the file, so that a user can find it; bytes
 * that are no file of their own (a {@link CatalogImage} logged in the write-ahead log) are named
 * by where they are instead, and have no {@link #file}.
 */
public class CheckpointException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The file; a String, since a Path is not serializable; null for bytes of no file. */
    private final String file;

    public CheckpointException(Path file, String message) {
        super(Objects.requireNonNull(file, "file") + ": " + message);
        this.file = file.toString();
    }

    /**
     * Bytes that are no file of their own cannot be used: {@code source} says where they are
     * ("catalog image in the write-ahead log"), in the message where a file's name would be.
     */
    public CheckpointException(String source, String message) {
        super(Objects.requireNonNull(source, "source") + ": " + message);
        this.file = null;
    }

    /** The file that cannot be used, or null when the bytes are no file's (see {@link #CheckpointException(String, String)}). */
    public Path file() {
        return file == null ? null : Path.of(file);
    }
}
