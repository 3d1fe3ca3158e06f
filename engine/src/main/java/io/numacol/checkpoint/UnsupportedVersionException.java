package io.numacol.checkpoint;

import java.nio.file.Path;

/**
 * A checkpoint file of a format version this build does not read, most likely written by a newer
 * numacol. Refused rather than guessed at: a newer format may lay out the same bytes differently.
 */
public final class UnsupportedVersionException extends CheckpointException {
    private static final long serialVersionUID = 1L;

    private final int found;
    private final int supported;

    public UnsupportedVersionException(Path file, int found, int supported) {
        super(file, message(found, supported));
        this.found = found;
        this.supported = supported;
    }

    /** Bytes of another format version that are no file of their own, named by where they are (see {@link CheckpointException}). */
    public UnsupportedVersionException(String source, int found, int supported) {
        super(source, message(found, supported));
        this.found = found;
        this.supported = supported;
    }

    private static String message(int found, int supported) {
        return "format version " + Integer.toUnsignedString(found) + ", but this numacol reads version " + supported + " only";
    }

    /** The version the file says it has. */
    public int found() {
        return found;
    }

    /** The version this build reads. */
    public int supported() {
        return supported;
    }
}
