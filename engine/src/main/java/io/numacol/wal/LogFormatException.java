package io.numacol.wal;

import java.io.IOException;

/**
 * A log file that is not one this code can read, or a log damaged where no crash leaves damage:
 * another file's magic bytes, a format version this code does not know, a header that fails its
 * checksum, a whole record of an unknown type, a file missing between two others. Unlike a torn
 * tail (which a crash during a write leaves, and which {@link LogReader#truncate} cuts), these are
 * never repaired silently: the message names the file and what was found.
 */
public final class LogFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public LogFormatException(String message) {
        super(message);
    }

    public LogFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
