package io.numacol.wal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable big-endian byte array: a record's payload as it is encoded, and the writer's
 * buffer of framed records not yet written. Not thread-safe; the writer guards its buffers
 * with its lock.
 */
final class Bytes {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private byte[] array;
    private int size;

    Bytes(int capacity) {
        array = new byte[Math.max(capacity, 16)];
    }

    int size() {
        return size;
    }

    byte[] array() {
        return array;
    }

    void clear() {
        size = 0;
    }

    private void ensure(int more) {
        if (array.length - size < more) {
            long wanted = Math.max((long) array.length * 2, (long) size + more);
            if (wanted > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("a log record or buffer over 2 GB (" + size + " + " + more + " bytes)");
            }
            array = Arrays.copyOf(array, (int) wanted);
        }
    }

    void putByte(int b) {
        ensure(1);
        array[size++] = (byte) b;
    }

    void putInt(int v) {
        ensure(4);
        INT.set(array, size, v);
        size += 4;
    }

    void putLong(long v) {
        ensure(8);
        LONG.set(array, size, v);
        size += 8;
    }

    void put(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, array, size, length);
        size += length;
    }

    void put(byte[] bytes) {
        put(bytes, 0, bytes.length);
    }

    /** Overwrites an int already put, at {@code offset}: the frame's length and CRC, known once the record is in. */
    void setInt(int offset, int v) {
        INT.set(array, offset, v);
    }

    /** The bytes put so far, as a buffer over the array (no copy). */
    ByteBuffer asBuffer() {
        return ByteBuffer.wrap(array, 0, size);
    }

    static int getInt(byte[] a, int offset) {
        return (int) INT.get(a, offset);
    }

    static long getLong(byte[] a, int offset) {
        return (long) LONG.get(a, offset);
    }
}
