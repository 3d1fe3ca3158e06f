package io.numacol.wal;

import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;
import io.numacol.storage.types.Utf8;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * Rows of one table in their stored form, column by column, as an {@link LogRecord.Insert}
 * carries them: per column a null bitmap and the values of the column's {@link StorageKind}, a
 * {@code long} (BOOLEAN as 0/1, DECIMAL unscaled, DATE as epoch day, TIMESTAMP as epoch
 * milliseconds...), a {@code double} or a {@code String}. The stored form is what the codecs
 * make of a Java value ({@link ColumnType#toLong}, {@link ColumnType#toDouble}, {@link
 * ColumnType#toStringValue}, or a table's {@code PartBuilder.convert}, which also checks
 * nullability): logging it rather than the Java value keeps the log free of session state such
 * as the time zone a TIMESTAMP WITH TIME ZONE was read in, and replay feeds it to the parts
 * unconverted.
 *
 * <p>Values are kept exactly: a double by its bits (so -0.0 and a NaN's payload survive, though
 * the dictionaries normalize them later), a string by its UTF-8 bytes (a string with an unpaired
 * surrogate has none and is refused when the batch is built, as the dictionaries refuse it).
 * A batch is immutable once built.
 */
public final class RowBatch {
    private final List<ColumnType> types;
    private final int rowCount;
    /**
     * Per column: a long[], double[], or String[] or byte[][] (UTF-8) of rowCount values (a null
     * row's slot is 0, 0.0 or null).
     */
    private final Object[] values;
    private final BitSet[] nulls;

    private RowBatch(List<ColumnType> types, int rowCount, Object[] values, BitSet[] nulls) {
        this.types = types;
        this.rowCount = rowCount;
        this.values = values;
        this.nulls = nulls;
    }

    /** Starts a batch of rows of these column types. */
    public static Builder builder(List<ColumnType> types) {
        return new Builder(types);
    }

    /** A batch of {@code rows}, each of stored values (Long, Double, String as the column's storage kind has them, or null). */
    public static RowBatch ofStored(List<ColumnType> types, List<Object[]> rows) {
        Builder b = new Builder(types);
        rows.forEach(b::addStored);
        return b.build();
    }

    public List<ColumnType> types() {
        return types;
    }

    public int columnCount() {
        return types.size();
    }

    public int rowCount() {
        return rowCount;
    }

    public boolean isNull(int row, int column) {
        Objects.checkIndex(row, rowCount);
        return nulls[column].get(row);
    }

    /** The stored long of a LONG-stored column's row (0 for a NULL: ask {@link #isNull}). */
    public long getLong(int row, int column) {
        Objects.checkIndex(row, rowCount);
        return ((long[]) values[column])[row];
    }

    /** The stored double of a DOUBLE-stored column's row (0.0 for a NULL: ask {@link #isNull}). */
    public double getDouble(int row, int column) {
        Objects.checkIndex(row, rowCount);
        return ((double[]) values[column])[row];
    }

    /** The stored string of a STRING-stored column's row, null for a NULL. */
    public String getString(int row, int column) {
        Objects.checkIndex(row, rowCount);
        return switch (values[column]) {
            case byte[][] utf8 -> utf8[row] == null ? null : new String(utf8[row], StandardCharsets.UTF_8);
            case String[] strings -> strings[row];
            default -> throw new IllegalStateException("column " + column + " holds " + values[column].getClass());
        };
    }

    /**
     * The UTF-8 bytes of a STRING-stored column's row, null for a NULL: shared with the batch, not
     * to be changed. A batch made from a dictionary's bytes ({@link #ofUtf8Columns}) hands them
     * over as they are; one of Strings encodes its value.
     */
    public byte[] getUtf8(int row, int column) {
        Objects.checkIndex(row, rowCount);
        return switch (values[column]) {
            case byte[][] utf8 -> utf8[row];
            case String[] strings -> strings[row] == null ? null : Utf8.encode(strings[row]);
            default -> throw new IllegalStateException("column " + column + " holds " + values[column].getClass());
        };
    }

    /** A value boxed: a Long, Double or String as the column's storage kind has it, null for NULL. */
    public Object stored(int row, int column) {
        if (isNull(row, column)) {
            return null;
        }
        return switch (types.get(column).storageKind()) {
            case LONG -> getLong(row, column);
            case DOUBLE -> getDouble(row, column);
            case STRING -> getString(row, column);
        };
    }

    /** A row boxed, as {@link #ofStored} and {@code PartBuilder.addStored} take it. */
    public Object[] storedRow(int row) {
        Object[] r = new Object[types.size()];
        for (int c = 0; c < r.length; c++) {
            r[c] = stored(row, c);
        }
        return r;
    }

    /** Same types and same stored values, doubles compared by their bits (the log keeps them so). */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RowBatch b) || !b.types.equals(types) || b.rowCount != rowCount || !Arrays.equals(b.nulls, nulls)) {
            return false;
        }
        for (int c = 0; c < values.length; c++) {
            boolean same = switch (values[c]) {
                case long[] l -> Arrays.equals(l, (long[]) b.values[c]);
                case double[] d -> Arrays.equals(rawBits(d), rawBits((double[]) b.values[c]));
                case String[] _, byte[][] _ -> sameStrings(b, c);
                default -> throw new IllegalStateException("column " + c + " holds " + values[c].getClass());
            };
            if (!same) {
                return false;
            }
        }
        return true;
    }

    /** Whether column {@code c} of this batch and of {@code b} hold the same strings, whichever form each keeps them in. */
    private boolean sameStrings(RowBatch b, int c) {
        for (int r = 0; r < rowCount; r++) {
            if (!Objects.equals(getString(r, c), b.getString(r, c))) {
                return false;
            }
        }
        return true;
    }

    private static long[] rawBits(double[] d) {
        long[] bits = new long[d.length];
        for (int i = 0; i < d.length; i++) {
            bits[i] = Double.doubleToRawLongBits(d[i]);
        }
        return bits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(types, rowCount);
    }

    @Override
    public String toString() {
        return "RowBatch[" + rowCount + " rows of " + types + "]";
    }

    /** Collects rows of stored values, checked as they come, into a {@link RowBatch}. */
    public static final class Builder {
        private final List<ColumnType> types;
        private final StorageKind[] kinds;
        private long[][] longs;
        private double[][] doubles;
        private String[][] strings;
        private final BitSet[] nulls;
        private int rows;
        private boolean built;

        private Builder(List<ColumnType> types) {
            this.types = List.copyOf(types);
            int n = this.types.size();
            kinds = new StorageKind[n];
            longs = new long[n][];
            doubles = new double[n][];
            strings = new String[n][];
            nulls = new BitSet[n];
            for (int c = 0; c < n; c++) {
                kinds[c] = this.types.get(c).storageKind();
                nulls[c] = new BitSet();
                switch (kinds[c]) {
                    case LONG -> longs[c] = new long[8];
                    case DOUBLE -> doubles[c] = new double[8];
                    case STRING -> strings[c] = new String[8];
                }
            }
        }

        /**
         * Adds a row of stored values, refused whole (IllegalArgumentException naming the column
         * and the value) when a value is not of its column's storage kind or a string has no
         * UTF-8 form.
         */
        public Builder addStored(Object... row) {
            if (built) {
                throw new IllegalStateException("the batch was built");
            }
            if (row.length != kinds.length) {
                throw new IllegalArgumentException("a row of " + types + " has " + kinds.length + " values, not " + row.length);
            }
            for (int c = 0; c < row.length; c++) {
                check(c, row[c]);
            }
            grow();
            for (int c = 0; c < row.length; c++) {
                Object v = row[c];
                if (v == null) {
                    nulls[c].set(rows);
                    continue;
                }
                switch (kinds[c]) {
                    case LONG -> longs[c][rows] = (Long) v;
                    case DOUBLE -> doubles[c][rows] = (Double) v;
                    case STRING -> strings[c][rows] = (String) v;
                }
            }
            rows++;
            return this;
        }

        private void check(int c, Object v) {
            if (v == null) {
                return;
            }
            boolean ok = switch (kinds[c]) {
                case LONG -> v instanceof Long;
                case DOUBLE -> v instanceof Double;
                case STRING -> v instanceof String;
            };
            if (!ok) {
                throw new IllegalArgumentException("column " + c + " (" + types.get(c) + ") is stored as " + kinds[c]
                        + ", but the value " + v + " is a " + v.getClass().getSimpleName());
            }
            if (v instanceof String s) {
                try {
                    Utf8.checkWellFormed(s);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("column " + c + " (" + types.get(c) + "): " + e.getMessage(), e);
                }
            }
        }

        private void grow() {
            for (int c = 0; c < kinds.length; c++) {
                switch (kinds[c]) {
                    case LONG -> {
                        if (rows == longs[c].length) {
                            longs[c] = Arrays.copyOf(longs[c], rows * 2);
                        }
                    }
                    case DOUBLE -> {
                        if (rows == doubles[c].length) {
                            doubles[c] = Arrays.copyOf(doubles[c], rows * 2);
                        }
                    }
                    case STRING -> {
                        if (rows == strings[c].length) {
                            strings[c] = Arrays.copyOf(strings[c], rows * 2);
                        }
                    }
                }
            }
        }

        public int rowCount() {
            return rows;
        }

        /** The batch of the rows added; the builder takes no more rows. */
        public RowBatch build() {
            built = true;
            Object[] values = new Object[kinds.length];
            for (int c = 0; c < kinds.length; c++) {
                values[c] = switch (kinds[c]) {
                    case LONG -> Arrays.copyOf(longs[c], rows);
                    case DOUBLE -> Arrays.copyOf(doubles[c], rows);
                    case STRING -> Arrays.copyOf(strings[c], rows);
                };
            }
            longs = null;
            doubles = null;
            strings = null;
            return new RowBatch(types, rows, values, nulls);
        }
    }

    /**
     * A batch of {@code rowCount} rows made from whole columns, as a part's stored form gives them
     * (the log's writer of a new part): per column a {@code long[]}, a {@code double[]} or, for a
     * STRING-stored column, a {@code byte[][]} of UTF-8 bytes as a dictionary holds them (well
     * formed, since the dictionary checked them; a row's array may be shared by the rows of one
     * value); a NULL row's slot is 0, 0.0 or null and its bit is set in the column's {@code nulls}.
     * The arrays are taken, not copied: the caller hands them over. Logging a part this way copies
     * each distinct string's bytes once, where a String per row would be decoded and then encoded
     * again.
     */
    public static RowBatch ofUtf8Columns(List<ColumnType> types, int rowCount, Object[] values, BitSet[] nulls) {
        if (values.length != types.size() || nulls.length != types.size()) {
            throw new IllegalArgumentException(values.length + " columns and " + nulls.length + " null sets for " + types);
        }
        for (int c = 0; c < values.length; c++) {
            boolean fits = switch (types.get(c).storageKind()) {
                case LONG -> values[c] instanceof long[] l && l.length == rowCount;
                case DOUBLE -> values[c] instanceof double[] d && d.length == rowCount;
                case STRING -> values[c] instanceof byte[][] u && u.length == rowCount;
            };
            if (!fits || nulls[c].length() > rowCount) {
                throw new IllegalArgumentException("column " + c + " (" + types.get(c) + ") is not " + rowCount
                        + " values of its storage kind");
            }
        }
        return new RowBatch(List.copyOf(types), rowCount, values, nulls);
    }

    /**
     * A batch made from decoded columns (the log's reader): the arrays are taken, not copied.
     * Package-private, since a caller's arrays would leave the batch mutable.
     */
    static RowBatch ofColumns(List<ColumnType> types, int rowCount, Object[] values, BitSet[] nulls) {
        return new RowBatch(List.copyOf(types), rowCount, values, nulls);
    }
}
