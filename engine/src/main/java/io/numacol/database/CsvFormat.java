package io.numacol.database;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * How a CSV file is read: RFC 4180 (fields may be double-quoted, a quote inside doubled, quoted
 * fields may span lines), with a chosen delimiter and an optional header line, which is skipped.
 * An empty unquoted field is NULL; {@code ""} is the empty string. A TIMESTAMP WITH TIME ZONE
 * written without an offset is read in {@code zone} (UTC unless said).
 */
public record CsvFormat(boolean header, char delimiter, ZoneId zone, int maxRecordChars) {
    /**
     * The most characters of one record, by default: a longer one fails its load naming its line,
     * where a file that is no CSV ({@code /dev/zero}, a binary) ran the heap out.
     */
    public static final int DEFAULT_MAX_RECORD_CHARS = 128 << 20;

    public CsvFormat(boolean header, char delimiter) {
        this(header, delimiter, ZoneOffset.UTC, DEFAULT_MAX_RECORD_CHARS);
    }

    public CsvFormat {
        Objects.requireNonNull(zone, "zone");
        if (maxRecordChars < 1) {
            throw new IllegalArgumentException("a CSV record holds a character at least, not " + maxRecordChars);
        }
        if (delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
            throw new IllegalArgumentException("a CSV delimiter cannot be a quote or a line break");
        }
    }

    /** Comma-separated, no header. */
    public static CsvFormat defaults() {
        return new CsvFormat(false, ',');
    }

    public CsvFormat withHeader(boolean header) {
        return new CsvFormat(header, delimiter, zone, maxRecordChars);
    }

    public CsvFormat withDelimiter(char delimiter) {
        return new CsvFormat(header, delimiter, zone, maxRecordChars);
    }

    public CsvFormat withZone(ZoneId zone) {
        return new CsvFormat(header, delimiter, zone, maxRecordChars);
    }

    public CsvFormat withMaxRecordChars(int maxRecordChars) {
        return new CsvFormat(header, delimiter, zone, maxRecordChars);
    }
}
