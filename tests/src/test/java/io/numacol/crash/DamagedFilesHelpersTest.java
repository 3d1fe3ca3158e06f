package io.numacol.crash;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The damage helpers on files laid out as numacol's log and parts are, so that a test that
 * uses them on a real database damages what it means to: the right file, the right region,
 * one bit or the asked-for bytes, nothing else.
 */
class DamagedFilesHelpersTest {
    @TempDir
    Path database;

    /** A log file of the documented layout: a header, then frames of length, CRC and body. */
    private static byte[] log(int... bodyLengths) {
        int size = DamagedFiles.LOG_HEADER_BYTES;
        for (int n : bodyLengths) {
            size += DamagedFiles.FRAME_PREFIX_BYTES + n;
        }
        ByteBuffer b = ByteBuffer.allocate(size); // big-endian, as the log is
        b.position(DamagedFiles.LOG_HEADER_BYTES);
        Random random = new Random(7);
        for (int n : bodyLengths) {
            b.putInt(n).putInt(random.nextInt());
            byte[] body = new byte[n];
            random.nextBytes(body);
            b.put(body);
        }
        return b.array();
    }

    private static int differingBits(byte[] a, byte[] b) {
        int bits = 0;
        for (int i = 0; i < a.length; i++) {
            bits += Integer.bitCount((a[i] ^ b[i]) & 0xff);
        }
        return bits;
    }

    @Test
    void damagesTheNewestLogOnly() throws Exception {
        Path wal = Files.createDirectories(database.resolve("wal"));
        byte[] older = log(20, 30);
        byte[] newest = log(17, 40, 25);
        Files.write(wal.resolve("00000000000000000001.wal"), older);
        Files.write(wal.resolve("00000000000000000120.wal"), newest);
        Files.write(wal.resolve("notes.txt"), new byte[]{1}); // not a log file: never picked

        assertThat(DamagedFiles.newestLog(database, DamagedFiles.LogLocation.DEFAULT).getFileName())
                .hasToString("00000000000000000120.wal");
        long lastStart = (long) newest.length - DamagedFiles.FRAME_PREFIX_BYTES - 25;
        assertThat(DamagedFiles.lastRecord(wal.resolve("00000000000000000120.wal"))).containsExactly(lastStart, newest.length);

        // (b) one bit, inside the last record, the same one for the same seed
        DamagedFiles.Damage flip = DamagedFiles.flipBitInNewestLogTail(database, 42);
        byte[] flipped = Files.readAllBytes(flip.file());
        assertThat(differingBits(newest, flipped)).isEqualTo(1);
        assertThat(flip.offset()).isBetween(lastStart, (long) newest.length - 1);
        assertThat(flipped[(int) flip.offset()] ^ newest[(int) flip.offset()]).isEqualTo(1 << flip.bit());
        // the same seed on the same file: the same bit (flipping twice in place need not: a flipped length moves the last record)
        Files.write(flip.file(), newest);
        assertThat(DamagedFiles.flipBitInNewestLogTail(database, 42)).isEqualTo(flip);
        Files.write(flip.file(), newest);

        // (a) a torn tail: the asked-for bytes gone from the end, the older file untouched
        DamagedFiles.Damage cut = DamagedFiles.truncateNewestLog(database, 5);
        assertThat(Files.readAllBytes(cut.file())).isEqualTo(Arrays.copyOf(newest, newest.length - 5));
        assertThat(Files.readAllBytes(wal.resolve("00000000000000000001.wal"))).isEqualTo(older);
        // a walk that no longer ends at the end of the file: the last 64 bytes past the header instead
        assertThat(DamagedFiles.lastRecord(cut.file())).containsExactly((long) newest.length - 5 - 64, newest.length - 5L);
    }

    @Test
    void flipsOneBitInOnePartFile() throws Exception {
        Path parts = Files.createDirectories(database.resolve("tables").resolve("t"));
        byte[] content = new byte[1000];
        new Random(3).nextBytes(content);
        for (int i = 0; i < 3; i++) {
            Files.write(parts.resolve(i + ".part"), content);
        }
        DamagedFiles.Damage flip = DamagedFiles.flipBitInPart(database, 11);
        int changed = 0;
        for (int i = 0; i < 3; i++) {
            byte[] now = Files.readAllBytes(parts.resolve(i + ".part"));
            changed += differingBits(content, now);
            if (!parts.resolve(i + ".part").equals(flip.file())) {
                assertThat(now).as("a part not picked").isEqualTo(content);
            }
        }
        assertThat(changed).isEqualTo(1);
    }
}
