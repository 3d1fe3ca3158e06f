package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.sql.JDBCType;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UuidCodecTest extends TypeCodecContract {
    private static final String CANONICAL = "123e4567-e89b-12d3-a456-426614174000";

    @Override
    ColumnType type() {
        return ColumnType.uuid();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return UuidCodec.class;
    }

    /** Unsigned order of the 128 bits: f000... after 1234..., though java.util.UUID's signed compareTo puts it first. */
    @Override
    List<Object> samples() {
        return List.of(new UUID(0, 0), UUID.fromString(CANONICAL), UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff"),
                UUID.fromString("f0000000-0000-0000-0000-000000000000"), new UUID(-1, -1));
    }

    @Override
    List<Conversion> conversions() {
        UUID u = UUID.fromString(CANONICAL);
        return List.of(new Conversion("123E4567-E89B-12D3-A456-426614174000", u), new Conversion("{123e4567e89b12d3a456426614174000}", u),
                new Conversion(" " + CANONICAL + " ", u));
    }

    @Override
    List<Object> rejected() {
        return List.of("1-1-1-1-1", "123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-42661417400g", "", 5);
    }

    @Override
    Object randomValue(Random random) {
        return new UUID(random.nextLong(), random.nextLong());
    }

    @Override
    Comparator<Object> sqlOrder() {
        return (a, b) -> {
            UUID x = (UUID) a;
            UUID y = (UUID) b;
            int high = Long.compareUnsigned(x.getMostSignificantBits(), y.getMostSignificantBits());
            return high != 0 ? high : Long.compareUnsigned(x.getLeastSignificantBits(), y.getLeastSignificantBits());
        };
    }

    @Test
    void storesItsLowercaseTextAndIsAnOtherToJdbc() {
        assertThat(type().toStringValue(UUID.fromString(CANONICAL))).isEqualTo(CANONICAL);
        assertThat(type().toStringValue(CANONICAL.toUpperCase(java.util.Locale.ROOT))).isEqualTo(CANONICAL);
        assertThatThrownBy(() -> type().toStringValue("1-1-1-1-1")).hasMessageContaining("is not a valid UUID");
        assertThat(type().codec().jdbcType()).isEqualTo(JDBCType.OTHER);
    }
}
