package io.numacol.exec;

import io.numacol.storage.IndexVector;
import io.numacol.storage.types.ColumnType;

import java.util.Arrays;
import java.util.List;

/**
 * Up to {@link #CAPACITY} rows as columns, what flows between the operators of a pipeline: per
 * column, by its type's storage kind, stored longs (integers, DECIMAL unscaled, DATE as epoch day,
 * BOOLEAN as 0/1), doubles or strings, plus NULL flags ({@code null} when the column has no NULL
 * here; what a NULL's slot holds is undefined: read the flag first). A chunk handed to an
 * operator is valid until the operator returns: whoever keeps rows copies them ({@link RowStore}).
 */
final class Chunk {
    static final int CAPACITY = IndexVector.BLOCK_ROWS;

    final ColumnType[] types;
    final long[][] longs;
    final double[][] doubles;
    final String[][] strings;
    final boolean[][] nulls;
    int size;

    Chunk(List<ColumnType> types) {
        this.types = types.toArray(ColumnType[]::new);
        int width = this.types.length;
        longs = new long[width][];
        doubles = new double[width][];
        strings = new String[width][];
        nulls = new boolean[width][];
    }

    int width() {
        return types.length;
    }

    /** Gives every column arrays of its own ({@link #CAPACITY} rows), NULL flags included. */
    Chunk allocate() {
        for (int c = 0; c < types.length; c++) {
            switch (types[c].storageKind()) {
                case LONG -> longs[c] = new long[CAPACITY];
                case DOUBLE -> doubles[c] = new double[CAPACITY];
                case STRING -> strings[c] = new String[CAPACITY];
            }
            nulls[c] = new boolean[CAPACITY];
        }
        return this;
    }

    boolean isNull(int column, int row) {
        boolean[] n = nulls[column];
        return n != null && n[row];
    }

    /** Copies row {@code from} of column {@code fc} of {@code source} to row {@code to} of column {@code c}, arrays allocated. */
    void copy(int c, int to, Chunk source, int fc, int from) {
        boolean isNull = source.isNull(fc, from);
        nulls[c][to] = isNull;
        switch (types[c].storageKind()) {
            case LONG -> longs[c][to] = isNull ? 0 : source.longs[fc][from];
            case DOUBLE -> doubles[c][to] = isNull ? 0 : source.doubles[fc][from];
            case STRING -> strings[c][to] = isNull ? null : source.strings[fc][from];
        }
    }

    /** Row {@code rows[i]} of column {@code sc} of {@code source} to row {@code i} of column {@code c}, for i below n; arrays allocated. */
    void gather(int c, Chunk source, int sc, int[] rows, int n) {
        boolean[] sn = source.nulls[sc];
        boolean[] dn = nulls[c];
        for (int i = 0; i < n; i++) {
            dn[i] = sn != null && sn[rows[i]];
        }
        switch (types[c].storageKind()) {
            case LONG -> {
                long[] from = source.longs[sc];
                long[] to = longs[c];
                for (int i = 0; i < n; i++) {
                    to[i] = from[rows[i]];
                }
            }
            case DOUBLE -> {
                double[] from = source.doubles[sc];
                double[] to = doubles[c];
                for (int i = 0; i < n; i++) {
                    to[i] = from[rows[i]];
                }
            }
            case STRING -> {
                String[] from = source.strings[sc];
                String[] to = strings[c];
                for (int i = 0; i < n; i++) {
                    to[i] = from[rows[i]];
                }
            }
        }
    }

    /** Copies {@code source}'s rows after this chunk's, arrays allocated; they must fit. */
    void append(Chunk source) {
        int n = source.size;
        for (int c = 0; c < types.length; c++) {
            if (source.nulls[c] == null) {
                Arrays.fill(nulls[c], size, size + n, false);
            } else {
                System.arraycopy(source.nulls[c], 0, nulls[c], size, n);
            }
            switch (types[c].storageKind()) {
                case LONG -> System.arraycopy(source.longs[c], 0, longs[c], size, n);
                case DOUBLE -> System.arraycopy(source.doubles[c], 0, doubles[c], size, n);
                case STRING -> System.arraycopy(source.strings[c], 0, strings[c], size, n);
            }
        }
        size += n;
    }

    /** Keeps the rows whose {@code keep} flag is set, in order, in place (arrays allocated). */
    void compact(boolean[] keep) {
        int kept = 0;
        for (int r = 0; r < size; r++) {
            if (keep[r]) {
                if (kept != r) {
                    for (int c = 0; c < types.length; c++) {
                        copy(c, kept, this, c, r);
                    }
                }
                kept++;
            }
        }
        size = kept;
    }

    /** Sets row {@code row} of column {@code c} NULL (the outer side of an outer join), arrays allocated. */
    void setNull(int c, int row) {
        nulls[c][row] = true;
        switch (types[c].storageKind()) {
            case LONG -> longs[c][row] = 0;
            case DOUBLE -> doubles[c][row] = 0;
            case STRING -> strings[c][row] = null;
        }
    }

    /** Row {@code row} of column {@code c} as its internal Java value (see {@link InternalValues}). */
    Object value(int c, int row) {
        if (isNull(c, row)) {
            return null;
        }
        return switch (types[c].storageKind()) {
            case LONG -> InternalValues.ofStored(types[c], longs[c][row]);
            case DOUBLE -> InternalValues.ofStored(types[c], doubles[c][row]);
            case STRING -> strings[c][row];
        };
    }
}
