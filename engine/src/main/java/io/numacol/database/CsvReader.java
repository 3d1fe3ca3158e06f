package io.numacol.database;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/** Reads RFC 4180 records one at a time, keeping the line each record starts on. */
final class CsvReader {
    /** Characters read between two checks whether the load should stop, minus one (a power of two). */
    private static final int CHECK_MASK = (1 << 16) - 1;

    private final Reader in;
    private final char delimiter;
    private final int maxRecordChars;
    private final Runnable check;
    private int line = 1;
    private int recordLine;
    private int peeked = -2;
    /** Characters of the record being read. */
    private int recordChars;
    private long read;

    CsvReader(Reader in, char delimiter) {
        this(in, delimiter, CsvFormat.DEFAULT_MAX_RECORD_CHARS, () -> { });
    }

    /**
     * A reader that fails a record longer than {@code maxRecordChars}, and runs {@code check}
     * every 65,536 characters: it throws (a CancellationException) to stop the load.
     */
    CsvReader(Reader in, char delimiter, int maxRecordChars, Runnable check) {
        this.in = in;
        this.delimiter = delimiter;
        this.maxRecordChars = maxRecordChars;
        this.check = check;
    }

    /** The line (1-based) the last record returned by {@link #next()} starts on. */
    int recordLine() {
        return recordLine;
    }

    /** The next record's fields (null for an empty unquoted field), or null at the end. */
    List<String> next() throws IOException {
        int c = read();
        if (c == -1) {
            return null;
        }
        recordLine = line;
        recordChars = 0;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        while (true) {
            if (c == '"' && field.isEmpty() && !quoted) {
                quoted = true;
                while (true) {
                    int q = read();
                    if (q == -1) {
                        throw new IllegalArgumentException("line " + recordLine + ": a quoted field is not closed");
                    }
                    if (q == '"') {
                        if (peek() == '"') {
                            read();
                            field.append('"');
                            continue;
                        }
                        break;
                    }
                    if (q == '\n') {
                        line++;
                    }
                    field.append((char) q);
                }
                c = read();
                if (c != -1 && c != delimiter && c != '\n' && c != '\r') {
                    throw new IllegalArgumentException("line " + line + ": unexpected '" + (char) c
                            + "' after a quoted field (a quote inside a quoted field is written \"\")");
                }
                continue;
            }
            if (c == -1 || c == '\n' || c == '\r' || c == delimiter) {
                fields.add(quoted || !field.isEmpty() ? field.toString() : null);
                field.setLength(0);
                quoted = false;
                if (c == delimiter) {
                    c = read();
                    continue;
                }
                if (c == '\r' && peek() == '\n') {
                    read();
                }
                if (c != -1) {
                    line++;
                }
                return fields;
            }
            field.append((char) c);
            c = read();
        }
    }

    private int read() throws IOException {
        if (++recordChars > maxRecordChars) {
            throw new IllegalArgumentException("line " + recordLine + ": the record is longer than " + maxRecordChars
                    + " characters, the most a CSV record may have (is the file CSV?)");
        }
        if ((++read & CHECK_MASK) == 0) {
            check.run();
        }
        if (peeked != -2) {
            int c = peeked;
            peeked = -2;
            return c;
        }
        return in.read();
    }

    private int peek() throws IOException {
        if (peeked == -2) {
            peeked = in.read();
        }
        return peeked;
    }
}
