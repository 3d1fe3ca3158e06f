package io.numacol.storage.types;

import java.sql.JDBCType;
import java.util.List;

/** SMALLINT: a 16-bit integer, read back as a Short. */
public final class SmallintCodec extends IntegralCodec {
    public static final SmallintCodec INSTANCE = new SmallintCodec();

    private SmallintCodec() {
    }

    @Override
    public String name() {
        return "SMALLINT";
    }

    @Override
    public List<String> aliases() {
        return List.of("INT2");
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.SMALLINT;
    }

    @Override
    public boolean holds(long value) {
        return value == (short) value;
    }

    @Override
    Object box(long value) {
        return (short) value;
    }

    @Override
    String describeRange() {
        return "a 16-bit integer";
    }
}
