package io.numacol.storage.types;

import java.nio.charset.StandardCharsets;
import java.sql.JDBCType;
import java.time.ZoneId;
import java.util.HexFormat;

/**
 * VARBINARY(n) (or BINARY VARYING(n)), n &gt;= 1: up to n bytes, stored as the string of the chars
 * U+0000 to U+00FF that are the bytes (ISO 8859-1), so the dictionaries' code point order is the
 * unsigned byte order of SQL, DuckDB and PostgreSQL; read back as a byte[].
 */
public final class VarbinaryCodec implements StoredAsString {
    public static final VarbinaryCodec INSTANCE = new VarbinaryCodec();

    private VarbinaryCodec() {
    }

    @Override
    public String name() {
        return "VARBINARY";
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.VARBINARY;
    }

    /** The bytes of {@code \x0102ff}, see {@link #fromText}. */
    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return fromText(text);
    }

    /** {@code \x} and two hex digits per byte, as {@link #fromText} reads. */
    @Override
    public String toText(ColumnType type, Object value) {
        return "\\x" + HexFormat.of().formatHex((byte[]) value);
    }

    /** A byte[], checked against the length in bytes. */
    @Override
    public String toStringValue(ColumnType type, Object value) {
        if (!(value instanceof byte[] bytes)) {
            throw ValueErrors.wrongType(type, value, "a byte[]");
        }
        if (bytes.length > type.length()) {
            throw new IllegalArgumentException(Describe.value(value) + " (" + bytes.length + " bytes) is longer than " + type);
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** A byte[]. */
    @Override
    public Object toJava(ColumnType type, String stored) {
        return stored.getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The bytes of a VARBINARY written as text: {@code \x} and two hex digits per byte, as
     * PostgreSQL writes a bytea ({@code \x0102ff}); the empty value is {@code \x}.
     */
    public static byte[] fromText(String text) {
        String t = text.strip();
        if (!t.startsWith("\\x") || t.length() % 2 != 0) {
            throw new IllegalArgumentException(Describe.value(text) + " is not a valid VARBINARY text: expected \\x and two hex"
                    + " digits per byte, such as \\x0102ff");
        }
        byte[] bytes = new byte[(t.length() - 2) / 2];
        for (int i = 0; i < bytes.length; i++) {
            int hi = Character.digit(t.charAt(2 + 2 * i), 16);
            int lo = Character.digit(t.charAt(3 + 2 * i), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException(Describe.value(text) + " is not a valid VARBINARY text: '"
                        + t.substring(2 + 2 * i, 4 + 2 * i) + "' is not two hex digits");
            }
            bytes[i] = (byte) (hi << 4 | lo);
        }
        return bytes;
    }
}
