package io.numacol.checkpoint;

import java.nio.file.Path;

/**
 * A checkpoint file (or a catalog image) whose bytes are not what was written: a checksum that does not match, a file
 * shorter or longer than its header says, contents that contradict each other. Nothing read from
 * such a file is returned.
 */
public final class DamagedFileException extends CheckpointException {
    private static final long serialVersionUID = 1L;

    private final String section;

    public DamagedFileException(Path file, String section, String message) {
        super(file, "damaged " + section + ": " + message);
        this.section = section;
    }

    /** Damaged bytes that are no file of their own, named by where they are (see {@link CheckpointException}). */
    public DamagedFileException(String source, String section, String message) {
        super(source, "damaged " + section + ": " + message);
        this.section = section;
    }

    /** The part of the file found damaged ("header", "metadata", "column 3 (l_tax) dictionary", ...). */
    public String section() {
        return section;
    }
}
