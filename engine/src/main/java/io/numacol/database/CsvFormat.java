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
public record CsvFormat(boolean header, char delimiter, ZoneId zone) {

    public CsvFormat(boolean header, char delimiter) {
        this(header, delimiter, ZoneOffset.UTC);
    }

    public CsvFormat {
        Objects.requireNonNull(zone, "zone");
        if (delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
            throw new IllegalArgumentException("a CSV delimiter cannot be a quote or a line break");
        }
    }

    /** Comma-separated, no header. */
    public static CsvFormat defaults() {
        return new CsvFormat(false, ',');
    }

    public CsvFormat withHeader(boolean header) {
        return new CsvFormat(header, delimiter, zone);
    }

    public CsvFormat withDelimiter(char delimiter) {
        return new CsvFormat(header, delimiter, zone);
    }

    public CsvFormat withZone(ZoneId zone) {
        return new CsvFormat(header, delimiter, zone);
    }
}
