package io.numacol.checkpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A checkpoint file that cannot be used: damaged ({@link DamagedFileException}), of a format this
 * build does not read ({@link UnsupportedVersionException}), or not matching what the manifest
 * or the table expects of it. The message names the file, so that a user can find it.
 */
public class CheckpointException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The file; a String, since a Path is not serializable. */
    private final String file;

    public CheckpointException(Path file, String message) {
        super(Objects.requireNonNull(file, "file") + ": " + message);
        this.file = file.toString();
    }

    /** The file that cannot be used. */
    public Path file() {
        return Path.of(file);
    }
}
