package io.numacol.storage.types;

import java.sql.JDBCType;
import java.time.ZoneId;

/**
 * CHAR(n), n &gt;= 1: stored as the string without its trailing spaces (U+0020) and read back
 * without padding, so comparing CHAR values behaves like SQL's PAD SPACE; a value longer than n
 * only in trailing spaces therefore fits. The length counts code points, as VARCHAR's does.
 */
public final class CharCodec implements StoredAsString {
    public static final CharCodec INSTANCE = new CharCodec();

    private CharCodec() {
    }

    @Override
    public String name() {
        return "CHAR";
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.CHAR;
    }

    /**
     * VARCHAR: to Calcite a CHAR(n) value is padded to n, and it pads literals it compares with it,
     * so 'EUROPE' would never equal a stored 'EUROPE'. As VARCHAR(n) the unpadded values compare
     * right, as in DuckDB, where CHAR is VARCHAR.
     */
    @Override
    public String calciteTypeName() {
        return "VARCHAR";
    }

    /** The text as it is; its trailing spaces go when it is stored. */
    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return text;
    }

    /** A String, stored without its trailing spaces. */
    @Override
    public String toStringValue(ColumnType type, Object value) {
        if (!(value instanceof String s)) {
            throw ValueErrors.wrongType(type, value, "a String");
        }
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return VarcharCodec.checked(type, s, s.substring(0, end));
    }
}
