package io.numacol.checkpoint;

import java.util.Objects;

/**
 * A part file as the manifest names it: its name in the checkpoint directory, its size, and its
 * checksum ({@link PartFile}'s fingerprint of the whole file). Reading the part against it
 * refuses a file that was replaced or cut under the same name.
 *
 * @param fileName a name in the directory, no path
 * @param size     bytes
 * @param checksum the CRC32C fingerprint {@link PartFile#write} returned
 */
public record PartRef(String fileName, long size, int checksum) {

    public PartRef {
        Objects.requireNonNull(fileName, "fileName");
        if (fileName.isEmpty() || fileName.equals(".") || fileName.equals("..") || fileName.indexOf('/') >= 0
                || fileName.indexOf('\\') >= 0 || fileName.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a part file is named by a plain file name, not '" + fileName + "'");
        }
        if (size < 0) {
            throw new IllegalArgumentException("a part file's size must not be negative, got " + size);
        }
    }

    @Override
    public String toString() {
        return fileName + " (" + size + " bytes, checksum " + String.format("%08x", checksum) + ")";
    }
}
