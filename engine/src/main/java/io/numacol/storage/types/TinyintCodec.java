package io.numacol.storage.types;

import java.sql.JDBCType;
import java.util.List;

/** TINYINT: an 8-bit integer, read back as a Byte. */
public final class TinyintCodec extends IntegralCodec {
    public static final TinyintCodec INSTANCE = new TinyintCodec();

    private TinyintCodec() {
    }

    @Override
    public String name() {
        return "TINYINT";
    }

    @Override
    public List<String> aliases() {
        return List.of("INT1");
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.TINYINT;
    }

    @Override
    public boolean holds(long value) {
        return value == (byte) value;
    }

    @Override
    Object box(long value) {
        return (byte) value;
    }

    @Override
    String describeRange() {
        return "an 8-bit integer";
    }
}
