package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimestampCodecTest extends TypeCodecContract {
    private static final LocalDateTime FIRST = LocalDateTime.of(1, 1, 1, 0, 0);
    private static final LocalDateTime LAST = LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_000_000);

    @Override
    ColumnType type() {
        return ColumnType.timestamp(3);
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return TimestampCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(FIRST, LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000), LocalDateTime.of(1970, 1, 1, 0, 0),
                LocalDateTime.of(1998, 12, 1, 10, 11, 12, 345_000_000), LAST);
    }

    @Override
    List<Conversion> conversions() {
        LocalDateTime time = LocalDateTime.of(1998, 12, 1, 10, 11, 12, 345_000_000);
        return List.of(new Conversion(java.sql.Timestamp.valueOf(time), time), new Conversion("1998-12-01 10:11:12.345", time),
                new Conversion("1998-12-01T10:11:12.3454", time), new Conversion("1998-12-01T10:11:12.3455", time.plusNanos(1_000_000)),
                new Conversion(" 1998-12-01 ", LocalDate.of(1998, 12, 1).atStartOfDay()),
                new Conversion(LocalDate.of(1970, 1, 1), LocalDateTime.of(1970, 1, 1, 0, 0)),
                new Conversion("1969-12-31 23:59:59.9996", LocalDateTime.of(1970, 1, 1, 0, 0))); // rounds up across the epoch
    }

    @Override
    List<Object> rejected() {
        return List.of("9999-12-31 23:59:59.9995", LocalDateTime.of(0, 12, 31, 0, 0), "1998-12-01 25:00:00", 1000L);
    }

    @Override
    List<Object> invalidStored() {
        return List.of(Long.MAX_VALUE, Long.MIN_VALUE);
    }

    @Override
    Object randomValue(Random random) {
        long first = FIRST.toInstant(ZoneOffset.UTC).toEpochMilli();
        long last = LAST.toInstant(ZoneOffset.UTC).toEpochMilli();
        return TimestampCodec.wallClock(random.nextLong(first, last + 1));
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @Test
    void storesTheWallClockAsUtcMilliseconds() {
        assertThat(type().toLong(LocalDateTime.of(1970, 1, 1, 0, 0))).isZero();
        assertThat(type().toLong("1969-12-31 23:59:59.999")).isEqualTo(-1);
        assertThat(type().toLong("1998-12-01 10:11:12.345")).isEqualTo(912_507_072_345L);
    }

    @Test
    void roundsToItsPrecision() {
        ColumnType seconds = ColumnType.timestamp(0);
        assertThat(seconds.toJava(seconds.toLong("2024-05-05 10:11:12.5"))).isEqualTo(LocalDateTime.of(2024, 5, 5, 10, 11, 13));
        assertThat(seconds.toJava(seconds.toLong("2024-12-31 23:59:59.7"))).isEqualTo(LocalDateTime.of(2025, 1, 1, 0, 0));
        assertThat(ColumnType.timestamp(1).toLong("1970-01-01 00:00:00.04")).isZero();
        assertThat(ColumnType.timestamp(1).toLong("1970-01-01 00:00:00.05")).isEqualTo(100);
    }

    @Test
    void computedTimestampsAreCheckedAgainstItsYears() {
        long last = LAST.toInstant(ZoneOffset.UTC).toEpochMilli();
        assertThat(TimestampCodec.inRange(last)).isEqualTo(last);
        assertThatThrownBy(() -> TimestampCodec.inRange(last + 1)).isInstanceOf(DateTimeException.class)
                .hasMessageContaining("a TIMESTAMP holds the years 1 to 9999");
    }
}
