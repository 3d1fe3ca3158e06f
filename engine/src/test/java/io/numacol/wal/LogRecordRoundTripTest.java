package io.numacol.wal;

import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static io.numacol.wal.WalTesting.java;
import static io.numacol.wal.WalTesting.readAll;
import static io.numacol.wal.WalTesting.records;
import static io.numacol.wal.WalTesting.samples;
import static io.numacol.wal.WalTesting.stored;
import static io.numacol.wal.WalTesting.typeOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every record type and every column type survives the log exactly: written, read back, equal. */
class LogRecordRoundTripTest {
    @TempDir
    Path dir;

    private List<LogRecord> throughLog(List<LogRecord> records) throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            for (LogRecord r : records) {
                w.append(r);
            }
        }
        List<LogEntry> entries = readAll(dir);
        assertThat(entries).extracting(LogEntry::lsn).containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(1, records.size()).boxed().toList());
        return records(entries);
    }

    @Test
    void everyRecordTypeReadsBackEqual() throws IOException {
        RowBatch rows = RowBatch.ofStored(List.of(ColumnType.bigint(), ColumnType.varchar(10)),
                List.of(new Object[] {1L, "a"}, new Object[] {null, null}, new Object[] {Long.MIN_VALUE, ""}));
        List<LogRecord> written = List.of(
                new LogRecord.Insert(Long.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, 1023, rows),
                new LogRecord.Insert(0, 1, 0, -1, RowBatch.ofStored(List.of(ColumnType.integer()), List.of())),
                new LogRecord.Delete(7, 3, new long[] {0, (5L << 32) | 17, -1L}),
                new LogRecord.Delete(7, -4, new long[0]),
                new LogRecord.PartWritten(7, 3, "t3-p9 ünï 😀.part", Long.MAX_VALUE, 0xCAFEBABE),
                new LogRecord.PartWritten(Long.MIN_VALUE, 0, "x", 0, 0),
                new LogRecord.DropParts(7, 3, new long[] {0, Long.MIN_VALUE, Long.MAX_VALUE}),
                new LogRecord.DropParts(7, 9, new long[0]),
                new LogRecord.CatalogState(8, "CREATE TABLE \"ünï\" (a INT, b VARCHAR(3)) -- 😀".getBytes(StandardCharsets.UTF_8)),
                new LogRecord.CatalogState(8, new byte[] {0, -1, (byte) 0x80, 0x7f}),
                new LogRecord.CatalogState(8, new byte[0]),
                new LogRecord.Commit(7, 123_456_789L),
                new LogRecord.Commit(Long.MIN_VALUE, Long.MAX_VALUE),
                new LogRecord.Abort(8),
                new LogRecord.CheckpointDone(42));
        List<LogRecord> read = throughLog(written);
        assertThat(read).containsExactlyElementsOf(written);
        LogRecord.Insert insert = (LogRecord.Insert) read.getFirst();
        assertThat(insert.table()).isEqualTo(Long.MAX_VALUE);
        assertThat(insert.part()).isEqualTo(Long.MIN_VALUE);
        assertThat(insert.partition()).isEqualTo(1023);
        assertThat(((LogRecord.Insert) read.get(1)).partition()).isEqualTo(-1);
        LogRecord.PartWritten part = (LogRecord.PartWritten) read.get(4);
        assertThat(part.fileName()).isEqualTo("t3-p9 ünï 😀.part");
        assertThat(part.size()).isEqualTo(Long.MAX_VALUE);
        assertThat(part.checksum()).isEqualTo(0xCAFEBABE);
        assertThat(((LogRecord.DropParts) read.get(6)).partIds()).containsExactly(0, Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(((LogRecord.DropParts) read.get(7)).count()).isZero();
        assertThat(((LogRecord.CatalogState) read.get(9)).image()).containsExactly(0, -1, (byte) 0x80, 0x7f);
        assertThat(((LogRecord.CatalogState) read.get(10)).image()).isEmpty();
    }

    @Test
    void recordsAreCodedWithoutTheLogToo() {
        SplittableRandom random = new SplittableRandom(11);
        List<LogRecord> all = List.of(new LogRecord.Insert(3, 2, 5, 0, WalTesting.randomBatch(random, 40)),
                new LogRecord.Delete(3, 2, new long[] {9, 10}), new LogRecord.PartWritten(3, 2, "a.part", 10, -1),
                new LogRecord.DropParts(3, 2, new long[] {4}), new LogRecord.CatalogState(1, new byte[] {9, 8, 7}),
                new LogRecord.Commit(3, 4), new LogRecord.Abort(5), new LogRecord.CheckpointDone(6));
        java.util.Set<Integer> types = new java.util.HashSet<>();
        for (LogRecord r : all) {
            Bytes b = RecordCodec.encode(r);
            assertThat(RecordCodec.decode(RecordCodec.type(r), ByteBuffer.wrap(b.array(), 0, b.size()))).isEqualTo(r);
            assertThat(types.add(RecordCodec.type(r))).as("type of %s is its own", r).isTrue();
        }
        assertThat(types).hasSize(LogRecord.class.getPermittedSubclasses().length);
    }

    /** Each type's samples, extremes among them, and NULLs between them; the Java values come back equal. */
    @ParameterizedTest
    @EnumSource(ColumnType.Kind.class)
    void everyColumnTypeRoundTripsWithNullsAndExtremes(ColumnType.Kind kind) throws IOException {
        ColumnType type = typeOf(kind);
        List<Object> javaValues = new ArrayList<>();
        for (Object v : samples(kind)) {
            javaValues.add(null);
            javaValues.add(v);
        }
        javaValues.add(null);
        RowBatch.Builder b = RowBatch.builder(List.of(type, ColumnType.integer()));
        for (int i = 0; i < javaValues.size(); i++) {
            b.addStored(stored(type, javaValues.get(i)), i % 3 == 0 ? null : (long) i);
        }
        RowBatch batch = b.build();
        LogRecord.Insert read = (LogRecord.Insert) throughLog(List.of(new LogRecord.Insert(1, 1, 2, -1, batch))).getFirst();

        assertThat(read.rows()).isEqualTo(batch);
        assertThat(read.rows().types()).containsExactly(type, ColumnType.integer());
        for (int i = 0; i < javaValues.size(); i++) {
            Object back = java(type, read.rows().stored(i, 0));
            assertThat(back).as("row %d of %s", i, type).isEqualTo(javaValues.get(i));
            assertThat(read.rows().isNull(i, 0)).isEqualTo(javaValues.get(i) == null);
            assertThat(read.rows().stored(i, 1)).isEqualTo(i % 3 == 0 ? null : (Object) (long) i);
        }
    }

    @Test
    void doublesKeepTheirBits() throws IOException {
        // not only -0.0 (a sample) but a NaN with a payload, which Double.NaN is not
        double oddNaN = Double.longBitsToDouble(0x7ff8_0000_dead_beefL);
        RowBatch batch = RowBatch.ofStored(List.of(ColumnType.doubleType()), List.<Object[]>of(new Object[] {oddNaN}, new Object[] {-0.0}));
        LogRecord.Insert read = (LogRecord.Insert) throughLog(List.of(new LogRecord.Insert(1, 1, 1, -1, batch))).getFirst();
        assertThat(Double.doubleToRawLongBits(read.rows().getDouble(0, 0))).isEqualTo(0x7ff8_0000_dead_beefL);
        assertThat(Double.doubleToRawLongBits(read.rows().getDouble(1, 0))).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void randomBatchesOfEveryTypeRoundTrip() throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        List<LogRecord> written = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            written.add(new LogRecord.Insert(i, i % 3 + 1, i, i % 2 - 1, WalTesting.randomBatch(random, random.nextInt(0, 300))));
        }
        assertThat(throughLog(written)).containsExactlyElementsOf(written);
    }

    /** A batch of a dictionary's UTF-8 bytes is logged as the same record as one of Strings, and reads back as it. */
    @Test
    void aBatchOfUtf8ColumnsIsLoggedAsTheSameRowsAsOneOfStrings() throws IOException {
        List<ColumnType> types = List.of(ColumnType.bigint(), ColumnType.varchar(10), ColumnType.doubleType());
        byte[] shared = "z\u00fcrich \uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
        java.util.BitSet noNulls = new java.util.BitSet();
        java.util.BitSet secondNull = new java.util.BitSet();
        secondNull.set(1);
        RowBatch fromBytes = RowBatch.ofUtf8Columns(types, 3, new Object[] {new long[] {1, 2, 3},
                new byte[][] {shared, null, shared}, new double[] {0.5, -0.0, 7}}, new java.util.BitSet[] {noNulls, secondNull, noNulls});
        RowBatch fromStrings = RowBatch.ofStored(types, List.<Object[]>of(new Object[] {1L, "z\u00fcrich \uD83D\uDE00", 0.5},
                new Object[] {2L, null, -0.0}, new Object[] {3L, "z\u00fcrich \uD83D\uDE00", 7.0}));

        assertThat(fromBytes).isEqualTo(fromStrings);
        assertThat(fromBytes.getString(0, 1)).isEqualTo("z\u00fcrich \uD83D\uDE00");
        Bytes a = RecordCodec.encode(new LogRecord.Insert(1, 1, 1, -1, fromBytes));
        Bytes b = RecordCodec.encode(new LogRecord.Insert(1, 1, 1, -1, fromStrings));
        assertThat(Arrays.copyOf(a.array(), a.size())).as("the same bytes in the log").isEqualTo(Arrays.copyOf(b.array(), b.size()));
        LogRecord read = throughLog(List.of(new LogRecord.Insert(1, 1, 1, -1, fromBytes))).getFirst();
        assertThat(((LogRecord.Insert) read).rows()).isEqualTo(fromBytes);
        assertThatThrownBy(() -> RowBatch.ofUtf8Columns(types, 3, new Object[] {new long[3], new String[3], new double[3]},
                new java.util.BitSet[] {noNulls, noNulls, noNulls})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column 1");
    }

    @Test
    void aBatchRefusesValuesOfAnotherStorageKindAndStringsWithoutUtf8() {
        RowBatch.Builder b = RowBatch.builder(List.of(ColumnType.bigint(), ColumnType.varchar(5)));
        assertThatThrownBy(() -> b.addStored(1, "a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column 0").hasMessageContaining("Integer");
        assertThatThrownBy(() -> b.addStored(1L, "a\uD800")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column 1").hasMessageContaining("surrogate");
        assertThatThrownBy(() -> b.addStored(1L)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 values");
        assertThat(b.rowCount()).as("refused rows are not taken").isZero();
    }

    @Test
    void aDeleteIsAValueTheCallerCannotChange() {
        long[] ids = {1, 2};
        LogRecord.Delete d = new LogRecord.Delete(1, 4, ids);
        ids[0] = 99;
        d.rowIds()[1] = 99;
        assertThat(d).isEqualTo(new LogRecord.Delete(1, 4, new long[] {1, 2}));
        assertThat(d.hashCode()).isEqualTo(new LogRecord.Delete(1, 4, new long[] {1, 2}).hashCode());
        assertThat(d).isNotEqualTo(new LogRecord.Delete(1, 5, new long[] {1, 2}));
        assertThat(d.rowCount()).isEqualTo(2);
        assertThat(d.rowId(1)).isEqualTo(2);
    }

    @Test
    void aDropPartsIsAValueTheCallerCannotChange() {
        long[] ids = {3, 4};
        LogRecord.DropParts d = new LogRecord.DropParts(1, 4, ids);
        ids[0] = 99;
        d.partIds()[1] = 99;
        assertThat(d).isEqualTo(new LogRecord.DropParts(1, 4, new long[] {3, 4}));
        assertThat(d.hashCode()).isEqualTo(new LogRecord.DropParts(1, 4, new long[] {3, 4}).hashCode());
        assertThat(d).isNotEqualTo(new LogRecord.DropParts(2, 4, new long[] {3, 4}));
        assertThat(d.count()).isEqualTo(2);
        assertThat(d.partId(0)).isEqualTo(3);
    }

    @Test
    void aCatalogStateIsAValueTheCallerCannotChange() {
        byte[] image = {1, 2};
        LogRecord.CatalogState c = new LogRecord.CatalogState(1, image);
        image[0] = 99;
        c.image()[1] = 99;
        assertThat(c).isEqualTo(new LogRecord.CatalogState(1, new byte[] {1, 2}));
        assertThat(c.hashCode()).isEqualTo(new LogRecord.CatalogState(1, new byte[] {1, 2}).hashCode());
        assertThat(c).isNotEqualTo(new LogRecord.CatalogState(1, new byte[] {1, 3}));
        assertThat(c.size()).isEqualTo(2);
    }

    @Test
    void aPartWrittenNamesAFileOfTheDirectoryAndAnInsertAPartitionOrNone() {
        for (String bad : List.of("", ".", "..", "../x.part", "sub/x.part", "a\\b", "a\0b")) {
            assertThatThrownBy(() -> new LogRecord.PartWritten(1, 1, bad, 0, 0)).as("%s", bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> new LogRecord.PartWritten(1, 1, "x.part", -1, 0)).isInstanceOf(IllegalArgumentException.class);
        RowBatch none = RowBatch.ofStored(List.of(ColumnType.integer()), List.of());
        assertThatThrownBy(() -> new LogRecord.Insert(1, 1, 1, -2, none)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new LogRecord.Insert(1, 1, 1, -1, none).partition()).isEqualTo(-1);
    }
}
