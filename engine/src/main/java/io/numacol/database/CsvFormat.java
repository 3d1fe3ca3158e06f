package io.numacol.database;

/**
 * How a CSV file is read: RFC 4180 (fields may be double-quoted, a quote inside doubled, quoted
 * fields may span lines), with a chosen delimiter and an optional header line, which is skipped.
 * An empty unquoted field is NULL; {@code ""} is the empty string.
 */
public record CsvFormat(boolean header, char delimiter) {

    public CsvFormat {
        if (delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
            throw new IllegalArgumentException("a CSV delimiter cannot be a quote or a line break");
        }
    }

    /** Comma-separated, no header. */
    public static CsvFormat defaults() {
        return new CsvFormat(false, ',');
    }

    public CsvFormat withHeader(boolean header) {
        return new CsvFormat(header, delimiter);
    }

    public CsvFormat withDelimiter(char delimiter) {
        return new CsvFormat(header, delimiter);
    }
}
