package io.numacol.checkpoint;

import io.numacol.storage.Column;
import io.numacol.storage.IndexVector;
import io.numacol.storage.InvertedIndex;
import io.numacol.storage.TablePart;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

import java.util.ArrayList;
import java.util.List;

/**
 * What a part file's metadata section says: the part's identity, rows, partition and, per
 * column, its type and the size of each component. The sizes are enough to lay out every data
 * section before a byte of it is read, so the reader allocates each segment once at its final
 * size and node.
 *
 * @param partId         the part's {@link TablePart#id()}
 * @param rowCount       row positions, deleted ones included
 * @param partitionCount the count of the part's partitioning, 0 for none
 * @param partition      its partition, -1 for none
 * @param deletedWords   longs of the deleted-rows bitmap written (0 when none is deleted)
 * @param columns        in the part's column order
 */
record PartMetadata(long partId, int rowCount, int partitionCount, int partition, int deletedWords, List<ColumnMetadata> columns) {

    /**
     * One column's components as stored.
     *
     * @param nullVid            the vid NULL is stored as, or -1 when the column holds none
     * @param dictionarySize     distinct values
     * @param dictionaryBytes    bytes of the dictionary's one segment
     * @param indexVectorBytes   bytes of the IndexVector, padding included
     * @param indexOffsetsBytes  bytes of the Index's vid-to-offset vector; -1 for no Index
     * @param indexPositionsBytes bytes of the Index's positions; -1 for no Index
     */
    record ColumnMetadata(String name, ColumnType type, int nullVid, int bitcase, int dictionarySize, long dictionaryBytes,
                          long indexVectorBytes, long indexOffsetsBytes, long indexPositionsBytes) {

        boolean hasIndex() {
            return indexOffsetsBytes >= 0;
        }

        /** Vids in use: the dictionary's and the null vid. */
        long vidCount() {
            return dictionarySize + (nullVid >= 0 ? 1L : 0L);
        }
    }

    /** A data section: what a message calls it, and its bytes. */
    record Section(String name, long bytes) {
    }

    /** The metadata of {@code part} as it is in memory now. */
    static PartMetadata of(TablePart part) {
        List<ColumnMetadata> columns = new ArrayList<>(part.columns().size());
        for (Column c : part.columns()) {
            InvertedIndex index = c.index();
            columns.add(new ColumnMetadata(c.name(), c.type(), c.nullVid(), c.bitcase(), c.dictionary().size(),
                    c.dictionary().byteSize(), c.indexVector().segment().byteSize(),
                    index == null ? -1 : index.segments().get(0).byteSize(), index == null ? -1 : index.segments().get(1).byteSize()));
        }
        int words = part.deleted().isEmpty() ? 0 : wordsFor(part.rowCount());
        return new PartMetadata(part.id(), part.rowCount(), part.partitioning() == null ? 0 : part.partitioning().count(),
                part.partition(), words, columns);
    }

    private static int wordsFor(int rows) {
        return (rows + 63) >>> 6;
    }

    /** The data sections in file order: the deleted rows, then per column its dictionary, IndexVector and Index. */
    List<Section> sections() {
        List<Section> sections = new ArrayList<>(1 + 4 * columns.size());
        sections.add(new Section("deleted rows", (long) deletedWords * Long.BYTES));
        for (int c = 0; c < columns.size(); c++) {
            ColumnMetadata m = columns.get(c);
            String column = columnName(c);
            sections.add(new Section(column + " dictionary", m.dictionaryBytes()));
            sections.add(new Section(column + " index vector", m.indexVectorBytes()));
            if (m.hasIndex()) {
                sections.add(new Section(column + " index offsets", m.indexOffsetsBytes()));
                sections.add(new Section(column + " index positions", m.indexPositionsBytes()));
            }
        }
        return sections;
    }

    /** How messages name column {@code c}. */
    String columnName(int c) {
        return "column " + c + " (" + columns.get(c).name() + ")";
    }

    /** Bytes of all data sections with their checksums. */
    long dataBytes() {
        long bytes = 0;
        for (Section s : sections()) {
            bytes += s.bytes() + Integer.BYTES;
        }
        return bytes;
    }

    void encode(FieldWriter out) {
        out.putLong(partId).putInt(rowCount).putInt(partitionCount).putInt(partition).putInt(deletedWords).putInt(columns.size());
        for (ColumnMetadata c : columns) {
            out.putString(c.name()).putString(c.type().toString()).putInt(c.nullVid()).putInt(c.bitcase())
                    .putInt(c.dictionarySize()).putLong(c.dictionaryBytes()).putLong(c.indexVectorBytes())
                    .putLong(c.indexOffsetsBytes()).putLong(c.indexPositionsBytes());
        }
    }

    /**
     * Decodes the metadata and checks that its sizes agree with each other and with the storage
     * classes' layouts (which the checksum cannot vouch for: a writer of another build might
     * disagree), so that every segment the reader allocates has the size its wrapper expects.
     */
    static PartMetadata decode(FieldReader in) throws DamagedFileException {
        long partId = in.getLong();
        int rows = in.getCount("row count");
        int partitionCount = in.getCount("partition count");
        int partition = in.getInt();
        int deletedWords = in.getCount("count of deleted-row words");
        int columnCount = in.getCount("column count");
        if (partId < 0 || partId > 0xffff_ffffL) {
            throw in.damaged("part id " + partId + " is not a 32-bit unsigned number");
        }
        if (partitionCount == 0 ? partition != -1 : partition < 0 || partition >= partitionCount) {
            throw in.damaged("partition " + partition + " of " + partitionCount);
        }
        if (deletedWords != 0 && deletedWords != wordsFor(rows)) {
            throw in.damaged(deletedWords + " words of deleted rows for " + rows + " rows");
        }
        List<ColumnMetadata> columns = new ArrayList<>();
        for (int c = 0; c < columnCount; c++) {
            columns.add(decodeColumn(in, c, rows));
        }
        in.expectEnd();
        return new PartMetadata(partId, rows, partitionCount, partition, deletedWords, columns);
    }

    private static ColumnMetadata decodeColumn(FieldReader in, int c, int rows) throws DamagedFileException {
        String name = in.getString();
        String spelled = in.getString();
        ColumnType type;
        try {
            type = ColumnType.parse(spelled);
        } catch (IllegalArgumentException e) {
            throw in.damaged("column " + c + " (" + name + ") has type '" + spelled + "': " + e.getMessage());
        }
        ColumnMetadata m = new ColumnMetadata(name, type, in.getInt(), in.getInt(), in.getCount("dictionary size"), in.getLong(),
                in.getLong(), in.getLong(), in.getLong());
        String column = "column " + c + " (" + name + ")";
        if (m.nullVid() != -1 && m.nullVid() != m.dictionarySize()) {
            throw in.damaged(column + " has null vid " + m.nullVid() + " beside " + m.dictionarySize() + " distinct values");
        }
        if (m.bitcase() < IndexVector.MIN_BITCASE || m.bitcase() > IndexVector.MAX_BITCASE
                || m.vidCount() - 1 > Integer.toUnsignedLong(IndexVector.maxVid(m.bitcase()))) {
            throw in.damaged(column + " has bitcase " + m.bitcase() + " for " + m.vidCount() + " vids");
        }
        if (m.indexVectorBytes() != IndexVector.byteSize(rows, m.bitcase())) {
            throw in.damaged(column + " has an IndexVector of " + m.indexVectorBytes() + " bytes where " + rows
                    + " rows at bitcase " + m.bitcase() + " take " + IndexVector.byteSize(rows, m.bitcase()));
        }
        long fixed = (long) m.dictionarySize() * Long.BYTES;
        boolean strings = type.storageKind() == StorageKind.STRING;
        if (strings ? m.dictionaryBytes() < fixed + Long.BYTES : m.dictionaryBytes() != fixed) {
            throw in.damaged(column + " has a dictionary of " + m.dictionaryBytes() + " bytes for " + m.dictionarySize()
                    + " " + type + " values");
        }
        if (m.hasIndex() ? m.indexOffsetsBytes() != (m.vidCount() + 1) * Integer.BYTES
                || m.indexPositionsBytes() != (long) rows * Integer.BYTES
                : m.indexOffsetsBytes() != -1 || m.indexPositionsBytes() != -1) {
            throw in.damaged(column + " has an index of " + m.indexOffsetsBytes() + " and " + m.indexPositionsBytes()
                    + " bytes for " + m.vidCount() + " vids and " + rows + " rows");
        }
        return m;
    }
}
