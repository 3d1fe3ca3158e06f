package io.numacol.checkpoint;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Decodes what {@link FieldWriter} encoded. Its input has passed its checksum, so a field that
 * runs past the end or a string that is not UTF-8 means a writer and a reader disagree: it is
 * reported as damage to the section, naming the file (or where the bytes are, for a catalog
 * image of the log), never as a bare buffer exception.
 */
final class FieldReader {
    private final ByteBuffer buffer;
    private final Origin origin;
    private final String section;
    /** The format version of the frame the fields are in (0 outside a frame): what an older version lacks is read as absent. */
    private final int version;

    FieldReader(ByteBuffer buffer, Path file, String section) {
        this(buffer, Origin.of(file), section, 0);
    }

    FieldReader(ByteBuffer buffer, Origin origin, String section, int version) {
        this.buffer = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
        this.origin = origin;
        this.section = section;
        this.version = version;
    }

    /** The format version the fields were written in. */
    int version() {
        return version;
    }

    int getByte() throws DamagedFileException {
        try {
            return Byte.toUnsignedInt(buffer.get());
        } catch (BufferUnderflowException e) {
            throw pastEnd();
        }
    }

    boolean getBoolean() throws DamagedFileException {
        int b = getByte();
        if (b > 1) {
            throw damaged("a flag of " + b + " where 0 or 1 belongs");
        }
        return b == 1;
    }

    int getInt() throws DamagedFileException {
        try {
            return buffer.getInt();
        } catch (BufferUnderflowException e) {
            throw pastEnd();
        }
    }

    /** An int that counts something: never negative. */
    int getCount(String what) throws DamagedFileException {
        int n = getInt();
        if (n < 0) {
            throw damaged("a negative " + what + " (" + n + ")");
        }
        return n;
    }

    long getLong() throws DamagedFileException {
        try {
            return buffer.getLong();
        } catch (BufferUnderflowException e) {
            throw pastEnd();
        }
    }

    String getString() throws DamagedFileException {
        int length = getCount("string length");
        if (length > buffer.remaining()) {
            throw pastEnd();
        }
        ByteBuffer utf8 = buffer.slice(buffer.position(), length);
        buffer.position(buffer.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(utf8).toString();
        } catch (CharacterCodingException e) {
            throw damaged("a string that is not UTF-8");
        }
    }

    /** Refuses bytes left over: a section that says less than it holds is as suspect as one that holds less. */
    void expectEnd() throws DamagedFileException {
        if (buffer.hasRemaining()) {
            throw damaged(buffer.remaining() + " bytes past its last field");
        }
    }

    DamagedFileException damaged(String message) {
        return origin.damaged(section, message);
    }

    private DamagedFileException pastEnd() {
        return damaged("a field runs past its end");
    }
}
