package io.numacol.wal;

import java.util.Objects;

/** A record as read from the log, with the LSN the writer gave it. */
public record LogEntry(long lsn, LogRecord record) {
    public LogEntry {
        Objects.requireNonNull(record, "record");
    }
}
