package io.numacol.bench;

import io.numacol.checkpoint.PartFile;
import io.numacol.checkpoint.PartRef;
import io.numacol.database.Database;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;
import io.numacol.tpch.TpchLoader;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Checkpoint files of TPC-H lineitem (SF 1: 6M rows, about 0.4 GB as stored): {@link #write}
 * writes every part to a new file and forces it, {@link #read} reads them all back into memory
 * on node 0, checking every checksum. The {@code bytes} counter is part-file bytes per second;
 * compare it with the disk's (write, which forces to disk) and with a page-cache copy (read:
 * the files were just written, so they are in the page cache). One thread, parts one after the
 * other: what one part costs, not what a parallel checkpoint or opening could reach.
 * Run: {@code src/bin/numacol-bench CheckpointBenchmark} ({@code -p sf=0.1} for a quick one).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class CheckpointBenchmark {
    @Param("1")
    double sf;

    private Database db;
    private List<TablePart> parts;
    private TableSnapshot snapshot;
    private Path dir;
    /** The files {@link #read} reads, written once at the start. */
    private List<Path> files;
    private long fileBytes;
    private int written;

    /** Part-file bytes written or read: JMH reports them per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void load() throws IOException {
        db = Database.open();
        TpchLoader.generate(sf, table -> {
            if (!table.name().equals("lineitem")) {
                return new TpchLoader.TableSink() { // generated, since the generator runs the tables in turn, and dropped
                    @Override
                    public void accept(Object[] row) {
                    }

                    @Override
                    public void close() {
                    }
                };
            }
            db.catalog().create(table.name(), table.schema());
            return TpchLoader.TableSink.appendingTo(db.appender(table.name()));
        });
        Table lineitem = db.catalog().get("lineitem");
        snapshot = lineitem.snapshot();
        parts = snapshot.parts();
        dir = Files.createTempDirectory("numacol-checkpoint-bench");
        files = new ArrayList<>();
        for (TablePart part : parts) {
            Path file = dir.resolve("read-" + part.id() + PartFile.SUFFIX);
            fileBytes += PartFile.write(part, file).size();
            files.add(file);
        }
        System.out.printf("%nlineitem SF %s: %,d rows in %d parts, %,d bytes of part files%n", sf, lineitem.rowCount(),
                parts.size(), fileBytes);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        snapshot.close();
        db.close();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Writes every part to new files; the files of the previous call go first, outside the timing's bytes but inside its time. */
    @Benchmark
    public long write(Bytes counter) throws IOException {
        int round = written++;
        long bytes = 0;
        for (TablePart part : parts) {
            Path file = dir.resolve("write-" + round + "-" + part.id() + PartFile.SUFFIX);
            PartRef ref = PartFile.write(part, file);
            bytes += ref.size();
            Files.delete(file); // the page cache keeps the data until written back; the disk does not fill
        }
        counter.bytes += bytes;
        return bytes;
    }

    /** Reads every part file into node 0, then frees it. */
    @Benchmark
    public long read(Bytes counter) {
        long rows = 0;
        for (Path file : files) {
            TablePart part;
            try {
                part = PartFile.read(file, db.memory(), 0, null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            rows += part.rowCount();
            part.release();
        }
        counter.bytes += fileBytes;
        return rows;
    }
}
