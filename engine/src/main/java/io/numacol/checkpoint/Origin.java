package io.numacol.checkpoint;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where bytes being read came from, for the exceptions that refuse them: a file, named by its
 * path, or bytes that are no file of their own (a catalog image logged in the write-ahead log),
 * named by a description.
 *
 * @param file        the file, or null
 * @param description where the bytes are when there is no file, else null
 */
record Origin(Path file, String description) {
    Origin {
        if ((file == null) == (description == null)) {
            throw new IllegalArgumentException("bytes come from a file or are described, one of the two");
        }
    }

    static Origin of(Path file) {
        return new Origin(Objects.requireNonNull(file, "file"), null);
    }

    static Origin described(String description) {
        return new Origin(null, Objects.requireNonNull(description, "description"));
    }

    DamagedFileException damaged(String section, String message) {
        return file != null ? new DamagedFileException(file, section, message) : new DamagedFileException(description, section, message);
    }

    UnsupportedVersionException unsupported(int found, int supported) {
        return file != null ? new UnsupportedVersionException(file, found, supported)
                : new UnsupportedVersionException(description, found, supported);
    }
}
