package io.numacol.storage.types;

import java.sql.JDBCType;
import java.time.ZoneId;

/**
 * VARCHAR(n), n &gt;= 1: stored as the string exactly. The length counts Unicode code points
 * (characters as a user sees them, an emoji is one), not UTF-16 chars or UTF-8 bytes.
 */
public final class VarcharCodec implements StoredAsString {
    public static final VarcharCodec INSTANCE = new VarcharCodec();

    private VarcharCodec() {
    }

    @Override
    public String name() {
        return "VARCHAR";
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.VARCHAR;
    }

    /** The text as it is, blanks included. */
    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return text;
    }

    /** A String. */
    @Override
    public String toStringValue(ColumnType type, Object value) {
        if (!(value instanceof String s)) {
            throw ValueErrors.wrongType(type, value, "a String");
        }
        return checked(type, s, s);
    }

    /** {@code stored}, the stored form of the String {@code given}, if it is valid Unicode and fits the length. */
    static String checked(ColumnType type, String given, String stored) {
        Utf8.checkWellFormed(stored);
        if (stored.length() > type.length()) {
            int codePoints = stored.codePointCount(0, stored.length());
            if (codePoints > type.length()) {
                throw new IllegalArgumentException(Describe.value(given) + " (" + codePoints + " characters) is longer than " + type);
            }
        }
        return stored;
    }
}
