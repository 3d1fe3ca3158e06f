package io.numacol.storage.types;

import java.sql.JDBCType;
import java.util.List;

/** INTEGER: a 32-bit integer, read back as an Integer. */
public final class IntegerCodec extends IntegralCodec {
    public static final IntegerCodec INSTANCE = new IntegerCodec();

    private IntegerCodec() {
    }

    @Override
    public String name() {
        return "INTEGER";
    }

    @Override
    public List<String> aliases() {
        return List.of("INT", "INT4");
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.INTEGER;
    }

    @Override
    public boolean holds(long value) {
        return value == (int) value;
    }

    @Override
    Object box(long value) {
        return (int) value;
    }

    @Override
    String describeRange() {
        return "a 32-bit integer";
    }
}
