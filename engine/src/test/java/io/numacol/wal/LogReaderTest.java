package io.numacol.wal;

import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static io.numacol.wal.WalTesting.readAll;
import static io.numacol.wal.WalTesting.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading a log back: where a crash tore it, what is damage and what is refused, and the cut that lets appends go on. */
class LogReaderTest {
    @TempDir
    Path dir;

    private static final List<LogRecord> FIRST_TWO = List.of(
            new LogRecord.CatalogState(1, "CREATE TABLE t (a BIGINT, s VARCHAR(20))".getBytes(StandardCharsets.UTF_8)),
            new LogRecord.Delete(1, 7, new long[] {3, 4, 5}));

    /** The last record: an Insert and its Commit in one, the record a crash tears most often. */
    private static LogRecord lastRecord() {
        return new LogRecord.Insert(1, 7, 2, -1, RowBatch.ofStored(List.of(ColumnType.bigint(), ColumnType.varchar(20)),
                List.of(new Object[] {1L, "one"}, new Object[] {null, "two 😀"}, new Object[] {Long.MAX_VALUE, null})));
    }

    /** Writes FIRST_TWO, then the last record; returns {file bytes, offset where the last record starts}. */
    private Object[] logWithLastRecord() throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            for (LogRecord r : FIRST_TWO) {
                w.append(r);
            }
        }
        Path file = LogFormat.list(dir).getFirst();
        long lastStart = Files.size(file);
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(lastRecord());
        }
        return new Object[] {Files.readAllBytes(file), lastStart};
    }

    @Test
    void aTailTornAtEveryByteOfTheLastRecordIsCutAndAppendsGoOnAfterIt() throws IOException {
        Object[] log = logWithLastRecord();
        byte[] whole = (byte[]) log[0];
        int lastStart = (int) (long) log[1];
        Path file = LogFormat.list(dir).getFirst();
        assertThat(whole.length - lastStart).as("the last record's size").isGreaterThan(LogFormat.FRAME_PREFIX + 9);
        for (int cut = lastStart; cut < whole.length; cut++) {
            Files.write(file, Arrays.copyOf(whole, cut));
            LogEnd end;
            try (LogReader r = LogReader.open(dir)) {
                List<LogEntry> entries = new ArrayList<>();
                for (LogEntry e = r.next(); e != null; e = r.next()) {
                    entries.add(e);
                }
                assertThat(records(entries)).as("cut at %d", cut).containsExactlyElementsOf(FIRST_TWO);
                end = r.truncate();
            }
            assertThat(end.offset()).as("cut at %d", cut).isEqualTo(lastStart);
            assertThat(end.nextLsn()).isEqualTo(3);
            assertThat(end.file()).isEqualTo(file);
            assertThat(Files.size(file)).as("cut at %d: the torn bytes are gone", cut).isEqualTo(lastStart);

            LogRecord after = new LogRecord.Commit(1, cut);
            try (LogWriter w = LogWriter.open(dir, Durability.NONE)) {
                assertThat(w.nextLsn()).isEqualTo(3);
                w.append(after);
            }
            List<LogEntry> again = readAll(dir);
            assertThat(records(again)).containsExactly(FIRST_TWO.get(0), FIRST_TWO.get(1), after);
            assertThat(again.getLast().lsn()).isEqualTo(3);
        }
    }

    @Test
    void aReaderReportsTheTornTailItStoppedAt() throws IOException {
        Object[] log = logWithLastRecord();
        byte[] whole = (byte[]) log[0];
        long lastStart = (long) log[1];
        Path file = LogFormat.list(dir).getFirst();
        Files.write(file, Arrays.copyOf(whole, whole.length - 1));
        try (LogReader r = LogReader.open(dir)) {
            LogEnd end = r.end();
            assertThat(end.torn()).isTrue();
            assertThat(end.damage()).contains("bytes where only");
            assertThat(end.offset()).isEqualTo(lastStart);
        }
        Files.write(file, whole);
        try (LogReader r = LogReader.open(dir)) {
            LogEnd end = r.end();
            assertThat(end.torn()).isFalse();
            assertThat(end.offset()).isEqualTo(whole.length);
            assertThat(end.nextLsn()).isEqualTo(4);
        }
    }

    @Test
    void aFlippedBitAnywhereInTheLastRecordIsDetected() throws IOException {
        Object[] log = logWithLastRecord();
        byte[] whole = (byte[]) log[0];
        int lastStart = (int) (long) log[1];
        Path file = LogFormat.list(dir).getFirst();
        SplittableRandom random = new SplittableRandom(7);
        for (int at = lastStart; at < whole.length; at++) {
            byte[] damaged = whole.clone();
            int bit = random.nextInt(8);
            damaged[at] ^= (byte) (1 << bit);
            Files.write(file, damaged);
            try (LogReader r = LogReader.open(dir)) {
                List<LogEntry> entries = new ArrayList<>();
                for (LogEntry e = r.next(); e != null; e = r.next()) {
                    entries.add(e);
                }
                assertThat(records(entries)).as("bit %d of byte %d", bit, at).containsExactlyElementsOf(FIRST_TWO);
                assertThat(r.end().torn()).as("bit %d of byte %d", bit, at).isTrue();
                assertThat(r.end().offset()).isEqualTo(lastStart);
            }
        }
    }

    @Test
    void theCutIsLoggedNamingFileAndOffset() throws IOException {
        Object[] log = logWithLastRecord();
        byte[] whole = (byte[]) log[0];
        long lastStart = (long) log[1];
        Path file = LogFormat.list(dir).getFirst();
        Files.write(file, Arrays.copyOf(whole, whole.length - 3));
        List<String> lines = WalTesting.logged(LogReader.class, () -> {
            try (LogReader r = LogReader.open(dir)) {
                r.truncate();
            }
        });
        assertThat(lines).singleElement().asString().contains(file.toString()).contains("offset " + lastStart);
    }

    @Test
    void anUnknownVersionIsRefusedNamingTheFileAndBothVersions() throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(new LogRecord.Abort(1));
        }
        Path file = LogFormat.list(dir).getFirst();
        byte[] bytes = Files.readAllBytes(file);
        bytes[11] = 99; // the version int, big-endian, at offset 8
        Files.write(file, bytes);
        for (WalTesting.IoAction open : List.<WalTesting.IoAction>of(() -> readAll(dir), () -> LogWriter.open(dir).close())) {
            assertThatThrownBy(open::run).isInstanceOf(LogFormatException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("version 99")
                    .hasMessageContaining("only version " + LogFormat.VERSION);
        }
        assertThat(Files.readAllBytes(file)).as("a refused file is left as it was").isEqualTo(bytes);
    }

    @Test
    void aFileOfAnotherFormatIsRefused() throws IOException {
        Files.writeString(dir.resolve(LogFormat.fileName(1)), "this is not a log file at all");
        assertThatThrownBy(() -> readAll(dir)).isInstanceOf(LogFormatException.class).hasMessageContaining("magic");
    }

    @Test
    void aFileMissingBetweenTwoOthersIsRefused() throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(new LogRecord.Abort(1));
            w.rotate();
            w.append(new LogRecord.Abort(2));
            w.rotate();
            w.append(new LogRecord.Abort(3));
        }
        List<Path> files = LogFormat.list(dir);
        assertThat(files).hasSize(3);
        Files.delete(files.get(1));
        assertThatThrownBy(() -> readAll(dir)).isInstanceOf(LogFormatException.class)
                .hasMessageContaining("missing").hasMessageContaining(files.get(2).toString());
    }

    @Test
    void damageInAFileLaterFilesFollowIsRefusedNotCut() throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(new LogRecord.DropParts(1, 7, new long[] {1}));
            w.rotate();
            w.append(new LogRecord.Abort(1));
        }
        Path first = LogFormat.list(dir).getFirst();
        byte[] bytes = Files.readAllBytes(first);
        bytes[bytes.length - 2] ^= 1;
        Files.write(first, bytes);
        assertThatThrownBy(() -> LogWriter.open(dir)).isInstanceOf(LogFormatException.class)
                .hasMessageContaining(first.toString()).hasMessageContaining("later log files follow");
        assertThat(Files.readAllBytes(first)).isEqualTo(bytes);
    }

    @Test
    void aLastFileWithAnIncompleteHeaderIsMadeAnew() throws IOException {
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(new LogRecord.Abort(1));
        }
        // a crash while rotate created the next file: its name is there, its header only in part
        Path next = dir.resolve(LogFormat.fileName(2));
        Files.write(next, Arrays.copyOf(LogFormat.header(2), 5));
        try (LogReader r = LogReader.open(dir)) {
            assertThat(r.end().torn()).isTrue();
            assertThat(r.end().file()).isEqualTo(next);
        }
        try (LogWriter w = LogWriter.open(dir)) {
            assertThat(w.append(new LogRecord.Abort(2))).isEqualTo(2);
        }
        assertThat(records(readAll(dir))).containsExactly(new LogRecord.Abort(1), new LogRecord.Abort(2));
        assertThat(LogFormat.list(dir)).extracting(p -> p.getFileName().toString())
                .containsExactly(LogFormat.fileName(1), LogFormat.fileName(2));
    }

    @Test
    void anEmptyDirectoryIsAnEmptyLog() throws IOException {
        try (LogReader r = LogReader.open(dir)) {
            assertThat(r.next()).isNull();
            assertThat(r.end()).isEqualTo(new LogEnd(null, 0, LogFormat.FIRST_LSN, null));
        }
    }

    @Test
    void otherFilesInTheDirectoryAreLeftAlone() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "x");
        Files.writeString(dir.resolve("123.wal"), "not 20 digits");
        try (LogWriter w = LogWriter.open(dir)) {
            w.append(new LogRecord.Abort(1));
        }
        assertThat(records(readAll(dir))).containsExactly(new LogRecord.Abort(1));
        assertThat(dir.resolve("notes.txt")).exists();
    }
}
