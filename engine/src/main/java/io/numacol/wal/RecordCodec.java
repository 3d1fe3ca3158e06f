package io.numacol.wal;

import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.Utf8;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A record's type byte and payload, both ways. Payloads (big-endian; a string is its UTF-8 length
 * as an int and the bytes):
 *
 * <pre>
 * type  record         payload
 * 1     Insert         txn long | table long | part long | partition int | columns int | per column:
 *                      kind string, precision int, scale int, length int | rows int | per column:
 *                      null bitmap ((rows + 7) / 8 bytes, row r at bit r % 8 of byte r / 8), then
 *                      the non-null values: long, double (its raw bits as a long) or string
 * 2     Delete         txn long | table long | count int | row ids, long each
 * 3     PartWritten    txn long | table long | file name string | size long | checksum int
 * 4     DropParts      txn long | table long | count int | part ids, long each
 * 5     CatalogState   txn long | image length int | the image's bytes (an encoded catalog image,
 *                      which has its own magic, version and checksum)
 * 6     Commit         txn long | commit timestamp long
 * 7     Abort          txn long
 * 8     CheckpointDone covers LSN long
 * </pre>
 *
 * A column type is written as its kind's name and its parameters, not as its SQL spelling or
 * the kind's ordinal, so that neither a new spelling nor a reordered enum changes what old logs
 * mean.
 */
final class RecordCodec {
    static final int INSERT = 1;
    static final int DELETE = 2;
    static final int PART_WRITTEN = 3;
    static final int DROP_PARTS = 4;
    static final int CATALOG_STATE = 5;
    static final int COMMIT = 6;
    static final int ABORT = 7;
    static final int CHECKPOINT_DONE = 8;

    private RecordCodec() {
    }

    static int type(LogRecord record) {
        return switch (record) {
            case LogRecord.Insert i -> INSERT;
            case LogRecord.Delete d -> DELETE;
            case LogRecord.PartWritten p -> PART_WRITTEN;
            case LogRecord.DropParts d -> DROP_PARTS;
            case LogRecord.CatalogState c -> CATALOG_STATE;
            case LogRecord.Commit c -> COMMIT;
            case LogRecord.Abort a -> ABORT;
            case LogRecord.CheckpointDone c -> CHECKPOINT_DONE;
        };
    }

    static Bytes encode(LogRecord record) {
        Bytes out = new Bytes(64);
        switch (record) {
            case LogRecord.Insert i -> {
                out.putLong(i.txn());
                out.putLong(i.table());
                out.putLong(i.part());
                out.putInt(i.partition());
                putRows(out, i.rows());
            }
            case LogRecord.Delete d -> {
                out.putLong(d.txn());
                out.putLong(d.table());
                out.putInt(d.rowCount());
                for (int r = 0; r < d.rowCount(); r++) {
                    out.putLong(d.rowId(r));
                }
            }
            case LogRecord.PartWritten p -> {
                out.putLong(p.txn());
                out.putLong(p.table());
                putString(out, p.fileName());
                out.putLong(p.size());
                out.putInt(p.checksum());
            }
            case LogRecord.DropParts d -> {
                out.putLong(d.txn());
                out.putLong(d.table());
                out.putInt(d.count());
                for (int p = 0; p < d.count(); p++) {
                    out.putLong(d.partId(p));
                }
            }
            case LogRecord.CatalogState c -> {
                out.putLong(c.txn());
                byte[] image = c.image();
                out.putInt(image.length);
                out.put(image);
            }
            case LogRecord.Commit c -> {
                out.putLong(c.txn());
                out.putLong(c.commitTimestamp());
            }
            case LogRecord.Abort a -> out.putLong(a.txn());
            case LogRecord.CheckpointDone c -> out.putLong(c.coversLsn());
        }
        return out;
    }

    private static void putRows(Bytes out, RowBatch rows) {
        List<ColumnType> types = rows.types();
        out.putInt(types.size());
        for (ColumnType t : types) {
            putString(out, t.kind().name());
            out.putInt(t.precision());
            out.putInt(t.scale());
            out.putInt(t.length());
        }
        int n = rows.rowCount();
        out.putInt(n);
        for (int c = 0; c < types.size(); c++) {
            byte[] bitmap = new byte[(n + 7) / 8];
            for (int r = 0; r < n; r++) {
                if (rows.isNull(r, c)) {
                    bitmap[r >>> 3] |= (byte) (1 << (r & 7));
                }
            }
            out.put(bitmap);
            for (int r = 0; r < n; r++) {
                if (rows.isNull(r, c)) {
                    continue;
                }
                switch (types.get(c).storageKind()) {
                    case LONG -> out.putLong(rows.getLong(r, c));
                    case DOUBLE -> out.putLong(Double.doubleToRawLongBits(rows.getDouble(r, c)));
                    case STRING -> {
                        // a part's dictionary bytes go out as they are: no String made and encoded again
                        byte[] utf8 = rows.getUtf8(r, c);
                        out.putInt(utf8.length);
                        out.put(utf8);
                    }
                }
            }
        }
    }

    private static void putString(Bytes out, String s) {
        // The batch refused unpaired surrogates; a file name with one is refused here rather than
        // logged as '?', which would replay as another name.
        byte[] utf8 = Utf8.encode(s);
        out.putInt(utf8.length);
        out.put(utf8);
    }

    /**
     * The record of a type and payload whose checksum matched. IllegalArgumentException when the
     * payload does not parse as the type says: with the checksum right, that is a bug or a format
     * this code does not know, not a torn write.
     */
    static LogRecord decode(int type, ByteBuffer in) {
        try {
            LogRecord r = switch (type) {
                case INSERT -> new LogRecord.Insert(in.getLong(), in.getLong(), in.getLong(), in.getInt(), getRows(in));
                case DELETE -> new LogRecord.Delete(in.getLong(), in.getLong(), getLongs(in));
                case PART_WRITTEN -> new LogRecord.PartWritten(in.getLong(), in.getLong(), getString(in), in.getLong(), in.getInt());
                case DROP_PARTS -> new LogRecord.DropParts(in.getLong(), in.getLong(), getLongs(in));
                case CATALOG_STATE -> {
                    long txn = in.getLong();
                    byte[] image = new byte[count(in, 1)];
                    in.get(image);
                    yield new LogRecord.CatalogState(txn, image);
                }
                case COMMIT -> new LogRecord.Commit(in.getLong(), in.getLong());
                case ABORT -> new LogRecord.Abort(in.getLong());
                case CHECKPOINT_DONE -> new LogRecord.CheckpointDone(in.getLong());
                default -> throw new IllegalArgumentException("unknown record type " + type);
            };
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes follow the payload of a record of type " + type);
            }
            return r;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("the payload of a record of type " + type + " ends early", e);
        }
    }

    private static RowBatch getRows(ByteBuffer in) {
        int columns = count(in, 16);
        List<ColumnType> types = new ArrayList<>(columns);
        for (int c = 0; c < columns; c++) {
            ColumnType.Kind kind = ColumnType.Kind.valueOf(getString(in));
            types.add(new ColumnType(kind, in.getInt(), in.getInt(), in.getInt()));
        }
        int n = count(in, 0);
        Object[] values = new Object[columns];
        BitSet[] nulls = new BitSet[columns];
        for (int c = 0; c < columns; c++) {
            byte[] bitmap = new byte[(n + 7) / 8];
            in.get(bitmap);
            nulls[c] = BitSet.valueOf(bitmap);
            if (nulls[c].length() > n) {
                throw new IllegalArgumentException("a null bitmap marks rows past the " + n + " rows of the batch");
            }
            switch (types.get(c).storageKind()) {
                case LONG -> {
                    long[] v = new long[n];
                    for (int r = 0; r < n; r++) {
                        v[r] = nulls[c].get(r) ? 0 : in.getLong();
                    }
                    values[c] = v;
                }
                case DOUBLE -> {
                    double[] v = new double[n];
                    for (int r = 0; r < n; r++) {
                        v[r] = nulls[c].get(r) ? 0.0 : Double.longBitsToDouble(in.getLong());
                    }
                    values[c] = v;
                }
                case STRING -> {
                    String[] v = new String[n];
                    for (int r = 0; r < n; r++) {
                        v[r] = nulls[c].get(r) ? null : getString(in);
                    }
                    values[c] = v;
                }
            }
        }
        return RowBatch.ofColumns(types, n, values, nulls);
    }

    /** A count, then that many longs. */
    private static long[] getLongs(ByteBuffer in) {
        long[] values = new long[count(in, Long.BYTES)];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.getLong();
        }
        return values;
    }

    /** A count read from the payload, checked against the bytes left so a damaged count cannot ask for a huge array. */
    private static int count(ByteBuffer in, int bytesEach) {
        int n = in.getInt();
        if (n < 0 || (long) n * bytesEach > in.remaining()) {
            throw new IllegalArgumentException("a count of " + n + " does not fit the " + in.remaining() + " bytes left");
        }
        return n;
    }

    private static String getString(ByteBuffer in) {
        int length = count(in, 1);
        ByteBuffer utf8 = in.slice(in.position(), length);
        in.position(in.position() + length);
        // Strict: malformed UTF-8 is reported, not replaced by U+FFFD.
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = decoder.decode(utf8);
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("a string of the payload is not valid UTF-8", e);
        }
    }
}
