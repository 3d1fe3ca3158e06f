package io.numacol.checkpoint;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Encodes the small structured parts of checkpoint files (a part file's metadata, the manifest,
 * a catalog image)
 * as little-endian fields: fixed-width numbers, strings as a length and their UTF-8 bytes. Column
 * data never passes through here; it is copied from its segments.
 */
final class FieldWriter {
    private byte[] bytes = new byte[256];
    private int size;

    FieldWriter putByte(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
        return this;
    }

    FieldWriter putBoolean(boolean value) {
        return putByte(value ? 1 : 0);
    }

    FieldWriter putInt(int value) {
        ensure(Integer.BYTES);
        ByteBuffer.wrap(bytes, size, Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(value);
        size += Integer.BYTES;
        return this;
    }

    FieldWriter putLong(long value) {
        ensure(Long.BYTES);
        ByteBuffer.wrap(bytes, size, Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(value);
        size += Long.BYTES;
        return this;
    }

    /** Lengths are ints: a name or a type spelling never nears 2 GiB. */
    FieldWriter putString(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        putInt(utf8.length);
        ensure(utf8.length);
        System.arraycopy(utf8, 0, bytes, size, utf8.length);
        size += utf8.length;
        return this;
    }

    int size() {
        return size;
    }

    /** The fields so far, as a buffer ready to write. */
    ByteBuffer toBuffer() {
        return ByteBuffer.wrap(Arrays.copyOf(bytes, size)).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, Math.addExact(size, more)));
        }
    }
}
