package io.numacol.storage.types;

import java.sql.JDBCType;
import java.time.ZoneId;
import java.util.List;

/** BOOLEAN (or BOOL): stored as 0 (false) or 1 (true), so false sorts first as in SQL. */
public final class BooleanCodec implements StoredAsLong {
    public static final BooleanCodec INSTANCE = new BooleanCodec();

    private BooleanCodec() {
    }

    @Override
    public String name() {
        return "BOOLEAN";
    }

    @Override
    public List<String> aliases() {
        return List.of("BOOL");
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.BOOLEAN;
    }

    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        String t = text.strip();
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(t);
        }
        throw new NumberFormatException(t + " is neither true nor false");
    }

    /** A Boolean. */
    @Override
    public long toLong(ColumnType type, Object value, ZoneId zone) {
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        throw ValueErrors.wrongType(type, value, "a Boolean");
    }

    @Override
    public Object toJava(ColumnType type, long stored) {
        if (stored != 0 && stored != 1) {
            throw ValueErrors.badStored(type, stored, "0 or 1");
        }
        return stored == 1;
    }

    @Override
    public Object internal(ColumnType type, long stored) {
        return stored != 0;
    }
}
