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
        super(file, "format version " + Integer.toUnsignedString(found) + ", but this numacol reads version " + supported
                + " only");
        this.found = found;
        this.supported = supported;
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
