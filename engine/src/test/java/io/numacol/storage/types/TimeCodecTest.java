package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.time.LocalTime;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimeCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.time(3);
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return TimeCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(LocalTime.MIDNIGHT, LocalTime.of(0, 0, 0, 1_000_000), LocalTime.of(1, 2), LocalTime.of(1, 2, 3, 457_000_000),
                LocalTime.of(23, 59, 59, 999_000_000));
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion("01:02", LocalTime.of(1, 2)),
                new Conversion(" 01:02:03.4567 ", LocalTime.of(1, 2, 3, 457_000_000)), // rounded half up
                new Conversion(java.sql.Time.valueOf("10:11:12"), LocalTime.of(10, 11, 12)),
                new Conversion(LocalTime.of(1, 2, 3, 456_400_000), LocalTime.of(1, 2, 3, 456_000_000)));
    }

    @Override
    List<Object> rejected() {
        return List.of("23:59:59.9996", "24:00", 12, "noon");
    }

    @Override
    List<Object> invalidStored() {
        return List.of(86_400_000L, -1L);
    }

    @Override
    Object randomValue(Random random) {
        return LocalTime.ofNanoOfDay(random.nextLong(86_400_000L) * 1_000_000L);
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @Test
    void roundsToItsPrecisionAndNotUpToMidnight() {
        assertThat(type().toLong("01:02:03.4567")).as("milliseconds of the day").isEqualTo(3_723_457L);
        assertThat(ColumnType.time(0).toLong("10:00:00.5")).isEqualTo(36_001_000L);
        assertThat(ColumnType.time(0).toLong("10:00:00.4999")).isEqualTo(36_000_000L);
        assertThatThrownBy(() -> type().toLong("23:59:59.9996")).hasMessageContaining("out of range for TIME(3)");
        assertThatThrownBy(() -> ColumnType.time(0).toLong("23:59:59.5")).hasMessageContaining("out of range for TIME(0)");
        assertThatThrownBy(() -> type().toLong("24:00")).hasMessageContaining("'24:00' is not a valid TIME");
    }
}
