package io.numacol.checkpoint;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The frame the manifest and a catalog image share, little-endian: magic (8 bytes), format
 * version (u32), body length (u32), the body, CRC32C (u32) of everything before it. Both are
 * small, so they are written and read in one piece.
 */
final class Frame {
    /** Magic, version and body length before the body. */
    static final int HEADER_BYTES = 8 + 2 * Integer.BYTES;

    private Frame() {
    }

    /** The framed bytes of {@code body}. */
    static byte[] wrap(byte[] magic, int version, FieldWriter body) {
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + body.size() + Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        out.put(magic).putInt(version).putInt(body.size()).put(body.toBuffer());
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /**
     * A reader of the body of framed bytes, once the frame holds: the magic, the version, the
     * length and the checksum. {@code what} names the kind of thing in the messages ("manifest").
     * Versions from {@code oldest} to {@code version} are read (the reader knows which, {@link
     * FieldReader#version()}); others are refused.
     */
    static FieldReader open(byte[] bytes, byte[] magic, int oldest, int version, String what, Origin origin)
            throws CheckpointException {
        if (bytes.length < HEADER_BYTES + Integer.BYTES) {
            throw origin.damaged("header", "it has " + bytes.length + " bytes, fewer than an empty " + what + "'s (truncated)");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (!Arrays.equals(bytes, 0, magic.length, magic, 0, magic.length)) {
            throw origin.damaged("header", "it does not start as a numacol " + what + " does");
        }
        int found = in.getInt(magic.length);
        if (found < oldest || found > version) {
            throw origin.unsupported(found, version);
        }
        int bodyBytes = in.getInt(magic.length + Integer.BYTES);
        if (Integer.toUnsignedLong(bodyBytes) != bytes.length - HEADER_BYTES - Integer.BYTES) {
            throw origin.damaged("header", "it has " + bytes.length + " bytes, its header says "
                    + (HEADER_BYTES + Integer.toUnsignedLong(bodyBytes) + Integer.BYTES));
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - Integer.BYTES);
        int stored = in.getInt(bytes.length - Integer.BYTES);
        if (stored != (int) crc.getValue()) {
            throw origin.damaged("body", "checksum " + PartFile.hex((int) crc.getValue()) + " where " + PartFile.hex(stored)
                    + " was written");
        }
        return new FieldReader(ByteBuffer.wrap(bytes, HEADER_BYTES, bodyBytes), origin, "body", found);
    }
}
