package io.numacol.storage.types;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimestampTzCodecTest extends TypeCodecContract {
    private static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999Z");
    private static final Instant NOON = Instant.parse("2024-01-01T12:00:00Z");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    @Override
    ColumnType type() {
        return ColumnType.timestampTz(3);
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return TimestampTzCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(FIRST, Instant.parse("1969-12-31T23:59:59.999Z"), Instant.EPOCH, NOON, LAST);
    }

    @Override
    List<Conversion> conversions() {
        return List.of(new Conversion("2024-01-01 12:00:00Z", NOON), new Conversion("2024-01-01T13:00:00+01", NOON),
                new Conversion("2024-01-01 17:30:00+0530", NOON), new Conversion("2024-01-01 06:30:00-05:30", NOON),
                new Conversion("2024-01-01 07:00:00 America/New_York", NOON), new Conversion("2024-01-01 12:00:00 UTC", NOON),
                new Conversion("2024-01-01 12:00:00", NOON), // no offset: UTC unless a zone is given
                new Conversion(OffsetDateTime.parse("2024-01-01T14:00:00+02:00"), NOON),
                new Conversion(ZonedDateTime.of(LocalDateTime.parse("2024-01-01T07:00:00"), NEW_YORK), NOON),
                new Conversion(java.sql.Timestamp.from(NOON), NOON), new Conversion(LocalDateTime.parse("2024-01-01T12:00:00"), NOON));
    }

    @Override
    List<Object> rejected() {
        return List.of("2024-01-01 12:00:00+25", "2024-01-01 12:00:00 Mars/Olympus", "noon", Instant.parse("+10000-01-01T00:00:00Z"), 42);
    }

    @Override
    List<Object> invalidStored() {
        return List.of(Long.MAX_VALUE);
    }

    @Override
    Object randomValue(Random random) {
        return Instant.ofEpochMilli(random.nextLong(FIRST.toEpochMilli(), LAST.toEpochMilli() + 1));
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @Test
    void readsWallClockTimesInTheGivenZoneAsDuckDbAndPostgreSqlDo() {
        ColumnType t = type();
        assertThat(t.toLong("2024-01-01 12:00:00Z")).as("epoch milliseconds").isEqualTo(1_704_110_400_000L);
        assertThat(t.toLong("2024-01-01 07:00:00", NEW_YORK)).isEqualTo(NOON.toEpochMilli());
        assertThat(t.toLong("2024-01-01", NEW_YORK)).isEqualTo(Instant.parse("2024-01-01T05:00:00Z").toEpochMilli());
        assertThat(t.toLong("2024-03-10 02:30:00", NEW_YORK)).as("the gap moves forward")
                .isEqualTo(Instant.parse("2024-03-10T07:30:00Z").toEpochMilli());
        assertThat(t.toLong("2024-11-03 01:30:00", NEW_YORK)).as("the overlap takes the later, standard time")
                .isEqualTo(Instant.parse("2024-11-03T06:30:00Z").toEpochMilli());
        assertThat(t.codec().valueOfText(t, "2024-01-01 07:00:00", NEW_YORK)).isEqualTo(NOON);
        assertThat(ColumnType.timestampTz(0).toLong(Instant.parse("2024-01-01T11:59:59.5Z"))).as("rounded half up")
                .isEqualTo(NOON.toEpochMilli());
        assertThatThrownBy(() -> t.toLong("noon", NEW_YORK)).hasMessageContaining("'noon' is not a valid TIMESTAMP WITH TIME ZONE")
                .hasMessageContaining("none for America/New_York");
        assertThatThrownBy(() -> t.toLong("2024-01-01 12:00:00+25")).hasMessageContaining("has no valid time zone: +25");
    }

    @Test
    void spellsTheZoneAfterThePrecision() {
        assertThat(ColumnType.timestampTz(2)).hasToString("TIMESTAMP(2) WITH TIME ZONE");
        assertThat(ColumnType.parse("TIMESTAMP WITH LOCAL TIME ZONE")).isEqualTo(ColumnType.timestampTz(3));
        assertThat(ColumnType.parse("timestamp(0) with time zone")).isEqualTo(ColumnType.timestampTz(0));
        assertThat(ColumnType.parse("TIMESTAMPTZ(1)")).isEqualTo(ColumnType.timestampTz(1));
        assertThat(type().codec().calciteTypeName()).isEqualTo("TIMESTAMP_WITH_LOCAL_TIME_ZONE");
    }
}
