package io.numacol.storage.types;

import java.sql.JDBCType;
import java.util.List;

/** BIGINT: a 64-bit integer, read back as a Long. */
public final class BigintCodec extends IntegralCodec {
    public static final BigintCodec INSTANCE = new BigintCodec();

    private BigintCodec() {
    }

    @Override
    public String name() {
        return "BIGINT";
    }

    @Override
    public List<String> aliases() {
        return List.of("INT8");
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.BIGINT;
    }

    @Override
    public boolean holds(long value) {
        return true;
    }

    @Override
    Object box(long value) {
        return value;
    }

    @Override
    String describeRange() {
        return "a 64-bit integer";
    }
}
