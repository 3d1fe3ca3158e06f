package io.numacol.checkpoint;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Copies off-heap segments to and from a file channel, checksumming the bytes on the way. The
 * segment's own memory is the I/O buffer ({@link MemorySegment#asByteBuffer()}, a direct buffer),
 * so the kernel copies between the page cache and the column's pages and nothing passes through
 * the heap. A ByteBuffer holds less than 2 GiB, so segments go in chunks; a chunk is small
 * enough to still be in the CPU cache when it is checksummed after a read.
 */
final class SegmentIo {
    /** 1 MiB: a thousand system calls per GiB cost nothing beside the copy, and a chunk stays cached. */
    static final int CHUNK_BYTES = 1 << 20;

    private SegmentIo() {
    }

    /** Writes all of {@code segment} at the channel's position, adding its bytes to {@code crc}. */
    static void write(FileChannel channel, MemorySegment segment, CRC32C crc) throws IOException {
        for (long offset = 0; offset < segment.byteSize(); offset += CHUNK_BYTES) {
            ByteBuffer chunk = segment.asSlice(offset, Math.min(CHUNK_BYTES, segment.byteSize() - offset)).asByteBuffer();
            crc.update(chunk.duplicate());
            writeFully(channel, chunk);
        }
    }

    /** Writes all of {@code buffer} (a channel may write less than asked). */
    static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /**
     * Fills {@code segment} from the file at {@code position}, adding its bytes to {@code crc}.
     *
     * @throws DamagedFileException when the file ends first (it shrank after its size was checked)
     */
    static void read(FileChannel channel, long position, MemorySegment segment, CRC32C crc, Path file, String section)
            throws IOException {
        for (long offset = 0; offset < segment.byteSize(); offset += CHUNK_BYTES) {
            ByteBuffer chunk = segment.asSlice(offset, Math.min(CHUNK_BYTES, segment.byteSize() - offset)).asByteBuffer();
            readFully(channel, position + offset, chunk, file, section);
            crc.update(chunk.flip());
        }
    }

    /** Fills {@code buffer} from the file at {@code position}. */
    static void readFully(FileChannel channel, long position, ByteBuffer buffer, Path file, String section) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, at);
            if (n < 0) {
                throw new DamagedFileException(file, section, "the file ends at byte " + at + " (truncated)");
            }
            at += n;
        }
    }
}
